import Geodesy
import NMEA

/// What the odometer and the plausibility check need of a location: where, when, how sure
/// and how fast the receiver measured itself to be.
///
/// A few dozen bytes where a ``Location`` is several hundred with a satellite list to
/// retain: the track keeps the previous and the first point of every fix, and a log has
/// millions of fixes.
public struct TrackPoint: Sendable, Equatable {
  /// Degrees north, WGS84.
  public var latitude: Double
  /// Degrees east, WGS84.
  public var longitude: Double
  /// 1-sigma horizontal radius, metres; `nil` when unknown.
  public var horizontalAccuracy: Double?
  /// The speed the receiver measured (``Location/measuredSpeed``), metres per second.
  public var measuredSpeed: Double?
  /// The course over ground that came with ``measuredSpeed``, degrees from true north;
  /// `nil` when the receiver gave none (or the speed was derived from positions).
  public var measuredCourse: Double?
  /// The full UTC time; `nil` for a log without dates.
  public var timestamp: Timestamp?
  /// The receiver's UTC time of day.
  public var timeOfDay: TimeOfDay
  /// Whether the point has a time (``Location/hasTime``); one without is left out by the
  /// odometer and the plausibility check.
  public var hasTime = true

  /// A point at a position and time; nothing else known.
  public init(
    latitude: Double, longitude: Double, timeOfDay: TimeOfDay = TimeOfDay(microseconds: 0),
    timestamp: Timestamp? = nil
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.timeOfDay = timeOfDay
    self.timestamp = timestamp
  }

  /// The point of a location.
  public init(_ location: borrowing Location) {
    latitude = location.latitude
    longitude = location.longitude
    horizontalAccuracy = location.horizontalAccuracy
    measuredSpeed = location.measuredSpeed
    measuredCourse = location.measuredSpeed == nil ? nil : location.course
    timestamp = location.timestamp
    timeOfDay = location.timeOfDay
    hasTime = location.hasTime
  }

  /// The point of a fix, as ``Location/init(_:)`` would have it, without building the
  /// location; `nil` when the fix has no position.
  public init?(_ fix: borrowing Fix) {
    guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
    self.latitude = latitude
    self.longitude = longitude
    horizontalAccuracy = fix.horizontalAccuracy
    measuredSpeed = fix.speedSource == .positions ? nil : fix.speed
    measuredCourse = fix.speedSource == .positions ? nil : fix.course
    timestamp = fix.time
    timeOfDay = fix.timeOfDay
  }

  /// The distance in metres over the WGS84 ellipsoid to `other`, ignoring altitude.
  public func distance(from other: TrackPoint) -> Double {
    Geodesic.wgs84.distance(
      latitude1: other.latitude, longitude1: other.longitude, latitude2: latitude, longitude2: longitude)
  }
}

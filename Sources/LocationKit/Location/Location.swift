import Geodesy
import NMEA

/// Where the receiver was, when, and how sure it is: what a location manager delivers.
///
/// Mirrors Core Location's `CLLocation` with Swift optionals: a value the receiver did not
/// give is `nil` (Core Location's negative "invalid" numbers). Accuracies are 1-sigma
/// (about 68 %), in metres; see ``/NMEA/AccuracySource``.
public struct Location: Sendable, Equatable {
  // The eight-byte fields first, then the one-byte ones, so that none pads the ones
  // after it (as in `Fix`): a location is copied at each step from the source's thread
  // to the delegate's callback.

  /// Degrees north, WGS84.
  public var latitude: Double
  /// Degrees east, WGS84.
  public var longitude: Double
  /// The radius in metres of the circle the true position is likely inside; `nil` when
  /// the receiver gave nothing to estimate it from.
  @PackedDouble public var horizontalAccuracy: Double?
  /// The receiver's 1-sigma north–south error, metres, from its GST, when the
  /// ``horizontalAccuracy`` came from it; see ``axisAccuracies`` for either axis.
  @PackedDouble public var latitudeAccuracy: Double?
  /// The receiver's 1-sigma east–west error, metres, from its GST, likewise.
  @PackedDouble public var longitudeAccuracy: Double?
  /// Metres above mean sea level; `nil` for a 2D fix.
  @PackedDouble public var altitude: Double?
  /// Metres above the WGS84 ellipsoid (altitude plus geoid separation).
  @PackedDouble public var ellipsoidalAltitude: Double?
  /// 1-sigma altitude error in metres.
  @PackedDouble public var verticalAccuracy: Double?
  /// Metres per second over ground.
  @PackedDouble public var speed: Double?
  /// Degrees clockwise from true north.
  @PackedDouble public var course: Double?
  /// Vertical speed, metres per second.
  @PackedDouble public var climb: Double?
  /// When the receiver determined the fix (its UTC time, not when the line was read);
  /// `nil` for logs that carry no date at all, and without ``hasTime``.
  @PackedTimestamp public var timestamp: Timestamp?
  /// The receiver's UTC time of day; meaningless (midnight) without ``hasTime``.
  public var timeOfDay: TimeOfDay
  /// The dilutions of precision (position, horizontal, vertical) the receiver reported.
  public var dop: DilutionOfPrecision
  /// Satellites used in the fix; `nil` when the receiver does not say.
  @PackedInt public var satellitesUsed: Int?
  /// The satellites in view, with used flags.
  public var satellites: [SatelliteInfo]
  /// Degrees, east positive.
  @PackedDouble public var magneticVariation: Double?
  /// True heading in degrees, when the receiver has one (HDT).
  @PackedDouble public var heading: Double?
  /// The geoid's height above the WGS84 ellipsoid here, metres (``altitude`` plus this is
  /// ``ellipsoidalAltitude``); `nil` when neither the receiver nor a geoid model gives it.
  @PackedDouble public var geoidSeparation: Double?
  /// Seconds since the last differential correction; `nil` without corrections.
  @PackedDouble public var differentialAge: Double?
  /// The differential reference station's ID; `nil` when not given.
  @PackedInt public var differentialStation: Int?
  /// The device the fix came from, when the source has several (gpsd's `device`, such
  /// as `/dev/ttyUSB0`); `nil` for a source that is one receiver.
  public var device: String?
  /// Whether ``speed`` and ``course`` were measured by the receiver or derived from
  /// successive positions (``/NMEA/SpeedSource/positions``); `nil` when there are none.
  public var speedSource: SpeedSource?
  /// Whether the fix has a time at all. gpsd reports positions without one after it
  /// starts, until a receiver gives it the date, and for some receivers never: such a
  /// location says where, not when. It is delivered (it answers "where am I?"), but the
  /// odometer, the movement recogniser and the plausibility check leave it out, since
  /// they measure time between fixes, and it is never shown as midnight.
  public var hasTime = true
  /// The fix's dimension: 2D (no altitude) or 3D.
  public var mode: FixMode
  /// The GGA fix quality (GPS, DGPS, RTK fixed or float, dead reckoning, ...), or what the
  /// receiver's FAA mode says; `nil` when the receiver gives neither.
  public var quality: FixQuality?
  /// Where ``horizontalAccuracy`` and ``verticalAccuracy`` came from: the receiver's own
  /// statistics, or its dilution of precision times a stated error; `nil` without them.
  public var accuracySource: AccuracySource?
  /// Where ``geoidSeparation`` came from: the receiver, or the EGM96 model where the
  /// receiver gave none.
  public var geoidSource: GeoidSource?

  /// Creates a location at a position; everything else starts unknown.
  public init(
    latitude: Double, longitude: Double, timeOfDay: TimeOfDay = TimeOfDay(microseconds: 0), mode: FixMode = .twoD
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.timeOfDay = timeOfDay
    self.mode = mode
    dop = DilutionOfPrecision()
    satellites = []
  }

  /// The location of a fix, or `nil` when the fix has no position.
  public init?(_ fix: borrowing Fix) {
    guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
    self.init(latitude: latitude, longitude: longitude, timeOfDay: fix.timeOfDay, mode: fix.mode)
    horizontalAccuracy = fix.horizontalAccuracy
    if fix.accuracySource == .receiverStatistics, let statistics = fix.errorStatistics {
      latitudeAccuracy = statistics.latitude
      longitudeAccuracy = statistics.longitude
    }
    altitude = fix.mode == .threeD ? fix.altitudeMSL : nil
    ellipsoidalAltitude = fix.mode == .threeD ? fix.altitudeHAE : nil
    verticalAccuracy = altitude == nil ? nil : fix.verticalAccuracy
    speed = fix.speed
    course = fix.course
    speedSource = fix.speedSource
    climb = fix.climb
    timestamp = fix.time
    quality = fix.quality
    accuracySource = fix.accuracySource
    dop = fix.dop
    satellitesUsed = fix.satellitesUsed
    satellites = fix.satellites
    magneticVariation = fix.magneticVariation
    heading = fix.heading
    geoidSeparation = fix.geoidSeparation
    geoidSource = fix.geoidSource
    differentialAge = fix.differentialAge
    differentialStation = fix.differentialStation
  }

  /// The speed the receiver measured; `nil` when it gave none, or when ``speed`` was
  /// derived from positions (which measures the positions' noise at standstill, and so
  /// must not decide whether the receiver is moving).
  public var measuredSpeed: Double? { speedSource == .positions ? nil : speed }

  /// The distance in metres over the WGS84 ellipsoid to `other`, ignoring altitude.
  public func distance(from other: Location) -> Double {
    Geodesic.wgs84.distance(
      latitude1: other.latitude, longitude1: other.longitude, latitude2: latitude, longitude2: longitude)
  }
}

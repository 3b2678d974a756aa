import Geodesy
import LocationKit
import TrackExport

/// The anchor watch of `watch --anchor` and `print --anchor`: a circle of the swing radius
/// about the anchor, monitored as a region, and an alarm that latches when the boat is
/// outside it, until it is acknowledged.
///
/// Without a position the anchor is where the boat is at the first fix, so the radius
/// should allow for that fix's error as well as the chain's length.
struct AnchorWatch: Sendable {
  /// The region's identifier.
  static let identifier = "anchor"

  /// The swing radius, metres.
  let radius: Double
  /// Where the anchor is; `nil` until the first fix when none was given.
  private(set) var position: (latitude: Double, longitude: Double)?
  /// The boat's state with respect to the circle, as the monitor decided it.
  private(set) var state = RegionState.unknown
  /// The event that raised the alarm, while it is latched (not acknowledged).
  private(set) var alarm: RegionEvent?
  /// How many times the alarm was raised.
  private(set) var alarms = 0
  /// The latest estimated distance past the swing circle (negative inside) and the
  /// threshold, from the last region event.
  private(set) var lastEvent: RegionEvent?

  /// A watch of `radius` metres about `position`, or about the first fix.
  init(radius: Double, position: (latitude: Double, longitude: Double)?) {
    self.radius = radius
    self.position = position
  }

  /// The last state known (inside or outside), across unknown stretches.
  private var lastKnown: RegionState?

  /// Starts the watch on `manager`: the circle about the given position, or about the next
  /// fix (the manager places it as it handles that fix, so that no fix escapes it).
  func start(on manager: LocationManager) {
    if let position {
      if let region = try? Region(
        identifier: Self.identifier, latitude: position.latitude, longitude: position.longitude, radius: radius)
      {
        manager.startMonitoring(for: region)
      }
    } else {
      // The radius was checked when parsed.
      try? manager.startMonitoringCircle(identifier: Self.identifier, radius: radius)
    }
  }

  /// Learns where the anchor was dropped, from the manager's regions (once a fix has placed
  /// it); `true` just when it learns it.
  mutating func learnPosition(from manager: LocationManager) -> Bool {
    guard position == nil,
      case .circle(let latitude, let longitude, _) = manager.monitoredRegions.first(where: {
        $0.identifier == Self.identifier
      })?.shape
    else { return false }
    position = (latitude, longitude)
    return true
  }

  /// Takes in a region event; `true` when it raises the alarm now: the boat is outside
  /// and was not known to be before (a crossing, or the first decision already outside;
  /// not a fix lost and found outside again), and no alarm is latched.
  mutating func handle(_ event: RegionEvent) -> Bool {
    guard event.region.identifier == Self.identifier, !event.isRequested else { return false }
    if position == nil, case .circle(let latitude, let longitude, _) = event.region.shape {
      position = (latitude, longitude)
    }
    state = event.state
    lastEvent = event
    let before = lastKnown
    if event.state != .unknown { lastKnown = event.state }
    guard event.state == .outside, before != .outside, alarm == nil else { return false }
    alarm = event
    alarms += 1
    return true
  }

  /// Acknowledges the alarm: it stops sounding; a new crossing raises it again.
  mutating func acknowledge() {
    alarm = nil
  }

  /// The distance (metres) and bearing (degrees from true north) from `location` to the
  /// anchor; `nil` before it is dropped.
  func toAnchor(from location: Location) -> (distance: Double, bearing: Double)? {
    guard let position else { return nil }
    let line = Geodesic.wgs84.inverse(
      latitude1: location.latitude, longitude1: location.longitude, latitude2: position.latitude,
      longitude2: position.longitude)
    var bearing = line.initialAzimuth
    if bearing < 0 { bearing += 360 }
    return (line.distance, bearing)
  }

  /// The alarm's sentence: `ANCHOR ALARM 2025-06-14T07:43:00.000Z: 41.2 m from the anchor
  /// (swing radius 30 m), bearing 213° to it, at 52.514170,13.343080`.
  func alarmMessage(_ event: RegionEvent) -> String {
    guard let location = event.location, let to = toAnchor(from: location) else {
      return "ANCHOR ALARM: outside the swing radius of \(fixed(radius, 0)) m"
    }
    return "ANCHOR ALARM \(RegionLines.time(location)): \(fixed(to.distance, 1)) m from the anchor "
      + "(swing radius \(fixed(radius, 0)) m), bearing \(fixed(to.bearing, 0))° to it, at "
      + "\(fixed(location.latitude, 6)),\(fixed(location.longitude, 6))"
  }
}

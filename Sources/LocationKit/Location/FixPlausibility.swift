import Geodesy

#if canImport(Glibc)
  import Glibc
#endif

/// Why a fix was set aside as physically implausible.
public enum ImplausibleFix: String, Sendable, CaseIterable, CustomStringConvertible {
  /// Its time is before the previous fix's: within one source, time does not go back.
  case timeWentBackwards
  /// Reaching it from the previous fix needs more than ``FixPlausibility/speedLimit``.
  case tooFast

  public var description: String {
    switch self {
    case .timeWentBackwards: "time went backwards"
    case .tooFast: "too fast"
    }
  }
}

/// Sets aside fixes that cannot be right, before anything counts them: a fix whose time
/// is before the previous one's, and a jump faster than ``speedLimit`` from the previous
/// fix (the receiver's uncertainty allowed for). Such a fix is never delivered, never
/// reaches the odometer, and is counted by reason.
///
/// A receiver that really is somewhere else (a log whose first fix was the wild one, a
/// clock set back) is followed again after ``recoveryCount`` set-aside fixes in a row
/// that agree with each other: they become the new reference.
public struct FixPlausibility: Sendable {
  /// The fastest credible speed between two fixes, m/s: 515 m/s is 1,000 knots, the
  /// export-control limit above which civilian GNSS receivers stop reporting.
  public static let speedLimit = 515.0
  /// How many agreeing set-aside fixes in a row make a new reference.
  public static let recoveryCount = 3

  /// How many fixes were set aside, by reason.
  public private(set) var counts: [ImplausibleFix: Int] = [:]
  /// All set aside.
  public var total: Int { counts.values.reduce(0, +) }

  private var reference: Point?
  /// The set-aside fixes in a row, as few as the recovery needs.
  private var rejectedRun: [Point] = []

  /// What the check needs of a fix: where, when and how sure (not the whole location,
  /// which is copied for every fix).
  private struct Point: Sendable {
    var latitude: Double
    var longitude: Double
    var accuracy: Double
    var moment: TrackClock.Moment

    init(_ point: TrackPoint) {
      latitude = point.latitude
      longitude = point.longitude
      accuracy = point.horizontalAccuracy ?? 0
      moment = TrackClock.Moment(point)
    }
  }

  /// A check with no reference yet: the first fix it sees is plausible.
  public init() {}

  /// Checks the next fix: `nil` when it is plausible (and becomes the reference), else
  /// why not.
  public mutating func check(_ location: Location) -> ImplausibleFix? { check(TrackPoint(location)) }

  /// Checks the next fix, given as the part of it the check needs; the same answer as
  /// for its location.
  ///
  /// A point without a time (``TrackPoint/hasTime``) cannot be compared with another: it
  /// passes and does not become the reference.
  public mutating func check(_ trackPoint: TrackPoint) -> ImplausibleFix? {
    guard trackPoint.hasTime else { return nil }
    let point = Point(trackPoint)
    guard let reference else {
      self.reference = point
      return nil
    }
    guard let reason = Self.problem(point, after: reference) else {
      self.reference = point
      if !rejectedRun.isEmpty { rejectedRun = [] }
      return nil
    }
    // A run of set-aside fixes that agree among themselves: the receiver is there now.
    if let last = rejectedRun.last, Self.problem(point, after: last) == nil {
      rejectedRun.append(point)
      if rejectedRun.count >= Self.recoveryCount {
        self.reference = point
        rejectedRun = []
        return nil
      }
    } else {
      rejectedRun = [point]
    }
    counts[reason, default: 0] += 1
    return reason
  }

  /// Whether `point` is farther from `reference` than ``speedLimit`` allows in the time
  /// between, their accuracies taken into account: the test by which a fix is set aside
  /// as ``ImplausibleFix/tooFast``.
  static func isTooFast(_ point: TrackPoint, after reference: TrackPoint) -> Bool {
    problem(Point(point), after: Point(reference)) == .tooFast
  }

  private static func problem(_ point: Point, after reference: Point) -> ImplausibleFix? {
    // One dated and one not (a receiver's first fixes before it knows the date; gpsd's
    // reports without a time): their times cannot be compared.
    if (point.moment.timestamp == nil) != (reference.moment.timestamp == nil) { return nil }
    let elapsed = TrackClock.elapsed(from: reference.moment, to: point.moment)
    if elapsed < 0 { return .timeWentBackwards }
    let slack = 3 * (point.accuracy + reference.accuracy)
    // Two fixes of the same second: a jump of kilometres is still implausible.
    let allowed = speedLimit * max(elapsed, 1) + slack
    // Most steps are metres: a flat-earth bound (within 1 % of the geodesic at these
    // distances) settles them without the full geodesic.
    let metresPerDegree = 111_320.0
    let north = (point.latitude - reference.latitude) * metresPerDegree
    var east = abs(point.longitude - reference.longitude)
    if east > 180 { east = 360 - east }
    east *= metresPerDegree * cos(reference.latitude * .pi / 180)
    if (north * north + east * east).squareRoot() < 0.5 * allowed { return nil }
    let distance = Geodesic.wgs84.distance(
      latitude1: reference.latitude, longitude1: reference.longitude, latitude2: point.latitude,
      longitude2: point.longitude)
    return distance > allowed ? .tooFast : nil
  }
}

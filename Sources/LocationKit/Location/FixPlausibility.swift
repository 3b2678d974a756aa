import Foundation

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

  private var reference: Location?
  private var rejectedRun: [Location] = []

  public init() {}

  /// Checks the next fix: `nil` when it is plausible (and becomes the reference), else
  /// why not.
  public mutating func check(_ location: Location) -> ImplausibleFix? {
    guard let reference else {
      self.reference = location
      return nil
    }
    guard let reason = Self.problem(location, after: reference) else {
      self.reference = location
      rejectedRun = []
      return nil
    }
    // A run of set-aside fixes that agree among themselves: the receiver is there now.
    if let last = rejectedRun.last, Self.problem(location, after: last) == nil {
      rejectedRun.append(location)
      if rejectedRun.count >= Self.recoveryCount {
        self.reference = location
        rejectedRun = []
        return nil
      }
    } else {
      rejectedRun = [location]
    }
    counts[reason, default: 0] += 1
    return reason
  }

  private static func problem(_ location: Location, after reference: Location) -> ImplausibleFix? {
    // One dated and one not (a receiver's first fixes before it knows the date; gpsd's
    // reports without a time): their times cannot be compared.
    if (location.timestamp == nil) != (reference.timestamp == nil) { return nil }
    let elapsed = Trip.elapsed(from: reference, to: location)
    if elapsed < 0 { return .timeWentBackwards }
    let slack = 3 * ((location.horizontalAccuracy ?? 0) + (reference.horizontalAccuracy ?? 0))
    // Two fixes of the same second: a jump of kilometres is still implausible.
    let allowed = speedLimit * max(elapsed, 1) + slack
    // Most steps are metres: a flat-earth bound (within 1 % of the geodesic at these
    // distances) settles them without the full geodesic.
    let metresPerDegree = 111_320.0
    let north = (location.latitude - reference.latitude) * metresPerDegree
    var east = abs(location.longitude - reference.longitude)
    if east > 180 { east = 360 - east }
    east *= metresPerDegree * cos(reference.latitude * .pi / 180)
    if (north * north + east * east).squareRoot() < 0.5 * allowed { return nil }
    if location.distance(from: reference) > allowed { return .tooFast }
    return nil
  }
}

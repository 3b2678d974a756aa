/// The two filters of a location manager, as a value that anything delivering fixes can
/// apply the same way (the manager, and an export that must see every fix for its gaps).
///
/// A fix passes when its horizontal accuracy is known and no worse than
/// ``desiredAccuracy`` (unless that is ``LocationAccuracy/best``), and when it is at least
/// ``distanceFilter`` metres from the last fix that passed (unless that is
/// ``LocationDistance/none``).
public struct LocationFilter: Sendable {
  /// The worst horizontal accuracy (1-sigma metres) let through; 0 or less: any.
  public var desiredAccuracy: Double
  /// The least distance in metres from the last fix let through; 0 or less: any.
  public var distanceFilter: Double
  /// The last fix let through, which the next one's distance is measured from.
  public private(set) var lastAdmitted: Location?

  /// Filters with the given settings (by default, none).
  public init(desiredAccuracy: Double = LocationAccuracy.best, distanceFilter: Double = LocationDistance.none) {
    self.desiredAccuracy = desiredAccuracy
    self.distanceFilter = distanceFilter
  }

  /// Whether `location` passes; one that passes becomes ``lastAdmitted``.
  public mutating func admit(_ location: Location) -> Bool {
    guard passes(location) else { return false }
    lastAdmitted = location
    return true
  }

  /// Whether `location` passes; one that passes becomes ``lastAdmitted``, and the one it
  /// replaces is handed to `previous` (moved there, not copied: a manager delivers it
  /// with the update).
  public mutating func admit(_ location: Location, previous: inout Location?) -> Bool {
    guard passes(location) else { return false }
    previous = lastAdmitted.take()
    lastAdmitted = location
    return true
  }

  private func passes(_ location: Location) -> Bool {
    if desiredAccuracy > 0 {
      guard let accuracy = location.horizontalAccuracy, accuracy <= desiredAccuracy else { return false }
    }
    if distanceFilter > 0, let last = lastAdmitted, location.distance(from: last) < distanceFilter {
      return false
    }
    return true
  }

  /// Forgets the last fix let through: the next distance is measured from nothing.
  public mutating func reset() {
    lastAdmitted = nil
  }
}

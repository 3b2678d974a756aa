/// Distance travelled along a track, three ways.
///
/// A standing receiver's fixes wander by metres, so summing every step reports hundreds of
/// metres an hour for a device that never moved. ``distance`` counts movement only when it
/// is real:
///
/// - while the receiver's own (Doppler) speed is at least ``movingSpeed``, every step
///   counts: the receiver measures that it moves, independently of position noise;
/// - otherwise a step counts only once the position has left the uncertainty of the last
///   counted one: the distance from that anchor must exceed ``confidenceFactor`` times the
///   combined 1-sigma accuracy of both fixes (about 95 % that it is not noise), or
///   ``defaultAccuracy`` per fix when a fix carries no accuracy. Then the whole stretch
///   from the anchor counts, and the fix becomes the new anchor.
///
/// ``pathLength`` is the raw sum of every step, and ``displacement`` the straight
/// distance from the first fix (the classic WhereAmI "distance"). All are WGS84 geodesic
/// distances in metres, ignoring altitude.
public struct TrackOdometer: Sendable {
  /// The speed from which the receiver is taken to be moving, metres per second.
  public static let movingSpeed = 0.5
  /// How many combined sigmas a step must exceed to count while not moving.
  public static let confidenceFactor = 2.0
  /// The 1-sigma accuracy assumed for a fix that reports none, metres.
  public static let defaultAccuracy = 5.0

  /// Jitter-proof distance travelled, metres.
  public private(set) var distance = 0.0
  /// Raw geodesic path length: every step summed, metres.
  public private(set) var pathLength = 0.0
  /// Straight distance from the first fix to the latest, metres.
  public private(set) var displacement = 0.0

  private var first: Location?
  private var previous: Location?
  private var anchor: Location?

  /// Creates an odometer at zero.
  public init() {}

  /// Adds the next location of the track.
  public mutating func add(_ location: Location) {
    guard let first, let previous, let anchor else {
      self.first = location
      self.previous = location
      self.anchor = location
      return
    }
    pathLength += location.distance(from: previous)
    displacement = location.distance(from: first)
    self.previous = location
    let fromAnchor = location.distance(from: anchor)
    if let speed = location.speed, speed >= Self.movingSpeed {
      distance += fromAnchor
      self.anchor = location
      return
    }
    let anchorSigma = anchor.horizontalAccuracy ?? Self.defaultAccuracy
    let sigma = location.horizontalAccuracy ?? Self.defaultAccuracy
    let threshold = Self.confidenceFactor * (anchorSigma * anchorSigma + sigma * sigma).squareRoot()
    if fromAnchor > threshold {
      distance += fromAnchor
      self.anchor = location
    }
  }
}

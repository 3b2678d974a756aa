/// An ellipsoid of revolution, the reference surface on which geodesics are
/// measured.
///
/// Only two numbers are stored because every other parameter (semi-minor
/// axis, eccentricities, third flattening) follows from them, and storing
/// derived values separately would allow them to disagree.
public struct Ellipsoid: Sendable, Hashable {
  /// Equatorial radius in metres; all lengths scale with it.
  public let semiMajorAxis: Double

  /// Flattening f = (a − b)/a: positive for an oblate ellipsoid such as the
  /// Earth, negative for a prolate one. `Geodesic` truncates its series at
  /// sixth order, which is exact to round-off for Earth-like flattening
  /// (|f| ≲ 1/100); accuracy degrades gradually beyond |f| ≈ 1/50.
  public let flattening: Double

  /// Creates an ellipsoid; traps unless both semi-axes are positive and
  /// finite, since no geodesic computation is meaningful otherwise.
  public init(semiMajorAxis: Double, flattening: Double) {
    precondition(
      semiMajorAxis.isFinite && semiMajorAxis > 0,
      "semi-major axis must be positive and finite")
    precondition(
      flattening.isFinite && flattening < 1,
      "flattening must be finite and less than 1")
    self.semiMajorAxis = semiMajorAxis
    self.flattening = flattening
  }

  /// The World Geodetic System 1984 ellipsoid used by GPS, with its defining
  /// constants a = 6 378 137 m and 1/f = 298.257223563.
  public static let wgs84 = Ellipsoid(
    semiMajorAxis: 6_378_137, flattening: 1 / 298.257_223_563)

  /// Polar radius in metres, b = a(1 − f).
  public var semiMinorAxis: Double { semiMajorAxis * (1 - flattening) }
}

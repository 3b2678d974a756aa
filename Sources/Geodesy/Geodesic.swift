/// Geodesics (shortest paths) on an ellipsoid, solved with Karney's method
/// (C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55, 2013).
///
/// Karney's method is used instead of Vincenty's because it is accurate to
/// round-off (15 nm at worst) for every pair of points and always
/// converges, including for nearly antipodal points where Vincenty's
/// iteration fails.
///
/// Creating a value evaluates the ellipsoid-dependent constants once; the
/// solvers then allocate nothing, so a shared instance (usually `.wgs84`) can
/// be used from any thread for every fix.
///
/// Notation in the implementation follows the paper: β is reduced latitude,
/// α azimuth, σ arc length and ω longitude on the auxiliary sphere, and
/// `sbet1`/`cbet1` stand for sin β₁/cos β₁. Angles are carried as (sin, cos)
/// pairs (`SinCos`) wherever possible.
public struct Geodesic: Sendable {
  /// The ellipsoid the geodesics lie on.
  public let ellipsoid: Ellipsoid

  /// Semi-major axis a.
  let a: Double
  /// Flattening f.
  let f: Double
  /// 1 − f = b/a, which converts between geographic and reduced latitude.
  let f1: Double
  /// Second eccentricity squared, e′² = e²/(1 − e²).
  let ep2: Double
  /// Third flattening n = f/(2 − f), the expansion parameter for longitude.
  let n: Double
  /// Semi-minor axis b; lengths on the auxiliary sphere are in units of b.
  let b: Double
  /// Threshold on the spherical separation below which the short-line
  /// approximation is already exact to round-off.
  let shortLineThreshold: Double
  /// The ellipsoid-dependent part of the longitude series.
  let longitudeIntegral: LongitudeIntegral

  /// Prepares geodesic calculations on `ellipsoid`.
  public init(_ ellipsoid: Ellipsoid = .wgs84) {
    self.ellipsoid = ellipsoid
    a = ellipsoid.semiMajorAxis
    f = ellipsoid.flattening
    f1 = 1 - f
    let e2 = f * (2 - f)
    ep2 = e2 / (f1 * f1)
    n = f / (2 - f)
    b = a * f1
    // Below this separation, treating the geodesic as a great circle on a
    // sphere of the local mean radius is already within round-off.
    shortLineThreshold =
      0.1 * Tolerance.sqrtEpsilon
      / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
    longitudeIntegral = LongitudeIntegral(thirdFlattening: n)
  }

  /// Geodesics on the WGS84 ellipsoid, the datum of GPS positions.
  public static let wgs84 = Geodesic()
}

/// Numerical thresholds, shared by the inverse and direct solvers.
enum Tolerance {
  /// The smallest number whose square does not underflow, √(2⁻¹⁰²²); used in
  /// place of an exact zero cosine so that divisions at the poles stay
  /// finite and carry the right sign.
  static let tiny = 0x1p-511
  /// Machine epsilon.
  static let epsilon = Double.ulpOfOne
  /// √ε, the accuracy at which a quadratically converging iteration may
  /// stop.
  static let sqrtEpsilon = 0x1p-26
  /// A few hundred ulps: slack for quantities that are zero in exact
  /// arithmetic but pick up rounding error on the way.
  static let roundoff = 200 * epsilon
  /// How far inside the astroid's cusp region a starting guess may be
  /// taken from the simple (non-astroid) formula.
  static let astroidThreshold = 1000 * sqrtEpsilon
  /// Iterations of Newton's method before falling back to bisection.
  static let newtonIterations = 20
  /// Total iterations allowed: enough for bisection to exhaust all 53 bits
  /// after Newton's method has been abandoned.
  static let maximumIterations = newtonIterations + Double.significandBitCount + 11
}

extension Geodesic {
  /// The reduced (parametric) latitude β of geographic latitude `latitude`,
  /// as (sin β, cos β) with tan β = (1 − f) tan φ.
  ///
  /// cos β is clamped to a tiny positive value so that poles behave as the
  /// limit of approaching them along the given meridian.
  func reducedLatitude(_ latitude: Double) -> SinCos {
    let (s, c) = Angle.sinCos(degrees: latitude)
    let (sbet, cbet) = normalized(f1 * s, c)
    return (sbet, max(Tolerance.tiny, cbet))
  }

  /// The azimuth in degrees, in (−180°, 180°], for an azimuth given as
  /// (sin α, cos α); −180° is folded to 180° so that each direction has one
  /// representation, and −0° to 0°.
  static func azimuth(_ alpha: SinCos) -> Double {
    let degrees = Angle.atan2Degrees(alpha.sin, alpha.cos)
    return degrees == -180 ? 180 : degrees + 0
  }

  /// The series parameter ε for a geodesic with k² = e′² cos² α₀, written so
  /// that it is accurate for small k².
  static func expansionParameter(k2: Double) -> Double {
    k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
  }
}

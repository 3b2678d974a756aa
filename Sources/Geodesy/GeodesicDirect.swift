#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

/// The end of a geodesic of given length and initial azimuth, as found by
/// `Geodesic.direct(latitude:longitude:azimuth:distance:)`.
public struct GeodesicDirect: Sendable, Equatable {
  /// Latitude of the end point in degrees, in [−90°, 90°].
  public var latitude: Double

  /// Longitude of the end point in degrees, reduced to (−180°, 180°] however
  /// many times the geodesic circles the Earth.
  public var longitude: Double

  /// Direction of travel at the end point, degrees clockwise from north in
  /// (−180°, 180°]; it generally differs from the starting azimuth because
  /// a geodesic is not a line of constant bearing.
  public var finalAzimuth: Double

  /// Creates a result; mostly useful for tests and for callers that cache
  /// solutions.
  public init(latitude: Double, longitude: Double, finalAzimuth: Double) {
    self.latitude = latitude
    self.longitude = longitude
    self.finalAzimuth = finalAzimuth
  }
}

extension Geodesic {
  /// Solves the direct problem: where a geodesic that leaves a point in a
  /// given direction arrives after a given distance.
  ///
  /// The counterpart of `inverse(...)`, used for projecting positions ahead
  /// or laying out points at a distance. It is accurate to round-off
  /// (nanometres) for any distance, including lines that go more than once
  /// around the ellipsoid. Negative distances go backwards along the
  /// geodesic. A starting point at a pole is treated as the limit of
  /// approaching the pole along meridian `longitude`, which is what makes
  /// the azimuth meaningful there.
  ///
  /// - Parameters:
  ///   - latitude: Latitude of the start in degrees; outside [−90°, 90°]
  ///     gives NaN.
  ///   - longitude: Longitude of the start in degrees.
  ///   - azimuth: Initial direction in degrees clockwise from north.
  ///   - distance: Length of the geodesic in metres.
  public func direct(
    latitude: Double, longitude: Double, azimuth: Double, distance: Double
  ) -> GeodesicDirect {
    let (salp1, calp1) = Angle.sinCos(degrees: Angle.rounded(azimuth))
    let (sbet1, cbet1) = reducedLatitude(
      Angle.rounded(Angle.checkedLatitude(latitude)))

    // α₀, the azimuth where the geodesic crosses the equator, fixes the
    // geodesic's shape (Clairaut: sin α₀ = sin α cos β is constant).
    let salp0 = salp1 * cbet1
    let calp0 = hypot(calp1, salp1 * sbet1)

    // σ₁ and ω₁, measured from that crossing: tan σ₁ = tan β₁ / cos α₁ and
    // tan ω₁ = sin α₀ tan σ₁. A geodesic leaving the equator due east or
    // west is the equator itself, and σ₁ = 0 there by convention.
    let somg1 = salp0 * sbet1
    let comg1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
    let (ssig1, csig1) = normalized(sbet1, comg1)

    let k2 = calp0 * calp0 * ep2
    let eps = Geodesic.expansionParameter(k2: k2)

    // Convert the distance to arc length σ₁₂ on the auxiliary sphere. With
    // τ = s/(b A₁) the reverted series σ = τ + Σ C′₁ₗ sin 2lτ gives σ₂
    // directly, without iterating.
    let a1m1 = DistanceIntegral.a1Minus1(eps)
    let c1 = DistanceIntegral.c1(eps)
    let b11 = c1(sin: ssig1, cos: csig1)
    let (sb11, cb11) = (sin(b11), cos(b11))
    let stau1 = ssig1 * cb11 + csig1 * sb11
    let ctau1 = csig1 * cb11 - ssig1 * sb11

    var tau12 = distance / (b * (1 + a1m1))
    if !tau12.isFinite { tau12 = .nan }
    let (stau12, ctau12) = (sin(tau12), cos(tau12))
    let c1Inverse = DistanceIntegral.c1Inverse(eps)
    let b12 = -c1Inverse(
      sin: stau1 * ctau12 + ctau1 * stau12, cos: ctau1 * ctau12 - stau1 * stau12)
    var sig12 = tau12 - (b12 - b11)
    var (ssig12, csig12) = (sin(sig12), cos(sig12))
    if abs(f) > 0.01 {
      // The truncated reverted series loses accuracy for strongly flattened
      // ellipsoids; one Newton step on s(σ) restores it.
      let ssig2 = ssig1 * csig12 + csig1 * ssig12
      let csig2 = csig1 * csig12 - ssig1 * ssig12
      let b1AtEnd = c1(sin: ssig2, cos: csig2)
      let serr = (1 + a1m1) * (sig12 + (b1AtEnd - b11)) - distance / b
      sig12 -= serr / (1 + k2 * ssig2 * ssig2).squareRoot()
      (ssig12, csig12) = (sin(sig12), cos(sig12))
    }

    // σ₂ = σ₁ + σ₁₂, then back to latitude and azimuth via Clairaut.
    let ssig2 = ssig1 * csig12 + csig1 * ssig12
    var csig2 = csig1 * csig12 - ssig1 * ssig12
    let sbet2 = calp0 * ssig2
    var cbet2 = hypot(salp0, calp0 * csig2)
    if cbet2 == 0 {
      // Arrived exactly at a pole: keep a tiny positive cosine so that the
      // azimuth is the limit along the arrival meridian.
      cbet2 = Tolerance.tiny
      csig2 = Tolerance.tiny
    }
    let salp2 = salp0
    let calp2 = calp0 * csig2

    // ω₁₂ on the sphere, then the ellipsoidal correction λ₁₂ − ω₁₂.
    let somg2 = salp0 * ssig2
    let comg2 = csig2
    let omg12 = atan2(
      somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
    let c3 = longitudeIntegral.c3(eps)
    let a3c = -f * salp0 * longitudeIntegral.a3(eps)
    let lam12 =
      omg12
      + a3c * (sig12 + (c3(sin: ssig2, cos: csig2) - c3(sin: ssig1, cos: csig1)))
    let lon12 = lam12 * Angle.degreesPerRadian
    // Normalizing each term first keeps precision when the starting
    // longitude is large.
    var longitude2 = Angle.normalized(
      Angle.normalized(longitude) + Angle.normalized(lon12))
    if longitude2 == -180 { longitude2 = 180 }

    return GeodesicDirect(
      latitude: Angle.atan2Degrees(sbet2, f1 * cbet2),
      longitude: longitude2 + 0,
      finalAzimuth: Geodesic.azimuth((salp2, calp2)))
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

/// The shortest path between two points, as found by
/// `Geodesic.inverse(latitude1:longitude1:latitude2:longitude2:)`.
///
/// Azimuths are in degrees clockwise from north, in (−180°, 180°]. Where the
/// direction is not determined by the points (coincident points, or a point
/// at a pole), the values are the limits obtained by approaching the
/// given coordinates, which keeps results continuous in the inputs: a point
/// at a pole is treated as lying on its given meridian.
public struct GeodesicInverse: Sendable, Equatable {
  /// Length of the geodesic in metres; exactly 0 for coincident points.
  public var distance: Double

  /// Direction in which to leave the first point.
  public var initialAzimuth: Double

  /// Direction of travel on arrival at the second point. It differs from
  /// the initial azimuth because a geodesic is not a line of constant
  /// bearing; the bearing back to the first point is this plus 180°.
  public var finalAzimuth: Double

  /// Creates a result; mostly useful for tests and for callers that cache
  /// solutions.
  public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
    self.distance = distance
    self.initialAzimuth = initialAzimuth
    self.finalAzimuth = finalAzimuth
  }
}

extension Geodesic {
  /// Solves the inverse problem: the distance and the azimuths at both ends
  /// of the shortest path between two points.
  ///
  /// Accurate to round-off (about 15 nm at worst, and about 1e-12° in
  /// azimuth where the azimuth is well conditioned) for every pair of
  /// points, including nearly antipodal ones. Coordinates are in degrees; longitudes may be
  /// any finite value, and latitudes outside [−90°, 90°] give NaN.
  public func inverse(
    latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
  ) -> GeodesicInverse {
    let solution = solveInverse(latitude1, longitude1, latitude2, longitude2)
    return GeodesicInverse(
      distance: solution.distance,
      initialAzimuth: Geodesic.azimuth(solution.alpha1),
      finalAzimuth: Geodesic.azimuth(solution.alpha2))
  }

  /// The geodesic distance in metres between two points.
  ///
  /// Points within 0.2° of each other in latitude and longitude (a track's steps, and a
  /// track's displacement across a town) are measured along their chord, corrected for
  /// the geodesic's curvature, to within 0.1 µm of the full solution (5 nm within 0.1°;
  /// see `shortDistance`). Others are solved as by `inverse`:
  /// the azimuth is the unknown that the inverse problem iterates on, so that is the
  /// same work minus converting the azimuths to degrees, and exactly as accurate.
  public func distance(
    latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
  ) -> Double {
    if let short = shortDistance(latitude1, longitude1, latitude2, longitude2) { return short }
    return solveInverse(latitude1, longitude1, latitude2, longitude2).distance
  }

  /// The geodesic distance in metres between two points and the direction of travel on
  /// arrival at the second: along the chord for points within 0.05° of each other (see
  /// `shortDistanceAndFinalAzimuth`; the distance is then `distance`'s), by the full
  /// solution otherwise (within 0.1 µm of `distance`'s chord up to 0.2°). For a speed
  /// and course from successive positions.
  package func distanceAndFinalAzimuth(
    latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
  ) -> (distance: Double, finalAzimuth: Double) {
    if let short = shortDistanceAndFinalAzimuth(latitude1, longitude1, latitude2, longitude2) { return short }
    let line = inverse(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
    return (line.distance, line.finalAzimuth)
  }
}

/// Distance in metres and azimuths at both ends.
private struct InverseSolution {
  var distance: Double
  var alpha1: SinCos
  var alpha2: SinCos
}

/// The endpoints after reduction to canonical form (see `solveInverse`):
/// reduced latitudes β₁ ≤ 0 and β₁ ≤ β₂ ≤ −β₁, plus dnᵢ = √(1 + e′² sin² βᵢ).
private struct Endpoints {
  var sbet1, cbet1, dn1: Double
  var sbet2, cbet2, dn2: Double
}

/// Which lengths a call to `lengths` must produce; the Newton iteration
/// needs only the reduced length, the final answer only the distance.
private enum LengthOutputs {
  case distance, reducedLength, both
}

/// Distance s₁₂/b and reduced length m₁₂/b along a geodesic, and
/// m₀ = A₁ − A₂ (the reduced length's secular rate), each NaN unless
/// requested.
private struct ScaledLengths {
  var distance = Double.nan
  var reducedLength = Double.nan
  var m0 = Double.nan
}

/// How the search for the initial azimuth should begin.
private enum StartingEstimate {
  /// The points are so close that the great-circle solution on a sphere of
  /// the local radius (times `dnm`) is already exact.
  case shortLine(sig12: Double, alpha1: SinCos, alpha2: SinCos, dnm: Double)
  /// A guess for α₁, to be refined by Newton's method.
  case guess(alpha1: SinCos)
}

/// One evaluation of the longitude difference as a function of α₁: the
/// quantity whose zero Newton's method seeks, together with everything on
/// the trial geodesic that the final length computation reuses.
private struct LongitudeTrial {
  /// λ₁₂(α₁) minus the target longitude difference.
  var residual: Double
  /// dλ₁₂/dα₁, or NaN when not requested.
  var derivative: Double
  var alpha2: SinCos
  var sig12: Double
  var ssig1, csig1, ssig2, csig2: Double
  var eps: Double
}

extension Geodesic {
  private func solveInverse(
    _ latitude1: Double, _ longitude1: Double,
    _ latitude2: Double, _ longitude2: Double
  ) -> InverseSolution {
    // Reduce to a canonical configuration with 0 ≤ λ₁₂ ≤ 180°, φ₁ ≤ 0 and
    // φ₁ ≤ φ₂ ≤ −φ₁ by reflections and swapping the points. This cuts the
    // number of cases, and because the reflections are undone exactly at
    // the end, swapping the points or mirroring them gives results that are
    // exactly symmetric.
    var (lon12, lon12Error) = Angle.difference(from: longitude1, to: longitude2)
    var lonSign: Double = lon12.sign == .minus ? -1 : 1
    lon12 *= lonSign
    lon12Error *= lonSign
    let lam12 = lon12 * Angle.radiansPerDegree
    let (slam12, clam12) = Angle.sinCos(degrees: lon12, plus: lon12Error)
    // 180° − λ₁₂ to full precision, which decides whether the equator is
    // still the shortest path between two equatorial points.
    let lon12Supplement = (180 - lon12) - lon12Error

    var lat1 = Angle.rounded(Angle.checkedLatitude(latitude1))
    var lat2 = Angle.rounded(Angle.checkedLatitude(latitude2))
    let swapped = abs(lat1) < abs(lat2) || lat2.isNaN
    if swapped {
      lonSign = -lonSign
      swap(&lat1, &lat2)
    }
    let latSign: Double = lat1.sign == .minus ? 1 : -1
    lat1 *= latSign
    lat2 *= latSign

    let (sbet1, cbet1) = reducedLatitude(lat1)
    var (sbet2, cbet2) = reducedLatitude(lat2)
    // When |β₂| = |β₁| mathematically, force it exactly: `longitudeTrial`
    // measures |β₁| − |β₂| through whichever of cos β or sin β is better
    // conditioned, and rounding noise there would otherwise look like a
    // real difference.
    if cbet1 < -sbet1 {
      if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
    } else if abs(sbet2) == -sbet1 {
      cbet2 = cbet1
    }
    let points = Endpoints(
      sbet1: sbet1, cbet1: cbet1, dn1: (1 + ep2 * sbet1 * sbet1).squareRoot(),
      sbet2: sbet2, cbet2: cbet2, dn2: (1 + ep2 * sbet2 * sbet2).squareRoot())

    let solution =
      meridionalSolution(points, lat1: lat1, slam12: slam12, clam12: clam12)
      ?? equatorialSolution(points, lam12: lam12, lon12Supplement: lon12Supplement)
      ?? generalSolution(points, lam12: lam12, slam12: slam12, clam12: clam12)

    // Undo the canonical transformation.
    var (alpha1, alpha2) = (solution.alpha1, solution.alpha2)
    if swapped { swap(&alpha1, &alpha2) }
    let swapSign: Double = swapped ? -1 : 1
    alpha1.sin *= swapSign * lonSign
    alpha1.cos *= swapSign * latSign
    alpha2.sin *= swapSign * lonSign
    alpha2.cos *= swapSign * latSign
    // Adding to +0 turns a distance of −0 into 0.
    return InverseSolution(
      distance: 0 + solution.distance, alpha1: alpha1, alpha2: alpha2)
  }

  /// The solution along a meridian, when both points lie on one (same or
  /// opposite longitudes, or the first point at a pole). Nil if the
  /// meridian is not the shortest path, which can happen only on a prolate
  /// ellipsoid.
  private func meridionalSolution(
    _ p: Endpoints, lat1: Double, slam12: Double, clam12: Double
  ) -> InverseSolution? {
    guard lat1 == -90 || slam12 == 0 else { return nil }
    // Leave heading toward the second point's meridian (north over the pole
    // when the longitudes are opposite) and arrive heading north.
    let alpha1 = (sin: slam12, cos: clam12)
    let alpha2 = (sin: 0.0, cos: 1.0)
    // On a meridian σ is just β measured from the equator crossing:
    // tan β = tan σ cos α.
    let ssig1 = p.sbet1
    let csig1 = alpha1.cos * p.cbet1
    let ssig2 = p.sbet2
    let csig2 = alpha2.cos * p.cbet2
    let sig12 = atan2(
      max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
    // α₀ = 0 on a meridian, for which ε reduces to n.
    let lengths = self.lengths(
      eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: p.dn1,
      ssig2: ssig2, csig2: csig2, dn2: p.dn2, outputs: .both)
    // A negative reduced length means the path has passed a conjugate point
    // and is no longer shortest. Very short lines are exempt: their m₁₂ may
    // be rounding noise (e.g. for coincident points).
    guard sig12 < Tolerance.sqrtEpsilon || lengths.reducedLength >= 0 else {
      return nil
    }
    var distance = lengths.distance * b
    if sig12 < 3 * Tolerance.tiny
      || (sig12 < Tolerance.epsilon
        && (lengths.distance < 0 || lengths.reducedLength < 0))
    {
      // Coincident points, or so close that rounding made a length negative.
      distance = 0
    }
    return InverseSolution(distance: distance, alpha1: alpha1, alpha2: alpha2)
  }

  /// The solution along the equator, when both points are on it and the
  /// equatorial arc is still the shortest path. On an oblate ellipsoid the
  /// equator stops being shortest once λ₁₂ exceeds (1 − f)·180°, beyond
  /// which the geodesic leaves the equator.
  private func equatorialSolution(
    _ p: Endpoints, lam12: Double, lon12Supplement: Double
  ) -> InverseSolution? {
    // In canonical form |β₂| ≤ |β₁|, so β₁ = 0 puts both points on the equator.
    guard p.sbet1 == 0, f <= 0 || lon12Supplement >= f * 180 else {
      return nil
    }
    let east = (sin: 1.0, cos: 0.0)
    return InverseSolution(distance: a * lam12, alpha1: east, alpha2: east)
  }

  /// The general case: find α₁ such that the geodesic leaving point 1 at α₁
  /// passes through point 2, then integrate its length.
  private func generalSolution(
    _ p: Endpoints, lam12: Double, slam12: Double, clam12: Double
  ) -> InverseSolution {
    switch startingEstimate(p, lam12: lam12, slam12: slam12, clam12: clam12) {
    case .shortLine(let sig12, let alpha1, let alpha2, let dnm):
      return InverseSolution(
        distance: sig12 * b * dnm, alpha1: alpha1, alpha2: alpha2)
    case .guess(let guess):
      let (trial, alpha1) = solveForAzimuth(
        p, startingAt: guess, slam12: slam12, clam12: clam12)
      let lengths = self.lengths(
        eps: trial.eps, sig12: trial.sig12,
        ssig1: trial.ssig1, csig1: trial.csig1, dn1: p.dn1,
        ssig2: trial.ssig2, csig2: trial.csig2, dn2: p.dn2, outputs: .distance)
      return InverseSolution(
        distance: lengths.distance * b, alpha1: alpha1, alpha2: trial.alpha2)
    }
  }

  /// Finds α₁ with λ₁₂(α₁) equal to the target longitude difference.
  ///
  /// λ₁₂(α₁) − λ₁₂ has exactly one root in (0, π) and increases through it,
  /// so a bracket around the root is kept alongside Newton's method. Each
  /// evaluation shrinks the bracket, and whenever a Newton step would leave
  /// (0, π) or the slope is not positive the bracket's midpoint is used
  /// instead. For WGS84 Newton's method alone converges in a handful of
  /// steps; the bracket guarantees convergence for any flattening.
  private func solveForAzimuth(
    _ p: Endpoints, startingAt start: SinCos, slam12: Double, clam12: Double
  ) -> (trial: LongitudeTrial, alpha1: SinCos) {
    var (salp1, calp1) = start
    var iterations = 0
    // Set when Newton's method has reached ε-level residuals, where the
    // slope may vanish and quadratic convergence cannot be relied on.
    var nearlyConverged = false
    // Set when the bracket has collapsed to rounding level.
    var bracketCollapsed = false
    // λ₁₂ is too small at α₁ₐ and too large at α₁b.
    var (salp1a, calp1a) = (Tolerance.tiny, 1.0)
    var (salp1b, calp1b) = (Tolerance.tiny, -1.0)
    while true {
      let trial = longitudeTrial(
        p, alpha1: (salp1, calp1), slam12: slam12, clam12: clam12,
        withDerivative: iterations < Tolerance.newtonIterations)
      let v = trial.residual
      // Written with `!(… >= …)` so that a NaN residual stops the loop.
      if bracketCollapsed
        || !(abs(v) >= (nearlyConverged ? 8 : 1) * Tolerance.epsilon)
        || iterations == Tolerance.maximumIterations
      {
        return (trial, (salp1, calp1))
      }
      // Comparing cot α₁ orders azimuths in (0, π) without computing them.
      if v > 0
        && (iterations > Tolerance.newtonIterations
          || calp1 / salp1 > calp1b / salp1b)
      {
        (salp1b, calp1b) = (salp1, calp1)
      } else if v < 0
        && (iterations > Tolerance.newtonIterations
          || calp1 / salp1 < calp1a / salp1a)
      {
        (salp1a, calp1a) = (salp1, calp1)
      }
      iterations += 1

      if iterations < Tolerance.newtonIterations && trial.derivative > 0 {
        let dalp1 = -v / trial.derivative
        if abs(dalp1) < .pi {
          let (sdalp1, cdalp1) = (sin(dalp1), cos(dalp1))
          let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
          if nsalp1 > 0 {
            (salp1, calp1) = normalized(nsalp1, calp1 * cdalp1 - salp1 * sdalp1)
            nearlyConverged = abs(v) <= 16 * Tolerance.epsilon
            continue
          }
        }
      }
      (salp1, calp1) = normalized((salp1a + salp1b) / 2, (calp1a + calp1b) / 2)
      nearlyConverged = false
      bracketCollapsed =
        abs(salp1a - salp1) + (calp1a - calp1) < Tolerance.epsilon
        || abs(salp1 - salp1b) + (calp1 - calp1b) < Tolerance.epsilon
    }
  }

  /// Traces the geodesic leaving point 1 at azimuth α₁ to the latitude of
  /// point 2 and reports how far its longitude misses (the hybrid problem).
  private func longitudeTrial(
    _ p: Endpoints, alpha1: SinCos, slam12: Double, clam12: Double,
    withDerivative: Bool
  ) -> LongitudeTrial {
    let (sbet1, cbet1, sbet2, cbet2) = (p.sbet1, p.cbet1, p.sbet2, p.cbet2)
    let salp1 = alpha1.sin
    // Starting due north or south from the equator would make σ₁ and ω₁
    // indeterminate; nudging α₁ selects the limiting geodesic.
    let calp1 = sbet1 == 0 && alpha1.cos == 0 ? -Tolerance.tiny : alpha1.cos

    // α₀ is the azimuth at the equator crossing (Clairaut's constant).
    let salp0 = salp1 * cbet1
    let calp0 = hypot(calp1, salp1 * sbet1)

    // σ and ω measured from the equator crossing: tan β = tan σ cos α,
    // tan ω = sin α₀ tan σ.
    let somg1 = salp0 * sbet1
    let comg1 = calp1 * cbet1
    let (ssig1, csig1) = normalized(sbet1, comg1)

    // Clairaut gives sin α₂, and cos² α₂ cos² β₂ = cos² α₁ cos² β₁ +
    // (cos² β₂ − cos² β₁). The bracket is factored through cos β or sin β,
    // whichever differs more between the two points, so that it keeps its
    // accuracy near the equator and near the poles alike.
    let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
    let calp2: Double
    if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
      let cos2Difference =
        cbet1 < -sbet1
        ? (cbet2 - cbet1) * (cbet1 + cbet2)
        : (sbet1 - sbet2) * (sbet1 + sbet2)
      calp2 =
        ((calp1 * cbet1) * (calp1 * cbet1) + cos2Difference).squareRoot() / cbet2
    } else {
      // |β₂| = |β₁|: the geodesic arrives at the mirror latitude.
      calp2 = abs(calp1)
    }
    let somg2 = salp0 * sbet2
    let comg2 = calp2 * cbet2
    let (ssig2, csig2) = normalized(sbet2, comg2)

    // σ₁₂ and ω₁₂ are in [0, π]: clamp rounding noise that would make them
    // slightly negative.
    let sig12 = atan2(
      max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
    let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
    let comg12 = comg1 * comg2 + somg1 * somg2
    // η = ω₁₂ − λ₁₂(target), formed as one atan2 of a difference of angles
    // to keep full precision when the two nearly cancel.
    let eta = atan2(
      somg12 * clam12 - comg12 * slam12, comg12 * clam12 + somg12 * slam12)

    let eps = Geodesic.expansionParameter(k2: calp0 * calp0 * ep2)
    let c3 = longitudeIntegral.c3(eps)
    let b312 = c3(sin: ssig2, cos: csig2) - c3(sin: ssig1, cos: csig1)
    // λ − ω: the ellipsoidal correction to the sphere's longitude.
    let domg12 = -f * longitudeIntegral.a3(eps) * salp0 * (sig12 + b312)

    var derivative = Double.nan
    if withDerivative {
      if calp2 == 0 {
        // Arriving due east or west: the general formula is 0/0 and this
        // is its limit.
        derivative = -2 * f1 * p.dn1 / sbet1
      } else {
        // dλ₁₂/dα₁ = (1 − f) m₁₂ / (a cos α₂ cos β₂), with m₁₂ here in
        // units of b (Karney 2013).
        let lengths = self.lengths(
          eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: p.dn1,
          ssig2: ssig2, csig2: csig2, dn2: p.dn2, outputs: .reducedLength)
        derivative = lengths.reducedLength * f1 / (calp2 * cbet2)
      }
    }

    return LongitudeTrial(
      residual: eta + domg12, derivative: derivative,
      alpha2: (salp2, calp2), sig12: sig12,
      ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, eps: eps)
  }

  /// A starting azimuth for Newton's method, or the complete answer for
  /// short lines.
  ///
  /// Away from the antipode, the great-circle azimuth on a sphere is close
  /// enough for Newton's method. Near the antipode that guess is useless
  /// (every α₁ leads to nearly the same point), and the starting point comes
  /// from Karney's astroid approximation of the geodesics there instead.
  private func startingEstimate(
    _ p: Endpoints, lam12: Double, slam12: Double, clam12: Double
  ) -> StartingEstimate {
    let (sbet1, cbet1, sbet2, cbet2) = (p.sbet1, p.cbet1, p.sbet2, p.cbet2)
    // sin(β₂ − β₁), cos(β₂ − β₁) and sin(β₂ + β₁).
    let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
    let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
    let sbet12a = sbet2 * cbet1 + cbet2 * sbet1

    // For short lines, use a sphere whose radius is the ellipsoid's at the
    // mean reduced latitude, scaled by dnm.
    let isShort = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
    var somg12: Double
    var comg12: Double
    var dnm = Double.nan
    if isShort {
      var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
      sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
      dnm = (1 + ep2 * sbetm2).squareRoot()
      let omg12 = lam12 / (f1 * dnm)
      (somg12, comg12) = (sin(omg12), cos(omg12))
    } else {
      (somg12, comg12) = (slam12, clam12)
    }

    // Great-circle azimuth on the auxiliary sphere, written to avoid
    // cancellation whichever hemisphere ω₁₂ lies in.
    var salp1 = cbet2 * somg12
    var calp1 =
      comg12 >= 0
      ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
      : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)

    let ssig12 = hypot(salp1, calp1)
    let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

    if isShort && ssig12 < shortLineThreshold {
      let salp2 = cbet1 * somg12
      let calp2 =
        sbet12 - cbet1 * sbet2
        * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
      return .shortLine(
        sig12: atan2(ssig12, csig12),
        alpha1: normalizedAzimuth(salp1, calp1),
        alpha2: normalized(salp2, calp2), dnm: dnm)
    }

    let isNearlyAntipodal =
      abs(n) < 0.1 && csig12 < 0
      && ssig12 < 6 * abs(n) * .pi * cbet1 * cbet1
    if isNearlyAntipodal {
      // Scale the neighbourhood of the antipode so that the geodesics
      // through it map onto the astroid x²ᐟ³ + y²ᐟ³ = 1.
      let lam12x = atan2(-slam12, -clam12)  // λ₁₂ − π
      let x: Double
      let y: Double
      let lamScale: Double
      if f >= 0 {
        let eps = Geodesic.expansionParameter(k2: sbet1 * sbet1 * ep2)
        lamScale = f * cbet1 * longitudeIntegral.a3(eps) * .pi
        let betScale = lamScale * cbet1
        x = lam12x / lamScale
        y = sbet12a / betScale
      } else {
        // On a prolate ellipsoid the roles of x and y are exchanged, and
        // the scale comes from the meridian's reduced length.
        let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
        let bet12a = atan2(sbet12a, cbet12a)
        let meridian = lengths(
          eps: n, sig12: .pi + bet12a, ssig1: sbet1, csig1: -cbet1, dn1: p.dn1,
          ssig2: sbet2, csig2: cbet2, dn2: p.dn2, outputs: .reducedLength)
        x = -1 + meridian.reducedLength / (cbet1 * cbet2 * meridian.m0 * .pi)
        let betScale = x < -0.01 ? sbet12a / x : -f * cbet1 * cbet1 * .pi
        lamScale = betScale / cbet1
        y = lam12x / lamScale
      }

      if y > -Tolerance.roundoff && x > -1 - Tolerance.astroidThreshold {
        // Close to the line joining the astroid's cusps, where the
        // solution is known in closed form to adequate accuracy.
        if f >= 0 {
          salp1 = min(1, -x)
          calp1 = -(1 - salp1 * salp1).squareRoot()
        } else {
          calp1 = max(x > -Tolerance.roundoff ? 0 : -1, x)
          salp1 = (1 - calp1 * calp1).squareRoot()
        }
      } else {
        let k = Geodesic.astroid(x, y)
        let omg12a = lamScale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
        somg12 = sin(omg12a)
        comg12 = -cos(omg12a)
        // The great-circle azimuth again, for this corrected ω₁₂.
        salp1 = cbet2 * somg12
        calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
      }
    }
    return .guess(alpha1: normalizedAzimuth(salp1, calp1))
  }

  /// (sin α, cos α) normalized, falling back to due east when rounding has
  /// pushed sin α out of (0, 1], the range of α₁ in canonical form.
  private func normalizedAzimuth(_ salp: Double, _ calp: Double) -> SinCos {
    // Written with `!(… <= …)` so that NaN propagates instead of becoming east.
    !(salp <= 0) ? normalized(salp, calp) : (1, 0)
  }

  /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0,
  /// the equation of the astroid that approximates the envelope of
  /// geodesics from a point near its antipode.
  static func astroid(_ x: Double, _ y: Double) -> Double {
    let p = x * x
    let q = y * y
    let r = (p + q - 1) / 6
    guard !(q == 0 && r <= 0) else {
      // y = 0 with x inside the astroid: the root is k = 0.
      return 0
    }
    // Reduce the quartic to a cubic in u and take the real root, using the
    // formulation and branch that avoid cancellation.
    let s = p * q / 4
    let r2 = r * r
    let r3 = r * r2
    // Proportional to the cubic's discriminant: negative when it has three
    // real roots.
    let disc = s * (s + 2 * r3)
    var u = r
    if disc >= 0 {
      var t3 = s + r3
      // Add the square root with the sign of t3 to avoid cancellation.
      t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
      let t = cbrt(t3)
      u += t + (t != 0 ? r2 / t : 0)
    } else {
      // Three real roots: take the trigonometric form.
      let angle = atan2((-disc).squareRoot(), -(s + r3))
      u += 2 * r * cos(angle / 3)
    }
    let v = (u * u + q).squareRoot()
    // u + v without cancellation; positive either way.
    let uv = u < 0 ? q / (v - u) : u + v
    let w = (uv - q) / (2 * v)
    return uv / ((uv + w * w).squareRoot() + w)
  }

  /// Distance and reduced length along the geodesic with parameter `eps`
  /// between σ₁ and σ₂ (given as sines and cosines), in units of b.
  ///
  /// The reduced length is m₁₂ = b[dn₂ cos σ₁ sin σ₂ − dn₁ sin σ₁ cos σ₂
  /// − cos σ₁ cos σ₂ J₁₂], with J₁₂ = I₁ − I₂ evaluated as one combined
  /// series when the distance itself is not needed.
  private func lengths(
    eps: Double, sig12: Double,
    ssig1: Double, csig1: Double, dn1: Double,
    ssig2: Double, csig2: Double, dn2: Double,
    outputs: LengthOutputs
  ) -> ScaledLengths {
    var result = ScaledLengths()
    let a1m1 = DistanceIntegral.a1Minus1(eps)
    let c1 = DistanceIntegral.c1(eps)
    let b1: Double
    if outputs == .reducedLength {
      b1 = .nan
    } else {
      b1 = c1(sin: ssig2, cos: csig2) - c1(sin: ssig1, cos: csig1)
      result.distance = (1 + a1m1) * (sig12 + b1)
    }
    guard outputs != .distance else { return result }

    let a2m1 = ReducedLengthIntegral.a2Minus1(eps)
    let c2 = ReducedLengthIntegral.c2(eps)
    let m0 = a1m1 - a2m1
    let j12: Double
    if outputs == .both {
      let b2 = c2(sin: ssig2, cos: csig2) - c2(sin: ssig1, cos: csig1)
      j12 = m0 * sig12 + ((1 + a1m1) * b1 - (1 + a2m1) * b2)
    } else {
      let combined = (1 + a1m1) * c1 - (1 + a2m1) * c2
      j12 =
        m0 * sig12
        + (combined(sin: ssig2, cos: csig2) - combined(sin: ssig1, cos: csig1))
    }
    result.m0 = m0
    result.reducedLength =
      dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
    return result
  }
}

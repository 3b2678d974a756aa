// Series expansions from C. F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013), truncated at order 6.
//
// Every integral along a geodesic is expanded in ε = (√(1+k²) − 1)/(√(1+k²) + 1),
// with k = e′ cos α₀, and (for the longitude integral) in the third flattening
// n. For WGS84 ε ≤ n ≈ 0.0017, so the first neglected terms, O(ε⁷), are below
// 1e-19 relative: sixth order is the lowest that is exact to double precision.

/// A Fourier sine series Σₗ₌₁⁶ cₗ sin 2lσ.
///
/// The periodic parts of the distance, reduced-length and longitude integrals
/// (and of the inverse of the distance integral) all take this form, so one
/// fixed-size value type covers them without allocating.
struct SineSeries {
  var c1, c2, c3, c4, c5, c6: Double

  /// The series at σ, given sin σ and cos σ.
  ///
  /// Clenshaw's recurrence needs only cos 2σ and sin 2σ, which come from
  /// (sin σ, cos σ) without another call to `sin`/`cos`, and it is
  /// numerically stable.
  func callAsFunction(sin s: Double, cos c: Double) -> Double {
    let twoCos2Sigma = 2 * (c - s) * (c + s)
    let b6 = c6
    let b5 = twoCos2Sigma * b6 + c5
    let b4 = twoCos2Sigma * b5 - b6 + c4
    let b3 = twoCos2Sigma * b4 - b5 + c3
    let b2 = twoCos2Sigma * b3 - b4 + c2
    let b1 = twoCos2Sigma * b2 - b3 + c1
    return 2 * s * c * b1
  }

  /// Scales every coefficient, so that combinations of series (such as the
  /// one for the reduced length) cost a single evaluation.
  static func * (scale: Double, series: SineSeries) -> SineSeries {
    SineSeries(
      c1: scale * series.c1, c2: scale * series.c2, c3: scale * series.c3,
      c4: scale * series.c4, c5: scale * series.c5, c6: scale * series.c6)
  }

  /// Subtracts coefficient by coefficient.
  static func - (lhs: SineSeries, rhs: SineSeries) -> SineSeries {
    SineSeries(
      c1: lhs.c1 - rhs.c1, c2: lhs.c2 - rhs.c2, c3: lhs.c3 - rhs.c3,
      c4: lhs.c4 - rhs.c4, c5: lhs.c5 - rhs.c5, c6: lhs.c6 - rhs.c6)
  }
}

/// The distance integral I₁: s/b = A₁ (σ + B₁(σ)), with B₁ = Σ C₁ₗ sin 2lσ.
enum DistanceIntegral {
  /// A₁ − 1. Returning the difference from 1 keeps its
  /// precision when it is combined with other small terms.
  static func a1Minus1(_ eps: Double) -> Double {
    let eps2 = eps * eps
    let t = eps2 * (eps2 * (eps2 + 4) + 64) / 256
    return (t + eps) / (1 - eps)
  }

  /// C₁ₗ.
  static func c1(_ eps: Double) -> SineSeries {
    let eps2 = eps * eps
    let eps3 = eps2 * eps
    let eps4 = eps3 * eps
    return SineSeries(
      c1: eps * ((6 - eps2) * eps2 - 16) / 32,
      c2: eps2 * ((64 - 9 * eps2) * eps2 - 128) / 2048,
      c3: eps3 * (9 * eps2 - 16) / 768,
      c4: eps4 * (3 * eps2 - 5) / 512,
      c5: eps4 * eps * -7 / 1280,
      c6: eps4 * eps2 * -7 / 2048)
  }

  /// C′₁ₗ: the reversion of the series, which turns a
  /// distance into an arc length in the direct problem without iterating.
  static func c1Inverse(_ eps: Double) -> SineSeries {
    let eps2 = eps * eps
    let eps3 = eps2 * eps
    let eps4 = eps3 * eps
    return SineSeries(
      c1: eps * ((205 * eps2 - 432) * eps2 + 768) / 1536,
      c2: eps2 * ((4005 * eps2 - 4736) * eps2 + 3840) / 12288,
      c3: eps3 * (116 - 225 * eps2) / 384,
      c4: eps4 * (2695 - 7173 * eps2) / 7680,
      c5: eps4 * eps * 3467 / 7680,
      c6: eps4 * eps2 * 38081 / 61440)
  }
}

/// The reduced-length integral I₂, needed only for its difference from I₁,
/// J(σ) = I₁(σ) − I₂(σ), which gives the reduced length m₁₂: the derivative
/// that drives Newton's method in the inverse problem.
enum ReducedLengthIntegral {
  /// A₂ − 1.
  static func a2Minus1(_ eps: Double) -> Double {
    let eps2 = eps * eps
    let t = eps2 * (eps2 * (-11 * eps2 - 28) - 192) / 256
    return (t - eps) / (1 + eps)
  }

  /// C₂ₗ.
  static func c2(_ eps: Double) -> SineSeries {
    let eps2 = eps * eps
    let eps3 = eps2 * eps
    let eps4 = eps3 * eps
    return SineSeries(
      c1: eps * ((eps2 + 2) * eps2 + 16) / 32,
      c2: eps2 * ((35 * eps2 + 64) * eps2 + 384) / 2048,
      c3: eps3 * (15 * eps2 + 80) / 768,
      c4: eps4 * (7 * eps2 + 35) / 512,
      c5: eps4 * eps * 63 / 1280,
      c6: eps4 * eps2 * 77 / 2048)
  }
}

/// The longitude integral I₃: λ = ω − f sin α₀ A₃ (σ + B₃(σ)).
///
/// Its coefficients are polynomials in both ε and n; the n parts depend only
/// on the ellipsoid, so they are evaluated once here rather than per call.
struct LongitudeIntegral: Sendable {
  /// Coefficients of ε¹…ε⁵ in A₃ (its ε⁰ term is 1).
  private let a3: (Double, Double, Double, Double, Double)
  /// Coefficients of εˡ…ε⁵ in C₃ₗ, for l = 1…5.
  private let c31: (Double, Double, Double, Double, Double)
  private let c32: (Double, Double, Double, Double)
  private let c33: (Double, Double, Double)
  private let c34: (Double, Double)
  private let c35: Double

  /// Evaluates the n-polynomials of A₃ and C₃ₗ for third flattening `n`.
  init(thirdFlattening n: Double) {
    a3 = (
      (n - 1) / 2,
      ((3 * n - 1) * n - 2) / 8,
      ((-n - 3) * n - 1) / 16,
      (-2 * n - 3) / 64,
      -3.0 / 128
    )
    c31 = (
      (1 - n) / 4,
      (1 - n * n) / 8,
      ((3 - n) * n + 3) / 64,
      (2 * n + 5) / 128,
      3.0 / 128
    )
    c32 = (
      ((n - 3) * n + 2) / 32,
      ((-3 * n - 2) * n + 3) / 64,
      (n + 3) / 128,
      5.0 / 256
    )
    c33 = (
      ((5 * n - 9) * n + 5) / 192,
      (9 - 10 * n) / 384,
      7.0 / 512
    )
    c34 = (
      (7 - 14 * n) / 512,
      7.0 / 512
    )
    c35 = 21.0 / 2560
  }

  /// A₃(ε).
  func a3(_ eps: Double) -> Double {
    1 + eps * (a3.0 + eps * (a3.1 + eps * (a3.2 + eps * (a3.3 + eps * a3.4))))
  }

  /// C₃ₗ(ε), l = 1…5 (the sixth-order series has no sin 12σ term).
  func c3(_ eps: Double) -> SineSeries {
    let eps2 = eps * eps
    let eps3 = eps2 * eps
    let eps4 = eps3 * eps
    return SineSeries(
      c1: eps * (c31.0 + eps * (c31.1 + eps * (c31.2 + eps * (c31.3 + eps * c31.4)))),
      c2: eps2 * (c32.0 + eps * (c32.1 + eps * (c32.2 + eps * c32.3))),
      c3: eps3 * (c33.0 + eps * (c33.1 + eps * c33.2)),
      c4: eps4 * (c34.0 + eps * c34.1),
      c5: eps4 * eps * c35,
      c6: 0)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

/// An angle held as its sine and cosine. Karney's method carries angles in
/// this form because an angle near ±90° or ±180° cannot be recovered
/// accurately from a single trigonometric value.
typealias SinCos = (sin: Double, cos: Double)

/// Angle arithmetic in degrees that stays exact where it matters.
///
/// Inputs arrive in degrees, and π/180 is not representable, so converting
/// first and reducing afterwards would make sin 180° ≠ 0 and put poles and
/// meridians a few ulps off where the geodesic algorithms branch. Reducing
/// in degrees (where multiples of 90° are exact) keeps those cases exact.
enum Angle {
  /// Radians per degree.
  static let radiansPerDegree = Double.pi / 180

  /// Degrees per radian.
  static let degreesPerRadian = 180 / Double.pi

  /// Sine and cosine of `x` degrees with exact reduction to [-45°, 45°].
  static func sinCos(degrees x: Double) -> SinCos {
    guard x.isFinite else { return (.nan, .nan) }
    // fmod is exact, and so is subtracting a multiple of 90 from a value
    // already within [-360, 360].
    let r = x.truncatingRemainder(dividingBy: 360)
    let quadrant = (r / 90).rounded(.toNearestOrEven)
    return rotated(
      sinCos(radians: (r - 90 * quadrant) * radiansPerDegree),
      quadrant: Int(quadrant), signOfZero: x)
  }

  /// Sine and cosine of `x + t` degrees, where `x` is in [-180°, 180°] and
  /// `t` is the rounding error of `x` from an error-free subtraction.
  ///
  /// Carrying `t` separately keeps a longitude difference near 180° accurate
  /// beyond the resolution of a double near 180, which is what nearly
  /// antipodal points need.
  static func sinCos(degrees x: Double, plus t: Double) -> SinCos {
    guard x.isFinite else { return (.nan, .nan) }
    let quadrant = (x / 90).rounded(.toNearestOrEven)
    return rotated(
      sinCos(radians: rounded((x - 90 * quadrant) + t) * radiansPerDegree),
      quadrant: Int(quadrant), signOfZero: x)
  }

  /// `atan2` in degrees, reduced to the first octant first so that results
  /// such as 90° and 180° come out exact. The result is in [-180°, 180°].
  static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    var (y, x) = (y, x)
    var quadrant = 0
    if abs(y) > abs(x) {
      swap(&x, &y)
      quadrant = 2
    }
    if x < 0 {
      quadrant += 1
      x = -x
    }
    let angle = atan2(y, x) * degreesPerRadian
    switch quadrant {
    case 1: return Double(signOf: y, magnitudeOf: 180) - angle
    case 2: return 90 - angle
    case 3: return -90 + angle
    default: return angle
    }
  }

  /// `x` reduced to [-180°, 180°] exactly (IEEE remainder is exact); ±180°
  /// keeps the sign of `x` so that a direction is not silently flipped.
  static func normalized(_ x: Double) -> Double {
    let y = x.remainder(dividingBy: 360)
    return abs(y) == 180 ? Double(signOf: x, magnitudeOf: 180) : y
  }

  /// `y − x` reduced to [-180°, 180°], returned as a rounded difference plus
  /// its exact rounding error.
  ///
  /// Nearly antipodal points need the longitude difference to better than
  /// one ulp of 180°, so the error term is kept rather than discarded.
  static func difference(from x: Double, to y: Double) -> (
    difference: Double, error: Double
  ) {
    var (d, t) = twoSum(
      (-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
    (d, t) = twoSum(d.remainder(dividingBy: 360), t)
    if d == 0 || abs(d) == 180 {
      // Pick the sign from the part that was rounded away, so that the
      // direction of travel (east or west) survives.
      d = Double(signOf: t == 0 ? y - x : -t, magnitudeOf: d)
    }
    return (d, t)
  }

  /// Rounds tiny angles to a multiple of 2⁻⁵⁷ degrees (about 0.7 pm on the
  /// Earth) so that values like 1e-200° become 0 rather than creating
  /// nearly singular cases downstream; larger angles are unchanged.
  static func rounded(_ x: Double) -> Double {
    let z = 1.0 / 16
    var y = abs(x)
    if y < z {
      // Written as z − (z − y) on purpose: the subtraction is the rounding.
      y = z - (z - y)
    }
    return Double(signOf: x, magnitudeOf: y)
  }

  /// A latitude, or NaN when it lies outside [-90°, 90°], so bad input
  /// propagates as NaN instead of producing a plausible wrong answer.
  static func checkedLatitude(_ latitude: Double) -> Double {
    abs(latitude) > 90 ? .nan : latitude
  }

  /// Rotates (sin r, cos r) by `quadrant` quarter turns, which is exact.
  private static func rotated(
    _ sc: SinCos, quadrant: Int, signOfZero x: Double
  ) -> SinCos {
    let (s, c) = sc
    var result: SinCos
    switch quadrant & 3 {
    case 1: result = (c, -s)
    case 2: result = (-s, -c)
    case 3: result = (-c, s)
    default: result = (s, c)
    }
    // Adding +0 turns a cosine of −0 into +0; a zero sine takes the sign of
    // the argument so that sin(−0°) = −0 as with radians.
    result.cos += 0
    if result.sin == 0 {
      result.sin = Double(signOf: x, magnitudeOf: result.sin)
    }
    return result
  }

  private static func sinCos(radians r: Double) -> SinCos {
    (sin(r), cos(r))
  }
}

/// The sum `u + v` as its rounded value plus the exact rounding error
/// (Knuth's TwoSum), which lets angle differences carry extra precision.
func twoSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
  let s = u + v
  var up = s - v
  var vpp = s - up
  up -= u
  vpp -= v
  // A zero sum has no error, and this also keeps its sign.
  return (s, s == 0 ? s : 0 - (up + vpp))
}

/// The unit vector along (x, y), which turns an unnormalized (sin, cos)
/// pair into a `SinCos`.
func normalized(_ x: Double, _ y: Double) -> (Double, Double) {
  let r = hypot(x, y)
  return (x / r, y / r)
}

#if canImport(Glibc)
  import Glibc
#endif

/// The round lengths of scale bars: 1, 2 or 5 × 10ⁿ metres, the lengths a map reader
/// reads at a glance. The SVG export and the terminal's map both take theirs from here.
public enum RoundLength {
  /// The multiples of a power of ten that count as round.
  public static let steps: [Double] = [1, 2, 5]

  /// The round lengths in metres for the powers of ten in `exponents`, shortest first.
  public static func metres(exponents: ClosedRange<Int>) -> [Double] {
    exponents.flatMap { exponent in steps.map { $0 * power(exponent) } }
  }

  /// The longest round length in metres not over `limit` (1 m for a limit that is not a
  /// positive number).
  public static func metres(atMost limit: Double) -> Double {
    guard limit.isFinite, limit > 0 else { return 1 }
    var unit = pow(10, floor(log10(limit)))
    // log10 can land a hair under an exact power of ten.
    if unit * 10 <= limit { unit *= 10 }
    for multiple in steps.reversed() where multiple * unit <= limit { return multiple * unit }
    return unit
  }

  /// 10 to the power `exponent`, exactly for the small exponents of map scales.
  private static func power(_ exponent: Int) -> Double {
    var value = 1.0
    for _ in 0..<abs(exponent) { value *= 10 }
    return exponent < 0 ? 1 / value : value
  }
}

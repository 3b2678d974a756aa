/// Garmin `$PGRMZ`: altitude in whole feet, and the fix dimension.
///
/// ```
/// Format:  $PGRMZ,x,f,x*hh
/// Fields:         0 1 2
/// Example: $PGRMZ,246,f,3*1B
/// ```
///
/// The altitude is above mean sea level: it matches the same receiver's GGA altitude to
/// the foot. It is only used when a cycle has no GGA or GNS altitude.
public struct PGRMZ: Sendable, Equatable {
  /// Metres above mean sea level (the receiver's feet × 0.3048).
  public var altitude: Double?
  /// The fix dimension: 1 no fix, 2 two-dimensional, 3 three-dimensional.
  public var dimension: Int?

  /// Metres per international foot.
  public static let metresPerFoot = 0.3048

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 2, name: "altitude unit")
    let feet = try fields.decimal(0, "altitude", unit: UInt8(ascii: "f"), in: -100_000...1_000_000)
    altitude = feet.map { $0 * Self.metresPerFoot }
    dimension = try fields.integer(2, "fix dimension", in: 1...3)
  }
}

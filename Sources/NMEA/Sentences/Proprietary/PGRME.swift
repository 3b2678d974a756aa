/// Garmin `$PGRME`: the receiver's estimated position errors.
///
/// ```
/// Format:  $PGRME,x.x,M,x.x,M,x.x,M*hh
/// Fields:         0   1 2   3 4   5
/// Example: $PGRME,15.0,M,45.0,M,25.0,M*1C
/// ```
///
/// Garmin's NMEA manuals give no confidence level; its binary protocol documents the same
/// estimates (`D800_Pvt_Data_Type`'s `epe`, `eph`, `epv`) as 2-sigma, and that is how
/// they are read here: the 1-sigma values are the receiver's divided by ``sigmas``.
public struct PGRME: Sendable, Equatable {
  /// Estimated horizontal position error, metres, 2-sigma.
  public var horizontalError: Double?
  /// Estimated vertical position error, metres, 2-sigma.
  public var verticalError: Double?
  /// Estimated spherical position error, metres, 2-sigma.
  public var sphericalError: Double?

  /// How many sigmas Garmin's figures are: divide by this for 1-sigma.
  public static let sigmas = 2.0

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 1, name: "horizontal error")
    let metres = UInt8(ascii: "M")
    horizontalError = try fields.decimal(0, "horizontal error", unit: metres, in: 0...1e6)
    verticalError = try fields.decimal(2, "vertical error", unit: metres, in: 0...1e6)
    sphericalError = try fields.decimal(4, "spherical error", unit: metres, in: 0...1e6)
  }
}

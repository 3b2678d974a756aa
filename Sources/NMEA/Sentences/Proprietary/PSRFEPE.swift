/// SiRF `$PSRFEPE`: the receiver's estimated position and velocity errors.
///
/// ```
/// Format:  $PSRFEPE,hhmmss.sss,a,x.x,x.x,x.x,x.x,x.x*hh
/// Fields:           0          1 2   3   4   5   6
/// Example: $PSRFEPE,100542.000,A,0.7,6.82,10.69,0.0,180.0*24
/// ```
///
/// SiRF states no confidence level for these estimates; they are passed on as the
/// 1-sigma figures every other source gives, and they rank last among the receivers'
/// own estimates.
public struct PSRFEPE: Sendable, Equatable {
  /// UTC time of the estimates (field 0); `nil` when empty.
  public var time: TimeOfDay?
  /// `A` valid, `V` not: a `V` sentence's estimates are not used.
  public var isValid: Bool?
  /// Horizontal dilution of precision (field 2); `nil` when empty.
  public var hdop: Double?
  /// Estimated horizontal position error, metres.
  public var horizontalError: Double?
  /// Estimated vertical position error, metres.
  public var verticalError: Double?
  /// Estimated horizontal velocity error, metres per second.
  public var speedError: Double?
  /// Estimated heading error, degrees.
  public var headingError: Double?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 2, name: "status")
    time = try fields.time(0)
    isValid = try fields.character(1, "status", oneOf: "AV").map { $0 == UInt8(ascii: "A") }
    hdop = try fields.decimal(2, "HDOP", in: 0...100_000)
    horizontalError = try fields.decimal(3, "horizontal error", in: 0...1e6)
    verticalError = try fields.decimal(4, "vertical error", in: 0...1e6)
    speedError = try fields.decimal(5, "speed error", in: 0...1e6)
    headingError = try fields.decimal(6, "heading error", in: 0...360)
  }
}

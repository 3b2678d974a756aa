/// THS: true heading with its mode (NMEA 3.0 and later, replacing HDT).
///
/// ```
/// Format:  $--THS,x.x,a*hh
/// Fields:         0   1
/// Example: $GNTHS,244.28,A*11
/// ```
///
/// Mode `A` autonomous, `E` estimated (dead reckoning), `M` manual input, `S` simulator,
/// `V` not valid: a `V` sentence has no heading.
public struct THS: Sendable, Equatable {
  /// The talker that sent the sentence (`HE` gyro, `HC` compass, `GN`, …).
  public var talker: Talker
  /// Degrees from true north; `nil` when the mode says the heading is not valid.
  public var heading: Double?
  /// The mode letter as an ASCII byte (field 1: `A`, `E`, `M`, `S` or `V`); `nil` when
  /// empty.
  public var mode: UInt8?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 1, name: "heading")
    self.talker = talker
    mode = try fields.character(1, "mode", oneOf: "AEMSV")
    let value = try fields.decimal(0, "heading", in: 0...360)
    heading = mode == UInt8(ascii: "V") ? nil : value
  }
}

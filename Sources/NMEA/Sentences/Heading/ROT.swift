/// ROT: rate of turn.
///
/// ```
/// Format:  $--ROT,x.x,A*hh
/// Fields:         0   1
/// Example: $HEROT,-12.5,A*2B
/// ```
///
/// Degrees per minute; negative when the bow turns to port. Status `A` valid, `V` not: a
/// `V` sentence has no rate.
public struct ROT: Sendable, Equatable {
  /// The talker that sent the sentence (`HE` gyro, `HC` compass, `GN`, …).
  public var talker: Talker
  /// Degrees per minute, positive turning to starboard.
  public var rate: Double?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 1, name: "rate of turn")
    self.talker = talker
    let value = try fields.decimal(0, "rate of turn", in: -100_000...100_000)
    let status = try fields.character(1, "status", oneOf: "AV")
    rate = status == UInt8(ascii: "V") ? nil : value
  }
}

/// HDT: true heading, from a gyro compass or a dual-antenna receiver.
///
/// ```
/// Format:  $--HDT,x.x,T*hh
/// Fields:         0   1
/// Example: $HEHDT,274.07,T*03
/// ```
public struct HDT: Sendable, Equatable {
  /// The talker that sent the sentence (`HE` gyro, `HC` compass, `GN`, …).
  public var talker: Talker
  /// Degrees from true north.
  public var heading: Double?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 1, name: "heading")
    self.talker = talker
    heading = try fields.decimal(0, "heading", in: 0...360)
    if fields.has(1), try fields.character(1, "heading reference", oneOf: "T") == nil {
      throw FieldError(index: 1, name: "heading reference", problem: .outOfRange)
    }
  }
}

/// HDM: magnetic heading.
///
/// ```
/// Format:  $--HDM,x.x,M*hh
/// Fields:         0   1
/// Example: $APHDM,218.634,M*39
/// ```
public struct HDM: Sendable, Equatable {
  /// The talker that sent the sentence (`HE` gyro, `HC` compass, `GN`, …).
  public var talker: Talker
  /// Degrees from magnetic north.
  public var heading: Double?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 1, name: "heading")
    self.talker = talker
    heading = try fields.decimal(0, "heading", in: 0...360)
    if fields.has(1), try fields.character(1, "heading reference", oneOf: "M") == nil {
      throw FieldError(index: 1, name: "heading reference", problem: .outOfRange)
    }
  }
}

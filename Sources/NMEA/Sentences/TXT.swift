/// TXT: a text message from the receiver (antenna status, firmware version, ...).
///
/// ```
/// Format:  $--TXT,xx,xx,xx,c--c*hh
/// Fields:         0  1  2  3
/// Example: $GPTXT,01,01,02,ANTSTATUS=OK*3B
/// ```
public struct TXT: Sendable, Equatable {
  public var talker: Talker
  public var messageCount: Int?
  public var messageNumber: Int?
  /// The message type (u-blox: 0 error, 1 warning, 2 notice, 7 user).
  public var identifier: Int?
  public var text: String

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 4, name: "text")
    self.talker = talker
    messageCount = try fields.integer(0, "number of messages", in: 0...99)
    messageNumber = try fields.integer(1, "message number", in: 0...99)
    identifier = try fields.integer(2, "text identifier", in: 0...99)
    // The text may itself contain commas: it runs to the end of the sentence.
    let start = fields.raw(3).baseAddress! - fields.bytes.baseAddress!
    text = String(decoding: fields.bytes[start...], as: UTF8.self)
  }
}

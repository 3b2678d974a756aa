/// TXT: a text message from the receiver (antenna status, firmware version, ...).
///
/// ```
/// Format:  $--TXT,xx,xx,xx,c--c*hh
/// Fields:         0  1  2  3
/// Example: $GPTXT,01,01,02,ANTSTATUS=OK*3B
/// ```
public struct TXT: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// How many TXT sentences make up the message (field 0), 0–99; `nil` when empty.
  public var messageCount: Int?
  /// This sentence's number within the message (field 1), 0–99; `nil` when empty.
  public var messageNumber: Int?
  /// The message type (u-blox: 0 error, 1 warning, 2 notice, 7 user).
  public var identifier: Int?
  /// The text (field 3 to the checksum, commas included); empty when the field is.
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

/// Why a line or a sentence was skipped.
///
/// Every skipped piece of input is counted under exactly one reason, so that a log's
/// damage can be accounted for and nothing disappears silently.
public enum RejectionReason: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
  /// A `*HH` checksum was present and did not match the sentence.
  case badChecksum
  /// No checksum, while checksums are required (strict mode).
  case missingChecksum
  /// The sentence was longer than accepted: a sentence with a two-letter talker past
  /// ``SentenceFramer/maximumStandardLength`` characters, any other (`$P…`) past
  /// ``SentenceFramer/maximumLength`` (see ``SentenceFramer``), and one of a type the
  /// decoder reads (`$PUBX,00`, `$PASHR`, ...) past 255, longer than such a type can be.
  case tooLong
  /// A byte outside printable ASCII appeared inside a sentence.
  case nonPrintable
  /// The sentence was cut short: a new `$` or `!`, or the end of the input, came before its end.
  case truncated
  /// Framing was fine but a field could not be read or held an impossible value.
  case malformedFields
  /// Text on a line that is neither a sentence nor a `#` comment.
  case notASentence

  /// A short human-readable name, as used in summaries and error messages.
  public var description: String {
    switch self {
    case .badChecksum: "bad checksum"
    case .missingChecksum: "missing checksum"
    case .tooLong: "too long"
    case .nonPrintable: "non-printable byte"
    case .truncated: "truncated"
    case .malformedFields: "malformed fields"
    case .notASentence: "not a sentence"
    }
  }

  /// A stable identifier for machine-readable output.
  public var key: String {
    switch self {
    case .badChecksum: "badChecksum"
    case .missingChecksum: "missingChecksum"
    case .tooLong: "tooLong"
    case .nonPrintable: "nonPrintable"
    case .truncated: "truncated"
    case .malformedFields: "malformedFields"
    case .notASentence: "notASentence"
    }
  }
}

/// One sentence cut out of the byte stream, checksum verified, not yet interpreted.
///
/// `bytes` runs from the start delimiter (`$` or `!`) up to, but not including, the `*`
/// of the checksum (or the end of the line when there was none). The storage belongs to
/// the framer and is only valid while the callback that received it runs.
public struct FramedSentence {
  /// The sentence text from its start delimiter up to its checksum delimiter.
  public let bytes: UnsafeBufferPointer<UInt8>
  /// Whether a `*HH` checksum was present (it always matched: bad ones are rejected).
  public let hasChecksum: Bool
  /// The 1-based line of the input where the sentence started.
  public let line: Int
  /// Where the framer found the sentence's field separators, when it found them while
  /// checking the sentence (see ``FieldSplit``); `nil` leaves the split to the reader.
  let split: FieldSplit?

  init(bytes: UnsafeBufferPointer<UInt8>, hasChecksum: Bool, line: Int, split: FieldSplit? = nil) {
    self.bytes = bytes
    self.hasChecksum = hasChecksum
    self.line = line
    self.split = split
  }

  /// The sentence text as a `String`, for messages and tests; not for hot paths.
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// The offsets of a sentence's commas, found in the framer's pass over its bytes, so that
/// the field reader need not pass over them again: `ends[i]` ends field i − 1 (i = 0
/// ends the address) and `ends[count]` the last field, as ``FieldReader`` keeps them.
/// Borrowed storage, valid while the sentence is.
struct FieldSplit {
  let ends: UnsafePointer<UInt8>
  /// The number of fields after the address, at most ``FieldReader/maximumFields``.
  let count: Int
}

/// What the framer found in the byte stream.
public enum FramingEvent {
  /// A sentence with a good (or, outside strict mode, absent) checksum.
  case sentence(FramedSentence)
  /// A `#` comment line; the bytes follow the `#` (gpsd's logs carry `# Date:` lines).
  case comment(UnsafeBufferPointer<UInt8>, line: Int)
  /// Input that was skipped, with the line it started on and, for a framed sentence, its
  /// text and checksums.
  case rejected(RejectionReason, line: Int, detail: RejectionDetail? = nil)
}

/// What a rejected sentence said, for messages (`-v`): its text (up to 120 characters,
/// non-printable bytes as `?`) and, for a bad checksum, the one it stated and the one its
/// bytes give.
///
/// A class, so that an event that carries none stays as small as it was: only `-v`
/// (``SentenceFramer/detailsRejections``) makes them.
public final class RejectionDetail: Sendable, Equatable {
  /// The sentence from its delimiter up to its checksum, at most 120 characters (then `…`),
  /// with non-printable bytes shown as `?`.
  public let text: String
  /// The checksum the sentence stated after its `*`; `nil` unless the checksum was bad.
  public let statedChecksum: UInt8?
  /// The checksum the sentence's bytes give; `nil` unless the checksum was bad.
  public let computedChecksum: UInt8?

  public static func == (a: RejectionDetail, b: RejectionDetail) -> Bool {
    a.text == b.text && a.statedChecksum == b.statedChecksum && a.computedChecksum == b.computedChecksum
  }

  /// The most bytes ``text`` holds: 120 characters and an ellipsis.
  package static let longestText = 120 + 3

  /// Keeps the sentence `bytes` as ``text`` (cut and cleaned) and, for a bad checksum, the
  /// `stated` and `computed` checksums.
  public init(_ bytes: UnsafeBufferPointer<UInt8>, stated: UInt8? = nil, computed: UInt8? = nil) {
    let shown = bytes.prefix(120).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }
    text = String(decoding: shown, as: UTF8.self) + (bytes.count > 120 ? "…" : "")
    statedChecksum = stated
    computedChecksum = computed
  }
}

/// Cuts NMEA 0183 sentences out of an arbitrary byte stream.
///
/// The framer is a byte-at-a-time state machine, so any chunking of the input gives the
/// same events, and it holds at most ``maximumLength`` bytes whatever it is fed: a
/// gigabyte without a newline costs no memory. It accepts CR, LF and CRLF line ends,
/// finds `$` and `!` sentences, splits sentences glued together without a newline (a
/// sentence is complete at its `*HH` checksum), resynchronises on the next `$` or `!`
/// after garbage, and reports `#` comment lines.
///
/// Length limits: a sentence with a two-letter talker may be at most
/// ``maximumStandardLength`` characters from `$` to the last checksum digit (gpsd's
/// limit; the standard says 82). Proprietary (`$P…`) and other non-standard sentences are
/// vendor-defined and may reach ``maximumLength`` (gpsd passes such sentences of 203
/// characters).
public struct SentenceFramer {
  /// The longest talker sentence accepted, `$` to checksum inclusive.
  public static let maximumStandardLength = 102
  /// The longest sentence of any kind accepted, `$` to checksum inclusive.
  public static let maximumLength = 255
  /// The most bytes of a comment line that are kept; the rest is skipped.
  static let maximumCommentLength = 200

  private enum State {
    /// Between sentences: at the start of a line, or after a complete sentence.
    case idle
    /// Inside a sentence, before any `*`.
    case body
    /// After `*`, waiting for the first and second checksum digit.
    case checksumHigh
    case checksumLow
    /// In text that is not a sentence; `counted` once it holds more than white space.
    case junk
    /// Skipping the rest of a rejected sentence, until a line end or a new start.
    case skipping
    /// Inside a `#` comment line.
    case comment
  }

  /// Rejects sentences that carry no checksum instead of accepting them as unchecked.
  public var requiresChecksum: Bool

  private var state = State.idle
  private var buffer: [UInt8]
  private var runningChecksum: UInt8 = 0
  private var expectedChecksum: UInt8 = 0
  private var junkIsVisible = false
  private var atLineStart = true
  private var previousWasCR = false
  private var currentLine = 1
  private var sentenceLine = 1

  /// Creates a framer; with `requiresChecksum`, sentences without `*HH` are rejected.
  public init(requiresChecksum: Bool = false) {
    self.requiresChecksum = requiresChecksum
    buffer = []
    buffer.reserveCapacity(Self.maximumLength + 1)
  }

  /// A framer that owns no storage, to stand in while the real one is lent out.
  static var placeholder: SentenceFramer { SentenceFramer(buffer: []) }

  private init(buffer: [UInt8]) {
    requiresChecksum = false
    self.buffer = buffer
  }

  /// The capacity of the line buffer: constant whatever the input (tests check it).
  var bufferedByteCapacity: Int { buffer.capacity }

  /// The 1-based number of the line being read.
  public var line: Int { currentLine }

  /// Feeds bytes; `handle` is called for every event they complete, in input order.
  public mutating func consume(
    _ bytes: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Void
  ) {
    for byte in bytes { step(byte, handle) }
  }

  /// Feeds bytes; `handle` is called for every event they complete, in input order.
  public mutating func consume<Bytes: Sequence<UInt8>>(
    _ bytes: Bytes, _ handle: (FramingEvent) -> Void
  ) {
    for byte in bytes { step(byte, handle) }
  }

  /// Ends the input: a sentence still open is complete if it has no checksum pending,
  /// otherwise truncated.
  public mutating func finish(_ handle: (FramingEvent) -> Void) {
    if !atLineStart { endOfLine(handle) }
    state = .idle
  }

  @inline(__always)
  private mutating func step(_ byte: UInt8, _ handle: (FramingEvent) -> Void) {
    switch byte {
    case UInt8(ascii: "\r"):
      endOfLine(handle)
      previousWasCR = true
      return
    case UInt8(ascii: "\n"):
      if !previousWasCR { endOfLine(handle) }
      previousWasCR = false
      return
    default:
      previousWasCR = false
    }

    switch state {
    case .body:
      if byte == UInt8(ascii: "*") {
        state = .checksumHigh
      } else if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") {
        handle(.rejected(.truncated, line: sentenceLine))
        start(byte)
      } else if byte < 0x20 || byte > 0x7E {
        reject(.nonPrintable, handle)
      } else if buffer.count >= Self.maximumLength {
        reject(.tooLong, handle)
      } else {
        buffer.append(byte)
        runningChecksum ^= byte
      }
    case .checksumHigh, .checksumLow:
      guard let digit = hexValue(byte) else {
        if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") {
          handle(.rejected(.truncated, line: sentenceLine))
          start(byte)
        } else {
          reject(byte < 0x20 || byte > 0x7E ? .nonPrintable : .badChecksum, handle)
        }
        return
      }
      if state == .checksumHigh {
        expectedChecksum = digit << 4
        state = .checksumLow
      } else {
        expectedChecksum |= digit
        complete(hasChecksum: true, handle)
      }
    case .idle, .junk, .skipping:
      if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") {
        endJunk(handle)
        start(byte)
      } else if byte == UInt8(ascii: "#") && atLineStart && state == .idle {
        state = .comment
        buffer.removeAll(keepingCapacity: true)
        sentenceLine = currentLine
      } else if state != .skipping {
        if state == .idle {
          state = .junk
          junkIsVisible = false
          sentenceLine = currentLine
        }
        if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { junkIsVisible = true }
      }
    case .comment:
      if buffer.count < Self.maximumCommentLength { buffer.append(byte) }
    }
    atLineStart = false
  }

  private mutating func start(_ delimiter: UInt8) {
    state = .body
    buffer.removeAll(keepingCapacity: true)
    buffer.append(delimiter)
    runningChecksum = 0
    sentenceLine = currentLine
    atLineStart = false
  }

  private mutating func reject(_ reason: RejectionReason, _ handle: (FramingEvent) -> Void) {
    handle(.rejected(reason, line: sentenceLine))
    state = .skipping
  }

  private mutating func endJunk(_ handle: (FramingEvent) -> Void) {
    if state == .junk && junkIsVisible {
      handle(.rejected(.notASentence, line: sentenceLine))
    }
    state = .idle
  }

  private mutating func endOfLine(_ handle: (FramingEvent) -> Void) {
    switch state {
    case .body:
      if buffer.count <= 1 {
        handle(.rejected(.truncated, line: sentenceLine))
      } else if requiresChecksum {
        handle(.rejected(.missingChecksum, line: sentenceLine))
      } else {
        complete(hasChecksum: false, handle)
      }
    case .checksumHigh, .checksumLow:
      handle(.rejected(.truncated, line: sentenceLine))
    case .junk:
      endJunk(handle)
    case .comment:
      buffer.withUnsafeBufferPointer { handle(.comment($0, line: sentenceLine)) }
    case .idle, .skipping:
      break
    }
    state = .idle
    atLineStart = true
    currentLine += 1
  }

  private mutating func complete(hasChecksum: Bool, _ handle: (FramingEvent) -> Void) {
    state = .idle
    if hasChecksum && expectedChecksum != runningChecksum {
      handle(.rejected(.badChecksum, line: sentenceLine))
      return
    }
    if buffer.count <= 1 {
      handle(.rejected(.truncated, line: sentenceLine))
      return
    }
    if buffer.count + (hasChecksum ? 3 : 0) > Self.maximumStandardLength && hasTalkerAddress {
      handle(.rejected(.tooLong, line: sentenceLine))
      return
    }
    let line = sentenceLine
    buffer.withUnsafeBufferPointer {
      handle(.sentence(FramedSentence(bytes: $0, hasChecksum: hasChecksum, line: line)))
    }
  }

  /// A standard address: five upper-case letters or digits after the delimiter, not `P…`.
  private var hasTalkerAddress: Bool {
    guard buffer.count >= 7, buffer[1] != UInt8(ascii: "P") else { return false }
    return buffer[6] == UInt8(ascii: ",")
  }
}

@inline(__always)
func hexValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
  default: nil
  }
}

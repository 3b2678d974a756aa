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
/// vendor-defined and may reach ``maximumLength``: gpsd passes such sentences of 203
/// characters, and u-blox's `$PUBX,03` (a satellite status line, about 20 characters a
/// satellite) reaches 378 characters with 17 satellites and some 1,500 with the 72 a
/// receiver may track.
public struct SentenceFramer {
  /// The longest talker sentence accepted, `$` to checksum inclusive.
  public static let maximumStandardLength = 102
  /// The longest sentence of any kind accepted, `$` to checksum inclusive: room for a
  /// `$PUBX,03` listing every satellite a receiver tracks.
  public static let maximumLength = 2048
  /// The longest sentence whose field boundaries the framer notes while it checks the
  /// sentence (they are kept as bytes). A longer one, necessarily not a talker sentence,
  /// is framed by the state machine and its address read by the field reader; a sentence
  /// type this package decodes is never that long, and one that is is rejected as too
  /// long by the decoder.
  static let maximumSplitLength = 255
  /// The most bytes of a comment line that are kept; the rest is skipped.
  static let maximumCommentLength = 200

  private enum State: Equatable {
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
  /// Gives rejected sentences their text and checksums (``RejectionDetail``), for
  /// messages; off, a rejection allocates nothing.
  public var detailsRejections = false

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

  /// Whether a sentence has begun and not yet ended (its next bytes are still to come).
  public var isInsideSentence: Bool {
    switch state {
    case .body, .checksumHigh, .checksumLow: true
    case .idle, .junk, .skipping, .comment: false
    }
  }

  /// The 1-based number of the line being read.
  public var line: Int { currentLine }

  /// Whether this framer will frame whatever follows exactly as `other` will, line numbers
  /// apart: the same state, the same half-read bytes, the same settings.
  package func continuesLike(_ other: SentenceFramer) -> Bool {
    guard state == other.state, atLineStart == other.atLineStart, previousWasCR == other.previousWasCR,
      requiresChecksum == other.requiresChecksum, detailsRejections == other.detailsRejections
    else { return false }
    // What is left of the last sentence or junk matters only while one is being read.
    switch state {
    case .idle, .skipping:
      return true
    case .junk:
      return junkIsVisible == other.junkIsVisible && sameStartLine(other)
    case .body, .checksumHigh:
      return buffer == other.buffer && runningChecksum == other.runningChecksum && sameStartLine(other)
    case .comment:
      // A comment has no checksum: what is left in the running one is the last sentence
      // the state machine framed, which depends on where the pieces were cut (a sentence
      // lying whole in a piece is summed where it lies).
      return buffer == other.buffer && sameStartLine(other)
    case .checksumLow:
      return buffer == other.buffer && runningChecksum == other.runningChecksum
        && expectedChecksum == other.expectedChecksum && sameStartLine(other)
    }
  }

  private func sameStartLine(_ other: SentenceFramer) -> Bool {
    currentLine - sentenceLine == other.currentLine - other.sentenceLine
  }

  /// Renumbers the lines: a framer that started inside a file learns where it was.
  package mutating func shiftLines(by offset: Int) {
    currentLine += offset
    sentenceLine += offset
  }

  /// Feeds bytes; `handle` is called for every event they complete, in input order.
  public mutating func consume(
    _ bytes: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Void
  ) {
    bytes.withMemoryRebound(to: UInt8.self) { consume(contiguous: $0, handle) }
  }

  /// Feeds bytes; `handle` is called for every event they complete, in input order.
  public mutating func consume<Bytes: Sequence<UInt8>>(
    _ bytes: Bytes, _ handle: (FramingEvent) -> Void
  ) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { consume(contiguous: $0, handle) }
    if done == nil {
      for byte in bytes { step(byte, handle) }
    }
  }

  /// The byte-at-a-time state machine, except that a sentence lying whole in `input` is
  /// checked and handed out where it lies, without a copy: that is nearly every sentence
  /// of a file read in large chunks. Anything unusual in it (a missing checksum, a
  /// control byte, the chunk's end) leaves it to the state machine, which gives the
  /// same events for it.
  private mutating func consume(contiguous input: UnsafeBufferPointer<UInt8>, _ handle: (FramingEvent) -> Void) {
    // The comma offsets of the sentence in hand: room for one at every byte of the
    // longest, so that no comma needs a check, and for the eight that a word's commas
    // are written as.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumSplitLength + 1 + 8) { ends in
      Self.commaPositions.withUnsafeBufferPointer { commaPositions in
        let positions = commaPositions.baseAddress!
        var index = 0
        while index < input.count {
          let byte = input[index]
          if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!"),
            state == .idle || state == .junk || state == .skipping
          {
            previousWasCR = false
            endJunk(handle)
            if let next = completeInPlace(input, start: index, ends: ends.baseAddress!, positions, handle) {
              index = next
              // The line end that follows nearly every sentence, as the state machine would
              // take it: a CR LF, or an LF, ends an idle line.
              if index < input.count, input[index] == UInt8(ascii: "\n") {
                endIdleLine()
                index += 1
              } else if index + 1 < input.count, input[index] == UInt8(ascii: "\r"),
                input[index + 1] == UInt8(ascii: "\n")
              {
                endIdleLine()
                index += 2
              }
              continue
            }
            start(byte)
          } else {
            step(byte, handle)
          }
          index += 1
        }
      }
    }
  }

  /// Frames the sentence starting at `input[start]` (its delimiter) if it lies whole in
  /// `input`, is printable and ends in a `*HH` checksum; returns the index after the
  /// checksum, or `nil` (with nothing changed) to leave it to the state machine.
  ///
  /// The pass that checks the bytes and sums the checksum also notes where the commas
  /// are, in `ends` (``FieldSplit``): the field reader then need not pass over the
  /// sentence again.
  @inline(__always)
  private mutating func completeInPlace(
    _ input: UnsafeBufferPointer<UInt8>, start: Int, ends: UnsafeMutablePointer<UInt8>,
    _ positions: UnsafePointer<UInt64>, _ handle: (FramingEvent) -> Void
  ) -> Int? {
    // A sentence longer than the offsets can say is left to the state machine.
    let bodyLimit = min(input.count, start + Self.maximumSplitLength)
    let base = UnsafeRawPointer(input.baseAddress!)
    var index = start + 1
    var checksum: UInt8 = 0
    var words: UInt64 = 0
    var commas = 0
    scanning: while true {
      // Eight bytes at a time while they are all in 0x2B...0x7E: digits, letters, `,.-`;
      // none of them ends the body or makes it unusual. The XOR of the words folds into
      // the checksum at the end.
      while index &+ 8 <= bodyLimit {
        let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let below = (word &- 0x2B2B_2B2B_2B2B_2B2B) & ~word
        let above = (word &+ 0x0101_0101_0101_0101) | word
        let unusual = (below | above) & 0x8080_8080_8080_8080
        if unusual == 0 {
          words ^= word
          Self.noteCommas(word, ends, &commas, at: index &- start, positions)
          index &+= 8
          continue
        }
        // The lowest flagged byte is exact (borrows and carries only run upwards); the
        // bytes below it count like a whole word's.
        let usual = (1 &<< UInt64(unusual.trailingZeroBitCount &- 7)) &- 1
        words ^= word & usual
        Self.noteCommas(word & usual, ends, &commas, at: index &- start, positions)
        // The unusual byte: the checksum delimiter ends the body; a space or another
        // printable byte below 0x2B is a body byte like any; anything else is left to the
        // state machine.
        index &+= unusual.trailingZeroBitCount >> 3
        let byte = input[index]
        if byte == UInt8(ascii: "*") { break scanning }
        guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "$"), byte != UInt8(ascii: "!") else { return nil }
        checksum ^= byte
        index &+= 1
      }
      // The last few bytes before the limit, one by one.
      while index < bodyLimit {
        let byte = input[index]
        if byte == UInt8(ascii: "*") { break scanning }
        // Control bytes (line ends included), bytes over 0x7E and a new start are unusual.
        guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "$"), byte != UInt8(ascii: "!") else { return nil }
        checksum ^= byte
        if byte == UInt8(ascii: ",") {
          ends[commas] = UInt8(truncatingIfNeeded: index &- start)
          commas &+= 1
        }
        index &+= 1
      }
      // Only the checksum delimiter may follow a full sentence.
      guard index < input.count, input[index] == UInt8(ascii: "*") else { return nil }
      break
    }
    words ^= words >> 32
    words ^= words >> 16
    words ^= words >> 8
    checksum ^= UInt8(truncatingIfNeeded: words)
    guard index + 2 < input.count, let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
    else { return nil }
    sentenceLine = currentLine
    atLineStart = false
    state = .idle
    let sentence = UnsafeBufferPointer(rebasing: input[start..<index])
    // As the reader splits: up to its most fields, the last one ended by the next comma
    // or the sentence's end.
    let fields = min(commas, FieldReader.maximumFields)
    if commas <= FieldReader.maximumFields { ends[commas] = UInt8(truncatingIfNeeded: sentence.count) }
    deliver(
      sentence, checksums: (high << 4 | low, checksum), split: FieldSplit(ends: ends, count: fields), handle)
    return index + 3
  }

  /// Notes the offsets of the commas among a word's eight bytes, the word starting
  /// `offset` bytes into the sentence, without a branch per comma: a comma is a zero byte
  /// of the word XOR ",,,,,,,,"; the eight flags gather into one byte, whose entry in
  /// ``commaPositions`` is written whole, and the count moves on by the entry's count.
  ///
  /// Every byte of `word` is below 0x80 (the checked bytes are 0x2B...0x7E, the others
  /// masked to 0): each byte of the XOR is then at most 0x7F, and adding 0x7F sets its
  /// top bit unless it is zero, without a carry into the next byte.
  @inline(__always)
  private static func noteCommas(
    _ word: UInt64, _ ends: UnsafeMutablePointer<UInt8>, _ commas: inout Int, at offset: Int,
    _ positions: UnsafePointer<UInt64>
  ) {
    let found = ~((word ^ 0x2C2C_2C2C_2C2C_2C2C) &+ 0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080
    // Bits 7, 15, ... 63 to bits 0...7 of the top byte.
    let flags = Int(truncatingIfNeeded: ((found >> 7) &* 0x0102_0408_1020_4080) >> 56)
    // Offsets stay below 256 (``maximumSplitLength``), so no byte carries into the next.
    let offsets = positions[2 &* flags] &+ UInt64(truncatingIfNeeded: offset) &* 0x0101_0101_0101_0101
    UnsafeMutableRawPointer(ends + commas).storeBytes(of: offsets.littleEndian, as: UInt64.self)
    commas &+= Int(truncatingIfNeeded: positions[2 &* flags &+ 1])
  }

  /// For each set of eight comma flags (bit `n` for byte `n` of a word), two entries: the
  /// positions of the commas in order, one per byte from the lowest (the bytes past them
  /// zero), and how many there are.
  private static let commaPositions: [UInt64] = (0..<256).flatMap { flags in
    var positions: UInt64 = 0
    var count: UInt64 = 0
    for position in 0..<8 where flags >> position & 1 != 0 {
      positions |= UInt64(position) << (8 * count)
      count += 1
    }
    return [positions, count]
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

  /// ``endOfLine(_:)`` after a complete sentence (nothing to report), and the line end's
  /// last byte taken.
  @inline(__always)
  private mutating func endIdleLine() {
    state = .idle
    atLineStart = true
    previousWasCR = false
    currentLine += 1
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
    let checksums = hasChecksum ? (expectedChecksum, runningChecksum) : nil
    buffer.withUnsafeBufferPointer { deliver($0, checksums: checksums, handle) }
  }

  /// Hands out a complete sentence (delimiter to checksum delimiter), or the reason it
  /// cannot be used.
  @inline(__always)
  private func deliver(
    _ sentence: UnsafeBufferPointer<UInt8>, checksums: (stated: UInt8, computed: UInt8)?, split: FieldSplit? = nil,
    _ handle: (FramingEvent) -> Void
  ) {
    let hasChecksum = checksums != nil
    if let checksums, checksums.stated != checksums.computed {
      handle(
        .rejected(
          .badChecksum, line: sentenceLine,
          detail: detail(sentence, stated: checksums.stated, computed: checksums.computed)))
    } else if sentence.count <= 1 {
      handle(.rejected(.truncated, line: sentenceLine))
    } else if !Self.hasWellFormedAddress(sentence, hasChecksum: hasChecksum, addressEnd: split.map { Int($0.ends[0]) })
    {
      // `$` followed by anything but an address: random bytes, not an unchecked sentence.
      handle(.rejected(.notASentence, line: sentenceLine, detail: detail(sentence)))
    } else if sentence.count + (hasChecksum ? 3 : 0) > Self.maximumStandardLength && Self.hasTalkerAddress(sentence) {
      handle(.rejected(.tooLong, line: sentenceLine, detail: detail(sentence)))
    } else {
      handle(.sentence(FramedSentence(bytes: sentence, hasChecksum: hasChecksum, line: sentenceLine, split: split)))
    }
  }

  private func detail(_ sentence: UnsafeBufferPointer<UInt8>, stated: UInt8? = nil, computed: UInt8? = nil)
    -> RejectionDetail?
  {
    detailsRejections ? RejectionDetail(sentence, stated: stated, computed: computed) : nil
  }

  /// Whether the address looks like one. A checksummed sentence needs two letters or
  /// digits and, unless proprietary (`P…`, free-form after that: gpsd passes
  /// `$PSRFTXTVersion GSW3...`, `$PSTMANTENNASTATUS`, Magellan's `PMGNst`), 2 to 8 of them
  /// up to the comma (`GPGGA`, `AIVDM`, `STI`, `SNRSTAT`). A sentence without a checksum has
  /// nothing else vouching for it, so it needs 3 to 8 capitals or digits starting with two
  /// capitals, then a comma (`GPGGA,`; gpsd passes SkyTraq's `$STI,IC,error=4`): random
  /// text is not a sentence.
  ///
  /// `addressEnd`, when the framer knows it, is where the first comma (or the sentence)
  /// ends the address.
  @inline(__always)
  private static func hasWellFormedAddress(
    _ sentence: UnsafeBufferPointer<UInt8>, hasChecksum: Bool, addressEnd: Int?
  ) -> Bool {
    @inline(__always) func isAlphanumeric(_ byte: UInt8) -> Bool {
      (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
    }
    @inline(__always) func isCapital(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }
    guard hasChecksum else {
      guard sentence.count >= 5, isCapital(sentence[1]), isCapital(sentence[2]) else { return false }
      var index = 3
      while index < sentence.count && sentence[index] != UInt8(ascii: ",") {
        guard index < 9, isCapital(sentence[index]) || sentence[index] &- UInt8(ascii: "0") < 10 else { return false }
        index += 1
      }
      return index >= 4 && index < sentence.count
    }
    if let addressEnd, sentence.count >= 9, let base = sentence.baseAddress {
      // Checked in place, the bytes are all below 0x80: the eight after the delimiter are
      // tested at once. A byte is a digit when adding 0x50 sets its top bit and adding
      // 0x46 does not (0x30...0x39); a letter likewise once folded to lower case.
      let word = UInt64(littleEndian: UnsafeRawPointer(base + 1).loadUnaligned(as: UInt64.self))
      let proprietary = base[1] == UInt8(ascii: "P")
      if !proprietary && addressEnd > 9 { return false }
      let needed = proprietary ? 2 : max(addressEnd - 1, 2)
      let tops: UInt64 = 0x8080_8080_8080_8080
      let mask = needed >= 8 ? tops : ((1 &<< UInt64(8 &* needed)) &- 1) & tops
      let digits = (word &+ 0x5050_5050_5050_5050) & ~(word &+ 0x4646_4646_4646_4646)
      let folded = word | 0x2020_2020_2020_2020
      let letters = (folded &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(folded &+ 0x0505_0505_0505_0505)
      return (digits | letters) & mask == mask
    }
    guard sentence.count >= 3, isAlphanumeric(sentence[1]), isAlphanumeric(sentence[2]) else { return false }
    if sentence[1] == UInt8(ascii: "P") { return true }
    if let addressEnd {
      guard addressEnd <= 9 else { return false }
      for index in 3..<max(addressEnd, 3) where !isAlphanumeric(sentence[index]) { return false }
      return true
    }
    var index = 3
    while index < sentence.count && sentence[index] != UInt8(ascii: ",") {
      guard index < 9, isAlphanumeric(sentence[index]) else { return false }
      index += 1
    }
    return true
  }

  /// A standard address: five upper-case letters or digits after the delimiter, not `P…`.
  private static func hasTalkerAddress(_ sentence: UnsafeBufferPointer<UInt8>) -> Bool {
    guard sentence.count >= 7, sentence[1] != UInt8(ascii: "P") else { return false }
    return sentence[6] == UInt8(ascii: ",")
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

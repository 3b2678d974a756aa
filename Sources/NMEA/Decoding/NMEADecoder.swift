import Geodesy

/// A piece of input that was skipped, where it was and why.
public struct Rejection: Sendable, Equatable, CustomStringConvertible {
  /// Why the input was skipped.
  public var reason: RejectionReason
  /// The 1-based line of the input.
  public var line: Int
  /// For malformed fields: the sentence's address and the field at fault.
  public var address: SentenceAddress?
  /// The field at fault, for ``RejectionReason/malformedFields``; `nil` for other reasons.
  public var fieldError: FieldError?
  /// The sentence's text and checksums, when it was framed.
  public var detail: RejectionDetail?

  public var description: String {
    var text = "line \(line): \(reason)"
    if let address { text += ": \(address)" }
    if let fieldError { text += " \(fieldError)" }
    return text
  }
}

/// What the decoder produces as bytes go in.
///
/// Two events are equal when they say the same, so a log decoded two ways can be compared
/// event by event.
public enum DecoderEvent: Sendable, Equatable {
  /// A reporting cycle is complete.
  case fix(Fix)
  /// A well-framed sentence was decoded (typed, or passed through as `other`).
  case sentence(Sentence, line: Int)
  /// A heading or attitude report, as the sensor sent it (between fixes, at its own rate).
  case heading(HeadingReading)
  /// An accepted sentence as it came, checksum and line end included (when
  /// ``NMEADecoder/Options/passesThrough``), for recording a source to a log; also a
  /// `# Date:` comment, which dates the fixes of a log without RMC or ZDA dates.
  case accepted([UInt8], line: Int)
  /// Input was skipped.
  case rejected(Rejection)
}

/// The whole pipeline: bytes → framed sentences → typed sentences → fixes, with counts.
///
/// Streaming and chunking-independent: feed it bytes in pieces of any size; it keeps
/// constant memory.
public struct NMEADecoder {
  /// Settings that change what is accepted.
  public struct Options: Sendable {
    /// Reject sentences without a checksum (by default they are accepted and counted as
    /// unchecked, as gpsd 3.22 does).
    public var requiresChecksum = false
    /// The date of the first cycle for logs that carry none before their first RMC/ZDA.
    public var date: CalendarDate?
    /// GPS week-number rollovers (1,024 weeks each) to add to the receiver's dates (see
    /// ``FixAssembler/weekRollovers``).
    public var weekRollovers = 0
    /// Deliver `.sentence` events (off by default: most callers want fixes only).
    public var reportsSentences = false
    /// Take `# Date: YYYY-MM-DD` comment lines (gpsd's log headers) as a date seed.
    public var honoursDateComments = true
    /// Give rejections their sentence's text and checksums (for `-v`); off, a rejection
    /// allocates nothing.
    public var detailsRejections = false
    /// Deliver every accepted sentence as it came (`.accepted` events), with its
    /// checksum and a CRLF, and `# Date:` comments: `print --nmea`.
    public var passesThrough = false
    /// The geoid model for receivers that give no geoid separation: EGM96 from Debian's
    /// `proj-data` when it is installed (``/Geodesy/GeoidGrid/installedEGM96``), `nil` for none.
    public var geoid: GeoidGrid? = try? GeoidGrid.installedEGM96.get()
    /// Keep the satellites in view (GSV) and their used flags (GSA) and give them with
    /// each fix (``Fix/satellites``). A reader that never looks at them (`summary`)
    /// turns this off: GSV and GSA are still checked and counted, and
    /// ``Fix/satellitesUsed`` is still given.
    public var tracksSatellites = true

    /// Creates options.
    public init(
      requiresChecksum: Bool = false, date: CalendarDate? = nil, reportsSentences: Bool = false,
      honoursDateComments: Bool = true
    ) {
      self.requiresChecksum = requiresChecksum
      self.date = date
      self.reportsSentences = reportsSentences
      self.honoursDateComments = honoursDateComments
    }
  }

  /// What the decoder has counted so far: bytes, lines, sentences by kind, rejections by
  /// reason, cycles.
  public package(set) var statistics = DecoderStatistics()
  private var framer: SentenceFramer
  private var assembler: FixAssembler
  private let options: Options
  private var sawDate = false

  /// Creates a decoder.
  public init(options: Options = Options()) {
    self.options = options
    framer = SentenceFramer(requiresChecksum: options.requiresChecksum)
    framer.detailsRejections = options.detailsRejections
    assembler = FixAssembler(date: options.date, geoid: options.geoid)
    assembler.tracksSatellites = options.tracksSatellites
    assembler.weekRollovers = options.weekRollovers
    sawDate = options.date != nil
  }

  /// Feeds bytes; `handle` receives the events they complete, in order.
  public mutating func decode(_ bytes: UnsafeRawBufferPointer, _ handle: (consuming DecoderEvent) -> Void) {
    statistics.bytes += bytes.count
    var framer = takeFramer()
    framer.consume(bytes) { event in self.handle(event, handle) }
    self.framer = framer
  }

  /// Feeds bytes; `handle` receives the events they complete, in order.
  public mutating func decode(_ bytes: some Sequence<UInt8>, _ handle: (consuming DecoderEvent) -> Void) {
    var framer = takeFramer()
    var count = 0
    framer.consume(
      bytes.lazy.map {
        count += 1; return $0
      }
    ) { event in self.handle(event, handle) }
    self.framer = framer
    statistics.bytes += count
  }

  /// Ends the input: completes an open sentence and the last cycle.
  public mutating func finish(_ handle: (consuming DecoderEvent) -> Void) {
    var framer = takeFramer()
    framer.finish { event in self.handle(event, handle) }
    self.framer = framer
    statistics.lines = framer.line - 1
    if let fix = assembler.finish() { deliver(fix, handle) }
  }

  /// Completes the current cycle now (a live source that went quiet): its fix is delivered
  /// without waiting for the next cycle to begin.
  public mutating func completeCycle(_ handle: (consuming DecoderEvent) -> Void) {
    if let fix = assembler.finish() { deliver(fix, handle) }
  }

  /// Completes the current cycle if the input so far ends with the sentence that ends
  /// every cycle (see ``FixAssembler/completeCycleIfEnded()``), delivering its fix;
  /// `true` if it did. Nothing happens while a sentence is half read.
  ///
  /// For live sources, when there is nothing more to read for now.
  @discardableResult
  public mutating func completeCycleIfEnded(_ handle: (consuming DecoderEvent) -> Void) -> Bool {
    guard !framer.isInsideSentence, let fix = assembler.completeCycleIfEnded() else { return false }
    deliver(fix, handle)
    return true
  }

  /// Moves the framer out of `self`, so that its buffer stays uniquely referenced (no
  /// copy) while the event handler, which needs `self`, runs.
  private mutating func takeFramer() -> SentenceFramer {
    var framer = SentenceFramer.placeholder
    swap(&framer, &self.framer)
    return framer
  }

  /// The line being read.
  public var line: Int { framer.line }

  /// Whether this decoder will turn whatever bytes follow into the same events as `other`,
  /// line numbers apart: the same half-read line, open cycle, history and learned habits
  /// (see ``FixAssembler/continuesLike(_:)``). Statistics and options are not compared.
  package func continuesLike(_ other: NMEADecoder) -> Bool { difference(from: other) == nil }

  /// Whether this decoder has learned a latest magnetic variation, and whether a heading's
  /// declination went without one since ``resetVariationAssumption()`` (see
  /// ``FixAssembler/difference(from:)``).
  package var hasVariation: Bool { assembler.hasVariation }
  package var assumedNoVariation: Bool { assembler.assumedNoVariation }
  package mutating func resetVariationAssumption() { assembler.resetVariationAssumption() }
  /// Takes `other`'s latest variation when this decoder has learned none.
  package mutating func adoptVariation(of other: NMEADecoder) { assembler.adoptVariation(of: other.assembler) }

  /// How many dates the receiver has stated to this decoder (see
  /// ``FixAssembler/datesStated``).
  package var datesStated: Int { assembler.datesStated }
  /// Whole days from this decoder's dating to `other`'s, when that is all that tells
  /// their dates apart (see ``FixAssembler/wholeDays(to:)``).
  package func wholeDays(to other: NMEADecoder) -> Int? { assembler.wholeDays(to: other.assembler) }
  /// The time of the latest cycle dated (see ``FixAssembler/dateAnchor``).
  package var dateAnchor: Timestamp? { assembler.dateAnchor }
  /// Whether the decoder can date nothing yet (see ``FixAssembler/isUndated``).
  package var isUndated: Bool { assembler.isUndated }
  /// Takes `other`'s dating (see ``FixAssembler/adoptDating(of:)``).
  package mutating func adoptDating(of other: NMEADecoder) { assembler.adoptDating(of: other.assembler) }
  /// The decoder's dating, for what an undated decoder made after it.
  package var dating: FixAssembler.Dating { assembler.dating }
  /// Takes the dating an undated decoder would have had (see
  /// ``FixAssembler/adoptDating(_:anchor:)``).
  package mutating func adoptDating(_ dating: FixAssembler.Dating, anchor: Bool) {
    assembler.adoptDating(dating, anchor: anchor)
  }
  /// Moves every date the decoder holds by `days` (see ``FixAssembler/shiftDates(byDays:)``).
  package mutating func shiftDates(byDays days: Int) { assembler.shiftDates(byDays: days) }

  /// The first part of the state in which this decoder differs from `other`, so that it
  /// would not continue like it (``continuesLike(_:)``; a variation not learned is the
  /// one exception, see ``FixAssembler/difference(from:)``); `nil` when it would.
  package func difference(from other: NMEADecoder) -> DecoderStateDifference? {
    guard framer.continuesLike(other.framer) else { return .halfReadLine }
    if let difference = assembler.difference(from: other.assembler) { return difference }
    // A date comment seeds only a decoder that has neither seen one nor dated a cycle.
    guard sawDate == other.sawDate || (assembler.isDated && other.assembler.isDated) else { return .date }
    return nil
  }

  /// Renumbers the lines by `offset`: a decoder that started inside a file learns which
  /// line it began at.
  package mutating func shiftLines(by offset: Int) {
    framer.shiftLines(by: offset)
  }

  private mutating func handle(_ event: FramingEvent, _ handle: (consuming DecoderEvent) -> Void) {
    switch event {
    case .sentence(let framed):
      if framed.bytes.count > SentenceFramer.maximumSplitLength, Self.isDecodedType(framed) {
        // Only other sentences are ever this long; a type decoded here that is would be
        // read short.
        statistics.count(.tooLong)
        handle(
          .rejected(
            Rejection(
              reason: .tooLong, line: framed.line,
              detail: options.detailsRejections ? RejectionDetail(framed.bytes) : nil
            )))
        return
      }
      do throws(FieldError) {
        try decode(framed, handle)
        statistics.sentences += 1
        if !framed.hasChecksum { statistics.uncheckedSentences += 1 }
        if options.passesThrough { handle(.accepted(Self.recorded(framed), line: framed.line)) }
      } catch {
        statistics.count(.malformedFields)
        let address = FieldReader.read(framed) { SentenceAddress($0.address) }
        handle(
          .rejected(
            Rejection(
              reason: .malformedFields, line: framed.line, address: address, fieldError: error,
              detail: options.detailsRejections ? RejectionDetail(framed.bytes) : nil)
          ))
        return
      }
    case .comment(let text, let line):
      statistics.comments += 1
      // Read only when wanted: most logs' comments are no date, and reading one makes a
      // string (7 % of summary's work on the corpus's headers).
      let wanted = options.honoursDateComments && !sawDate || options.passesThrough
      let date = wanted ? Self.dateComment(text) : nil
      if options.honoursDateComments && !sawDate, let date {
        assembler.seed(date: date)
        sawDate = true
      }
      // A recording of a dateless log keeps its date, so that replaying it gives the same fixes.
      if options.passesThrough, date != nil {
        handle(.accepted([UInt8(ascii: "#")] + Array(text) + [UInt8(ascii: "\r"), UInt8(ascii: "\n")], line: line))
      }
    case .rejected(let reason, let line, let detail):
      statistics.count(reason)
      handle(.rejected(Rejection(reason: reason, line: line, detail: detail)))
    }
  }

  /// Whether `framed` is of a type this package decodes (not passed through as another).
  private static func isDecodedType(_ framed: FramedSentence) -> Bool {
    FieldReader.read(framed) { Sentence.classify(framed, $0) } != nil
  }

  /// A framed sentence as a log line: its bytes, its checksum if it had one, CRLF.
  private static func recorded(_ framed: FramedSentence) -> [UInt8] {
    var bytes = Array(framed.bytes)
    if framed.hasChecksum {
      var checksum: UInt8 = 0
      for byte in framed.bytes.dropFirst() { checksum ^= byte }
      let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
      bytes += [UInt8(ascii: "*"), digits[Int(checksum >> 4)], digits[Int(checksum & 0xF)]]
    }
    bytes += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
    return bytes
  }

  /// Decodes a framed sentence and adds it to the cycle; throws (having changed nothing)
  /// when a field is malformed.
  private mutating func decode(_ framed: FramedSentence, _ handle: (consuming DecoderEvent) -> Void) throws(FieldError)
  {
    var ignored = 0
    try withUnsafeMutablePointer(to: &ignored) { (ignored) throws(FieldError) in
      try FieldReader.read(framed, countingIgnoredFieldsIn: ignored) { (fields) throws(FieldError) in
        try decode(framed, fields, handle)
      }
    }
    statistics.ignoredFields += ignored
  }

  @inline(__always)
  private mutating func decode(
    _ framed: FramedSentence, _ fields: FieldReader, _ handle: (consuming DecoderEvent) -> Void
  ) throws(FieldError) {
    guard let (kind, talker) = Sentence.classify(framed, fields) else {
      let address = SentenceAddress(fields.address)
      statistics.countOther(address)
      let sentence = Sentence.other(address)
      if options.reportsSentences { handle(.sentence(sentence, line: framed.line)) }
      if let fix = assembler.add(sentence) { deliver(fix, handle) }
      return
    }
    let completed: Bool
    if options.reportsSentences {
      var reporting = Reporting(talker: talker, fields: fields)
      completed = try withUnsafeMutablePointer(to: &assembler) { (assembler) throws(FieldError) -> Bool in
        reporting.assembler = assembler
        return try kind.visit(&reporting)
      }
      statistics.count(kind)
      if let sentence = reporting.reported { handle(.sentence(sentence, line: framed.line)) }
    } else {
      completed = try withUnsafeMutablePointer(to: &assembler) { (assembler) throws(FieldError) -> Bool in
        var applying = Applying(talker: talker, fields: fields, assembler: assembler)
        return try kind.visit(&applying)
      }
      statistics.count(kind)
    }
    if completed { deliver(assembler.takeCompletedFix(), handle) }
    if kind.isHeading, let reading = assembler.takeHeadingReading() { handle(.heading(reading)) }
  }

  /// Decodes a sentence of a known type and adds it to the assembler's cycle; `true` when
  /// it completed the previous one.
  ///
  /// It builds no ``Sentence``: copying those payloads of a few hundred bytes, even empty
  /// ones, cost more than decoding the sentence.
  private struct Applying: SentenceVisitor {
    let talker: Talker
    let fields: FieldReader
    /// The decoder's assembler, for the duration of one ``Sentence/Kind/visit(_:)``.
    let assembler: UnsafeMutablePointer<FixAssembler>

    @inline(__always)
    func visit<Decoded: DecodedSentence>(_ type: Decoded.Type) throws(FieldError) -> Bool {
      assembler.pointee.add(try Decoded(talker: talker, fields))
    }
  }

  /// ``Applying``, also keeping the sentence as the public enum for `.sentence` events.
  private struct Reporting: SentenceVisitor {
    let talker: Talker
    let fields: FieldReader
    var assembler: UnsafeMutablePointer<FixAssembler>?
    var reported: Sentence?

    init(talker: Talker, fields: FieldReader) {
      self.talker = talker
      self.fields = fields
    }

    mutating func visit<Decoded: DecodedSentence>(_ type: Decoded.Type) throws(FieldError) -> Bool {
      let sentence = try Decoded(talker: talker, fields)
      reported = sentence.wrapped
      return assembler!.pointee.add(sentence)
    }
  }

  private mutating func deliver(_ fix: consuming Fix, _ handle: (consuming DecoderEvent) -> Void) {
    statistics.cycles += 1
    if fix.hasPosition { statistics.fixesWithPosition += 1 }
    // Handed over, not copied: a fix is a few hundred bytes.
    handle(.fix(consume fix))
  }

  /// Reads `Date: YYYY-M-D` (gpsd's log header) from a comment's text.
  static func dateComment(_ text: UnsafeBufferPointer<UInt8>) -> CalendarDate? {
    let line = String(decoding: text, as: UTF8.self).drop { $0 == " " }
    guard line.lowercased().hasPrefix("date:") else { return nil }
    let value = line.dropFirst(5).drop { $0 == " " }
    let numbers = value.prefix { $0.isNumber || $0 == "-" }.split(separator: "-")
    guard numbers.count == 3, numbers[0].count == 4, let year = Int(numbers[0]),
      let month = Int(numbers[1]), let day = Int(numbers[2])
    else { return nil }
    return CalendarDate(year: year, month: month, day: day)
  }
}

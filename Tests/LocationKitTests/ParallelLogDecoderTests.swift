import Foundation
import LocationKit
import NMEA
import TestSupport
import Testing

/// A log decoded in chunks on several threads must give what one decoder gives: the same
/// events in the same order, the same line numbers and the same statistics, wherever the
/// cuts fall.
@Suite struct ParallelLogDecoderTests {
  /// Everything a decoder told: events in order, then the statistics. Compared as values;
  /// described as text only where a test searches it (describing every event of both
  /// sides took most of these tests' time).
  struct Transcript: Equatable {
    var events: [DecoderEvent] = []
    var statistics: DecoderStatistics?

    mutating func record(_ event: DecoderEvent) { events.append(event) }

    /// How many events of a kind ("fix", "heading", "rejected", "sentence", "accepted").
    func count(_ kind: String) -> Int { events.count { Self.kind($0) == kind } }

    static func kind(_ event: DecoderEvent) -> String {
      switch event {
      case .fix: "fix"
      case .heading: "heading"
      case .rejected: "rejected"
      case .sentence: "sentence"
      case .accepted: "accepted"
      }
    }

    /// The last fix, as text.
    var lastFix: String { events.last { Self.kind($0) == "fix" }.map(Self.line) ?? "" }

    /// The events as text, one line each.
    var lines: [String] { events.map(Self.line) }

    static func line(_ event: DecoderEvent) -> String {
      switch event {
      case .fix(let fix): "fix \(fix)"
      case .heading(let reading): "heading \(reading)"
      case .rejected(let rejection):
        "rejected \(rejection) \(rejection.detail.map(String.init(describing:)) ?? "")"
      case .sentence(let sentence, let line): "sentence \(line) \(sentence)"
      case .accepted(let bytes, let line): "accepted \(line) \(bytes)"
      }
    }
  }

  static func serial(_ path: String, _ options: NMEADecoder.Options) throws -> Transcript {
    var transcript = Transcript()
    var decoder = NMEADecoder(options: options)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    data.withUnsafeBytes { bytes in decoder.decode(bytes) { transcript.record($0) } }
    decoder.finish { transcript.record($0) }
    transcript.statistics = decoder.statistics
    return transcript
  }

  static func parallel(
    _ path: String, _ options: NMEADecoder.Options, jobs: Int, chunkSize: Int, warmUp: Int? = nil
  ) throws -> (Transcript, decodedInOrder: Int, chunks: Int) {
    let (transcript, decoder) = try decodedInParallel(path, options, jobs: jobs, chunkSize: chunkSize, warmUp: warmUp)
    let size = Int(try FileManager.default.attributesOfItem(atPath: path)[.size] as! UInt64)
    return (transcript, decoder.chunksDecodedInOrder, (size + chunkSize - 1) / chunkSize)
  }

  /// The transcript, and the decoder with its counts of chunks and reasons.
  /// The hand-over is checked at every chunk unless `givesUp`: a log whose chunks
  /// mostly fail would otherwise be read in order after the first few.
  static func decodedInParallel(
    _ path: String, _ options: NMEADecoder.Options, jobs: Int, chunkSize: Int, warmUp: Int? = nil,
    givesUp: Bool = false
  ) throws -> (Transcript, ParallelLogDecoder) {
    var transcript = Transcript()
    var decoder = ParallelLogDecoder(options: options, jobs: jobs, chunkSize: chunkSize)
    decoder.givesUpSplitting = givesUp
    if let warmUp { decoder.warmUp = warmUp }
    let descriptor = try SystemIO.open(path, O_RDONLY)
    defer { close(descriptor) }
    let size = Int(try FileManager.default.attributesOfItem(atPath: path)[.size] as! UInt64)
    transcript.statistics = try decoder.decode(descriptor, size: size) { transcript.record($0) }
    return (transcript, decoder)
  }

  static var everyOption: NMEADecoder.Options {
    var options = NMEADecoder.Options(reportsSentences: true)
    options.passesThrough = true
    options.detailsRejections = true
    return options
  }

  static let fixtureLogs = [
    "walk.nmea", "drive-midnight.nmea", "static-hour.nmea", "multi-gnss-burst.nmea", "corrupted.nmea",
  ]

  @Test(arguments: fixtureLogs)
  func everyFixtureCutEverywhereDecodesAsOneDecoderDoes(_ name: String) throws {
    let path = TestPaths.fixture(name)
    let expected = try Self.serial(path, Self.everyOption)
    #expect(expected.events.count > 100)
    // Chunk sizes that put cuts inside cycles, at every offset within one, and a warm-up
    // too short for anything (the decoder must notice, and decode those chunks again).
    for (chunkSize, warmUp) in [(997, nil), (65_521, nil), (1009, 0), (3001, 200)] as [(Int, Int?)] {
      let (transcript, _, _) = try Self.parallel(path, Self.everyOption, jobs: 3, chunkSize: chunkSize, warmUp: warmUp)
      #expect(transcript.statistics == expected.statistics, "\(name) in chunks of \(chunkSize)")
      #expect(transcript.events.count == expected.events.count, "\(name) in chunks of \(chunkSize)")
      if let first = zip(transcript.events, expected.events).first(where: { $0 != $1 }) {
        Issue.record(
          "\(name) in chunks of \(chunkSize): \(Transcript.line(first.0))\ninstead of\n\(Transcript.line(first.1))")
      }
    }
  }

  /// With no option that makes events hold memory of their own, a worker stores events
  /// without looking at them, and looks through only the pieces that gave more events
  /// than fixes: the rejections among them must still have their lines moved.
  @Test func rejectionsStoredUnlookedAtKeepTheirLines() throws {
    let path = TestPaths.fixture("corrupted.nmea")
    let expected = try Self.serial(path, NMEADecoder.Options())
    let rejections = expected.count("rejected")
    #expect(rejections > 10 && rejections < expected.events.count / 2)
    for (chunkSize, warmUp) in [(997, nil), (1009, 0), (3001, 200)] as [(Int, Int?)] {
      let (transcript, _, chunks) = try Self.parallel(
        path, NMEADecoder.Options(), jobs: 3, chunkSize: chunkSize, warmUp: warmUp)
      #expect(chunks > 10)
      #expect(transcript.statistics == expected.statistics, "in chunks of \(chunkSize)")
      #expect(transcript.events == expected.events, "in chunks of \(chunkSize)")
    }
  }

  @Test func everyCorpusLogDecodesInChunksAsInOne() throws {
    let logs = TestPaths.corpusLogs
    #expect(logs.count >= 100, "the gpsd corpus is missing (set WHEREAMI_CORPUS)")
    var options = NMEADecoder.Options()
    options.detailsRejections = true
    for log in logs {
      let expected = try Self.serial(log.path, options)
      let (transcript, _, _) = try Self.parallel(log.path, options, jobs: 2, chunkSize: 1531)
      #expect(transcript == expected, "\(log.lastPathComponent)")
    }
  }

  @Test func aDatedLogIsDecodedInParallelAcrossMidnightAndFixLosses() throws {
    let log = try GeneratedLog(cycles: 6000, start: 23 * 3600 + 58 * 60, dated: true, lossEvery: 700)
    let expected = try Self.serial(log.path, NMEADecoder.Options())
    let (transcript, decoder) = try Self.decodedInParallel(
      log.path, NMEADecoder.Options(), jobs: 2, chunkSize: 20_011)
    #expect(transcript == expected)
    #expect(decoder.chunks > 40)
    // The warm-up reached the state at every cut: the work was really shared.
    #expect(decoder.chunksDecodedInOrder == 0 && decoder.chunksInOrderByReason.isEmpty)
    #expect(expected.lastFix.contains("2026-12-02"), "the log crosses midnight")
  }

  /// GGA only, dated by the options: the date is the seed's, rolled over at midnight,
  /// which no warm-up can know. A worker dates its chunk from the seed's day; no date is
  /// stated in the chunk, so its dates are all off by the same whole days, and are moved
  /// at hand-over. Only a chunk with a heading is decoded again: the declination the
  /// magnetic model gives it depends on the day.
  /// A compass's heading (`$HCHDM`) every `spacing` lines of the second half of `lines`.
  static func insertHeadings(_ lines: inout [String], every spacing: Int) {
    for index in stride(from: lines.count - 2, through: lines.count / 2, by: -spacing) {
      lines.insert(checksummed("$HCHDM,123.4,M"), at: index)
    }
  }

  @Test(arguments: [false, true])
  func aLogDatedOnlyByTheOptionsIsDecodedInParallelPastMidnight(headings: Bool) throws {
    let log = try GeneratedLog(cycles: 3000, start: 23 * 3600 + 58 * 60, dated: false, lossEvery: 450)
    if headings {
      var lines = try String(contentsOfFile: log.path, encoding: .utf8).components(separatedBy: "\r\n")
      Self.insertHeadings(&lines, every: 1500)
      try lines.joined(separator: "\r\n").write(toFile: log.path, atomically: false, encoding: .utf8)
    }
    var options = NMEADecoder.Options()
    options.date = CalendarDate(year: 2026, month: 12, day: 1)
    let expected = try Self.serial(log.path, options)
    let (transcript, decoder) = try Self.decodedInParallel(log.path, options, jobs: 2, chunkSize: 8192)
    #expect(transcript == expected)
    #expect(decoder.chunks > 20)
    #expect(expected.lastFix.contains("2026-12-02"), "\(expected.lastFix)")
    if headings { #expect(expected.count("heading") > 0) }
    // Each worker guessed its chunk's day from the time the merger had reached (or the
    // log's first cycle): no date moved at hand-over, no chunk with a heading decoded
    // again for the day its declination needed.
    #expect(decoder.chunksDecodedInOrder == 0, "\(decoder.chunksInOrderByReason)")
    #expect(decoder.chunksWithDatesMoved == 0)
  }

  /// The same log with its time going back three hours halfway (a receiver reset, logs
  /// joined): a chunk just after it whose worker guessed from a time before it is a day
  /// late, and is moved back at hand-over, or decoded in order when a heading's
  /// declination depends on the day. (How many depends on how far the merger had got
  /// when the worker guessed: 3 of 52 in the runs tried.)
  @Test(arguments: [false, true])
  func aDatelessLogWhoseTimeGoesBackIsDecodedInParallel(headings: Bool) throws {
    let log = try GeneratedLog(cycles: 3000, start: 23 * 3600 + 58 * 60, dated: false, lossEvery: 450)
    var lines = try String(contentsOfFile: log.path, encoding: .utf8).components(separatedBy: "\r\n")
    for index in (lines.count / 2)..<lines.count {
      guard lines[index].hasPrefix("$GPGGA,") else { continue }
      let fields = lines[index].split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)
      guard let time = Double(fields[1]) else { continue }
      let seconds = (Int(time) / 10000 * 3600 + Int(time) / 100 % 100 * 60 + Int(time) % 100 + 21 * 3600) % 86_400
      var moved = fields.map(String.init)
      moved[1] = String(format: "%02d%02d%02d.00", seconds / 3600, seconds / 60 % 60, seconds % 60)
      lines[index] = checksummed(moved.joined(separator: ","))
    }
    if headings { Self.insertHeadings(&lines, every: 700) }
    try lines.joined(separator: "\r\n").write(toFile: log.path, atomically: false, encoding: .utf8)
    var options = NMEADecoder.Options()
    options.date = CalendarDate(year: 2026, month: 12, day: 1)
    let expected = try Self.serial(log.path, options)
    #expect(expected.lines.contains { $0.contains("2026-12-01T21:") }, "the time went back")
    let (transcript, decoder) = try Self.decodedInParallel(log.path, options, jobs: 2, chunkSize: 8192)
    #expect(transcript == expected)
    #expect(decoder.chunksInOrderByReason.keys.allSatisfy { $0 == .state(.date) })
  }

  /// GGA with a ZDA once a minute (every 600 cycles at 10 Hz): most warm-ups hold no
  /// date, so a worker's fixes go without a time until its chunk states one. The merger
  /// gives them the times one decoder would have, and no chunk is decoded twice.
  @Test func aLogDatedOnceAMinuteIsDecodedInParallel() throws {
    let log = try GeneratedLog(cycles: 6000, start: 3600, dated: false, lossEvery: 0)
    var lines = try String(contentsOfFile: log.path, encoding: .utf8).components(separatedBy: "\r\n")
    for point in stride(from: lines.count - 1, through: 300, by: -600) {
      // After the cycle's GGA, with its time.
      guard let gga = lines[..<point].lastIndex(where: { $0.hasPrefix("$GPGGA") }) else { continue }
      let time = lines[gga].split(separator: ",")[1]
      lines.insert(checksummed("$GPZDA,\(time),01,12,2026,00,00"), at: gga + 1)
    }
    try lines.joined(separator: "\r\n").write(toFile: log.path, atomically: false, encoding: .utf8)
    let expected = try Self.serial(log.path, NMEADecoder.Options())
    let fixes = expected.lines.filter { $0.hasPrefix("fix") }
    #expect(fixes.first.map { !$0.contains("2026-12-01") } == true, "the first fixes have no date")
    #expect(fixes.last.map { $0.contains("2026-12-01") } == true, "the last ones have: \(fixes.last ?? "")")
    let (transcript, decoder) = try Self.decodedInParallel(log.path, NMEADecoder.Options(), jobs: 2, chunkSize: 8192)
    #expect(transcript == expected)
    #expect(decoder.chunks > 40)
    #expect(decoder.chunksDecodedInOrder == 0, "\(decoder.chunksInOrderByReason)")
  }

  /// Lines ending in CR alone, LF alone and CR LF, mixed: a cut falls after any line end,
  /// never between the CR and LF of one, and the line numbers still agree.
  @Test func logsWhoseLinesEndInCRAloneAreSplitToo() throws {
    let log = try GeneratedLog(cycles: 1500, start: 3600, dated: true, lossEvery: 0)
    let lines = try String(contentsOfFile: log.path, encoding: .utf8).components(separatedBy: "\r\n")
    var random = SeededRandom(seed: 5)
    for mixed in [false, true] {
      let ends = ["\r", "\n", "\r\n"]
      let text = lines.map { $0 + (mixed ? ends[Int(random.next() % 3)] : "\r") }.joined()
      try text.write(toFile: log.path, atomically: false, encoding: .utf8)
      let expected = try Self.serial(log.path, NMEADecoder.Options())
      #expect(expected.count("fix") > 1450)
      for warmUp in [nil, 200] {
        let (transcript, decoder) = try Self.decodedInParallel(
          log.path, NMEADecoder.Options(), jobs: 2, chunkSize: 4099, warmUp: warmUp)
        #expect(transcript == expected, "mixed: \(mixed)")
        #expect(decoder.chunks > 20)
        // (200 bytes are less than a cycle: too little to learn the state from.)
        if warmUp == nil { #expect(decoder.chunksDecodedInOrder == 0, "\(decoder.chunksInOrderByReason)") }
      }
    }
  }

  /// More than 256 kinds of unknown sentence: once the list of them by address is full,
  /// every chunk that brings a new one is decoded again. The decoder sees it in the first
  /// chunks and reads the rest in order, instead of decoding nearly all of it twice.
  @Test func aLogWhoseChunksMostlyFailIsReadInOrderAfterTheFirstFew() throws {
    let log = try GeneratedLog(cycles: 3000, start: 3600, dated: true, lossEvery: 0)
    var lines = try String(contentsOfFile: log.path, encoding: .utf8).components(separatedBy: "\r\n")
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    func unknown(_ kind: Int) -> String {
      checksummed("$YX" + String([letters[kind / 676], letters[kind / 26 % 26], letters[kind % 26]]) + ",1,2")
    }
    // 300 kinds first, so that the list is full from the first chunk on; then every
    // chunk brings kinds that are not on it.
    var kind = 300
    for index in stride(from: lines.count - 2, through: 1, by: -3) {
      lines.insert(unknown(kind), at: index)
      kind = kind == 899 ? 300 : kind + 1
    }
    lines.insert(contentsOf: (0..<300).map(unknown), at: 0)
    try lines.joined(separator: "\r\n").write(toFile: log.path, atomically: false, encoding: .utf8)
    let expected = try Self.serial(log.path, NMEADecoder.Options())
    let (all, everyChunk) = try Self.decodedInParallel(log.path, NMEADecoder.Options(), jobs: 2, chunkSize: 8192)
    #expect(all == expected)
    #expect(
      everyChunk.chunks > 30 && everyChunk.chunksDecodedTwice == everyChunk.chunks,
      "\(everyChunk.chunks) \(everyChunk.chunksInOrderByReason)")
    #expect(everyChunk.readInOrderFrom == nil)

    let (transcript, decoder) = try Self.decodedInParallel(
      log.path, NMEADecoder.Options(), jobs: 2, chunkSize: 8192, givesUp: true)
    #expect(transcript == expected)
    #expect(decoder.chunks == ParallelLogDecoder.trialChunks, "\(decoder.chunksInOrderByReason)")
    #expect(decoder.chunksInOrderByReason == [.unknownSentenceList: decoder.chunksDecodedTwice])
    #expect(try #require(decoder.readInOrderFrom) > 3 * 8192)
  }

  /// A magnetic variation the receiver gave once, at the start, far behind every
  /// warm-up: the chunks are still decoded in parallel and the variation handed over;
  /// only when a heading sentence in a chunk needs it is that chunk decoded again, from
  /// a little before the heading on (the receiver gives no variation again).
  @Test(arguments: [false, true])
  func aVariationGivenLongAgoIsHandedOverUnlessAHeadingNeedsIt(headings: Bool) throws {
    let log = try GeneratedLog(cycles: 3000, start: 3600, dated: true, lossEvery: 0)
    var text = try String(contentsOfFile: log.path, encoding: .utf8)
    let first = try #require(text.range(of: "$GPRMC"))
    // (A CR LF is one Character.)
    let line = text[first.lowerBound...].prefix { $0 != "\r\n" }
    let body = line.dropFirst().prefix { $0 != "*" }.replacingOccurrences(of: ",011226,,,", with: ",011226,3.5,E,")
    text.replaceSubrange(first.lowerBound..<line.endIndex, with: checksummed("$" + body))
    if headings {
      // A compass's magnetic heading every 500 cycles, from the middle of the log on.
      var lines = text.components(separatedBy: "\r\n")
      for index in stride(from: lines.count - 2, through: lines.count / 2, by: -2000) {
        lines.insert(checksummed("$HCHDM,123.4,M"), at: index)
      }
      text = lines.joined(separator: "\r\n")
    }
    try text.write(toFile: log.path, atomically: false, encoding: .utf8)
    let expected = try Self.serial(log.path, NMEADecoder.Options())
    #expect(expected.lines.contains { $0.contains("3.5") }, "the variation is in the log")
    let (transcript, decoder) = try Self.decodedInParallel(log.path, NMEADecoder.Options(), jobs: 2, chunkSize: 8192)
    #expect(transcript == expected)
    #expect(decoder.chunks > 20)
    if headings {
      // The headings took their declination from the variation: true 126.9°.
      #expect(expected.lines.contains { $0.contains("126.9") }, "\(expected.lines.filter { $0.contains("HDM") })")
      #expect(
        decoder.chunksPartlyDecodedTwice > 0 && decoder.chunksDecodedInOrder == 0, "\(decoder.chunksInOrderByReason)")
    } else {
      #expect(decoder.chunksDecodedInOrder == 0, "\(decoder.chunksInOrderByReason)")
    }
  }

  /// A receiver that gives its variation in stretches, a compass's heading coming first
  /// (the corpus's logs joined end to end do this): only the stretch of a chunk from a
  /// little before the heading to the variation is decoded again, with the variation the receiver
  /// gave before the chunk, and the worker's events on either side of it are used. Where
  /// no variation came before, the worker's events are used whole.
  @Test func aHeadingBeforeTheChunksOwnVariationIsDecodedAgainOnlyUpToIt() throws {
    let log = try GeneratedLog(cycles: 6000, start: 3600, dated: true, lossEvery: 0)
    let stretches = try log.insertHeadingsBeforeVariations(seed: 23)
    let expected = try Self.serial(log.path, NMEADecoder.Options())
    #expect(expected.count("heading") == stretches)
    let chunkSize = 65_536
    let (transcript, decoder) = try Self.decodedInParallel(
      log.path, NMEADecoder.Options(), jobs: 2, chunkSize: chunkSize, warmUp: 16_384)
    #expect(transcript == expected)
    let counts =
      "\(decoder.chunks) chunks, \(stretches) stretches, \(decoder.chunksInOrderByReason), \(decoder.chunksPartlyDecodedTwice) in part, \(decoder.bytesPartlyDecodedTwice) bytes"
    #expect(decoder.chunks >= 20 && stretches > 5, "\(counts)")
    #expect(decoder.chunksDecodedInOrder == 0, "\(decoder.chunksInOrderByReason)")
    // The first heading has no variation before it: its chunk needs nothing again.
    #expect(decoder.chunksPartlyDecodedTwice > 0 && decoder.chunksPartlyDecodedTwice < stretches)
    // Each stretch: up to the resume interval before the heading, the 20-odd lines to
    // the variation, and the short slice that ends in it.
    let stretch = decoder.resumeInterval + 2 * 4096
    #expect(decoder.bytesPartlyDecodedTwice < decoder.chunksPartlyDecodedTwice * stretch, "\(counts)")
  }

  @Test func aLongRunWithoutNewlinesLeavesChunksEmptyAndTheOutputTheSame() throws {
    // 200 KB of bytes with no line end amid the log: the chunks inside it have no line
    // start, and are empty; the one before takes all of it.
    let log = try GeneratedLog(cycles: 600, start: 3600, dated: true, lossEvery: 0)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: log.path))
    var random = SeededRandom(seed: 17)
    let garbage = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }.map { $0 == 10 ? 32 : $0 }
    bytes.insert(contentsOf: garbage, at: bytes.count / 2)
    try bytes.write(to: URL(fileURLWithPath: log.path))
    let expected = try Self.serial(log.path, Self.everyOption)
    let (transcript, _, chunks) = try Self.parallel(log.path, Self.everyOption, jobs: 2, chunkSize: 4099)
    #expect(chunks > 60)
    #expect(transcript == expected)
  }

  /// A burst of binary garbage without a line end, longer than the warm-up, just before a
  /// chunk (the garbage family has them): the warm-up finds no sentence in it, so it
  /// reaches four times as far back, to the log before the burst, and the chunk is
  /// decoded once.
  @Test func aWarmUpInsideAGarbageBurstReachesPastIt() throws {
    let log = try GeneratedLog(cycles: 3000, start: 3600, dated: true, lossEvery: 0)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: log.path))
    let chunkSize = 8192
    let boundary = 40 * chunkSize
    // The burst and its line end fill the bytes from a line start some 50 KB before a
    // chunk's nominal start up to it: the chunk begins right after the burst.
    let lineStart = try #require(bytes[..<(boundary - 50_000)].lastIndex(of: 10)) + 1
    var random = SeededRandom(seed: 29)
    let garbage = (0..<(boundary - lineStart - 2)).map { _ in UInt8.random(in: 32...255, using: &random) }
    bytes.insert(contentsOf: garbage + [13, 10], at: lineStart)
    try bytes.write(to: URL(fileURLWithPath: log.path))
    let expected = try Self.serial(log.path, Self.everyOption)
    let (transcript, decoder) = try Self.decodedInParallel(log.path, Self.everyOption, jobs: 2, chunkSize: chunkSize)
    #expect(decoder.warmUp * 3 > garbage.count && garbage.count > decoder.warmUp)
    #expect(transcript == expected)
    // (The chunk that holds the burst is too long to decode ahead: decoded once, in order.)
    #expect(decoder.chunksDecodedTwice == 0, "\(decoder.chunksInOrderByReason)")
  }

  @Test func chunksWithTooManyEventsToKeepAreDecodedInOrder() throws {
    // Random bytes give a rejection every few dozen bytes, each with its text (-v): more
    // than a chunk may keep. A worker stops where they fill it, or gives the chunk up
    // when a piece holds more than the budget left; the rest is decoded in order.
    let log = try GeneratedLog(cycles: 300, start: 3600, dated: true, lossEvery: 0)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: log.path))
    var random = SeededRandom(seed: 5)
    bytes.append(contentsOf: (0..<3_000_000).map { _ in UInt8.random(in: 0...255, using: &random) })
    try bytes.write(to: URL(fileURLWithPath: log.path))
    let expected = try Self.serial(log.path, Self.everyOption)
    let (transcript, decoder) = try Self.decodedInParallel(log.path, Self.everyOption, jobs: 2, chunkSize: 1 << 20)
    let notAhead = decoder.chunksInOrderByReason[.notDecodedAhead, default: 0]
    #expect(notAhead + decoder.chunksFinishedInOrder > 0, "\(decoder.chunksInOrderByReason)")
    #expect(transcript == expected)
  }

  /// GGA alone, a fix every 75 bytes: a chunk's fixes take 3.8 bytes per byte, more than
  /// a chunk may keep. The worker stops where they fill it, at a slice's end, and the
  /// rest of the chunk is decoded in order from its decoder: no chunk is decoded twice.
  @Test func aChunkWhoseEventsFillTheBudgetIsFinishedInOrder() throws {
    let log = try GeneratedLog(cycles: 6000, start: 3600, dated: true, lossEvery: 0)
    let lines = try String(contentsOfFile: log.path, encoding: .utf8).components(separatedBy: "\r\n")
    try (lines.filter { $0.hasPrefix("$GPGGA") }.joined(separator: "\r\n") + "\r\n")
      .write(toFile: log.path, atomically: false, encoding: .utf8)
    let size = Int(try FileManager.default.attributesOfItem(atPath: log.path)[.size] as! UInt64)
    let expected = try Self.serial(log.path, NMEADecoder.Options())
    #expect(expected.count("fix") * MemoryLayout<DecoderEvent>.stride > 3 * size)
    var transcript = Transcript()
    // 40 KB chunks, and their budget as it is for the 2 MB ones: three bytes per byte.
    var decoder = ParallelLogDecoder(options: NMEADecoder.Options(), jobs: 2, chunkSize: 40_000)
    decoder.smallestEventBudget = 0
    decoder.givesUpSplitting = false
    let descriptor = try SystemIO.open(log.path, O_RDONLY)
    defer { close(descriptor) }
    transcript.statistics = try decoder.decode(descriptor, size: size) { transcript.record($0) }
    #expect(transcript == expected)
    #expect(decoder.chunks > 8 && decoder.chunksFinishedInOrder >= decoder.chunks - 1)
    #expect(decoder.chunksDecodedInOrder == 0, "\(decoder.chunksInOrderByReason)")
  }

  @Test func largeChunksOfADenseLogAreStillDecodedInParallel() throws {
    // 4 MB chunks of 10 Hz cycles hold more fixes than 3 MB of events: the budget grows
    // with the chunk, so none is sent to decoding in order.
    let cycles = 22_000
    let log = try GeneratedLog(cycles: cycles, start: 3600, dated: true, lossEvery: 0)
    let size = Int(try FileManager.default.attributesOfItem(atPath: log.path)[.size] as! UInt64)
    let chunkSize = 4 << 20
    #expect(cycles * chunkSize / size * MemoryLayout<DecoderEvent>.stride > 3 << 20)
    let expected = try Self.serial(log.path, NMEADecoder.Options())
    let (transcript, inOrder, chunks) = try Self.parallel(
      log.path, NMEADecoder.Options(), jobs: 2, chunkSize: chunkSize)
    #expect(chunks >= 2)
    #expect(inOrder == 0)
    #expect(transcript == expected)
  }

  @Test func aFileThatGrowsWhileDecodedIsReadToItsEnd() throws {
    let log = try GeneratedLog(cycles: 400, start: 3600, dated: true, lossEvery: 0)
    let expected = try Self.serial(log.path, NMEADecoder.Options())
    let size = Int(try FileManager.default.attributesOfItem(atPath: log.path)[.size] as! UInt64)
    var transcript = Transcript()
    var decoder = ParallelLogDecoder(options: NMEADecoder.Options(), jobs: 2, chunkSize: 3000)
    let descriptor = try SystemIO.open(log.path, O_RDONLY)
    defer { close(descriptor) }
    // Told an older size, it decodes that much in chunks and reads on to the end.
    transcript.statistics = try decoder.decode(descriptor, size: size / 2 + 17) { transcript.record($0) }
    #expect(transcript == expected)
  }

  @Test func cancellingStopsTheWorkersAndReturnsNothing() throws {
    let log = try GeneratedLog(cycles: 3000, start: 3600, dated: true, lossEvery: 0)
    var decoder = ParallelLogDecoder(options: NMEADecoder.Options(), jobs: 2, chunkSize: 4096)
    let descriptor = try SystemIO.open(log.path, O_RDONLY)
    defer { close(descriptor) }
    let size = Int(try FileManager.default.attributesOfItem(atPath: log.path)[.size] as! UInt64)
    var fixes = 0
    let statistics = try decoder.decode(descriptor, size: size, isCancelled: { fixes >= 100 }) { event in
      if case .fix = event { fixes += 1 }
    }
    #expect(statistics == nil)
    #expect(fixes == 100)
  }

  @Test func availableCoresFollowsTheAffinityMask() throws {
    #expect(ParallelLogDecoder.availableCores >= 1)
    #expect(ParallelLogDecoder.availableCores <= ProcessInfo.processInfo.processorCount)
    // Read here as text, there as bytes.
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let mask = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed:") })
    let allowed = mask.dropFirst("Cpus_allowed:".count).reduce(0) { $0 + ($1.hexDigitValue?.nonzeroBitCount ?? 0) }
    #expect(ParallelLogDecoder.availableCores == allowed)
    let child = try ChildProcess(
      "/usr/bin/taskset", ["-c", "0", "/usr/bin/grep", "Cpus_allowed:", "/proc/self/status"])
    #expect(child.wait(timeout: 30) == 0)
    #expect(child.standardOutput.contains("1"), "taskset's mask is what availableCores reads")
  }
}

import Foundation
import TestSupport
import Testing

@testable import NMEA

/// Frames `text` and returns the events as comparable strings.
private func frame(_ text: String, strict: Bool = false) -> [String] {
  var framer = SentenceFramer(requiresChecksum: strict)
  var events: [String] = []
  let handle: (FramingEvent) -> Void = { event in
    switch event {
    case .sentence(let sentence):
      events.append("\(sentence.line):\(sentence.text)\(sentence.hasChecksum ? "" : " (unchecked)")")
    case .comment(let text, let line): events.append("\(line):#\(String(decoding: text, as: UTF8.self))")
    case .rejected(let reason, let line, _): events.append("\(line):\(reason)")
    }
  }
  framer.consume(Array(text.utf8), handle)
  framer.finish(handle)
  return events
}

@Suite struct FramingTests {
  let gga = withChecksum("$GPGGA,113258,3238.9148,N,10822.4466,W,2,08,1.1,1577.4,M,-24.6,M,,")
  let rmc = withChecksum("$GPRMC,113258,A,3238.9148,N,10822.4466,W,005.3,247.1,181022,009.3,E")

  private func body(_ sentence: String) -> String { String(sentence.prefix { $0 != "*" }) }

  @Test func acceptsCRLFAndLFAndCRLineEnds() {
    for ending in ["\r\n", "\n", "\r"] {
      #expect(frame(gga + ending + rmc + ending) == ["1:" + body(gga), "2:" + body(rmc)])
    }
  }

  @Test func acceptsLowerCaseChecksums() {
    let sentence = withChecksum("$GPGSA,A,3,02,05,11,12,18,20,25,29,,,,,1.4,1.1,0.9")  // *3D
    #expect(sentence.hasSuffix("*3D"))
    #expect(frame(String(sentence.dropLast(2)) + "3d\n") == ["1:" + body(sentence)])
  }

  @Test func rejectsBadChecksums() {
    let wrong = String(gga.dropLast(2)) + (gga.hasSuffix("00") ? "01" : "00")
    #expect(frame(wrong + "\n" + rmc + "\n") == ["1:bad checksum", "2:" + body(rmc)])
  }

  @Test func missingChecksumIsUncheckedOrRejectedWhenStrict() {
    let bare = body(gga)
    #expect(frame(bare + "\n") == ["1:\(bare) (unchecked)"])
    #expect(frame(bare + "\n", strict: true) == ["1:missing checksum"])
  }

  @Test func splitsSentencesGluedWithoutNewline() {
    #expect(frame(gga + rmc + "\n") == ["1:" + body(gga), "1:" + body(rmc)])
  }

  @Test func truncatedSentenceIsCountedAndTheNextOneKept() {
    #expect(frame("$GPRMC,1132" + gga + "\n") == ["1:truncated", "1:" + body(gga)])
    #expect(frame("$" + gga + "\n") == ["1:truncated", "1:" + body(gga)])
  }

  @Test func resynchronisesAfterGarbage() {
    #expect(
      frame("xx\u{01}garbage" + gga + "\nnoise line\n" + rmc) == [
        "1:not a sentence", "1:" + body(gga), "2:not a sentence", "3:" + body(rmc),
      ])
  }

  @Test func skipsCommentLines() {
    #expect(frame("# Date: 2024-01-02\n" + gga + "\n") == ["1:# Date: 2024-01-02", "2:" + body(gga)])
  }

  @Test func rejectsNonPrintableBytes() {
    var bytes = Array((gga + "\n" + rmc + "\n").utf8)
    bytes[10] = 0
    var framer = SentenceFramer()
    var events: [String] = []
    framer.consume(bytes) { event in
      if case .rejected(let reason, let line, _) = event { events.append("\(line):\(reason)") }
      if case .sentence(let sentence) = event { events.append("\(sentence.line):ok") }
    }
    #expect(events == ["1:non-printable byte", "2:ok"])
  }

  @Test func rejectsTalkerSentencesOverGpsdsLimit() {
    let long = withChecksum("$GPTXT,01,01,02," + String(repeating: "A", count: 90))
    #expect(frame(long + "\n" + gga + "\n") == ["1:too long", "2:" + body(gga)])
    // Proprietary sentences are vendor-defined and may be longer (gpsd passes them).
    let proprietary = withChecksum("$PGLOR," + String(repeating: "1", count: 120))
    #expect(frame(proprietary + "\n") == ["1:" + body(proprietary)])
    let endless = withChecksum("$PGLOR," + String(repeating: "1", count: 2100))
    #expect(frame(endless + "\n") == ["1:too long"])
  }

  /// u-blox's `$PUBX,03` lists every satellite it tracks, about 20 characters each: 378
  /// characters with 17 satellites (it was rejected as too long), some 1,500 with 72. It
  /// passes through as another sentence, counted by address, in any chunking; a type the
  /// decoder reads is never that long, and one that is is rejected as too long.
  @Test func aLongUBloxSatelliteStatusPassesThrough() {
    func pubx03(_ satellites: Int) -> String {
      var body = "$PUBX,03,\(satellites)"
      for id in 1...satellites { body += ",\(id),U,\(100 + id % 200),\(10 + id % 70),\(20 + id % 30),064" }
      return withChecksum(body)
    }
    for satellites in [17, 72] {
      let sentence = pubx03(satellites)
      #expect(sentence.utf8.count > 255 && sentence.utf8.count < SentenceFramer.maximumLength)
      let text = sentence + "\r\n" + gga + "\r\n"
      #expect(frame(text) == ["1:" + body(sentence), "2:" + body(gga)], "\(satellites) satellites")
      var decoder = NMEADecoder()
      let bytes = Array(text.utf8)
      // Fed in pieces of every size up to 64 bytes, as any read may cut it.
      var offset = 0
      var size = 1
      while offset < bytes.count {
        let end = min(bytes.count, offset + size)
        decoder.decode(Array(bytes[offset..<end])) { _ in }
        offset = end
        size = size % 64 + 1
      }
      decoder.finish { _ in }
      #expect(decoder.statistics.totalRejected == 0 && decoder.statistics.totalOther == 1)
    }
    // A $PUBX,00 (a position, which the decoder reads) past 255 characters is too long.
    let long00 = withChecksum(
      "$PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0"
        + String(repeating: ",", count: 200))
    var decoder = NMEADecoder()
    decoder.decode(Array((long00 + "\r\n").utf8)) { _ in }
    decoder.finish { _ in }
    #expect(decoder.statistics.rejected(.tooLong) == 1)
  }

  @Test func memoryStaysBoundedWithoutNewlines() {
    var framer = SentenceFramer()
    var rejections = 0
    let chunk = [UInt8](repeating: UInt8(ascii: "7"), count: 1 << 20)
    let start = [UInt8]("$GPGGA,".utf8)
    framer.consume(start) { _ in }
    for _ in 0..<16 {  // 16 MiB in one "line"
      framer.consume(chunk) { event in if case .rejected = event { rejections += 1 } }
    }
    #expect(rejections == 1)
    // One line's buffer, however much came: room for the longest sentence and no more.
    #expect(framer.bufferedByteCapacity <= 2 * SentenceFramer.maximumLength)
    // And it still finds the next sentence.
    var found = 0
    framer.consume(Array(("\n" + gga + "\n").utf8)) { event in if case .sentence = event { found += 1 } }
    #expect(found == 1)
  }

  @Test(arguments: ["walk.nmea", "corrupted.nmea", "multi-gnss-burst.nmea", "drive-midnight.nmea"])
  func anyChunkingGivesTheSameResult(name: String) throws {
    let bytes = try Fixtures.bytes(name)
    let whole = decodeAll(bytes)
    #expect(whole.fixes.count > 100)
    var generator = SeededRandom(seed: 42)
    for strategy in ["bytes", "random", "tiny"] {
      var decoder = NMEADecoder()
      var fixes: [Fix] = []
      var rejections: [Rejection] = []
      let handle: (DecoderEvent) -> Void = { event in
        if case .fix(let fix) = event { fixes.append(fix) }
        if case .rejected(let rejection) = event { rejections.append(rejection) }
      }
      var offset = 0
      while offset < bytes.count {
        let size =
          switch strategy {
          case "bytes": 1
          case "tiny": Int.random(in: 1...3, using: &generator)
          default: Int.random(in: 1...4096, using: &generator)
          }
        let end = min(bytes.count, offset + size)
        bytes[offset..<end].withUnsafeBytes { decoder.decode($0, handle) }
        offset = end
      }
      decoder.finish(handle)
      #expect(fixes == whole.fixes, "\(name) chunked by \(strategy)")
      #expect(rejections == whole.rejections, "\(name) chunked by \(strategy)")
      #expect(decoder.statistics == whole.statistics, "\(name) chunked by \(strategy)")
    }
  }

  /// The fields the framer finds while checking a sentence in place are the fields the
  /// reader finds on its own: for empty and full fields, from none to more than the
  /// reader keeps, at every length up to the longest sentence.
  @Test func theFramersFieldSplitIsTheReadersOwn() {
    var generator = SeededRandom(seed: 11)
    var compared = 0
    for _ in 0..<3_000 {
      let fields = Int.random(in: 0...100, using: &generator)
      var body = "$P" + String(repeating: "X", count: Int.random(in: 1...6, using: &generator))
      for _ in 0..<fields {
        body +=
          ","
          + String(
            repeating: "7", count: Int.random(in: 0...(Bool.random(using: &generator) ? 1 : 9), using: &generator))
      }
      guard body.utf8.count <= SentenceFramer.maximumSplitLength else { continue }
      var framer = SentenceFramer()
      framer.consume(Array((withChecksum(body) + "\r\n").utf8)) { event in
        guard case .sentence(let framed) = event else { return }
        #expect(framed.split != nil, "\(body)")
        func list(_ reader: FieldReader) -> [String] {
          [String(decoding: reader.address, as: UTF8.self)]
            + (0..<reader.count).map { String(decoding: reader.raw($0), as: UTF8.self) }
        }
        let split = FieldReader.read(framed) { list($0) }
        let own = FieldReader.read(framed.bytes) { list($0) }
        #expect(split == own, "\(body)")
        #expect(own.count == min(fields, FieldReader.maximumFields) + 1)
        compared += 1
      }
    }
    #expect(compared > 1_000)
  }

  /// Sentences checked in place, a word at a time, give what the byte-at-a-time state
  /// machine gives (one byte per call never lies whole in the input): the same
  /// sentences, fields, comments and rejections, for bodies of every printable byte
  /// (spaces and the punctuation below `+` included), a few bytes that end or spoil a
  /// sentence, at every length and alignment, behind addresses of every length, well
  /// formed or not.
  @Test func inPlaceFramingMatchesTheStateMachine() {
    var generator = SeededRandom(seed: 23)
    let printable = (0x20...0x7E).map(UInt8.init).filter { $0 != UInt8(ascii: "$") && $0 != UInt8(ascii: "!") }
    let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    let spoilers: [UInt8] = Array("$!*\r\n\t".utf8) + [0x00, 0x7F, 0x80, 0xFF]
    var input: [UInt8] = []
    for _ in 0..<4_000 {
      // An address of 1 to 10 letters and digits (proprietary ones too), now and then
      // with another printable byte in it.
      var body = Array("$".utf8)
      for position in 0..<Int.random(in: 1...10, using: &generator) {
        body.append(
          position == 0 && Int.random(in: 0..<5, using: &generator) == 0
            ? UInt8(ascii: "P")
            : Int.random(in: 0..<12, using: &generator) == 0
              ? printable.randomElement(using: &generator)! : alphanumerics.randomElement(using: &generator)!)
      }
      let length = Int.random(in: 0...(Bool.random(using: &generator) ? 20 : 260), using: &generator)
      for _ in 0..<length {
        body.append(
          Int.random(in: 0..<3, using: &generator) == 0
            ? UInt8(ascii: ",") : printable.randomElement(using: &generator)!)
      }
      if Int.random(in: 0..<8, using: &generator) == 0 {
        body[Int.random(in: 1..<body.count, using: &generator)] = spoilers.randomElement(using: &generator)!
      }
      var checksum: UInt8 = 0
      for byte in body.dropFirst() { checksum ^= byte }
      if Int.random(in: 0..<10, using: &generator) == 0 { checksum ^= 1 }
      input += body + Array(String(format: "*%02X", checksum).utf8)
      input += Int.random(in: 0..<4, using: &generator) == 0 ? Array("\n".utf8) : Array("\r\n".utf8)
    }
    func events(chunk: Int) -> [String] {
      var framer = SentenceFramer()
      var events: [String] = []
      let handle: (FramingEvent) -> Void = { event in
        switch event {
        case .sentence(let sentence):
          let fields = FieldReader.read(sentence) { reader in
            (0..<reader.count).map { String(decoding: reader.raw($0), as: UTF8.self) }
          }
          events.append("\(sentence.line):\(sentence.text)\(sentence.hasChecksum ? "" : " (unchecked)") \(fields)")
        case .comment(let text, let line): events.append("\(line):#\(String(decoding: text, as: UTF8.self))")
        case .rejected(let reason, let line, _): events.append("\(line):\(reason)")
        }
      }
      var offset = 0
      while offset < input.count {
        let end = min(input.count, offset + chunk)
        input[offset..<end].withUnsafeBufferPointer { framer.consume($0, handle) }
        offset = end
      }
      framer.finish(handle)
      return events
    }
    let whole = events(chunk: input.count)
    let byByte = events(chunk: 1)
    #expect(whole.count > 4_000)
    // Most are sentences; some addresses are not (a sentence's address or a random one).
    #expect(whole.filter { $0.contains("$") }.count > 800)
    #expect(whole.filter { $0.hasSuffix(":\(RejectionReason.notASentence)") }.count > 100)
    #expect(whole == byByte)
    if whole != byByte, let first = zip(whole, byByte).first(where: { $0 != $1 }) {
      Issue.record("first difference: \(first.0) vs \(first.1)")
    }
  }

  @Test func randomGarbageBetweenLinesLosesNoSentence() throws {
    let bytes = try Fixtures.bytes("walk.nmea")
    let clean = decodeAll(bytes)
    var generator = SeededRandom(seed: 7)
    var damaged: [UInt8] = []
    var insertions = 0
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      damaged += line
      damaged.append(UInt8(ascii: "\n"))
      if Int.random(in: 0..<10, using: &generator) == 0 {
        // Garbage that contains no sentence delimiter, then a line end.
        let length = Int.random(in: 1...300, using: &generator)
        for _ in 0..<length {
          var byte = UInt8.random(in: 0...255, using: &generator)
          if "$!#\r\n \t".utf8.contains(byte) { byte = 0xFF }
          damaged.append(byte)
        }
        damaged.append(UInt8(ascii: "\n"))
        insertions += 1
      }
    }
    let result = decodeAll(damaged)
    #expect(insertions > 50)
    #expect(result.fixes.map(\.latitude) == clean.fixes.map(\.latitude))
    #expect(result.fixes.map(\.time) == clean.fixes.map(\.time))
    #expect(result.statistics.sentences == clean.statistics.sentences)
    #expect(result.statistics.totalRejected == insertions)
  }
}

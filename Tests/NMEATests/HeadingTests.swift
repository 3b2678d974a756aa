import Foundation
import Geodesy
import Testing

@testable import NMEA

private func decode(_ body: String) throws -> Sentence {
  try Sentence(parsing: withChecksum(body))
}

private func readings(_ lines: [String], options: NMEADecoder.Options = .init()) -> [HeadingReading] {
  let text = lines.map { withChecksum($0) }.joined(separator: "\r\n") + "\r\n"
  return decodeAll(Array(text.utf8), options: options).headings
}

/// Heading and attitude sentences, each with its edge cases, and the corpus logs that carry
/// them against gpsd's own ATT reports.
@Suite struct HeadingTests {
  @Test func trueAndMagneticHeadingSentences() throws {
    #expect(try decode("$HEHDT,274.07,T").payload(as: HDT.self)?.heading == 274.07)
    #expect(try decode("$GPHDT,,T").payload(as: HDT.self)?.heading == nil)
    #expect(try decode("$APHDM,218.634,M").payload(as: HDM.self)?.heading == 218.634)
    #expect(throws: SentenceParseError.self) { try decode("$APHDM,218.634,T") }
    let ths = try #require(try decode("$GNTHS,244.28,A").payload(as: THS.self))
    #expect(ths.heading == 244.28 && ths.mode == UInt8(ascii: "A"))
    #expect(try decode("$GNTHS,244.28,V").payload(as: THS.self)?.heading == nil, "V: not valid")
    #expect(throws: SentenceParseError.self) { try decode("$GNTHS,244.28,X") }
    #expect(throws: SentenceParseError.self) { try decode("$GNTHS,361.0,A") }
  }

  @Test func hdgSignsAndWrap() throws {
    // Westerly deviation and variation are negative.
    let west = try #require(try decode("$HCHDG,98.3,2.1,W,12.6,W").payload(as: HDG.self))
    #expect(west.deviation == -2.1 && west.variation == -12.6)
    #expect(abs(west.magneticHeading! - 96.2) < 1e-9)
    // 359.9 + 0.2 E wraps to 0.1.
    let wrap = try #require(try decode("$HCHDG,359.9,0.2,E,,").payload(as: HDG.self))
    #expect(abs(wrap.magneticHeading! - 0.1) < 1e-9)
    let empty = try #require(try decode("$SDHDG,229.8,,,1.3,E").payload(as: HDG.self))
    #expect(empty.deviation == nil && empty.variation == 1.3 && empty.magneticHeading == 229.8)
    // The reading: true = magnetic + the sentence's own variation.
    let reading = try #require(readings(["$HCHDG,98.3,2.1,W,12.6,W"]).first)
    #expect(abs(reading.trueHeading! - 83.6) < 1e-9 && reading.declinationSource == .sentence)
    #expect(reading.declination == -12.6)
    let wrapped = try #require(readings(["$HCHDG,359.0,,,2.0,E"]).first)
    #expect(abs(wrapped.trueHeading! - 1.0) < 1e-9)
  }

  @Test func rateOfTurnAndTransducers() throws {
    #expect(try decode("$HEROT,-12.5,A").payload(as: ROT.self)?.rate == -12.5)
    #expect(try decode("$HEROT,3.0,V").payload(as: ROT.self)?.rate == nil, "V: not valid")
    let xdr = try #require(
      try decode("$HCXDR,A,-2.5,D,PITCH,A,4.0,D,ROLL,G,367,,MAGX,C,21.5,C,AIRTEMP").payload(as: XDR.self))
    #expect(xdr.pitch == -2.5 && xdr.roll == 4.0 && xdr.magneticX == 367)
    // Raw counts with a degree unit are no angle: passed over, and the sentence still counts.
    let raw = try #require(try decode("$HCXDR,A,171,D,PITCH,A,-37,D,ROLL").payload(as: XDR.self))
    #expect(raw.pitch == nil && raw.roll == -37)
    #expect(try decode("$IIXDR,C,,C,AIRTEMP,A,-1.0,D,HEEL").payload(as: XDR.self)?.pitch == nil)
  }

  @Test func proprietaryAttitudeSentences() throws {
    let pashr = try #require(
      try decode("$PASHR,204132.000,010.51,T,+00.39,-00.79,-00.84,0.151,0.075,0.555,1,0").payload(
        as: PASHRAttitude.self))
    #expect(pashr.heading == 10.51 && pashr.roll == 0.39 && pashr.pitch == -0.79 && pashr.heave == -0.84)
    #expect(pashr.rollAccuracy == 0.151 && pashr.pitchAccuracy == 0.075 && pashr.headingAccuracy == 0.555)
    #expect(pashr.gnssQuality == 1 && pashr.isAligned == false)
    // The five-state alignment status (Applanix POS and others): 2 (degraded), 3 (aligned) and
    // 4 (full navigation) are values, not errors; 5 is out of range.
    for (status, aligned) in [(2, false), (3, true), (4, true)] {
      let sentence = "$PASHR,204132.000,010.51,T,+00.39,-00.79,-00.84,0.151,0.075,0.555,1,\(status)"
      let five = try #require(try decode(sentence).payload(as: PASHRAttitude.self), "\(sentence)")
      #expect(five.alignmentStatus == status && five.isAligned == aligned && five.heading == 10.51)
    }
    #expect(throws: (any Error).self) {
      try decode("$PASHR,204132.000,010.51,T,+00.39,-00.79,-00.84,0.151,0.075,0.555,1,5")
    }
    let reading = try #require(
      readings(["$PASHR,204132.000,010.51,T,+00.39,-00.79,-00.84,0.151,0.075,0.555,1,0"]).first)
    #expect(reading.accuracy == 0.555 && reading.timeOfDay?.description == "20:41:32.000")

    let psti = try #require(
      try decode("$PSTI,036,003832.000,290322,244.28,2.77,0.00,R").payload(as: PSTI036.self))
    #expect(psti.heading == 244.28 && psti.pitch == 2.77 && psti.roll == 0)
    #expect(psti.date?.description == "2022-03-29")
    #expect(try decode("$PSTI,036,003832.000,290322,244.28,2.77,0.00,F").payload(as: PSTI036.self)?.heading == nil)
    #expect(try decode("$PSTI,030,003832.000") == .other(SentenceAddress("PSTI")))

    let counts = try #require(try decode("$PTNTHTM,14223,N,169,N,-43,N,13641,2454").payload(as: PTNTHTM.self))
    #expect(counts.wasRaw && abs(counts.heading! - 14223 * 360 / 65536.0) < 1e-9)
    #expect(abs(counts.pitch! - 169 * 360 / 65536.0) < 1e-9 && counts.magnetometerStatus == UInt8(ascii: "N"))
    let degrees = try #require(try decode("$PTNTHTM,78.1,N,0.9,N,-0.2,N,74.9,2454").payload(as: PTNTHTM.self))
    #expect(!degrees.wasRaw && degrees.heading == 78.1)
  }

  @Test func magneticHeadingsBecomeTrueWithTheReceiversVariationOrWMM() throws {
    // The RMC's 3.0° E variation.
    let rmc = "$GPRMC,120000.00,A,5230.0000,N,01320.0000,E,0.0,0.0,150626,3.0,E,A"
    let receiver = try #require(readings([rmc, "$APHDM,100.0,M"]).first)
    #expect(receiver.trueHeading == 103 && receiver.declinationSource == .receiver)
    // No variation: WMM2025 at the last fix, on its date.
    let gga = "$GPGGA,120000.00,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,"
    let next = "$GPGGA,120001.00,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,"
    let modelled = readings([gga, next, "$APHDM,100.0,M"], options: .init(date: CalendarDate(iso8601: "2026-06-15")))
    let reading = try #require(modelled.first)
    let year = 2026 + (31 + 28 + 31 + 30 + 31 + 14) / 365.0 + 12 / (24 * 365.0)
    let expected = MagneticModel.wmm2025.declination(latitude: 52.5, longitude: 13 + 20 / 60.0, height: 75, year: year)
    #expect(reading.declinationSource == .wmm2025 && abs(reading.declination! - expected) < 0.001)
    #expect(abs(reading.trueHeading! - (100 + expected)) < 0.001)
    #expect(reading.declinationCaveat == nil, "Berlin in 2026 is the model's home ground")
    // Outside the model's years, and near the north magnetic pole: marked as such.
    let early = readings([gga, next, "$APHDM,100.0,M"], options: .init(date: CalendarDate(iso8601: "2024-06-15")))
    #expect(early.first?.declinationCaveat == .outsideValidity)
    let pole = "$GPGGA,120000.00,8600.0000,N,14000.0000,E,1,08,1.0,35.0,M,0.0,M,,"
    let pole2 = "$GPGGA,120001.00,8600.0000,N,14000.0000,E,1,08,1.0,35.0,M,0.0,M,,"
    let arctic = readings([pole, pole2, "$APHDM,100.0,M"], options: .init(date: CalendarDate(iso8601: "2026-06-15")))
    #expect(arctic.first?.declinationCaveat == .blackout && arctic.first?.trueHeading != nil)
    // Neither: the magnetic heading alone.
    let alone = try #require(readings(["$APHDM,100.0,M"]).first)
    #expect(alone.trueHeading == nil && alone.magneticHeading == 100 && alone.declination == nil)
    // A true heading gets its magnetic one the same way.
    let both = try #require(readings([rmc, "$HEHDT,10.0,T"]).first)
    #expect(both.magneticHeading == 7)
  }

  @Test func headingsComeAtTheSensorsRateAndTheCycleKeepsTheLast() throws {
    var lines = ["$GPGGA,120000.00,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,"]
    for tenth in 0..<10 { lines.append("$HEHDT,\(100 + tenth).0,T") }
    lines.append("$GPGGA,120001.00,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,")
    let text = lines.map { withChecksum($0) }.joined(separator: "\r\n") + "\r\n"
    let result = decodeAll(Array(text.utf8))
    #expect(result.headings.count == 10)
    let headings: [Double?] = (100..<110).map { Double($0) }
    #expect(result.headings.map(\.trueHeading) == headings)
    #expect(result.fixes.first?.heading == 109)
  }

  static let headingLogs = [
    "hemi.log", "rst39.log", "saab-r4.log", "pypilot.log", "skytraq-PX1172RH_DS.log", "tnt-revolution.log",
    "bundg_zeus_9.log",
  ]

  /// Every heading sentence of the corpus logs that carry them is decoded (none rejected),
  /// and every heading, magnetic heading, pitch, roll and rate of turn in gpsd's ATT reports
  /// is one of ours (TNT's raw counts scaled to degrees).
  @Test(arguments: headingLogs)
  func corpusHeadingsAreDecodedAsGpsdDecodesThem(log: String) throws {
    let url = Corpus.directory.appendingPathComponent(log)
    let bytes = [UInt8](try Data(contentsOf: url))
    let result = decodeAll(bytes, options: .init(honoursDateComments: false))
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    let headingAddress = /^[$](..(HDT|HDG|HDM|THS|ROT|XDR)|PASHR|PSTI,036|PTNTHTM),/
    for rejection in result.rejections where rejection.line <= lines.count {
      let line = lines[rejection.line - 1]
      #expect(line.firstMatch(of: headingAddress) == nil, "\(log):\(rejection.line) rejected: \(line)")
    }
    #expect(!result.headings.isEmpty)
    let scale = log == "tnt-revolution.log" ? PTNTHTM.degreesPerCount : 1
    func rounded(_ value: Double) -> Int { Int((value * 1000).rounded()) }
    var ours: [String: Set<Int>] = [:]
    for reading in result.headings {
      for (key, value) in [
        ("heading", reading.trueHeading), ("mheading", reading.magneticHeading), ("pitch", reading.pitch),
        ("roll", reading.roll), ("rot", reading.rateOfTurn),
      ] {
        if let value { ours[key, default: []].insert(rounded(value)) }
      }
    }
    var compared = 0
    let chk = try String(contentsOf: url.appendingPathExtension("chk"), encoding: .utf8)
    // Lines end in CRLF, which a `String` holds as one character.
    for line in chk.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"ATT\"") {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      // TNT's pitch and roll reach gpsd through XDR too, as raw counts marked as degrees.
      let keys = log == "tnt-revolution.log" ? ["heading"] : ["heading", "mheading", "pitch", "roll", "rot"]
      for key in keys {
        guard let value = object[key] as? Double else { continue }
        compared += 1
        let expected = key == "heading" || key == "pitch" || key == "roll" ? value * scale : value
        let found = ours[key]?.contains { abs($0 - rounded(expected)) <= 1 } ?? false
        #expect(found, "\(log): gpsd's \(key) \(value) is none of ours")
      }
    }
    if log != "bundg_zeus_9.log" { #expect(compared > 0, "\(log): gpsd reported no ATT to compare") }
  }
}

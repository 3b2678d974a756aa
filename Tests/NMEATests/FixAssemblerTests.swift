import Foundation
import Testing

@testable import NMEA

private func fixes(_ lines: [String], options: NMEADecoder.Options = .init()) -> [Fix] {
  let text = lines.map { $0.hasPrefix("#") ? $0 : withChecksum($0) }.joined(separator: "\r\n") + "\r\n"
  return decodeAll(Array(text.utf8), options: options).fixes
}

@Suite struct FixAssemblerTests {
  @Test func sentencesOfOneCycleMerge() {
    let result = fixes([
      "$GPGGA,120000.00,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,",
      "$GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.8,1.0,1.5",
      "$GPRMC,120000.00,A,5230.0000,N,01320.0000,E,10.0,90.0,150624,3.0,E,A",
      "$GPGGA,120001.00,5230.0010,N,01320.0000,E,1,08,1.0,35.5,M,40.0,M,,",
      "$GPRMC,120001.00,A,5230.0010,N,01320.0000,E,10.0,90.0,150624,3.0,E,A",
    ])
    #expect(result.count == 2)
    let first = result[0]
    #expect(first.time?.description == "2024-06-15T12:00:00.000Z")
    #expect(first.mode == .threeD && first.quality == .gps)
    #expect(first.altitudeMSL == 35 && first.altitudeHAE == 75)
    #expect(abs(first.speed! - 10 * 1852 / 3600) < 1e-12 && first.course == 90)
    #expect(first.magneticVariation == 3)
    #expect(first.dop == DilutionOfPrecision(position: 1.8, horizontal: 1.0, vertical: 1.5))
    #expect(first.horizontalAccuracy == 1.0 * UserEquivalentRangeError.autonomous)
    #expect(first.verticalAccuracy == 1.5 * UserEquivalentRangeError.autonomous)
    #expect(first.accuracySource == .dilutionOfPrecision)
    #expect(result[1].climb == 0.5)
    #expect(result[1].verticalAccuracy == nil, "no GSA in the second cycle: VDOP unknown, not carried over")
  }

  @Test func timeOnlySentencesRollOverMidnight() {
    let result = fixes([
      "$GPRMC,235959.00,A,5230.0000,N,01320.0000,E,0.0,,311225,,,A",
      "$GPGGA,235959.00,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,",
      "$GPGGA,000000.00,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,",
      "$GPGGA,000001.00,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,",
    ])
    #expect(
      result.map { $0.time?.description } == [
        "2025-12-31T23:59:59.000Z", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.000Z",
      ])
  }

  @Test func noDateMeansNoTimestampUnlessSeeded() {
    let lines = ["$GPGGA,101010.00,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,"]
    #expect(fixes(lines).first?.time == nil)
    #expect(
      fixes(lines, options: .init(date: CalendarDate(year: 2020, month: 2, day: 29))).first?.time?.description
        == "2020-02-29T10:10:10.000Z")
    #expect(fixes(["# Date: 2019-3-14"] + lines).first?.time?.description == "2019-03-14T10:10:10.000Z")
    // A receiver's date wins over the comment.
    #expect(
      fixes(["# Date: 2019-3-14", "$GPZDA,101009.00,01,05,2021,00,00"] + lines).first?.time?.description
        == "2021-05-01T10:10:10.000Z")
  }

  @Test func invalidSentencesGiveNoPosition() {
    let result = fixes([
      "$GPGGA,120000.00,5230.0000,N,01320.0000,E,0,00,,,M,,M,,",
      "$GPRMC,120000.00,V,5230.0000,N,01320.0000,E,,,150624,,,N",
      "$GPGGA,120001.00,5230.0000,N,01320.0000,E,1,04,2.0,,M,,M,,",
    ])
    #expect(result.count == 2)
    #expect(!result[0].hasPosition && result[0].mode == .noFix)
    #expect(result[1].hasPosition && result[1].mode == .twoD)
  }

  @Test func severalGSAPerCycleMarkUsedSatellitesPerConstellation() {
    let result = fixes([
      "$GNGGA,120000.00,5230.0000,N,01320.0000,E,1,12,0.7,35.0,M,40.0,M,,",
      "$GNGSA,A,3,05,13,,,,,,,,,,,1.2,0.7,1.0,1",
      "$GNGSA,A,3,05,07,,,,,,,,,,,1.2,0.7,1.0,3",
      "$GPGSV,1,1,03,05,40,120,45,13,20,300,38,21,10,010,,1",
      "$GAGSV,1,1,02,05,60,200,44,07,30,100,40,7",
      "$GNGGA,120001.00,5230.0000,N,01320.0000,E,1,12,0.7,35.0,M,40.0,M,,",
    ])
    let satellites = result[0].satellites
    #expect(satellites.count == 5)
    let used = satellites.filter(\.isUsed).map { "\($0.constellation!)\($0.id)" }.sorted()
    #expect(used == ["GPS13", "GPS5", "Galileo5", "Galileo7"])
    #expect(satellites.first { $0.constellation == .galileo }?.signalID == 7)
    #expect(result[0].satellitesUsed == 12)
  }

  @Test func accuracyFromGSTWhenPresent() {
    let result = fixes([
      "$GNGST,120000.00,0.9,0.8,0.6,45.0,0.3,0.4,0.9",
      "$GNGGA,120000.00,5230.0000,N,01320.0000,E,4,12,0.7,35.0,M,40.0,M,1.0,0001",
      "$GNGSA,A,3,05,13,,,,,,,,,,,1.2,0.7,1.0,1",
      "$GNGGA,120001.00,5230.0000,N,01320.0000,E,4,12,0.7,35.0,M,40.0,M,1.0,0001",
    ])
    #expect(result[0].accuracySource == .receiverStatistics)
    #expect(abs(result[0].horizontalAccuracy! - 0.5) < 1e-12)
    #expect(result[0].verticalAccuracy == 0.9)
    #expect(result[0].quality == .rtkFixed)
    #expect(result[1].accuracySource == .dilutionOfPrecision)
    #expect(result[1].horizontalAccuracy == 0.7 * UserEquivalentRangeError.rtkFixed)
  }

  @Test func driveAcrossMidnightFixture() throws {
    let result = decodeAll(try Fixtures.bytes("drive-midnight.nmea"))
    let truth = try Fixtures.json("drive-midnight.truth.json")
    let times = result.fixes.compactMap(\.time)
    #expect(result.fixes.count == truth["epochs"] as? Int)
    #expect(times.count == result.fixes.count, "every fix has a date, RMC gap at midnight included")
    #expect(zip(times, times.dropFirst()).allSatisfy { $1.seconds(since: $0) == 1 })
    #expect(times.first?.description.hasPrefix("2025-12-31T23:55:00") == true)
    #expect(times.last?.description.hasPrefix("2026-01-01T00:05:00") == true)
  }

  @Test func corruptedFixtureCountsEveryDefect() throws {
    let result = decodeAll(try Fixtures.bytes("corrupted.nmea"))
    let expected = try Fixtures.json("corrupted.expected.json")
    let defects = expected["defects"] as! [String: [String: Any]]
    func count(_ name: String) -> Int { defects[name]!["count"] as! Int }
    let statistics = result.statistics
    #expect(statistics.rejected(.badChecksum) == count("bad_checksum"))
    #expect(statistics.rejected(.truncated) == count("truncated_then_glued") + count("double_dollar"))
    #expect(statistics.rejected(.malformedFields) == count("impossible_latitude_minutes") + count("impossible_hour"))
    #expect(
      statistics.rejected(.tooLong) + statistics.rejected(.notASentence) == count("overlong_line")
        + count("garbage_line") + count("garbage_prefix") + count("nonprintable_line"))
    #expect(statistics.uncheckedSentences == count("missing_checksum"))
    #expect(statistics.otherByAddress[SentenceAddress("PGRME")] == count("proprietary_pgrme"))
    #expect(statistics.otherByAddress[SentenceAddress("AIVDM")] == count("ais_aivdm"))
    #expect(statistics.lines == expected["total_lines"] as? Int)
    // Every epoch keeps a position: none lost both its GGA and its RMC.
    #expect(result.fixes.filter(\.hasPosition).count == expected["epochs_total"] as? Int)
    let line = { (name: String) in (defects[name]!["lines"] as! [Int]) }
    #expect(result.rejections.filter { $0.reason == .badChecksum }.map(\.line) == line("bad_checksum"))
  }
  /// Feeds `lines` one at a time as a live source reads them, asking after each whether
  /// the cycle is over; returns, per line, the times of the fixes that came out.
  private func liveFixes(_ lines: [String], pausingAfterEach: Bool = true) -> [[Int]] {
    var decoder = NMEADecoder()
    var perLine: [[Int]] = []
    for line in lines {
      var times: [Int] = []
      let handle: (DecoderEvent) -> Void = { if case .fix(let fix) = $0 { times.append(Int(fix.timeOfDay.seconds)) } }
      decoder.decode(Array((withChecksum(line) + "\r\n").utf8), handle)
      if pausingAfterEach { decoder.completeCycleIfEnded(handle) }
      perLine.append(times)
    }
    return perLine
  }

  private func cycle(_ second: Int, gsaAfterRMC: Bool = false) -> [String] {
    let time = String(format: "1200%02d.00", second)
    let gsa = "$GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.8,1.0,1.5"
    return ["$GPGGA,\(time),5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,"]
      + (gsaAfterRMC ? [] : [gsa])
      + ["$GPRMC,\(time),A,5230.0000,N,01320.0000,E,10.0,90.0,150624,3.0,E,A"]
      + (gsaAfterRMC ? [gsa] : [])
  }

  @Test func aCycleEndsAtItsLearnedLastSentenceWhenTheReceiverPauses() {
    let lines = cycle(0) + cycle(1) + cycle(2) + cycle(3)
    let perLine = liveFixes(lines)
    // Cycles 0 and 1 end when the next begins (RMC is learned as the last sentence from
    // them); cycles 2 and 3 as soon as their RMC is in.
    #expect(perLine[3] == [43200])
    #expect(perLine[6] == [43201])
    #expect(perLine[8] == [43202] && perLine[9].isEmpty)
    #expect(perLine[11] == [43203])
    // Read without pauses, nothing ends early.
    #expect(liveFixes(lines, pausingAfterEach: false)[8].isEmpty)
  }

  @Test func aBurstEndsItsCycleEvenWhenSomethingFollowsTheEnder() {
    var decoder = NMEADecoder()
    var times: [Int] = []
    let handle: (DecoderEvent) -> Void = { if case .fix(let fix) = $0 { times.append(Int(fix.timeOfDay.seconds)) } }
    let bursts = [cycle(0), cycle(1), cycle(2), cycle(3) + ["$GPZDA,120003.00,15,06,2024,00,00"]]
    for burst in bursts {
      decoder.decode(Array(burst.map { withChecksum($0) + "\r\n" }.joined().utf8), handle)
      decoder.completeCycleIfEnded(handle)
    }
    // RMC is learned as the end from cycles 0 and 1; cycle 3's once-a-second ZDA after it
    // is part of the burst and does not hold the cycle back.
    #expect(times == [43200, 43201, 43202, 43203])
  }

  @Test func aHalfReadSentenceKeepsTheCycleOpen() {
    var decoder = NMEADecoder()
    var times: [Int] = []
    let handle: (DecoderEvent) -> Void = { if case .fix(let fix) = $0 { times.append(Int(fix.timeOfDay.seconds)) } }
    let text = (cycle(0) + cycle(1) + cycle(2)).map { withChecksum($0) + "\r\n" }.joined()
    decoder.decode(Array(text.utf8), handle)
    decoder.decode(Array("$GPGGA,1200".utf8), handle)
    let ended = decoder.completeCycleIfEnded(handle)
    #expect(!ended, "the next sentence has begun")
    #expect(times == [43200, 43201])
  }

  @Test func aSentenceAfterTheLearnedEndIsRelearned() {
    // Two cycles teach RMC as the end; then the receiver sends GSA after RMC.
    let perLine = liveFixes(
      cycle(0) + cycle(1) + cycle(2, gsaAfterRMC: true) + cycle(3, gsaAfterRMC: true)
        + cycle(4, gsaAfterRMC: true) + cycle(5, gsaAfterRMC: true))
    let ends = perLine.enumerated().filter { !$0.element.isEmpty }.map(\.offset)
    // Cycle 2 ends early at its RMC (index 7); its GSA comes too late, so GSA is learned
    // as the end from cycles 3 and 4, and cycle 5 ends at its GSA (index 17).
    #expect(ends.first { perLine[$0] == [43202] } == 7)
    #expect(perLine[12] == [43203] && perLine[15] == [43204], "cycles 3 and 4 end when the next begins")
    #expect(perLine[17] == [43205])
  }
}

import Foundation
import Geodesy
import TestSupport
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

  /// A time put on a timestamp's day without the calendar is the time on its date, before
  /// the epoch too, and at the first and last microsecond of a day.
  @Test func aTimeOnATimestampsDayIsTheTimeOnItsDate() {
    var generator = SeededRandom(seed: 5)
    let day = TimeOfDay.microsecondsPerDay
    for round in 0..<20_000 {
      let days = Int64.random(in: -800_000...800_000, using: &generator)
      let within = round % 3 == 0 ? [0, day - 1][round % 2] : Int64.random(in: 0..<day, using: &generator)
      let timestamp = Timestamp(microsecondsSinceEpoch: days * day + within)
      let time = TimeOfDay(microseconds: Int64.random(in: 0..<day, using: &generator))
      #expect(timestamp.onSameDay(at: time) == Timestamp(date: timestamp.date, time: time), "\(timestamp)")
    }
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

  /// A decoder that keeps no satellite lists (`summary`'s) gives the same fixes in all
  /// else, the same rejections and the same counts, on the fixtures and every corpus log.
  @Test func withoutSatelliteTrackingOnlyTheSatelliteListsGo() throws {
    var options = NMEADecoder.Options()
    options.tracksSatellites = false
    let logs =
      try ["walk.nmea", "corrupted.nmea", "multi-gnss-burst.nmea", "drive-midnight.nmea"].map {
        ($0, try Fixtures.bytes($0))
      } + Corpus.logs.map { ($0.lastPathComponent, Array(try Data(contentsOf: $0))) }
    var listsSeen = 0
    for (name, bytes) in logs {
      let full = decodeAll(bytes)
      let lean = decodeAll(bytes, options: options)
      listsSeen += full.fixes.filter { !$0.satellites.isEmpty }.count
      #expect(lean.fixes.allSatisfy { $0.satellites.isEmpty }, "\(name)")
      let stripped = full.fixes.map { fix in
        var fix = fix
        fix.satellites = []
        return fix
      }
      #expect(lean.fixes == stripped, "\(name)")
      #expect(lean.rejections == full.rejections, "\(name)")
      #expect(lean.statistics == full.statistics, "\(name)")
    }
    #expect(logs.count == 4 + 118)
    #expect(listsSeen > 1_000)
  }

  @Test func accuracyFromGSTWhenPresent() {
    let result = fixes([
      "$GNGST,120000.00,0.9,0.8,0.6,45.0,0.3,0.4,0.9",
      "$GNGGA,120000.00,5230.0000000,N,01320.0000000,E,4,12,0.7,35.0,M,40.0,M,1.0,0001",
      "$GNGSA,A,3,05,13,,,,,,,,,,,1.2,0.7,1.0,1",
      "$GNGGA,120001.00,5230.0000000,N,01320.0000000,E,4,12,0.7,35.0,M,40.0,M,1.0,0001",
    ])
    #expect(result[0].accuracySource == .receiverStatistics)
    #expect(abs(result[0].horizontalAccuracy! - 0.5) < 1e-12)
    #expect(result[0].verticalAccuracy == 0.9)
    #expect(result[0].quality == .rtkFixed)
    #expect(result[1].accuracySource == .dilutionOfPrecision)
    #expect(result[1].horizontalAccuracy == 0.7 * UserEquivalentRangeError.rtkFixed)
  }

  /// GST, then `$PUBX,00`, `$PGRME`, `$PSRFEPE`, then DOP: each source where every one
  /// before it is missing, whatever order the sentences come in.
  @Test func receiversOwnEstimatesTakePrecedenceInOrder() {
    let gga = "$GPGGA,120000.00,5230.000000,N,01320.000000,E,1,08,1.0,35.0,M,40.0,M,,"
    let gst = "$GPGST,120000.00,0.9,0.8,0.6,45.0,0.3,0.4,0.9"
    let pubx = "$PUBX,00,120000.00,5230.000000,N,01320.000000,E,75.0,G3,2.1,3.2,0.0,0.0,0.0,,1.0,1.5,0.8,8,0,0"
    let pgrme = "$PGRME,15.0,M,45.0,M,25.0,M"
    let psrfepe = "$PSRFEPE,120000.00,A,1.0,6.82,10.69,0.0,180.0"
    let next = "$GPGGA,120001.00,5230.000000,N,01320.000000,E,1,08,1.0,35.0,M,40.0,M,,"
    func first(_ lines: [String]) -> Fix { fixes(lines + [next])[0] }

    let all = first([psrfepe, gga, pgrme, pubx, gst])
    #expect(all.accuracySource == .receiverStatistics && abs(all.horizontalAccuracy! - 0.5) < 1e-12)
    let ublox = first([gga, psrfepe, pgrme, pubx])
    #expect(ublox.accuracySource == .ubloxPUBX && ublox.horizontalAccuracy == 2.1 && ublox.verticalAccuracy == 3.2)
    // Garmin's figures are 2-sigma: halved.
    let garmin = first([gga, pgrme, psrfepe])
    #expect(garmin.accuracySource == .garminPGRME && garmin.horizontalAccuracy == 7.5)
    #expect(garmin.verticalAccuracy == 22.5)
    let sirf = first([psrfepe, gga])
    #expect(sirf.accuracySource == .sirfPSRFEPE && sirf.horizontalAccuracy == 6.82 && sirf.verticalAccuracy == 10.69)
    // Zeros are Garmin's "no estimate": DOP × UERE remains (a zero vertical error alone
    // leaves the vertical to DOP too).
    let unknown = first([gga, "$PGRME,0.00,M,0.00,M,0.00,M"])
    #expect(unknown.accuracySource == .dilutionOfPrecision && unknown.horizontalAccuracy == 4)
    let noVertical = first([gga, "$PGRME,15.0,M,0.00,M,25.0,M"])
    #expect(noVertical.accuracySource == .garminPGRME && noVertical.horizontalAccuracy == 7.5)
    #expect(noVertical.verticalAccuracy != 0)
    // A PSRFEPE marked invalid gives nothing; DOP × UERE remains.
    let invalid = first(["$PSRFEPE,120000.00,V,,,,,", gga])
    #expect(invalid.accuracySource == .dilutionOfPrecision && invalid.horizontalAccuracy == 4)
  }

  /// The accuracy is never finer than the printed coordinates allow: minutes with two
  /// decimals are 18.5 m steps north–south.
  @Test func accuracyIsNeverFinerThanTheCoordinatesResolution() {
    let coarse = fixes([
      "$GPGGA,120000,5230.00,N,01320.00,E,2,08,0.8,35.0,M,40.0,M,,",
      "$GPGGA,120001,5230.00,N,01320.00,E,2,08,0.8,35.0,M,40.0,M,,",
    ])[0]
    let bound = CoordinateResolution.horizontalBound(decimals: 2, latitude: 52.5)
    #expect(coarse.accuracySource == .coordinateResolution && coarse.horizontalAccuracy == bound)
    // step/√12 on each axis: 0.01′ is 18.53 m north–south and 11.31 m east–west at 52.5°.
    #expect(abs(bound - (18.53 * 18.53 + 11.31 * 11.31).squareRoot() / 12.0.squareRoot()) < 0.02)
    #expect(abs(CoordinateResolution.horizontalBound(decimals: 2, latitude: 0) - 7.55) < 0.01)
    let fine = fixes([
      "$GPGGA,120000,5230.0000,N,01320.0000,E,2,08,0.8,35.0,M,40.0,M,,",
      "$GPGGA,120001,5230.0000,N,01320.0000,E,2,08,0.8,35.0,M,40.0,M,,",
    ])[0]
    #expect(fine.accuracySource == .dilutionOfPrecision && fine.horizontalAccuracy == 0.8)
  }

  /// The shortcut that skips the resolution check for accuracies above any latitude's
  /// bound must really be above every latitude's, and not so loose that it skips nothing.
  @Test func largestResolutionBoundHoldsAtEveryLatitude() {
    for decimals in 0...9 {
      let largest = CoordinateResolution.largestBound(decimals: decimals)
      var highest = 0.0
      for step in 0...3600 {
        let latitude = -90 + Double(step) * 0.05
        highest = max(highest, CoordinateResolution.horizontalBound(decimals: decimals, latitude: latitude))
      }
      #expect(largest >= highest && largest <= 1.02 * highest, "decimals \(decimals)")
    }
  }

  /// A receiver alternating a GGA cycle and an RMC-only cycle stays 3D; the stated mode is
  /// carried at most `modeCarryCycles` cycles.
  @Test func aCycleThatStatesNoModeKeepsTheLastStatedOne() {
    var lines = ["$GPGGA,120000,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,"]
    for second in 1...7 {
      lines.append("$GPRMC,12000\(second),A,5230.0000,N,01320.0000,E,0.0,0.0,150624,,,A")
    }
    let result = fixes(lines)
    #expect(result.map(\.mode) == [.threeD, .threeD, .threeD, .threeD, .threeD, .threeD, .twoD, .twoD])
    #expect(result[1].altitudeMSL == nil)
    // A GGA without altitude states 2D, and that is carried too.
    let flat = fixes([
      "$GPGGA,120000,5230.0000,N,01320.0000,E,1,08,1.0,,M,,M,,",
      "$GPRMC,120001,A,5230.0000,N,01320.0000,E,0.0,0.0,150624,,,A",
    ])
    #expect(flat.map(\.mode) == [.twoD, .twoD])
  }

  /// A cycle without speed gets one from the positions; course only when the distance is
  /// clear of the positions' noise, and nothing over gaps longer than 10 s.
  @Test func speedAndCourseAreDerivedFromPositionsWhenTheCycleHasNone() {
    let result = fixes([
      "$GPGGA,120000,0000.0000,N,00000.0000,E,1,08,1.0,35.0,M,40.0,M,,",
      // 0.0100′ east at the equator is 18.553 m: 1 s later.
      "$GPGGA,120001,0000.0000,N,00000.0100,E,1,08,1.0,35.0,M,40.0,M,,",
      // 0.0010′ north, 1.843 m: within 2 × √(4² + 4²) m of noise, no course.
      "$GPGGA,120002,0000.0010,N,00000.0100,E,1,08,1.0,35.0,M,40.0,M,,",
      "$GPGGA,120015,0000.0010,N,00000.0200,E,1,08,1.0,35.0,M,40.0,M,,",
      "$GPRMC,120016,A,0000.0010,N,00000.0300,E,1.0,90.0,150624,,,A",
    ])
    #expect(result[0].speed == nil && result[0].speedSource == nil)
    #expect(abs(result[1].speed! - 18.5532) < 0.001 && result[1].speedSource == .positions)
    #expect(abs(result[1].course! - 90) < 1e-6)
    #expect(abs(result[2].speed! - 1.8427) < 0.001 && result[2].course == nil)
    #expect(result[3].speed == nil, "13 s after the previous fix")
    #expect(result[4].speedSource == .receiver && result[4].speed == 1852.0 / 3600)
  }

  /// Heights: EGM96 fills in a missing separation; a separation of exactly 0 marks an
  /// ellipsoidal altitude; `$PUBX,00` and `$PASHR,POS` give ellipsoidal heights and
  /// `$PGRMZ` an altitude, each only where GGA has none.
  @Test func heightsFromTheGeoidModelAndProprietarySentences() throws {
    let grid = try #require(try? GeoidGrid.installedEGM96.get(), "EGM96 grid (proj-data) not installed")
    let separation = try #require(grid.separation(latitude: 52.5, longitude: 13.333333333333334))
    let next = "$GPGGA,120001,5230.0000,N,01320.0000,E,1,08,1.0,,M,,M,,"
    let modelled = fixes(["$GPGGA,120000,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,,M,,", next])[0]
    #expect(modelled.geoidSource == .egm96 && modelled.geoidSeparation == separation)
    #expect(modelled.altitudeMSL == 35 && modelled.altitudeHAE == 35 + separation)
    let withoutModel = fixes(
      ["$GPGGA,120000,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,,M,,", next],
      options: {
        var options = NMEADecoder.Options(); options.geoid = nil; return options
      }())[0]
    #expect(withoutModel.altitudeHAE == nil && withoutModel.geoidSource == nil && withoutModel.altitudeMSL == 35)
    let receivers = fixes(["$GPGGA,120000,5230.0000,N,01320.0000,E,1,08,1.0,35.0,M,40.0,M,,", next])[0]
    #expect(receivers.geoidSource == .receiver && receivers.altitudeHAE == 75)
    let zero = fixes(["$GPGGA,120000,5230.0000,N,01320.0000,E,1,08,1.0,75.0,M,0.0,M,,", next])[0]
    #expect(zero.geoidSource == .egm96 && zero.altitudeHAE == 75 && zero.altitudeMSL == 75 - separation)

    let ublox = fixes([
      "$PUBX,00,120000.00,5230.000000,N,01320.000000,E,80.0,G3,2.1,3.2,3.6,45.0,-0.5,,1.0,1.5,0.8,8,0,0", next,
    ])[0]
    #expect(ublox.mode == .threeD && ublox.altitudeHAE == 80 && ublox.altitudeMSL == 80 - separation)
    #expect(ublox.speed == 1 && ublox.course == 45 && ublox.speedSource == .receiver && ublox.climb == 0.5)
    let ashtech = fixes([
      "$PASHR,POS,1,07,120000.00,5230.00000,N,01320.00000,E,80.00,,090.0,001.0,+000.0,2.2,1.2,1.8,1.0,BQ00", next,
    ])[0]
    #expect(ashtech.quality == .differential && ashtech.altitudeHAE == 80 && abs(ashtech.speed! - 0.514444) < 1e-6)
    #expect(ashtech.dop.horizontal == 1.2 && ashtech.accuracySource == .dilutionOfPrecision)
    let garmin = fixes(["$GPGLL,5230.000,N,01320.000,E,120000,A", "$PGRMZ,246,f,3", next])[0]
    #expect(garmin.mode == .threeD && abs(garmin.altitudeMSL! - 74.9808) < 1e-9 && garmin.geoidSource == .egm96)
    let both = fixes(["$GPGGA,120000,5230.000,N,01320.000,E,1,08,1.0,75.0,M,40.0,M,,", "$PGRMZ,200,f,3", next])[0]
    #expect(both.altitudeMSL == 75)
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
    #expect(statistics.decoded(.pgrme) == count("proprietary_pgrme"))
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

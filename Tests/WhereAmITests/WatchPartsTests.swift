import LocationKit
import NMEA
import Testing

@testable import whereami

/// The pieces of the watch screen: frame diffs, the braille canvas, the map scale, the
/// satellite bars, the track ring, local time.
@Suite struct WatchPartsTests {
  @Test func frameWriterSendsOnlyWhatChanged() {
    var writer = FrameWriter()
    let first = writer.update(["title", "Speed 1.40 m/s", "", "status"], width: 20)
    #expect(first.contains("\u{1B}[2J"))
    #expect(first.contains("\u{1B}[1;1Htitle"))
    #expect(first.contains("\u{1B}[2;1HSpeed 1.40 m/s"))
    #expect(!first.contains("\u{1B}[3;1H"))
    #expect(writer.update(["title", "Speed 1.40 m/s", "", "status"], width: 20) == "")
    // One digit changed: the cursor goes to it and writes it alone.
    let digit = writer.update(["title", "Speed 1.45 m/s", "", "status"], width: 20)
    #expect(digit == "\u{1B}[?2026h\u{1B}[2;10H5\u{1B}[?2026l")
    // A shorter line is cleared to its end.
    let shorter = writer.update(["title", "Speed -", "", "status"], width: 20)
    #expect(shorter == "\u{1B}[?2026h\u{1B}[2;7H-\u{1B}[K\u{1B}[?2026l")
    // A line that fills the width is not cleared: ESC[K would erase its last character.
    let full = writer.update(["title", "Speed -", "", "12345678901234567890"], width: 20)
    #expect(full == "\u{1B}[?2026h\u{1B}[4;1H12345678901234567890\u{1B}[?2026l")
    // Coloured lines are rewritten whole.
    let colored = writer.update(["\u{1B}[7mtitle\u{1B}[0m", "Speed -", "", "12345678901234567890"], width: 20)
    #expect(colored == "\u{1B}[?2026h\u{1B}[1;1H\u{1B}[7mtitle\u{1B}[0m\u{1B}[K\u{1B}[?2026l")
    // A new size redraws everything.
    #expect(writer.update(["title", "Speed -", "", "status"], width: 30).contains("\u{1B}[2J"))
    writer.invalidate()
    #expect(writer.update(["title", "Speed -", "", "status"], width: 30).contains("\u{1B}[2J"))
  }

  @Test func brailleCanvasMapsDotsToCells() {
    var canvas = BrailleCanvas(columns: 2, rows: 1)
    canvas.set(0, 0)
    canvas.set(1, 3)
    canvas.set(2, 1)
    canvas.set(-1, 0)
    canvas.set(4, 0)
    #expect(canvas.lines() == ["\u{2881}\u{2802}"])
    var line = BrailleCanvas(columns: 4, rows: 2)
    line.line(from: (0, 0), to: (7, 7))
    #expect((0..<8).allSatisfy { line.isSet($0, $0) })
    // A line from far outside is drawn where it crosses the canvas.
    var crossing = BrailleCanvas(columns: 4, rows: 2)
    crossing.line(from: (-1_000_000, 3), to: (1_000_000, 3))
    #expect((0..<8).allSatisfy { crossing.isSet($0, 3) } && !crossing.isSet(0, 2))
    var missing = BrailleCanvas(columns: 4, rows: 2)
    missing.line(from: (-50, -50), to: (50, -40))
    #expect(missing.lines() == ["    ", "    "])
    var circle = BrailleCanvas(columns: 10, rows: 5)
    circle.circle(center: (10, 10), radius: 6)
    #expect(circle.isSet(16, 10) && circle.isSet(4, 10) && circle.isSet(10, 4) && circle.isSet(10, 16))
    #expect(!circle.isSet(10, 10))
  }

  @Test func mapScaleIsRoundAndExact() {
    let fine = TrackMap.chooseScale(metresPerCell: 2.05, maximumBarCells: 10, units: .metric)
    #expect(fine.length.label == "20 m" && fine.cells == 8)
    let kilometres = TrackMap.chooseScale(metresPerCell: 150, maximumBarCells: 10, units: .metric)
    // 1 km in 5 cells and 2 km in 10 are the same scale: the longer bar wins.
    #expect(kilometres.length.label == "2 km" && kilometres.cells == 10)
    let narrow = TrackMap.chooseScale(metresPerCell: 2.05, maximumBarCells: 5, units: .metric)
    #expect(narrow.cells <= 5 && narrow.metresPerCell >= 2.05)
    for units in UnitSystem.allCases {
      let lengths = TrackMap.scaleLengths(units)
      #expect(zip(lengths, lengths.dropFirst()).allSatisfy { $0.metres < $1.metres })
      for needed in [0.01, 0.3, 7, 120, 4000, 90_000] {
        let scale = TrackMap.chooseScale(metresPerCell: needed, maximumBarCells: 10, units: units)
        #expect(scale.metresPerCell >= needed)
        #expect(scale.metresPerCell < needed * 1.6 || needed < 0.1)
      }
    }
    #expect(TrackMap.scaleLengths(.imperial).map(\.label).contains("0.5 mi"))
    #expect(TrackMap.scaleLengths(.nautical).map(\.label).contains("0.2 NM"))
  }

  @Test func mapDrawsTheAccuracyCircleAroundThePosition() {
    var location = Location(latitude: 48.0, longitude: 11.0)
    location.horizontalAccuracy = 40
    let lines = TrackMap.render(
      track: [TrackPoint(latitude: 48.0, longitude: 11.0)], location: location, columns: 30, rows: 13, units: .metric)
    #expect(lines.count == 13)
    #expect(lines[6].unicodeScalars.map(Character.init)[15] == "●")
    let dotted = lines.prefix(12).enumerated().filter { $0.element.unicodeScalars.contains { $0.value > 0x2800 } }
    // The circle spans rows above and below the position.
    #expect(dotted.contains { $0.offset < 5 } && dotted.contains { $0.offset > 7 })
    #expect(lines[12].contains(#/^├─*┤ \d+ m$/#))
    let waiting = TrackMap.render(track: [], location: nil, columns: 30, rows: 13, units: .metric)
    #expect(waiting[6].contains("waiting for a fix"))
  }

  @Test func signalBarsInEighths() {
    #expect(SatelliteTable.bar(nil) == "")
    #expect(SatelliteTable.bar(0) == "")
    #expect(SatelliteTable.bar(45) == "█████████")
    #expect(SatelliteTable.bar(47) == "█████████▍")
    #expect(SatelliteTable.bar(99) == "██████████")
    #expect(SatelliteTable.bar(2.5) == "▌")
  }

  @Test func longSatelliteTablesSayWhatIsLeftOut() {
    let satellites = (1...20).map { SatelliteInfo(constellation: .gps, id: $0, elevation: 10, azimuth: 20, snr: 30) }
    let lines = SatelliteTable.lines(satellites, rows: 8, style: .plain)
    #expect(lines.count == 8)
    #expect(lines.last == "… 15 more")
  }

  @Test func trackRingKeepsTheNewestPoints() {
    var ring = TrackRing(capacity: 3)
    for index in 0..<5 { ring.append(TrackPoint(latitude: Double(index), longitude: 0)) }
    #expect(ring.count == 3)
    #expect(ring.points.map(\.latitude) == [2, 3, 4])
    var model = WatchModel(sourceName: "x")
    for index in 0..<(WatchModel.trackCapacity + 10) {
      model.add(Location(latitude: 50, longitude: Double(index) * 1e-5), at: Double(index), zone: nil)
    }
    #expect(model.track.count == WatchModel.trackCapacity)
    #expect(model.fixCount == WatchModel.trackCapacity + 10)
  }

  @Test func localZoneFromTheSystem() {
    // TZ is the process's: UTC unless the tester set another; the offset and the name agree.
    let zone = LocalZone.system(at: 1_750_000_000)
    #expect(zone != nil)
    #expect(WatchScreen.offsetText(7200) == "+02:00")
    #expect(WatchScreen.offsetText(-12600) == "-03:30")
    let local = LocalZone(offset: 7200, abbreviation: "CEST").local(Timestamp(microsecondsSinceEpoch: 0))
    #expect(local.description == "1970-01-01T02:00:00.000Z")
  }

  @Test func anExportsTrackIsNamedAfterItsSource() throws {
    #expect(ExportCommand.trackName(try SourceAddress("fixtures/walk.nmea")) == "walk")
    #expect(ExportCommand.trackName(try SourceAddress("-")) == "standard input")
    #expect(ExportCommand.trackName(try SourceAddress("gpsd://")) == "gpsd://localhost:2947")
  }
}

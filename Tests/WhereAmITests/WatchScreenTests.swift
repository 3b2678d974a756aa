import Foundation
import LocationKit
import NMEA
import Testing

@testable import whereami

/// Frames of the watch screen, rendered from fixed models: the screen is a pure function of
/// the model, the size and the time.
@Suite struct WatchScreenTests {
  /// 2025-06-14 07:44:00 UTC.
  static let start = Timestamp(
    date: CalendarDate(year: 2025, month: 6, day: 14)!, time: TimeOfDay(hour: 7, minute: 44, second: 0)!)
  static let berlinSummer = LocalZone(offset: 7200, abbreviation: "CEST")
  /// When the last fix arrived, on the wall clock; frames are drawn 0.4 s later.
  static let arrival = 1_750_000_000.0
  static let now = arrival + 0.4

  /// A walk of 60 fixes due east at 1.4 m/s that ends at 52.5141° N 13.3441° E, with
  /// GPS, GLONASS and Galileo satellites.
  static func walkModel(_ options: WatchModel.Options = WatchModel.Options(), fixes: Int = 60) -> WatchModel {
    var model = WatchModel(sourceName: "fixtures/walk.nmea", options: options)
    let metresPerDegreeLongitude = 111_412.84 * cos(52.5141 * Double.pi / 180)
    for index in 0..<fixes {
      let back = Double(fixes - 1 - index)
      model.add(
        location(longitude: 13.3441 - back * 1.4 / metresPerDegreeLongitude, second: index), at: arrival - back,
        zone: berlinSummer)
    }
    return model
  }

  static func location(latitude: Double = 52.5141, longitude: Double = 13.3441, second: Int = 59) -> Location {
    var location = Location(
      latitude: latitude, longitude: longitude, timeOfDay: TimeOfDay(hour: 7, minute: 44, second: second)!,
      mode: .threeD)
    location.timestamp = Timestamp(date: CalendarDate(year: 2025, month: 6, day: 14)!, time: location.timeOfDay)
    location.horizontalAccuracy = 3.5
    location.accuracySource = .dilutionOfPrecision
    location.altitude = 36.3
    location.ellipsoidalAltitude = 75.9
    location.verticalAccuracy = 6.9
    location.speed = 1.4
    location.course = 93.8
    location.climb = 0.1
    location.quality = .gps
    location.dop = DilutionOfPrecision(position: 1.69, horizontal: 0.88, vertical: 1.45)
    location.satellitesUsed = 5
    location.satellites = [
      SatelliteInfo(constellation: .gps, id: 2, elevation: 55, azimuth: 121, snr: 45, isUsed: true),
      SatelliteInfo(constellation: .gps, id: 6, elevation: 76, azimuth: 149, snr: 47, isUsed: true),
      SatelliteInfo(constellation: .gps, id: 15, elevation: 6, azimuth: 230, snr: nil, isUsed: false),
      SatelliteInfo(constellation: .glonass, id: 65, elevation: 40, azimuth: 300, snr: 38, isUsed: true),
      SatelliteInfo(constellation: .galileo, id: 3, signalID: 1, elevation: 20, azimuth: 10, snr: 30, isUsed: true),
      SatelliteInfo(constellation: .galileo, id: 3, signalID: 7, elevation: 20, azimuth: 10, snr: 41, isUsed: false),
      SatelliteInfo(constellation: .galileo, id: 11, elevation: 63, azimuth: 77, snr: 50, isUsed: true),
    ]
    return location
  }

  static func render(_ model: WatchModel, _ width: Int, _ height: Int, style: ScreenStyle = .plain) -> [String] {
    WatchScreen.render(model, width: width, height: height, now: now, style: style)
  }

  /// Columns of a rendered line counted independently of the code under test: escape
  /// sequences removed, then one column per scalar (the screen's own glyphs are narrow).
  static func columns(_ line: String) -> Int {
    line.replacing(#/\x1B\[[0-9;?]*[A-Za-z]/#, with: "").unicodeScalars.count
  }

  static func braille(_ lines: [String]) -> Int {
    lines.reduce(0) { $0 + $1.unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count }
  }

  // MARK: Sizes

  @Test(arguments: [
    (120, 40), (80, 24), (40, 12), (20, 5), (200, 60), (61, 20), (60, 30), (110, 24), (1, 1), (3, 2), (0, 0),
  ])
  func everySizeGivesExactlyItsLines(width: Int, height: Int) {
    let models = [Self.walkModel(), WatchModel(sourceName: "gpsd://localhost:2947")]
    for model in models {
      for style in [ScreenStyle.plain, .colored] {
        let lines = Self.render(model, width, height, style: style)
        #expect(lines.count == height)
        for line in lines {
          #expect(Self.columns(line) <= width, "\(width)×\(height): '\(line)' is \(Self.columns(line)) wide")
          #expect(TextWidth.width(line) == Self.columns(line))
        }
        if style == .plain { #expect(!lines.joined().contains("\u{1B}")) }
      }
    }
  }

  @Test func fullSizeShowsEveryValue() throws {
    let lines = Self.render(Self.walkModel(), 120, 40)
    let screen = lines.joined(separator: "\n")
    #expect(lines[0].hasPrefix(" whereami watch · fixtures/walk.nmea"))
    #expect(lines[0].hasSuffix("q quit "))
    for expected in [
      "Latitude    52.5141000° N", "Longitude   13.3441000° E", "Accuracy    ±3.5 m (from DOP)",
      "Speed       1.40 m/s  5.0 km/h", "Course      93.8° E", "Distance    82.6 m", "From start  82.7 m",
      "Motion      moving for 59 s", "Fix         3D · GPS · 5 used", "Fix age     0.4 s",
      "UTC         2025-06-14 07:44:59.0",
      "Local       2025-06-14 09:44:59.0 CEST", "Altitude    36.3 m MSL ±6.9 m", "Ellipsoidal 75.9 m",
      "Climb       +0.10 m/s", "DOP         H 0.88  V 1.45  P 1.69", "Grid square JO62qm13",
    ] {
      #expect(screen.contains(expected), "missing '\(expected)'")
    }
    // The accuracy shared between the axes by the satellites' geometry: squares summing
    // to the accuracy's.
    let axes = try #require(screen.firstMatch(of: /Axes        E ±(\d+\.\d) m  N ±(\d+\.\d) m/), "\(screen)")
    let (east, north) = (Double(axes.output.1)!, Double(axes.output.2)!)
    #expect(abs((east * east + north * north).squareRoot() - 3.5) < 0.1, "\(east), \(north)")
    #expect(lines[39].hasPrefix("receiving"))
    #expect(lines[39].hasSuffix("60 fixes"))
  }

  /// A source with a compass shows its heading and the heading beside the course, with the
  /// angle between them; sources without one keep the screen as it was.
  @Test func aCompassShowsHeadingBesideCourse() {
    var model = Self.walkModel()
    #expect(!Self.render(model, 120, 40).joined().contains("Heading"))
    var heading = Heading(source: "HDT")
    heading.trueHeading = 99.9
    heading.magneticHeading = 95.2
    heading.accuracy = 0.55
    model.update(heading)
    let screen = Self.render(model, 120, 40).joined(separator: "\n")
    #expect(screen.contains("Heading     99.9°T 95.2°M ±0.6°"), "\(screen)")
    #expect(screen.contains("Compass     99.9° crs 93.8° Δ+6.1°"), "\(screen)")
    // Across north the angle is the short way round, port negative.
    #expect(WatchFormat.compass(355, course: 5) == "355.0° crs 5.0° Δ-10.0°")
    #expect(WatchFormat.compass(10, course: nil) == "10.0° crs -")
    // The widest values keep their Δ whole: the row is never cut.
    heading.trueHeading = 359.9
    var location = Self.location()
    location.course = 180.0
    model.add(location, at: Self.now, zone: nil)
    model.update(heading)
    let wide = Self.render(model, 200, 60).joined(separator: "\n")
    #expect(wide.contains("Compass     359.9° crs 180.0° Δ+179.9°"), "\(wide)")
  }

  @Test func satelliteTableGroupsByConstellation() {
    let screen = Self.render(Self.walkModel(), 120, 40).joined(separator: "\n")
    #expect(screen.contains(" PRN  Elev  Azim  SNR             Used"))
    #expect(screen.contains("GPS · 2 of 3 used"))
    #expect(screen.contains("GLONASS · 1 of 1 used"))
    // Galileo 3 sends two signals: one row, with the stronger one, used by either.
    #expect(screen.contains("Galileo · 2 of 2 used"))
    #expect(screen.contains("   2   55°  121°   45 █████████     ✓"))
    #expect(screen.contains("   6   76°  149°   47 █████████▍    ✓"))
    #expect(screen.contains("  15    6°  230°    -               "))
    #expect(screen.contains("   3   20°   10°   41 ████████▎     ✓"))
    #expect(screen.contains("  11   63°   77°   50 ██████████    ✓"))
    let gps = screen.range(of: "GPS ·")!.lowerBound
    let glonass = screen.range(of: "GLONASS ·")!.lowerBound
    let galileo = screen.range(of: "Galileo ·")!.lowerBound
    #expect(gps < glonass && glonass < galileo)
  }

  @Test func mapShowsTrackMarkerAndScale() {
    let lines = Self.render(Self.walkModel(), 120, 40)
    let map = lines[1..<39].map { String($0.unicodeScalars.dropFirst(41).map(Character.init)) }
    #expect(map[0].hasPrefix("Track") && map[0].hasSuffix("N↑"))
    // The position is the centre of the map; the walk came from the west.
    let canvasRows = 38 - 2
    let markerRow = map[1 + canvasRows / 2]
    let marker = Array(markerRow).firstIndex(of: "●")
    #expect(marker == 79 / 2)
    #expect(Self.braille(Array(map[1...canvasRows])) > 20)
    let westOfMarker = String(Array(markerRow)[..<marker!])
    #expect(Self.braille([westOfMarker]) > 5)
    let eastOfMarker = String(Array(markerRow)[(marker! + 1)...])
    // East of the position only the accuracy circle can be drawn: a dot or two.
    #expect(Self.braille([eastOfMarker]) <= 2)
    #expect(map[37].contains(#/^├─*┤ \d+ m$/#))
  }

  @Test func everyCoordinateStyle() {
    let cases: [(CoordinateStyle, String, String)] = [
      (.decimal, "52.5141000° N", "13.3441000° E"),
      (.dm, "52°30.84600' N", "13°20.64600' E"),
      (.dms, "52°30'50.760\" N", "13°20'38.760\" E"),
    ]
    for (style, latitude, longitude) in cases {
      let screen = Self.render(Self.walkModel(WatchModel.Options(coordinates: style)), 80, 24).joined()
      #expect(screen.contains("Latitude    " + latitude))
      #expect(screen.contains("Longitude   " + longitude))
    }
    #expect(WatchFormat.latitude(-33.8688, .decimal) == "33.8688000° S")
    #expect(WatchFormat.longitude(-0.5, .dms) == "0°30'00.000\" W")
    // Rounding carries into the degrees, never 60 minutes or seconds.
    #expect(WatchFormat.latitude(52.999_999_99, .dm) == "53°00.00000' N")
    #expect(WatchFormat.latitude(52.999_999_99, .dms) == "53°00'00.000\" N")
  }

  @Test func compassPoints() {
    let cases: [(Double, String)] = [
      (0, "N"), (11.2, "N"), (11.3, "NNE"), (45, "NE"), (93.8, "E"), (180, "S"), (247.5, "WSW"), (280.5, "W"),
      (348.7, "NNW"), (348.8, "N"), (359, "N"), (360, "N"), (-10, "N"),
    ]
    for (degrees, point) in cases { #expect(WatchFormat.compassPoint(degrees) == point, "\(degrees)°") }
  }

  @Test func everyUnitSystem() {
    let imperial = Self.render(Self.walkModel(WatchModel.Options(units: .imperial)), 120, 40).joined(separator: "\n")
    #expect(imperial.contains("Speed       3.1 mph"))
    #expect(imperial.contains("Altitude    119.1 ft MSL ±22.6 ft"))
    #expect(imperial.contains("Distance    271 ft"))
    #expect(imperial.contains("Climb       +20 ft/min"))
    #expect(imperial.contains(#/├─*┤ \d+ ft/#))
    let nautical = Self.render(Self.walkModel(WatchModel.Options(units: .nautical)), 120, 40).joined(separator: "\n")
    #expect(nautical.contains("Speed       2.72 kn"))
    #expect(nautical.contains("Distance    0.045 NM"))
    #expect(WatchFormat.distance(1606.4, .metric) == "1.606 km")
    // A receiver that stood still from the first fix on.
    var standing = WatchModel(sourceName: "standing")
    for second in 0..<200 {
      var location = Self.location(second: second % 60).withMinute(44 + second / 60)
      location.speed = 0.02
      standing.add(location, at: Self.arrival, zone: nil)
    }
    let standingScreen = Self.render(standing, 120, 40).joined(separator: "\n")
    #expect(standingScreen.contains("Motion      stopped for 3 min 19 s"), "\(standingScreen)")
    #expect(WatchFormat.distance(1609.344, .imperial) == "1.000 mi")
  }

  @Test func smallTerminalKeepsTheMostImportantValues() {
    let lines = Self.render(Self.walkModel(), 40, 12)
    #expect(lines[1] == "Latitude    52.5141000° N")
    #expect(lines[2] == "Longitude   13.3441000° E")
    #expect(lines.contains { $0.hasPrefix("Distance    82.6 m ±") }, "\(lines)")
    #expect(lines[0] == " whereami watch · fixtures/walk… q quit ")
    #expect(lines[11].hasPrefix("receiving"))
  }

  @Test func wideShortTerminalGivesTheTableItsOwnColumn() {
    let lines = Self.render(Self.walkModel(), 120, 20)
    #expect(lines.contains { $0.contains("Latitude") && $0.contains("PRN") })
    #expect(lines.contains { $0.contains("Galileo · 2 of 2 used") })
    #expect(!lines.joined().contains("more"))
    #expect(Self.braille(lines) > 10)
  }

  @Test func statusLineShowsTheLatestTrouble() {
    var model = WatchModel(sourceName: "gpsd://localhost:2947")
    #expect(Self.render(model, 80, 24).last!.hasPrefix("waiting for the first fix from gpsd://localhost:2947"))
    #expect(Self.render(model, 80, 24).joined().contains("waiting for a fix"))
    model.note("whereami: gpsd://localhost:2947: something odd", at: Self.arrival - 1)
    #expect(Self.render(model, 80, 24).last!.hasPrefix("whereami: gpsd://localhost:2947: something odd"))
    model.fail(
      LocationError(.cannotConnect, "cannot connect to gpsd at localhost:2947: connection refused; retrying"),
      at: Self.arrival)
    let refused = Self.render(model, 80, 24, style: .colored).last!
    #expect(refused.hasPrefix("\u{1B}[31mcannot connect to gpsd at localhost:2947"))

    model = Self.walkModel()
    model.fail(LocationError(.locationUnknown, "no data from /dev/ttyUSB0 for 3 s"), at: Self.arrival + 0.2)
    #expect(Self.render(model, 120, 40).last!.hasPrefix("location unknown: no data from /dev/ttyUSB0 for 3 s"))
    model.add(Self.location(), at: Self.arrival + 20, zone: nil)
    let recovered = WatchScreen.render(model, width: 120, height: 40, now: Self.arrival + 20.5, style: .plain).last!
    #expect(recovered.hasPrefix("receiving · last error 20 s ago: location unknown: no data from /dev/ttyUSB0"))
    model.note("whereami: /dev/ttyUSB0:12: bad checksum", at: Self.arrival + 21)
    let noted = WatchScreen.render(model, width: 120, height: 40, now: Self.arrival + 23.5, style: .plain).last!
    #expect(noted.hasPrefix("receiving · last message 2.5 s ago: whereami: /dev/ttyUSB0:12: bad checksum"))
    model.fail(LocationError(.sourceEnded, "end of fixtures/walk.nmea"), at: Self.arrival + 22)
    let ended = Self.render(model, 120, 40).last!
    #expect(ended.hasPrefix("source ended — press q to quit"))
    #expect(ended.hasSuffix("61 fixes"))
  }

  @Test func outsideTextCannotControlTheTerminal() {
    let model = WatchModel(sourceName: "evil\u{1B}[2J\u{7}name")
    let lines = Self.render(model, 80, 24)
    #expect(lines[0].hasPrefix(" whereami watch · evil?[2J?name"))
    #expect(!lines.joined().contains("\u{1B}"))
    // Wide characters take two columns: the title still fits.
    let wide = Self.render(WatchModel(sourceName: String(repeating: "地図", count: 40)), 60, 10)
    #expect(TextWidth.width(wide[0]) <= 60)
    #expect(TextWidth.width("地図") == 4)
  }

  @Test func noColorMeansNoEscapes() {
    let plain = Self.render(Self.walkModel(), 120, 40, style: .plain).joined()
    let colored = Self.render(Self.walkModel(), 120, 40, style: .colored).joined()
    #expect(!plain.contains("\u{1B}"))
    #expect(colored.contains("\u{1B}[7m"))
    #expect(colored.contains("\u{1B}[32m"))
  }

  @Test func emptyModelShowsUnknowns() {
    let lines = Self.render(WatchModel(sourceName: "gpsd://localhost:2947"), 120, 40)
    #expect(lines[1].hasPrefix("Latitude    -  "))
    #expect(lines.contains { $0.hasPrefix("Fix         no fix") })
    #expect(lines.contains { $0.hasPrefix("no satellite data") })
    #expect(lines.last!.hasSuffix("0 fixes"))
  }

  /// gpsd after a restart reports positions before it knows the date: the screen shows
  /// where, with the time and the motion unknown, and the distance is the timed fixes'.
  @Test func aPositionWithoutATimeShowsNoTimeAndKeepsTheDistance() {
    var model = Self.walkModel()
    var untimed = Self.location(longitude: 13.3443)
    untimed.timestamp = nil
    untimed.timeOfDay = TimeOfDay(microseconds: 0)
    untimed.hasTime = false
    model.add(untimed, at: Self.arrival, zone: Self.berlinSummer)
    let screen = Self.render(model, 120, 40).joined(separator: "\n")
    for expected in ["Longitude   13.3443000° E", "Distance    82.6 m", "Motion      -  ", "UTC         -  "] {
      #expect(screen.contains(expected), "missing '\(expected)' in \(screen)")
    }
    #expect(!screen.contains("00:00:00"))
  }

  @Test func aColdStartShowsTheTimeAndTheSatellitesInView() {
    var model = WatchModel(sourceName: "cold start")
    let satellites = [
      SatelliteInfo(constellation: .gps, id: 7, elevation: 40, azimuth: 120, snr: 31, isUsed: false),
      SatelliteInfo(constellation: .gps, id: 9, elevation: 12, azimuth: 300, snr: nil, isUsed: false),
    ]
    model.update(
      SkyView(
        timestamp: Timestamp(
          date: CalendarDate(year: 2026, month: 3, day: 14)!, time: TimeOfDay(hour: 8, minute: 0, second: 5)!),
        satellites: satellites, satellitesUsed: 0))
    let screen = Self.render(model, 120, 40).joined(separator: "\n")
    #expect(screen.contains("UTC         2026-03-14 08:00:05.0"), "\(screen)")
    #expect(screen.contains("Fix         no fix · 2 in view, 0 used"))
    #expect(!screen.contains("no satellite data"))
    #expect(screen.contains("   7   40°  120°   31"))
  }
}

extension Location {
  fileprivate func withMinute(_ minute: Int) -> Location {
    var copy = self
    copy.timeOfDay = TimeOfDay(hour: 7, minute: minute, second: Int(timeOfDay.seconds) % 60)!
    copy.timestamp = timestamp.map {
      Timestamp(date: $0.date, time: copy.timeOfDay)
    }
    return copy
  }
}

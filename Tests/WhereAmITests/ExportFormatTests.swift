import Foundation
import TestSupport
import Testing

/// `whereami export`'s formats, checked by the tools people load them into: gpsbabel reads
/// the GPX and KML back, xmllint validates the GPX against the GPX 1.1 schema, Python's
/// `geojson` validates the GeoJSON, headless Chromium renders the SVG. Every format is
/// compared fix by fix with `print --json`.
@Suite struct ExportFormatTests {
  /// The logs every format is checked on, and their segment counts: a walk, a drive over
  /// midnight whose 20 s without RMC still has GGA fixes (no gap), and the walk with a
  /// minute cut out (a gap).
  static func logs(_ scratch: ExportScratch) throws -> [(path: String, segments: Int)] {
    [(Paths.fixture("walk.nmea"), 1), (Paths.fixture("drive-midnight.nmea"), 1), (try scratch.walkWithGap(), 2)]
  }

  @Test func gpxValidatesAgainstTheGPX11Schema() throws {
    let scratch = try ExportScratch()
    for (index, log) in try Self.logs(scratch).enumerated() {
      let file = scratch.path("\(index).gpx")
      let result = try runWhereAmI(["export", log.path, "--format", "gpx", "-o", file])
      #expect(result.code == 0, "\(result.error)")
      let check = try ExportTools.run(
        ExportTools.xmllint, ["--noout", "--nonet", "--schema", ExportTools.gpxSchema, file])
      #expect(check.code == 0, "\(log.path): \(check.error)")
      #expect(check.error.contains("validates"))
      let text = try scratch.read("\(index).gpx")
      #expect(text.components(separatedBy: "<trkseg>").count - 1 == log.segments)
      for element in ["<ele>", "<time>", "<sat>", "<hdop>", "<vdop>", "<pdop>", "<fix>3d</fix>", "<gpxtpx:speed>"] {
        #expect(text.contains(element), "no \(element) in \(log.path)")
      }
    }
    // The validator rejects what the schema forbids: a fix type GPX does not have.
    let bad = try scratch.read("0.gpx").replacingOccurrences(of: "<fix>3d</fix>", with: "<fix>4d</fix>")
    let rejected = try ExportTools.run(
      ExportTools.xmllint, ["--noout", "--nonet", "--schema", ExportTools.gpxSchema, try scratch.write("bad.gpx", bad)])
    #expect(rejected.code != 0)
    #expect(rejected.error.contains("4d"))
  }

  @Test(arguments: ["gpx", "kml"]) func gpsbabelReadsTheTrackBack(format: String) throws {
    let scratch = try ExportScratch()
    let style = try scratch.write("points.style", ExportTools.gpsbabelStyle)
    for (index, log) in try Self.logs(scratch).enumerated() {
      let reference = try ReferenceFix.of(log.path)
      let file = scratch.path("\(index).\(format)")
      let result = try runWhereAmI(["export", log.path, "-o", file])
      #expect(result.code == 0, "\(result.error)")
      // The track: the same points, the same coordinates, the same length.
      let read = try ExportTools.run(
        ExportTools.gpsbabel,
        ["-t", "-i", format, "-f", file, "-x", "nuketypes,waypoints", "-o", "xcsv,style=\(style)", "-F", "-"])
      #expect(read.code == 0, "\(read.error)")
      let rows = ExportTools.lines(read.output).map { $0.split(separator: ",").map(String.init) }
      #expect(rows.count == reference.count, "\(log.path): gpsbabel read \(rows.count) of \(reference.count) points")
      for (row, fix) in zip(rows, reference) where row[0] != fix.latitude || row[1] != fix.longitude {
        Issue.record("\(log.path): gpsbabel read \(row[0]),\(row[1]) for \(fix.latitude),\(fix.longitude)")
        break
      }
      // gpsbabel sums great circles on a sphere, we sum WGS84 geodesics: within 0.5 %. Its
      // count starts again with each track it reads (each KML line, the one GPX trk): ours
      // is summed over the same stretches.
      var theirs = 0.0
      var ours = 0.0
      var trackStart = 0
      for index in rows.indices where rows[index].count == 3 {
        let distance = Double(rows[index][2]) ?? 0
        let previous = index > 0 ? Double(rows[index - 1][2]) ?? 0 : 0
        if index > 0 && distance < previous {
          theirs += previous
          ours += reference[index - 1].pathLength - reference[trackStart].pathLength
          trackStart = index
        }
      }
      theirs += Double(rows.last?[2] ?? "") ?? 0
      ours += reference.last!.pathLength - reference[trackStart].pathLength
      #expect(ours > 500)
      #expect(abs(theirs - ours) / ours < 0.005, "\(log.path): gpsbabel \(theirs) m, ours \(ours) m")
      // The times: GPX track points have them, KML has them on the fixes' placemarks.
      let types = format == "gpx" ? ["-t", "-x", "nuketypes,waypoints"] : ["-x", "nuketypes,tracks,routes"]
      let timed = try ExportTools.run(
        ExportTools.gpsbabel, types + ["-i", format, "-f", file, "-o", "unicsv,utc=0", "-F", "-"])
      let lines = ExportTools.lines(timed.output).dropFirst()
      #expect(lines.count == reference.count)
      for (line, fix) in [(lines.first, reference.first), (lines.last, reference.last)] {
        let time = fix!.time!.replacingOccurrences(of: "-", with: "/").replacingOccurrences(of: "T", with: ",")
        #expect(line?.contains(String(time.prefix(19))) == true, "\(line ?? "") has no \(time)")
      }
    }
  }

  @Test func kmlHasTimestampedFixesAndALinePerSegment() throws {
    let scratch = try ExportScratch()
    for (index, log) in try Self.logs(scratch).enumerated() {
      let reference = try ReferenceFix.of(log.path)
      let file = scratch.path("\(index).kml")
      #expect(try runWhereAmI(["export", log.path, "--format", "kml", "-o", file]).code == 0)
      #expect(try ExportTools.run(ExportTools.xmllint, ["--noout", "--nonet", file]).code == 0)
      let text = try scratch.read("\(index).kml")
      #expect(text.contains("<kml xmlns=\"http://www.opengis.net/kml/2.2\">"))
      #expect(text.components(separatedBy: "<TimeStamp><when>").count - 1 == reference.count)
      #expect(text.components(separatedBy: "<LineString>").count - 1 == log.segments)
      #expect(text.contains("<TimeSpan><begin>\(reference.first!.time!)</begin><end>\(reference.last!.time!)</end>"))
    }
  }

  @Test func geojsonPassesTheValidatorAndRFC7946() throws {
    let scratch = try ExportScratch()
    var files: [String] = []
    for (index, log) in try Self.logs(scratch).enumerated() {
      let reference = try ReferenceFix.of(log.path)
      let file = scratch.path("\(index).geojson")
      files.append(file)
      #expect(try runWhereAmI(["export", log.path, "-o", file]).code == 0)
      let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
      let collection = try #require(document as? [String: Any])
      #expect(collection["type"] as? String == "FeatureCollection")
      #expect(!Self.hasMember("crs", document), "RFC 7946 has no crs member")
      let features = try #require(collection["features"] as? [[String: Any]])
      #expect(features.count == log.segments)
      // Longitude first, as RFC 7946 section 3.1.1 says: the positions are the fixes.
      var positions: [[Double]] = []
      for (segment, feature) in features.enumerated() {
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "LineString")
        let coordinates = try #require(geometry["coordinates"] as? [[Double]])
        #expect(coordinates.count >= 2 && coordinates.allSatisfy { $0.count == 2 || $0.count == 3 })
        positions += coordinates
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["segment"] as? Int == segment)
        #expect(properties["fixes"] as? Int == coordinates.count)
        for key in ["start", "end", "distance", "pathLength"] { #expect(properties[key] != nil, "no \(key)") }
      }
      #expect(positions.count == reference.count)
      for (position, fix) in zip(positions, reference)
      where position[0] != Double(fix.longitude) || position[1] != Double(fix.latitude) {
        Issue.record("\(log.path): position \(position) for lat \(fix.latitude) lon \(fix.longitude)")
        break
      }
      #expect(collection["distance"] as? Double == reference.last!.distance)
      #expect(collection["start"] as? String == reference.first!.time)
      #expect(collection["segments"] as? Int == log.segments)
    }
    let points = scratch.path("points.geojson")
    #expect(try runWhereAmI(["export", Paths.fixture("walk.nmea"), "--points", "-o", points]).code == 0)
    files.append(points)
    let validation = try ExportTools.run(ExportTools.python, ["-c", Self.geojsonCheck] + files)
    #expect(validation.code == 0, "\(validation.output) \(validation.error)")
    #expect(validation.output.contains("valid: \(files.count)"))
    // The validator rejects what RFC 7946 forbids: a line of one position.
    let bad = try scratch.write(
      "bad.geojson",
      #"{"type":"FeatureCollection","features":[{"type":"Feature","#
        + #""geometry":{"type":"LineString","coordinates":[[13.3,52.5]]},"properties":{}}]}"#)
    #expect(try ExportTools.run(ExportTools.python, ["-c", Self.geojsonCheck, bad]).code != 0)
  }

  @Test func geojsonPointsCarryEveryField() throws {
    let reference = try ReferenceFix.of(Paths.fixture("drive-midnight.nmea"))
    let result = try runWhereAmI(["export", Paths.fixture("drive-midnight.nmea"), "--format", "geojson", "--points"])
    #expect(result.code == 0)
    let collection = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as! [String: Any]
    let features = collection["features"] as! [[String: Any]]
    #expect(features.count == reference.count)
    for (feature, fix) in zip(features, reference) {
      let geometry = feature["geometry"] as! [String: Any]
      let coordinates = geometry["coordinates"] as! [Double]
      #expect(geometry["type"] as? String == "Point")
      #expect(coordinates[0] == Double(fix.longitude) && coordinates[1] == Double(fix.latitude))
      let properties = feature["properties"] as! [String: Any]
      #expect(properties["time"] as? String == fix.time)
      #expect(properties["distance"] as? Double == fix.distance)
    }
    let first = features[0]["properties"] as! [String: Any]
    for key in ["mode", "quality", "eph", "altMSL", "altHAE", "epv", "speed", "hdop", "satellitesUsed", "pathLength"] {
      #expect(first[key] != nil, "no \(key)")
    }
    #expect(!result.output.contains("null"))
  }

  @Test func csvHasAHeaderAndOneRowPerFixWithEveryField() throws {
    let log = Paths.fixture("drive-midnight.nmea")
    let reference = try ReferenceFix.of(log)
    let result = try runWhereAmI(["export", log, "--format", "csv"])
    #expect(result.code == 0)
    // RFC 4180: CRLF after every record, the last one included.
    #expect(result.output.hasSuffix("\r\n"))
    #expect(!result.output.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    let rows = result.output.components(separatedBy: "\r\n").dropLast().map { $0.components(separatedBy: ",") }
    let header = rows[0]
    #expect(
      header == [
        "time", "segment", "lat", "lon", "mode", "quality", "eph", "accuracySource", "altMSL", "altHAE", "geoidSep",
        "epv", "speed", "track", "climb", "heading", "magvar", "hdop", "vdop", "pdop", "satellitesUsed",
        "satellitesVisible", "dgpsAge", "dgpsSta", "distance", "pathLength", "displacement", "device",
        "speedSource", "geoidSource", "movingTime", "stoppedTime", "distanceError",
      ])
    #expect(rows.count == reference.count + 1)
    let column = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
    for (row, fix) in zip(rows.dropFirst(), reference) {
      #expect(row.count == header.count)
      #expect(row[column["lat"]!] == fix.latitude && row[column["lon"]!] == fix.longitude)
      #expect(row[column["time"]!] == fix.time)
    }
    // Stopped at the traffic light the receiver gives no course: an empty cell, not 0.
    let stopped = rows.filter { $0[0].hasPrefix("2025-12-31T23:57:2") }
    #expect(!stopped.isEmpty && stopped.allSatisfy { $0[column["track"]!].isEmpty })
    #expect(rows[1][column["quality"]!] == "GPS" && rows[1][column["satellitesUsed"]!] == "12")
    // The moving and standing times so far end at the summary's. Moving time only grows;
    // standing time gives back what turns out to have been the start of a movement.
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(runWhereAmI(["summary", "--json", log]).output.utf8))
        as? [String: Any])
    for name in ["movingTime", "stoppedTime"] {
      let times = rows.dropFirst().map { Double($0[column[name]!])! }
      #expect(abs(times.last! - (summary[name] as? Double ?? -1)) < 0.0005, "\(name): \(times.last!)")
      if name == "movingTime" { #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "it went back") }
    }
    #expect(Double(rows[1][column["movingTime"]!]) == 0 && Double(rows[1][column["stoppedTime"]!]) == 0)
    // The distance's error bar ends at the summary's too.
    let lastError = try #require(Double(rows.last![column["distanceError"]!]))
    #expect(abs(lastError - (summary["distanceError"] as? Double ?? -1)) < 0.0005, "\(lastError)")
  }

  @Test func jsonLinesAreThoseOfPrintJSON() throws {
    for options in [[], ["--accuracy", "3.6"], ["--distance-filter", "15"]] {
      for log in ["walk.nmea", "drive-midnight.nmea", "corrupted.nmea"] {
        let printed = try runWhereAmI(["print", "--json"] + options + [Paths.fixture(log)])
        let exported = try runWhereAmI(["export", "--format", "jsonl"] + options + [Paths.fixture(log)])
        #expect(exported.code == 0)
        #expect(!printed.output.isEmpty && exported.output == printed.output, "\(log) \(options)")
      }
    }
  }

  /// Heading reports too: `print --json` writes each as an ATT object, and so does the
  /// export (they had been left out: a compass's log exported nothing, and said "no
  /// fixes"). A dual-antenna receiver's log, and a heading-only autopilot's.
  @Test func jsonLinesHaveTheHeadingReportsOfPrintJSON() throws {
    for name in ["bundg_zeus_9.log", "pypilot.log"] {
      let log = TestPaths.corpus.appendingPathComponent(name).path
      let printed = try runWhereAmI(["print", "--json", log])
      let exported = try runWhereAmI(["export", "--format", "jsonl", log])
      #expect(exported.code == 0, "\(exported.error)")
      #expect(printed.output.contains("{\"class\":\"ATT\""), "\(name)")
      #expect(exported.output == printed.output, "\(name)")
      if !printed.output.contains("\"class\":\"TPV\"") {
        let headings = printed.output.split(separator: "\n").count
        #expect(exported.error.contains("the export has its \(headings) heading reports only"), "\(exported.error)")
      }
    }
  }

  @Test func accuracyAndDistanceFilterWorkAsInPrint() throws {
    let log = Paths.fixture("walk.nmea")
    for options in [["--distance-filter", "20"], ["--accuracy", "3.55"]] {
      let reference = try ReferenceFix.of(log, options)
      #expect(reference.count > 10 && reference.count < 1160)
      let gpx = try runWhereAmI(["export", log, "--format", "gpx"] + options).output
      #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == reference.count)
      // Fixes the filters leave out are no fix gap: at 1.4 m/s the walk's 20 m steps
      // are more than 10 s apart, yet the track stays one segment.
      #expect(gpx.components(separatedBy: "<trkseg>").count - 1 == 1)
      let csv = try runWhereAmI(["export", log, "--format", "csv"] + options).output
      let last = csv.components(separatedBy: "\r\n").dropLast().last!.components(separatedBy: ",")
      #expect(Double(last[24]) == reference.last!.distance)
    }
  }

  @Test func aFixGapStartsANewSegment() throws {
    let scratch = try ExportScratch()
    let log = try scratch.walkWithGap()
    let gpx = try runWhereAmI(["export", log, "--format", "gpx"]).output
    let segments = gpx.components(separatedBy: "<trkseg>")
    try #require(segments.count - 1 == 2)
    #expect(segments[1].contains("<time>2025-06-14T07:49:59.000Z</time>"))
    #expect(segments[2].components(separatedBy: "<trkpt ").dropFirst().first?.contains("07:51:00.000Z") == true)
    // A longer --gap joins the minute; --gap 0 never splits.
    for gap in ["120", "0"] {
      let joined = try runWhereAmI(["export", log, "--format", "gpx", "--gap", gap]).output
      #expect(joined.components(separatedBy: "<trkseg>").count - 1 == 1, "--gap \(gap)")
    }
    let csv = try runWhereAmI(["export", log, "--format", "csv"]).output.components(separatedBy: "\r\n")
    #expect(csv.filter { $0.hasPrefix("2025-06-14T07:49:59") }.first?.components(separatedBy: ",")[1] == "0")
    #expect(csv.filter { $0.hasPrefix("2025-06-14T07:51:00") }.first?.components(separatedBy: ",")[1] == "1")
  }

  @Test func svgIsSelfContainedAndRendersInChromium() throws {
    let scratch = try ExportScratch()
    for (index, log) in try Self.logs(scratch).enumerated() {
      let reference = try ReferenceFix.of(log.path)
      let file = scratch.path("\(index).svg")
      #expect(try runWhereAmI(["export", log.path, "-o", file]).code == 0)
      let wellFormed = try ExportTools.run(ExportTools.xmllint, ["--noout", "--nonet", file])
      #expect(wellFormed.code == 0, "\(wellFormed.error)")
      let text = try scratch.read("\(index).svg")
      // Nothing to fetch: no scripts, links, images, style sheets or web fonts.
      for forbidden in ["<script", "href", "<image", "@import", "@font-face", "<foreignObject"] {
        #expect(!text.contains(forbidden), "\(forbidden) in the SVG")
      }
      #expect(text.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "").contains("http") == false)
      let kilometres = String(format: "%.2f km", reference.last!.distance / 1000)
      #expect(text.contains(" — \(kilometres) — "), "no \(kilometres) in the title")
      #expect(text.components(separatedBy: "stroke=\"#ffffff\" stroke-width=\"7\"").count - 1 == log.segments)
      for part in ["N</text>", "Speed</text>", "km/h</text>", "Start</text>", "End</text>", "linearGradient"] {
        #expect(text.contains(part), "no \(part)")
      }

      let png = scratch.path("\(index).png")
      let shot = try ExportTools.run(
        ExportTools.chromium,
        [
          "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
          "--user-data-dir=\(scratch.path("chromium"))",
          "--screenshot=\(png)", "--window-size=1000,760", URL(fileURLWithPath: file).absoluteString,
        ], timeout: 180)
      #expect(shot.code == 0, "\(shot.error)")
      let analysis = try ExportTools.run(
        ExportTools.python, ["-c", Self.pngCheck, png, "13,8,135", "204,71,120", "222,180,0"])
      #expect(analysis.code == 0, "\(analysis.error)")
      let picture = try JSONSerialization.jsonObject(with: Data(analysis.output.utf8)) as! [String: Int]
      #expect(picture["width"] == 1000 && picture["height"] == 760)
      // Not blank: many colours, the markers and the coloured line are on it.
      #expect(picture["colours"]! > 100)
      #expect(picture["white"]! < picture["pixels"]! * 9 / 10)
      #expect(picture["start"]! > 50, "no green start marker")
      #expect(picture["end"]! > 50, "no red end marker")
      #expect(picture["line"]! > 500, "no speed-coloured line")
    }
  }

  /// A sledge going round the North Pole at 89.99° N (1.1 km from it), a fix every 10°
  /// of longitude: on the SVG map a circle, where an equirectangular map drew a straight
  /// line of 360° of longitude at one latitude.
  @Test func svgDrawsATrackRoundAPoleAsItIs() throws {
    let scratch = try ExportScratch()
    let lines = (0..<36).flatMap { index -> [String] in
      var longitude = Double(index * 10)
      if longitude > 180 { longitude -= 360 }
      let time = String(format: "0000%02d.00", index)
      let degrees = String(
        format: "%03d%09.6f", Int(abs(longitude)), abs(longitude).truncatingRemainder(dividingBy: 1) * 60)
      let position = "8959.4000,N,\(degrees),\(longitude < 0 ? "W" : "E")"
      return [
        checksummed("$GPRMC,\(time),A,\(position),5.0,90.0,010626,,,A"),
        checksummed("$GPGGA,\(time),\(position),1,08,1.0,10.0,M,15.0,M,,"),
      ]
    }
    let log = try scratch.write("pole.nmea", lines.map { $0 + "\r\n" }.joined())
    let file = scratch.path("pole.svg")
    let result = try runWhereAmI(["export", log, "-o", file])
    #expect(result.code == 0, "\(result.error)")
    let text = try scratch.read("pole.svg")
    let halo = try #require(text.firstMatch(of: /stroke="#ffffff" stroke-width="7" points="([^"]*)"/))
    let points = halo.output.1.split(separator: " ").map { pair in pair.split(separator: ",").map { Double($0)! } }
    #expect(points.count >= 30, "\(points.count) points")
    let centre = (
      x: points.map { $0[0] }.reduce(0, +) / Double(points.count),
      y: points.map { $0[1] }.reduce(0, +) / Double(points.count)
    )
    let radii = points.map {
      (($0[0] - centre.x) * ($0[0] - centre.x) + ($0[1] - centre.y) * ($0[1] - centre.y)).squareRoot()
    }
    let mean = radii.reduce(0, +) / Double(radii.count)
    #expect(mean > 100, "a circle of some size: \(mean) px")
    #expect(radii.allSatisfy { abs($0 - mean) < 0.05 * mean }, "not a circle: \(radii)")
  }

  /// A boat sailing east across the antimeridian off Taveuni, Fiji: 179.999° E to
  /// 179.998° W in 30 fixes a second apart.
  static func acrossTheAntimeridian() -> String {
    (0..<30).map { index -> String in
      var longitude = 179.999 + Double(index) * 0.0001
      if longitude > 180 { longitude -= 360 }
      let latitude = 16.8 - Double(index) * 0.000_02
      func angle(_ degrees: Double, _ width: Int) -> String {
        String(format: "%0\(width)d%09.6f", Int(abs(degrees)), abs(degrees).truncatingRemainder(dividingBy: 1) * 60)
      }
      let time = String(format: "0000%02d.00", index)
      let position = "\(angle(latitude, 2)),S,\(angle(longitude, 3)),\(longitude >= 0 ? "E" : "W")"
      return checksummed("$GPRMC,\(time),A,\(position),20.0,90.0,010626,,,A") + "\r\n"
        + checksummed("$GPGGA,\(time),\(position),1,08,1.0,10.0,M,50.0,M,,") + "\r\n"
    }.joined()
  }

  /// RFC 7946 section 3.1.9: a line crossing the antimeridian is cut there, so that none
  /// of its steps jumps across the map; the parts meet at ±180° and add up to the track.
  @Test func geoJSONLinesAreCutAtTheAntimeridian() throws {
    let scratch = try ExportScratch()
    let log = try scratch.write("fiji.nmea", Self.acrossTheAntimeridian())
    let file = scratch.path("fiji.geojson")
    let result = try runWhereAmI(["export", log, "--format", "geojson", "-o", file])
    #expect(result.code == 0, "\(result.error)")
    let check = try ExportTools.run(ExportTools.python, ["-c", Self.geojsonCheck, file])
    #expect(check.code == 0, "\(check.output) \(check.error)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
    let features = try #require(document["features"] as? [[String: Any]])
    #expect(features.count == 2)
    var ends: [[Double]] = []
    for feature in features {
      let geometry = try #require(feature["geometry"] as? [String: Any])
      #expect(geometry["type"] as? String == "LineString")
      let line = try #require(geometry["coordinates"] as? [[Double]])
      for (a, b) in zip(line, line.dropFirst()) { #expect(abs(a[0] - b[0]) < 1, "a step across the map: \(a) \(b)") }
      ends.append(contentsOf: [line.first!, line.last!])
    }
    // The first part ends at +180°, the second starts at −180°, at one latitude.
    #expect(ends[1][0] == 180 && ends[2][0] == -180 && ends[1][1] == ends[2][1], "\(ends)")
    let properties = features.map { $0["properties"] as! [String: Any] }
    let parts: [Int?] = properties.map { $0["part"] as? Int }
    #expect(parts == [0, 1] && properties.allSatisfy { $0["segment"] as? Int == 0 })
    #expect(properties.map { $0["fixes"] as! Int }.reduce(0, +) == 30)
    let distance = properties.map { $0["distance"] as! Double }.reduce(0, +)
    #expect(abs(distance - (document["distance"] as! Double)) < 0.002, "\(properties) \(document)")
    // A track that keeps to one side is one line, with no part.
    let walk = try runWhereAmI(["export", Paths.fixture("walk.nmea"), "--format", "geojson"])
    #expect(!walk.output.contains("\"part\""))
  }

  /// Whether a JSON value has a member `key` at any depth.
  static func hasMember(_ key: String, _ value: Any) -> Bool {
    if let object = value as? [String: Any] {
      return object[key] != nil || object.values.contains { hasMember(key, $0) }
    }
    if let array = value as? [Any] { return array.contains { hasMember(key, $0) } }
    return false
  }

  /// Validates GeoJSON files with the `geojson` package (python3-geojson): exit 1 and the
  /// errors for the first invalid one.
  static let geojsonCheck = """
    import sys, geojson
    for path in sys.argv[1:]:
        with open(path) as f:
            document = geojson.load(f)
        if not isinstance(document, geojson.FeatureCollection) or not document.is_valid:
            print(path, document.errors())
            sys.exit(1)
    print('valid: %d' % (len(sys.argv) - 1))
    """

  /// Decodes a PNG (8-bit RGB or RGBA, as Chromium writes it) with nothing but zlib, and
  /// prints its size, its number of distinct colours, how many pixels are white, how many
  /// are the start marker's green and the end marker's red, and how many are near the
  /// colours given as arguments (`r,g,b`).
  static let pngCheck = """
    import json, struct, sys, zlib

    def decode(path):
        data = open(path, 'rb').read()
        if data[:8] != b'\\x89PNG\\r\\n\\x1a\\n':
            sys.exit('not a PNG')
        position, chunks, header = 8, [], None
        while position < len(data):
            length, kind = struct.unpack('>I4s', data[position:position + 8])
            body = data[position + 8:position + 8 + length]
            position += 12 + length
            if kind == b'IHDR':
                header = struct.unpack('>IIBBBBB', body)
            elif kind == b'IDAT':
                chunks.append(body)
            elif kind == b'IEND':
                break
        width, height, depth, colour, _, _, interlace = header
        if depth != 8 or interlace != 0 or colour not in (2, 6):
            sys.exit('unsupported PNG: depth %d colour %d interlace %d' % (depth, colour, interlace))
        step = 3 if colour == 2 else 4
        raw = zlib.decompress(b''.join(chunks))
        stride = width * step
        previous = bytearray(stride)
        pixels = []
        offset = 0
        for _ in range(height):
            kind = raw[offset]
            line = bytearray(raw[offset + 1:offset + 1 + stride])
            offset += 1 + stride
            for x in range(stride):
                a = line[x - step] if x >= step else 0
                b = previous[x]
                c = previous[x - step] if x >= step else 0
                if kind == 1:
                    line[x] = (line[x] + a) & 255
                elif kind == 2:
                    line[x] = (line[x] + b) & 255
                elif kind == 3:
                    line[x] = (line[x] + ((a + b) >> 1)) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            pixels.extend(tuple(line[x:x + 3]) for x in range(0, stride, step))
            previous = line
        return width, height, pixels

    def near(pixel, target):
        return sum(abs(p - t) for p, t in zip(pixel, target)) <= 40

    width, height, pixels = decode(sys.argv[1])
    counts = {}
    for pixel in pixels:
        counts[pixel] = counts.get(pixel, 0) + 1
    ramp = [tuple(int(v) for v in colour.split(',')) for colour in sys.argv[2:]]
    print(json.dumps({
        'width': width, 'height': height, 'pixels': len(pixels), 'colours': len(counts),
        'white': counts.get((255, 255, 255), 0),
        'start': sum(n for p, n in counts.items() if near(p, (0, 160, 60))),
        'end': sum(n for p, n in counts.items() if near(p, (224, 0, 0))),
        'line': sum(n for p, n in counts.items() if any(near(p, r) for r in ramp)),
    }))
    """
}

import Geodesy
import LocationKit
import NMEA
import TestSupport
import Testing

@testable import TrackExport

/// The pieces of `whereami export`: the SVG track's bounded memory, the scale bar's round
/// lengths, number and text details of the formats.
@Suite struct ExportPartsTests {
  static func fix(_ latitude: Double, _ longitude: Double, second: Int64, segment: Int, starts: Bool) -> ExportFix {
    var location = Location(latitude: latitude, longitude: longitude)
    location.timestamp = Timestamp(microsecondsSinceEpoch: 1_750_000_000_000_000 + second * 1_000_000)
    location.speed = 1.5
    return ExportFix(location: location, odometer: TrackOdometer(), segment: segment, startsSegment: starts)
  }

  /// The buffer's numbers round as `fixed` (and `rounded()`) does, halves away from zero,
  /// at every scale: exact halves, values just either side of them, negatives, zero's
  /// sign, and values too large for the fast path.
  @Test func bufferedNumbersRoundAsFixedDoes() {
    var generator = SeededRandom(seed: 5)
    var values: [Double] = [
      0, -0.0, 0.5, -0.5, 1.5, 2.5, 0.125, 0.0005, -0.0005, 0.49999999999999994, 9e17, -9e17, 8.999e18, 9e18, 1e300,
    ]
    for _ in 0..<6_000 {
      let digits = Double(Int.random(in: -99_999_999...99_999_999, using: &generator))
      let scale = Double([1, 10, 100, 1000, 1e6, 1e9][Int.random(in: 0...5, using: &generator)])
      values.append(digits / scale)
      values.append((digits + 0.5) / scale)
      values.append(Double.random(in: -1e6...1e6, using: &generator))
      values.append((digits + 0.5).nextUp / scale)
      values.append((digits + 0.5).nextDown / scale)
    }
    // Also one after another in one buffer, which grows in the middle of numbers.
    var all = ByteBuffer(capacity: 64)
    var expected = ""
    for value in values {
      for decimals in 0...9 {
        var buffer = ByteBuffer(capacity: 64)
        buffer.append(value, decimals: decimals)
        let text = String(decoding: buffer.bytes, as: UTF8.self)
        #expect(text == fixed(value, decimals), "\(value) to \(decimals) places")
        all.append(value, decimals: decimals)
        all.append(UInt8(ascii: " "))
        expected += text + " "
      }
    }
    #expect(String(decoding: all.bytes, as: UTF8.self) == expected)
  }

  @Test func theSVGTrackStaysWithinItsCapacityAndKeepsGaps() {
    var track = SVGTrack(capacity: 2000)
    // 200 000 fixes of a 150 km zigzag walk, with a gap (a new segment, 1.1 km on) every
    // 20 000.
    var most = 0
    for index in 0..<200_000 {
      let segment = index / 20_000
      let latitude = 52 + Double(index) * 2e-6 + Double(segment) * 0.01
      let longitude = 13 + (index / 500 % 2 == 0 ? Double(index % 500) : Double(500 - index % 500)) * 1e-5
      track.add(Self.fix(latitude, longitude, second: Int64(index), segment: segment, starts: index % 20_000 == 0))
      most = max(most, track.points.count)
    }
    #expect(most < 2000)
    #expect(track.fixes == 200_000 && track.segments == 10)
    #expect(track.points.count > 500)
    // The jumps at the gaps are wider than the tolerance: all ten segment starts survive.
    #expect(track.points.filter(\.startsSegment).count == 10)
    // Each point's mean speed is that of the fixes merged into it.
    #expect(track.points.allSatisfy { abs(($0.speed ?? 0) - 1.5) < 1e-9 })
    #expect(track.points.reduce(0) { $0 + $1.speedCount } == 200_000)
  }

  @Test func aStandingReceiverIsOnePointOfTheMap() {
    var track = SVGTrack()
    for index in 0..<3600 {
      // Jitter of a few centimetres: under the initial tolerance.
      let jitter = Double(index % 7) * 1e-7
      track.add(Self.fix(40.4 + jitter, -3.7 - jitter, second: Int64(index), segment: 0, starts: index == 0))
    }
    #expect(track.points.count == 1)
  }

  @Test func theSVGOfAGapHasTwoLinesAndTheTitleSaysDateDistanceAndDuration() throws {
    let header = ExportHeader(name: "gap <test>", source: "test", gap: 10)
    let writer = SVGWriter(header)
    var odometer = TrackOdometer()
    var output = ByteBuffer(capacity: 1024)
    for index in 0..<120 {
      var fix = Self.fix(
        52 + Double(index) * 1e-4, 13, second: Int64(index < 60 ? index : index + 60), segment: 0, starts: false)
      // 1e-4 degrees of latitude a second: the receiver's speed says so too.
      fix.location.speed = 11.13
      odometer.add(fix.location)
      fix.odometer = TrackDistances(odometer)
      fix.startsSegment = index == 0 || index == 60
      fix.segment = index < 60 ? 0 : 1
      writer.add(fix, into: &output)
    }
    try writer.end(into: &output) { $0.removeAll() }
    let text = String(decoding: output.bytes, as: UTF8.self)
    #expect(text.contains(">2025-06-15 — 1.32 km — 2 min 59 s</text>"))
    #expect(text.contains("<title>gap &lt;test&gt;: 2025-06-15"))
    #expect(text.contains("120 fixes · 2 segments"))
    #expect(text.components(separatedBy: "stroke=\"#ffffff\" stroke-width=\"7\"").count - 1 == 2)
  }

  /// A segment of one fix (fix losses on either side: 26 of the corpus's 118 logs have
  /// one) is a dot, and the document stays well-formed XML.
  @Test func aSegmentOfOneFixIsADotInWellFormedXML() throws {
    let writer = SVGWriter(ExportHeader(name: "dot", source: "test", gap: 10))
    var odometer = TrackOdometer()
    var output = ByteBuffer(capacity: 1024)
    let seconds: [Int64] = Array(0..<30) + [100] + Array(200..<230)
    for (index, second) in seconds.enumerated() {
      var fix = Self.fix(52 + Double(second) * 1e-5, 13, second: second, segment: 0, starts: false)
      odometer.add(fix.location)
      fix.odometer = TrackDistances(odometer)
      fix.segment = second < 100 ? 0 : second == 100 ? 1 : 2
      fix.startsSegment = index == 0 || second == 100 || second == 200
      writer.add(fix, into: &output)
    }
    try writer.end(into: &output) { $0.removeAll() }
    let text = String(decoding: output.bytes, as: UTF8.self)
    #expect(text.contains("<circle r=\"3\" stroke=\"none\" fill=\"#"), "the one fix's dot")
    // Every start tag's attributes are quoted pairs (the dot's fill lacked its closing
    // quote: xmllint and browsers refused the whole map).
    let tags = text.matches(of: /<[a-zA-Z][^>]*>/).map { String(text[$0.range]) }
    #expect(tags.count > 10)
    for tag in tags
    where tag.wholeMatch(of: /<[a-zA-Z][a-zA-Z0-9]*(\s+[a-zA-Z][a-zA-Z0-9:-]*="[^"<>]*")*\s*\/?>/) == nil {
      Issue.record("not well-formed: \(tag)")
    }
  }

  @Test func scaleBarsHaveRoundLengths() {
    #expect(RoundLength.metres(atMost: 240) == 200)
    #expect(RoundLength.metres(atMost: 999.9) == 500)
    #expect(RoundLength.metres(atMost: 1000) == 1000)
    #expect(RoundLength.metres(atMost: 4_321) == 2000)
    #expect(RoundLength.metres(atMost: 0.7) == 0.5)
    #expect(SVGMap.rampColour(0) == "#0d0887")
    #expect(SVGMap.rampColour(1) == "#deb400")
  }

  @Test func gpxDegreesStayBelow360AfterRounding() {
    #expect(GPXWriter.degrees(359.996, decimals: 2) == 0)
    #expect(GPXWriter.degrees(-2.5, decimals: 1) == 357.5)
    #expect(GPXWriter.degrees(93.8, decimals: 2) == 93.8)
  }

  @Test func csvCellsAreQuotedOnlyWhenTheyMustBe() {
    var output = ByteBuffer(capacity: 64)
    CSVWriter.append(cell: "RTK fixed", into: &output)
    output.append(UInt8(ascii: ";"))
    CSVWriter.append(cell: "a,\"b\"", into: &output)
    #expect(String(decoding: output.bytes, as: UTF8.self) == "RTK fixed;\"a,\"\"b\"\"\"")
  }

  @Test func formatsFollowFileExtensions() {
    #expect(ExportFormat(fileName: "walk.GPX") == .gpx)
    #expect(ExportFormat(fileName: "dir.d/walk.geojson") == .geojson)
    #expect(ExportFormat(fileName: "walk.ndjson") == .jsonl)
    #expect(ExportFormat(fileName: "dir.svg/walk") == nil)
    #expect(ExportFormat(fileName: "walk.txt") == nil)
  }

  @Test func durationsReadAsATitleWants() {
    #expect(ExportText.duration(45) == "45 s")
    #expect(ExportText.duration(1159) == "19 min 19 s")
    #expect(ExportText.duration(7500) == "2 h 05 min")
  }
}

import Foundation
import LocationKit
import NMEA
import Testing

@testable import TrackExport

/// ``TrackDocument``: gaps, filters and gpsd devices, written into a buffer by the real
/// writers, without a process or a file.
@Suite struct TrackDocumentTests {
  /// A fix `second` seconds into a walk north from `latitude` at 1.4 m/s.
  static func fix(_ second: Int, device: String? = nil, latitude: Double = 52, accuracy: Double = 3) -> Location {
    var location = Location(latitude: latitude + Double(second) * 1.4 / 111_250, longitude: 13)
    location.timestamp = Timestamp(microsecondsSinceEpoch: 1_750_000_000_000_000 + Int64(second) * 1_000_000)
    location.speed = 1.4
    location.horizontalAccuracy = accuracy
    location.device = device
    return location
  }

  /// The document `format` makes of `fixes`, as text, and the document itself.
  static func written(
    _ format: ExportFormat, _ fixes: [Location], gap: Double = 10, filter: LocationFilter = LocationFilter()
  ) throws -> (text: String, document: TrackDocument) {
    let header = ExportHeader(name: "test", source: "test", gap: gap)
    let document = TrackDocument(writer: try format.makeWriter(header, points: false), gap: gap, filter: filter) {
      (device: String) throws(ExportError) -> any ExportWriter in
      var continued = header
      continued.continuedDevice = device
      return try format.makeWriter(continued, points: false)
    }
    var output = ByteBuffer(capacity: 4096)
    var text = ""
    let flush: ExportFlush = { buffer in
      text += String(decoding: buffer.bytes, as: UTF8.self)
      buffer.removeAll()
    }
    try document.begin(into: &output)
    for fix in fixes { try document.add(fix, into: &output) }
    try document.end(into: &output, flush: flush)
    try flush(&output)
    return (text, document)
  }

  @Test func aGapStartsASegmentButAFilteredFixDoesNot() throws {
    // 0–59 s, then nothing until 90 s: a gap. The fixes of 20–39 s are too inaccurate
    // for the filter, 20 s without an exported fix; that is no gap.
    let fixes = (0..<120).filter { $0 < 60 || $0 >= 90 }.map { second in
      Self.fix(second, accuracy: (20..<40).contains(second) ? 50 : 3)
    }
    let (csv, document) = try Self.written(.csv, fixes, filter: LocationFilter(desiredAccuracy: 10))
    let rows = csv.split(separator: "\r\n").dropFirst()
    #expect(rows.count == 70)
    #expect(document.fixes == 70)
    let segments = Set(rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[1] })
    #expect(segments == ["0", "1"])
  }

  @Test func devicesAreTracksOfTheirOwn() throws {
    // Two receivers 2,000 km apart, their fixes interleaved.
    let fixes = (0..<60).flatMap { second in
      [Self.fix(second, device: "/dev/ttyA"), Self.fix(second, device: "/dev/ttyB", latitude: 38)]
    }
    let (gpx, document) = try Self.written(.gpx, fixes)
    #expect(gpx.components(separatedBy: " <trk>").count - 1 == 2)
    let first = try #require(gpx.range(of: "<src>/dev/ttyA</src>"))
    let second = try #require(gpx.range(of: "<src>/dev/ttyB</src>"))
    #expect(first.lowerBound < second.lowerBound)
    #expect(gpx.hasSuffix("</gpx>\n"))
    // Each device's distance is its own walk: 59 s at 1.4 m/s.
    #expect(document.distances.count == 2)
    for (_, distance, _) in document.distances { #expect(abs(distance - 59 * 1.4) < 1, "\(distance)") }

    let (geojson, _) = try Self.written(.geojson, fixes)
    let collection = try #require(
      try JSONSerialization.jsonObject(with: Data(geojson.utf8)) as? [String: Any])
    #expect(collection["tracks"] as? Int == 2)
    #expect(collection["fixes"] as? Int == 120)
    let features = try #require(collection["features"] as? [[String: Any]])
    #expect(
      features.compactMap { ($0["properties"] as? [String: Any])?["device"] as? String } == ["/dev/ttyA", "/dev/ttyB"])

    let (csv, _) = try Self.written(.csv, fixes)
    let rows = csv.split(separator: "\r\n")
    let header = rows[0].split(separator: ",").map(String.init)
    let device = try #require(header.firstIndex(of: "device"))
    func cell(_ row: Int) -> Substring { rows[row].split(separator: ",", omittingEmptySubsequences: false)[device] }
    // Interleaved as they came, each device from segment 0.
    #expect(cell(1) == "/dev/ttyA" && cell(2) == "/dev/ttyB")
    #expect(rows[2].split(separator: ",", omittingEmptySubsequences: false)[1] == "0")
  }

  @Test func oneReceiverWritesWhatItAlwaysWrote() throws {
    // Without devices, no device names anywhere and the single-track shape of each format.
    let fixes = (0..<30).map { Self.fix($0) }
    for format in ExportFormat.allCases {
      let (text, document) = try Self.written(format, fixes)
      #expect(document.distances.count == 1 && document.distances[0].device == nil)
      #expect(!text.contains("<src>") && !text.contains("\"tracks\"") && !text.contains("\"device\""), "\(format)")
    }
  }
}

import Foundation
import NMEA
import Testing

/// Compares our fixes with gpsd's own decoding of 118 real receivers' logs.
///
/// For each log, gpsd's TPV reports with `mode` ≥ 2 and a `time` are grouped by time (the
/// last one wins, as gpsd refines a cycle sentence by sentence); each such epoch must be
/// one of our fixes with the same time and mode, latitude and longitude within 1e-8°,
/// altitudes within 1 mm, speed within 1 mm/s and course within 0.001°. Deliberate
/// differences are listed, with reasons, in `Resources/conformance-deviations.tsv`.
///
/// One tolerance is wider: where the receiver gave no geoid separation, gpsd takes one from
/// its 5-degree table (EGM2008 values, bilinear) and we from EGM96's 15-minute grid. The
/// two differ by up to ``modelledGeoidTolerance`` anywhere on Earth
/// (`scripts/geoid-versus-gpsd.py`, at every node of the EGM96 grid), so ellipsoidal
/// heights built on our modelled separation may differ from gpsd's by that much.
///
/// The measure: the share of gpsd's epochs (with a position) that match in every field.
/// An epoch whose date gpsd moved by 1024 weeks is matched by time of day (gpsd's
/// week-rollover correction is wrong for these logs) and counts when everything else
/// matches; `bundg_zeus_9.log`, whose chartplotter stamps the sentences of one position
/// with two times, is left out of the measure (its differences must still be listed).
@Suite struct ConformanceTests {
  /// The largest difference between EGM96 (PROJ's 15′ grid) and gpsd's geoid table, metres.
  static let modelledGeoidTolerance = 23.0
  /// The share of gpsd's epochs that must match.
  static let requiredShare = 0.97
  /// Logs left out of the measure.
  static let unmeasured: Set<String> = ["bundg_zeus_9.log"]

  struct Epoch {
    var mode: Int
    var values: [String: Double]
  }

  static let tolerances: [(key: String, tolerance: Double)] = [
    ("lat", 1e-8), ("lon", 1e-8), ("altMSL", 1e-3), ("altHAE", 1e-3), ("speed", 1e-3),
    ("track", 1e-3),
  ]

  /// gpsd's epochs from a `.chk` file, by ISO time.
  static func gpsdEpochs(_ url: URL) throws -> [String: Epoch] {
    let data = try Data(contentsOf: url)
    var epochs: [String: Epoch] = [:]
    for line in data.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array("{\"class\":\"TPV\"".utf8)) {
      guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
        let mode = object["mode"] as? Int, mode >= 2, let time = object["time"] as? String
      else { continue }
      var values: [String: Double] = [:]
      for (key, _) in tolerances { if let value = object[key] as? Double { values[key] = value } }
      epochs[time] = Epoch(mode: mode, values: values)
    }
    return epochs
  }

  /// The sentences gpsd echoed (accepted), without their checksums.
  static func gpsdEchoes(_ url: URL) throws -> [String] {
    let data = try Data(contentsOf: url)
    return data.split(separator: UInt8(ascii: "\n")).compactMap { line -> String? in
      guard let first = line.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!") else { return nil }
      var text = String(decoding: line, as: UTF8.self)
      while text.hasSuffix("\r") { text.removeLast() }
      if let star = text.lastIndex(of: "*"), text.distance(from: star, to: text.endIndex) == 3 {
        text = String(text[..<star])
      }
      return text
    }
  }

  /// The time 1024 GPS weeks earlier: gpsd corrects some old receivers' dates for the
  /// week-number rollover; the epoch's other values must still match.
  static func shiftedBack(_ iso: String) -> String {
    guard let date = CalendarDate(iso8601: iso.prefix(10)) else { return iso }
    let shifted = CalendarDate(daysSinceEpoch: date.daysSinceEpoch - 1024 * 7)
    return shifted.description + iso.dropFirst(10)
  }

  static func ourValues(_ fix: Fix) -> [String: Double] {
    var values: [String: Double] = [:]
    values["lat"] = fix.latitude
    values["lon"] = fix.longitude
    values["altMSL"] = fix.altitudeMSL
    values["altHAE"] = fix.altitudeHAE
    values["speed"] = fix.speed
    values["track"] = fix.course
    return values
  }

  /// One difference between gpsd and us.
  struct Difference: CustomStringConvertible {
    var log: String
    var time: String
    var field: String
    /// `missing`, `absent` (gpsd has it, we do not), `extra`, `value`, `date`,
    /// `mode-without-altitude` (gpsd 3D, ours 2D for a cycle with no altitude) or `mode`.
    var kind: String
    var detail: String
    var description: String { "\(log)\t\(time)\t\(field)\t\(kind)\t\(detail)" }
  }

  /// gpsd's epochs against ours for one log; `largestModelled` is the largest difference
  /// of an ellipsoidal height on a modelled geoid separation.
  static func compare(
    log url: URL
  ) throws -> (differences: [Difference], epochs: Int, unechoed: [String], largestModelled: Double) {
    let name = url.lastPathComponent
    let chk = url.appendingPathExtension("chk")
    var bytes = [UInt8](try Data(contentsOf: url))
    // gpsfake splits its writes at a log's "Delay-Cookie" character and never sends it.
    if let header = String(data: Data(bytes.prefix(4096)), encoding: .isoLatin1),
      let range = header.range(of: "# Delay-Cookie: "), let cookie = header[range.upperBound...].first?.asciiValue
    {
      bytes.removeAll { $0 == cookie }
    }
    let result = decodeAll(bytes, options: .init(reportsSentences: false, honoursDateComments: false))
    var ours: [String: Fix] = [:]
    for fix in result.fixes where fix.hasPosition {
      if let time = fix.time { ours[time.description] = fix }
    }
    let theirs = try gpsdEpochs(chk)
    var differences: [Difference] = []
    var largestModelled = 0.0
    for (time, epoch) in theirs.sorted(by: { $0.key < $1.key }) {
      guard let fix = ours[time] ?? ours[shiftedBack(time)] else {
        differences.append(Difference(log: name, time: time, field: "epoch", kind: "missing", detail: ""))
        continue
      }
      if ours[time] == nil {
        differences.append(
          Difference(
            log: name, time: time, field: "date", kind: "date", detail: "gpsd moved the date 1024 weeks forward"))
      }
      if fix.mode.rawValue != epoch.mode {
        let kind = epoch.mode == 3 && fix.mode == .twoD && fix.altitudeMSL == nil ? "mode-without-altitude" : "mode"
        differences.append(
          Difference(
            log: name, time: time, field: "mode", kind: kind, detail: "gpsd \(epoch.mode) ours \(fix.mode.rawValue)"))
      }
      let values = ourValues(fix)
      for (key, tolerance) in tolerances {
        let expected = epoch.values[key]
        let actual = values[key]
        switch (expected, actual) {
        case (nil, nil): break
        case (let expected?, let actual?):
          var delta = abs(expected - actual)
          if key == "track" { delta = min(delta, 360 - delta) }
          var tolerance = tolerance
          if key == "altHAE" && fix.geoidSource == .egm96 {
            tolerance = modelledGeoidTolerance
            largestModelled = max(largestModelled, delta)
          }
          if delta > tolerance {
            differences.append(
              Difference(log: name, time: time, field: key, kind: "value", detail: "gpsd \(expected) ours \(actual)"))
          }
        case (let expected?, nil):
          differences.append(
            Difference(log: name, time: time, field: key, kind: "absent", detail: "gpsd \(expected) ours none"))
        case (nil, let actual?):
          differences.append(
            Difference(log: name, time: time, field: key, kind: "extra", detail: "gpsd none ours \(actual)"))
        }
      }
    }
    // Sentences gpsd accepted must be accepted here too.
    var accepted = Set<String>()
    var framer = SentenceFramer()
    framer.consume(bytes) { event in
      if case .sentence(let framed) = event { accepted.insert(framed.text) }
    }
    framer.finish { event in
      if case .sentence(let framed) = event { accepted.insert(framed.text) }
    }
    let unechoed = try gpsdEchoes(chk).filter { !accepted.contains($0) }
    return (differences, theirs.count, unechoed, largestModelled)
  }

  /// `log-or-*<TAB>field-or-*<TAB>kind<TAB>reason` lines.
  static func deviations() throws -> [(log: String, field: String, kind: String)] {
    let url = Bundle.module.url(forResource: "conformance-deviations", withExtension: "tsv", subdirectory: "Resources")!
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
      if line.hasPrefix("#") || line.isEmpty { return nil }
      let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard parts.count >= 4 else { return nil }
      return (String(parts[0]), String(parts[1]), String(parts[2]))
    }
  }

  @Test func corpusIsPresent() {
    #expect(Corpus.logs.count == 118, "corpus not found at \(Corpus.directory.path)")
  }

  @Test func everyGpsdEpochMatches() throws {
    let allowed = try Self.deviations()
    func isAllowed(_ difference: Difference) -> Bool {
      allowed.contains { entry in
        (entry.log == "*" || entry.log == difference.log)
          && (entry.field == "*" || entry.field == difference.field) && entry.kind == difference.kind
      }
    }
    var report: [String] = []
    var unexplained = 0
    var epochs = 0
    var matched = 0
    var largestModelledDifference = 0.0
    for log in Corpus.logs {
      let (differences, count, unechoed, largestModelled) = try Self.compare(log: log)
      largestModelledDifference = max(largestModelledDifference, largestModelled)
      if !Self.unmeasured.contains(log.lastPathComponent) {
        epochs += count
        let badEpochs = Set(differences.filter { $0.kind != "date" }.map(\.time))
        matched += count - badEpochs.count
      }
      for difference in differences {
        let ok = isAllowed(difference)
        if !ok { unexplained += 1 }
        report.append((ok ? "allowed\t" : "UNEXPLAINED\t") + difference.description)
      }
      for line in unechoed {
        unexplained += 1
        report.append("UNEXPLAINED\t\(log.lastPathComponent)\t-\techo\techo\tgpsd accepted, we did not: \(line)")
      }
    }
    let share = Double(matched) / Double(max(epochs, 1))
    let summary =
      "conformance: \(matched) of \(epochs) gpsd epochs match (\(String(format: "%.1f", share * 100)) %); "
      + "\(unexplained) unexplained differences; modelled ellipsoidal heights within "
      + "\(String(format: "%.3f", largestModelledDifference)) m of gpsd's"
    report.insert(summary, at: 0)
    try? report.joined(separator: "\n").write(
      toFile: NSTemporaryDirectory() + "whereami-conformance.txt", atomically: false, encoding: .utf8)
    print(summary)
    #expect(unexplained == 0, "\(summary); see \(NSTemporaryDirectory())whereami-conformance.txt")
    #expect(share >= Self.requiredShare, "\(summary)")
  }
}

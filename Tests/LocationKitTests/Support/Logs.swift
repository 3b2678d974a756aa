import Foundation
import LocationKit
import TestSupport

/// Tags the queues tests give to managers, so that callbacks can tell where they run.
let queueNameKey = DispatchSpecificKey<String>()

/// Appends `*HH` and CRLF.
func sentence(_ body: String) -> String { checksummed(body) + "\r\n" }

/// One GGA+RMC cycle at `second` seconds after 12:00:00 on 2024-06-15, moving north
/// `metresNorth` from 52.5 N 13.4 E; `valid: false` makes a no-fix cycle.
/// `course` fills RMC's course (empty unless given).
func cycle(
  _ second: Int, metresNorth: Double = 0, hdop: Double = 1.0, valid: Bool = true, speedKnots: Double = 0,
  course: Double? = nil
) -> String {
  let time = String(format: "%02d%02d%02d.00", 12 + second / 3600, second / 60 % 60, second % 60)
  let latitudeMinutes = 30.0 + metresNorth / 1852.0
  let latitude = String(format: "52%09.6f", latitudeMinutes)
  if !valid {
    return sentence("$GPGGA,\(time),,,,,0,00,,,M,,M,,") + sentence("$GPRMC,\(time),V,,,,,,,150624,,,N")
  }
  return sentence("$GPGGA,\(time),\(latitude),N,01324.000000,E,1,08,\(String(format: "%.1f", hdop)),35.0,M,40.0,M,,")
    + sentence(
      "$GPRMC,\(time),A,\(latitude),N,01324.000000,E,\(String(format: "%.3f", speedKnots)),\(course.map { String(format: "%.1f", $0) } ?? ""),150624,,,A"
    )
}

/// This test process's directory of temporary logs, removed when the process exits.
let temporaryLogDirectory: String = {
  let path = NSTemporaryDirectory() + "whereami-tests-\(getpid())"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "whereami-tests-\(getpid())") }
  return path
}()

/// Writes `text` to a temporary file and returns its path.
func temporaryLog(_ text: String, name: String = #function) throws -> String {
  let path = temporaryLogDirectory + "/\(name.filter(\.isLetter)).nmea"
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  return path
}

/// The package's fixture directory.
var fixtures: URL { TestPaths.fixtures }

/// The logs of the shared gpsd corpus.
var corpusLogs: [URL] { TestPaths.corpusLogs }

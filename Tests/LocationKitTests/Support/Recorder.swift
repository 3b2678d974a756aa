import Foundation
import LocationKit
import TestSupport

/// A delegate that records every callback, for tests to wait on and inspect.
final class Recorder: LocationManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable: `events` is only touched under `condition`'s lock.
  private let condition = NSCondition()
  private var recorded: [LocationEvent] = []
  private(set) var callbackThreads: Set<String> = []

  func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
    record(.update(location, previous: previous))
  }

  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    record(.failure(error))
  }

  func locationManager(_ manager: LocationManager, didRecognize movement: MovementEvent) {
    record(.movement(movement))
  }

  var movements: [MovementEvent] {
    events.compactMap { if case .movement(let movement) = $0 { movement } else { nil } }
  }

  private func record(_ event: LocationEvent) {
    condition.lock()
    recorded.append(event)
    callbackThreads.insert(DispatchQueue.getSpecific(key: queueNameKey) ?? "unknown")
    condition.broadcast()
    condition.unlock()
  }

  var events: [LocationEvent] {
    condition.lock()
    defer { condition.unlock() }
    return recorded
  }

  var locations: [Location] {
    events.compactMap { if case .update(let location, _) = $0 { location } else { nil } }
  }

  var errors: [LocationError] {
    events.compactMap { if case .failure(let error) = $0 { error } else { nil } }
  }

  /// Waits until `predicate` holds for the events (or `timeout` passes); returns whether
  /// it held. The predicate gets the events: it must not call back into the recorder.
  @discardableResult
  func wait(timeout: Double = 10, until predicate: ([LocationEvent]) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(recorded) {
      if !condition.wait(until: deadline) { return predicate(recorded) }
    }
    return true
  }

  func waitForError(_ code: LocationError.Code, timeout: Double = 10) -> Bool {
    wait(timeout: timeout) { events in
      events.contains { if case .failure(let error) = $0 { error.code == code } else { false } }
    }
  }
}

/// Tags the queues tests give to managers, so that callbacks can tell where they run.
let queueNameKey = DispatchSpecificKey<String>()

/// Appends `*HH` and CRLF.
func sentence(_ body: String) -> String { checksummed(body) + "\r\n" }

/// One GGA+RMC cycle at `second` seconds after 12:00:00 on 2024-06-15, moving north
/// `metresNorth` from 52.5 N 13.4 E; `valid: false` makes a no-fix cycle.
func cycle(_ second: Int, metresNorth: Double = 0, hdop: Double = 1.0, valid: Bool = true, speedKnots: Double = 0)
  -> String
{
  let time = String(format: "%02d%02d%02d.00", 12 + second / 3600, second / 60 % 60, second % 60)
  let latitudeMinutes = 30.0 + metresNorth / 1852.0
  let latitude = String(format: "52%09.6f", latitudeMinutes)
  if !valid {
    return sentence("$GPGGA,\(time),,,,,0,00,,,M,,M,,") + sentence("$GPRMC,\(time),V,,,,,,,150624,,,N")
  }
  return sentence("$GPGGA,\(time),\(latitude),N,01324.000000,E,1,08,\(String(format: "%.1f", hdop)),35.0,M,40.0,M,,")
    + sentence("$GPRMC,\(time),A,\(latitude),N,01324.000000,E,\(String(format: "%.3f", speedKnots)),,150624,,,A")
}

/// Writes `text` to a temporary file and returns its path.
func temporaryLog(_ text: String, name: String = #function) throws -> String {
  let path = NSTemporaryDirectory() + "whereami-\(getpid())-\(name.filter(\.isLetter)).nmea"
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  return path
}

/// The package's fixture directory.
var fixtures: URL { TestPaths.fixtures }

/// The logs of the shared gpsd corpus.
var corpusLogs: [URL] { TestPaths.corpusLogs }

/// How many of this process's file descriptors are open on `path`.
func descriptors(openOn path: String) -> Int {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }
    .count
}

/// How many of this process's threads have a name starting with `prefix` (Linux keeps
/// the first 15 bytes of a thread's name).
func threadCount(named prefix: String) -> Int {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
  return tasks.filter { task in
    let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
    return name?.hasPrefix(prefix) == true
  }.count
}

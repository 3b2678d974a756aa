import Foundation
import LocationKit
import MotionKit
import TestSupport

/// Collects a source's events, from its thread, for a test to look at.
final class Collector: Sendable {
  private let events = Locked<[MotionSourceEvent]>([])

  var sink: @Sendable (MotionSourceEvent) -> Void { { [self] event in events.withLock { $0.append(event) } } }

  var all: [MotionSourceEvent] { events.withLock { $0 } }

  var readings: [SensorReading] {
    all.compactMap { if case .reading(let reading) = $0 { reading } else { nil } }
  }

  var errors: [MotionError] {
    all.compactMap { if case .error(let error) = $0 { error } else { nil } }
  }

  /// Waits until `condition` holds of the events, or `timeout` seconds.
  @discardableResult
  func wait(timeout: Double = 30, until condition: (Collector) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(self) { return true }
      usleep(10_000)
    }
    return condition(self)
  }
}

/// A copy of a fixture's sysfs tree in a fresh directory, removed by `remove()`.
struct SysfsTree {
  let root: String

  init(copying fixture: String) throws {
    root = NSTemporaryDirectory() + "whereami-iio-\(getpid())-\(UUID().uuidString.prefix(8))"
    try FileManager.default.copyItem(atPath: fixture, toPath: root)
  }

  /// Replaces a file's value at once, as the kernel does (a reader never sees it half
  /// written).
  func write(_ relative: String, _ text: String) throws {
    try replaceFile(root + "/" + relative, with: (text + "\n").utf8)
  }

  func read(_ relative: String) throws -> String {
    try String(contentsOfFile: root + "/" + relative, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func remove() { try? FileManager.default.removeItem(atPath: root) }
}

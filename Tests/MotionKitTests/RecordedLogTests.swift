import Foundation
import MotionKit
import TestSupport
import Testing

/// The recorded sensor log: its lines read back exactly as written, and bad input is
/// counted and skipped with the file, the line and the reason.
@Suite struct RecordedLogTests {
  static func write(_ text: String) throws -> String {
    let path = NSTemporaryDirectory() + "whereami-motion-\(getpid())-\(UUID().uuidString.prefix(8)).csv"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func replay(_ path: String) -> Collector {
    let source = RecordedMotionSource(path: path, speed: nil)
    let collector = Collector()
    source.start(sensors: [], interval: 0.1, collector.sink)
    collector.wait(timeout: 60) { $0.errors.contains { $0.isFinal } }
    source.stop()
    return collector
  }

  @Test func linesReadBackExactlyAsWritten() throws {
    var random = SeededRandom(seed: 8)
    var lines: [MotionLog.Line] = []
    var time = 1_764_590_400.123456
    for index in 0..<400 {
      time += random.uniform(0.001...0.02)
      let vector = MotionVector(x: random.gaussian(), y: random.gaussian() * 1e-7, z: random.gaussian() * 1e5)
      switch index % 5 {
      case 0: lines.append(.reading(SensorReading(time: time, sensor: .accelerometer, vector: vector)))
      case 1: lines.append(.reading(SensorReading(time: time, sensor: .gyroscope, vector: vector)))
      case 2:
        let q = Quaternion(x: vector.x, y: vector.y, z: 0.3, w: 0.9).normalized!
        lines.append(
          .reading(
            SensorReading(time: time, sensor: .attitude, vector: MotionVector(x: q.x, y: q.y, z: q.z), w: q.w)))
      case 3:
        lines.append(
          .deviceUnits(
            SensorReading(time: time, sensor: .gyroscope, vector: MotionVector(x: vector.x, y: 1.5, z: .nan))))
      default: lines.append(.reportedAttitude(ReportedAttitude(time: time, heading: 123.4, pitch: nil, roll: -2.5)))
      }
    }
    for line in lines {
      let text = MotionLog.format(line)
      let parsed = try MotionLog.parse(Substring(text))
      switch (parsed, line) {
      case (.deviceUnits(let a), .deviceUnits(let b)):
        #expect(a.time == b.time && a.vector.x == b.vector.x && a.vector.y == b.vector.y && a.vector.z.isNaN)
      default: #expect(parsed == line, "\(text)")
      }
    }
  }

  @Test func badLinesAreSkippedWithTheirLineAndReason() throws {
    let good = "1.00,accelerometer,0,0,-1,"
    var text = "# comment\n\ntime,sensor,x,y,z,w\n\(good)\n"
    text += "1.01,accelerometer,0,0\n"  // line 5
    text += "1.02,elevator,0,0,1,\n"  // 6
    text += "1.03,gyroscope,0,zero,1,\n"  // 7
    text += String(repeating: "9", count: 2000) + "\n"  // 8
    text += "INVALID-UTF8\n"  // 9: replaced by bytes that are not UTF-8 below
    text += "0.50,accelerometer,0,0,-1,\n"  // 10: back in time
    text += "1.04,attitude,0,0,0,0\n"  // 11
    text += "2.00,gyroscope,0.1,0.2,0.3\n"  // 12, no w: fine
    text += "1796126400000,accelerometer,0,0,-1,\n"  // 13: milliseconds
    text += "2.10,accelerometer,0,0,-1,"  // 14, no newline at the end
    var bytes = Array(text.utf8)
    let marker = Array("INVALID-UTF8".utf8)
    let at = (0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker }!
    bytes.replaceSubrange(at..<(at + marker.count), with: [0x00, 0xFF, 0xFE, 0x41])
    let path = try Self.write("")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let collector = Self.replay(path)
    #expect(collector.readings.count == 3)
    let messages = collector.errors.map(\.message)
    let expected: [String] = [
      "\(path):5: 4 fields where 5 or 6 (time,sensor,x,y,z[,w]) belong; line skipped",
      "\(path):6: 'elevator' is not a sensor (accelerometer, gyroscope, magnetometer, attitude); line skipped",
      "\(path):7: y 'zero' is not a number; line skipped",
      "\(path):8: longer than 1024 bytes; line skipped",
      "\(path):9: not text; line skipped",
      "\(path):10: its time 0.5 is before the line before's (1.0); line skipped",
      "\(path):11: the quaternion is zero; line skipped",
      "\(path):13: the time 1796126400000 is not in seconds (too large); line skipped",
      "end of \(path) after 3 readings, 8 lines skipped",
    ]
    #expect(messages == expected)
    #expect(collector.errors.last?.code == .sourceEnded && collector.errors.last?.isFinal == true)
    #expect(collector.errors.dropLast().allSatisfy { $0.code == .readError && !$0.isFinal })
  }

  @Test func garbageIsCountedWithoutFloodingMessages() throws {
    // 1 MB of random bytes: every line is skipped; 20 are reported.
    var random = SeededRandom(seed: 9)
    var bytes = [UInt8](repeating: 0, count: 1 << 20)
    for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
    let path = NSTemporaryDirectory() + "whereami-garbage-\(getpid()).csv"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let collector = Self.replay(path)
    #expect(collector.readings.isEmpty)
    #expect(collector.errors.count == RecordedMotionSource.reportedLineErrors + 1)
    #expect(collector.errors.last?.message.contains("it has no header") == true)
  }

  @Test func aFIFOWithoutAWriterStopsAtOnce() throws {
    let path = NSTemporaryDirectory() + "whereami-fifo-\(getpid())"
    unlink(path)
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    let source = RecordedMotionSource(path: path, speed: nil)
    source.start(sensors: [], interval: 0.1) { _ in }
    usleep(100_000)
    let started = Date()
    source.stop()
    // A stop that waited for a writer would not return at all (none comes): the bound
    // only allows for a loaded machine.
    #expect(Date().timeIntervalSince(started) < 10)
  }

  @Test func aMissingLogIsNotFound() {
    let collector = Self.replay("/nonexistent/shake.csv")
    #expect(collector.errors.map(\.code) == [.sourceNotFound])
  }

  @Test func theShakeFixtureHasItsTwoShakesAndNotTheKnock() throws {
    let collector = Self.replay(TestPaths.fixture("motion/shake.csv"))
    var analysis = MotionAnalysis()
    var events: [ShakeEvent] = []
    for reading in collector.readings { events += analysis.add(reading).shakes }
    #expect(events.map(\.phase) == [.began, .ended, .began, .cancelled])
    #expect(events.last?.cancelReason == .putDown)
    #expect(collector.errors.map(\.message) == ["end of \(TestPaths.fixture("motion/shake.csv")) after 1190 readings"])
  }
}

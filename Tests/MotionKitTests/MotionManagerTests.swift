import Foundation
import LocationKit
import MotionKit
import TestSupport
import Testing

/// A delegate that keeps what it is told.
final class Recorder: MotionManagerDelegate, Sendable {
  let events = Locked<[MotionEvent]>([])
  func motionManager(_ manager: MotionManager, didUpdateAccelerometer data: AccelerometerData) {
    events.withLock { $0.append(.accelerometer(data)) }
  }
  func motionManager(_ manager: MotionManager, didUpdateGyro data: GyroData) {
    events.withLock { $0.append(.gyro(data)) }
  }
  func motionManager(_ manager: MotionManager, didUpdateDeviceMotion motion: DeviceMotion) {
    events.withLock { $0.append(.deviceMotion(motion)) }
  }
  func motionManager(_ manager: MotionManager, didUpdateHeading heading: Heading) {
    events.withLock { $0.append(.heading(heading)) }
  }
  func motionManager(_ manager: MotionManager, didFailWithError error: MotionError) {
    events.withLock { $0.append(.failure(error)) }
  }
  func motionBegan(_ manager: MotionManager, shake: ShakeEvent) { events.withLock { $0.append(.shake(shake)) } }
  func motionEnded(_ manager: MotionManager, shake: ShakeEvent) { events.withLock { $0.append(.shake(shake)) } }
  func motionCancelled(_ manager: MotionManager, shake: ShakeEvent) { events.withLock { $0.append(.shake(shake)) } }

  /// A manager for `source` with a new recorder as its delegate (held weakly by the
  /// manager: keep the recorder).
  static func attached(to source: any MotionSource) -> (MotionManager, Recorder) {
    let manager = MotionManager(source: source)
    let recorder = Recorder()
    manager.delegate = recorder
    return (manager, recorder)
  }

  var all: [MotionEvent] { events.withLock { $0 } }
  var errors: [MotionError] { all.compactMap { if case .failure(let e) = $0 { e } else { nil } } }
  var ended: Bool { errors.contains { $0.isFinal } }

  func wait(timeout: Double = 30, until condition: (Recorder) -> Bool) {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline && !condition(self) { usleep(10_000) }
  }
}

/// A source that sends what it is given, then stays silent.
final class ScriptedSource: MotionSource, Sendable {
  let name = "scripted"
  let script: [MotionSourceEvent]
  init(_ script: [MotionSourceEvent]) { self.script = script }
  func start(sensors: Set<SensorKind>, interval: Double, _ sink: @escaping @Sendable (MotionSourceEvent) -> Void) {
    for event in script { sink(event) }
  }
  func stop() {}
}

@Suite struct MotionManagerTests {
  /// A 100 Hz log of accelerometer and gyroscope readings, `seconds` long.
  static func log(seconds: Double, gyroscope: Bool = true) throws -> String {
    var text = MotionLog.header + "\n"
    for index in 0..<Int(seconds * 100) {
      let t = 1000 + Double(index) / 100
      text +=
        MotionLog.format(
          .reading(SensorReading(time: t, sensor: .accelerometer, vector: MotionVector(x: 0, y: 0, z: -1)))) + "\n"
      if gyroscope {
        text +=
          MotionLog.format(
            .reading(SensorReading(time: t, sensor: .gyroscope, vector: MotionVector(x: 0.01, y: 0, z: 0)))) + "\n"
      }
    }
    return try RecordedLogTests.write(text)
  }

  @Test func eachKindIsDeliveredAtItsInterval() throws {
    let path = try Self.log(seconds: 5)
    defer { unlink(path) }
    let (manager, recorder) = Recorder.attached(to: RecordedMotionSource(path: path, speed: nil))
    manager.accelerometerUpdateInterval = 0.1
    manager.gyroUpdateInterval = 0.5
    manager.deviceMotionUpdateInterval = 0.25
    manager.start([.accelerometer, .gyro, .deviceMotion])
    recorder.wait { $0.ended }
    manager.stopUpdates()
    let all = recorder.all
    let accelerometer = all.compactMap { if case .accelerometer(let d) = $0 { d.timestamp } else { nil } }
    let gyro = all.compactMap { if case .gyro(let d) = $0 { d.timestamp } else { nil } }
    let motion = all.compactMap { if case .deviceMotion(let d) = $0 { d.timestamp } else { nil } }
    // A 5 s log at 100 Hz: one per interval, give or take the last (due 2 % early).
    for (times, interval) in [(accelerometer, 0.1), (gyro, 0.5), (motion, 0.25)] {
      #expect(abs(Double(times.count) - 5 / interval) <= 1, "\(times)")
      let spacing = (times.last! - times.first!) / Double(times.count - 1)
      #expect(abs(spacing - interval) < 0.01 * interval + 0.01, "\(times)")
    }
    #expect(recorder.errors.map(\.code) == [.sourceEnded])
    #expect(manager.accelerometerData?.timestamp == 1004.99, "the latest, whatever the interval")
  }

  @Test func theEndOfALogDeliversEverythingBeforeIt() throws {
    // Read as fast as it goes, with every reading due: the queue is full when the log
    // ends, and none of it is lost.
    let path = try Self.log(seconds: 5, gyroscope: false)
    defer { unlink(path) }
    let (manager, recorder) = Recorder.attached(to: RecordedMotionSource(path: path, speed: nil))
    manager.accelerometerUpdateInterval = 0.001
    manager.startAccelerometerUpdates()
    recorder.wait { $0.ended }
    manager.stopUpdates()
    let count = recorder.all.filter { if case .accelerometer = $0 { true } else { false } }.count
    #expect(count == 500)
  }

  @Test func anotherKindDoesNotStartALogOver() throws {
    let path = try Self.log(seconds: 5)
    defer { unlink(path) }
    let (manager, recorder) = Recorder.attached(to: RecordedMotionSource(path: path, speed: 20))
    manager.startAccelerometerUpdates()
    recorder.wait { $0.all.count > 5 }
    manager.startGyroUpdates()
    recorder.wait { $0.ended }
    manager.stopUpdates()
    let times = recorder.all.compactMap { if case .accelerometer(let d) = $0 { d.timestamp } else { nil } }
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "the log went on, not back to its start")
    #expect(recorder.all.contains { if case .gyro = $0 { true } else { false } })
  }

  @Test func aStreamMadeBeforeAStartEndsWithTheStop() async {
    let manager = MotionManager(source: ScriptedSource([]))
    let stream = manager.updates
    manager.stopUpdates()
    var count = 0
    for await _ in stream { count += 1 }
    #expect(count == 0)
  }

  @Test func aSlowConsumerMayStopAKindFromItsLoop() async throws {
    // The queue waits for this very loop (its buffer full) when it stops a kind: the stop
    // must not wait for the queue.
    let path = try Self.log(seconds: 5)
    defer { unlink(path) }
    let manager = MotionManager(source: RecordedMotionSource(path: path, speed: nil))
    manager.accelerometerUpdateInterval = 0.001
    manager.gyroUpdateInterval = 0.001
    let stream = manager.updates
    manager.start([.accelerometer, .gyro])
    try await Task.sleep(nanoseconds: 300_000_000)
    var count = 0
    for await event in stream {
      count += 1
      if count == 3 { manager.stopGyroUpdates() }
      if case .failure(let error) = event, error.isFinal { break }
    }
    manager.stopUpdates()
    #expect(count > 500)
  }

  @Test func aKindAnUpdateNeedsAndTheSourceLacksIsUnavailable() throws {
    let path = try Self.log(seconds: 1, gyroscope: false)
    defer { unlink(path) }
    let (manager, recorder) = Recorder.attached(to: RecordedMotionSource(path: path, speed: nil))
    // Device motion does without a gyroscope; gyro updates do not.
    manager.start([.deviceMotion, .gyro])
    recorder.wait { $0.ended }
    manager.stopUpdates()
    let errors = recorder.errors
    #expect(errors.map(\.code) == [.sensorUnavailable, .sourceEnded])
    #expect(errors.first?.message == "\(path) has no gyroscope readings" && errors.first?.sensor == .gyroscope)
  }

  @Test func shakesReachTheDelegateAndTheStream() async throws {
    let (manager, recorder) = Recorder.attached(
      to: RecordedMotionSource(path: TestPaths.fixture("motion/shake.csv"), speed: nil))
    let stream = manager.updates
    manager.startShakeUpdates()
    var streamed: [ShakeEvent.Phase] = []
    for await event in stream {
      if case .shake(let shake) = event { streamed.append(shake.phase) }
      if case .failure(let error) = event, error.isFinal { break }
    }
    recorder.wait { $0.ended }
    manager.stopUpdates()
    let phases = recorder.all.compactMap { if case .shake(let s) = $0 { s.phase } else { nil } }
    #expect(phases == [.began, .ended, .began, .cancelled])
    #expect(streamed == phases)
  }

  @Test func noCallbackComesAfterStop() throws {
    let tree = try SysfsTree(copying: TestPaths.fixture("iio/laptop"))
    defer { tree.remove() }
    let (manager, recorder) = Recorder.attached(to: IIOSource(root: tree.root))
    manager.accelerometerUpdateInterval = 0.01
    manager.startAccelerometerUpdates()
    recorder.wait { $0.all.count > 5 }
    manager.stopUpdates()
    let count = recorder.all.count
    usleep(200_000)
    #expect(recorder.all.count == count)
    #expect(!manager.isAccelerometerActive)
  }

  @Test func aStoppedKindStopsWhileTheOthersGoOn() throws {
    let tree = try SysfsTree(copying: TestPaths.fixture("iio/laptop"))
    defer { tree.remove() }
    let (manager, recorder) = Recorder.attached(to: IIOSource(root: tree.root))
    manager.accelerometerUpdateInterval = 0.01
    manager.gyroUpdateInterval = 0.01
    manager.start([.accelerometer, .gyro])
    func count(_ gyro: Bool) -> Int {
      recorder.all.filter {
        switch $0 {
        case .gyro: gyro
        case .accelerometer: !gyro
        default: false
        }
      }.count
    }
    recorder.wait { _ in count(true) > 3 }
    manager.stopGyroUpdates()
    let gyro = count(true)
    let accelerometer = count(false)
    recorder.wait(timeout: 2) { _ in count(false) > accelerometer + 5 }
    manager.stopUpdates()
    #expect(count(true) == gyro)
    #expect(count(false) > accelerometer + 5)
    #expect(manager.activeUpdates.isEmpty)
  }

  @Test func silenceIsReportedOnceAsUnknown() {
    let reading = SensorReading(time: 1, sensor: .accelerometer, vector: MotionVector(x: 0, y: 0, z: -1))
    let (manager, recorder) = Recorder.attached(to: ScriptedSource([.reading(reading)]))
    manager.watchdogTimeout = 0.3
    manager.startAccelerometerUpdates()
    recorder.wait(timeout: 3) { !$0.errors.isEmpty }
    usleep(500_000)
    manager.stopUpdates()
    #expect(recorder.errors.map(\.code) == [.unknown])
    #expect(recorder.errors.first?.message == "no readings from scripted for 0.5 s")
  }

  @Test func headingsComeFromTheAttitudeAndTheDeclination() throws {
    let tree = try SysfsTree(copying: TestPaths.fixture("iio/laptop"))
    defer { tree.remove() }
    let (manager, recorder) = Recorder.attached(to: IIOSource(root: tree.root))
    manager.declinationPosition = (52.2, 0.1)
    manager.startHeadingUpdates()
    recorder.wait { $0.all.contains { if case .heading = $0 { true } else { false } } }
    manager.stopUpdates()
    let heading = try #require(manager.heading)
    // The fixture's device points 45° east of magnetic north, pitched up 10°.
    #expect(abs(heading.magneticHeading! - 45) < 0.05)
    #expect(heading.declinationSource == .wmm2025)
    #expect(abs(heading.trueHeading! - (heading.magneticHeading! + heading.declination!)) < 1e-9)
    #expect(abs(heading.attitude!.pitch! - 10) < 0.05)
  }
}

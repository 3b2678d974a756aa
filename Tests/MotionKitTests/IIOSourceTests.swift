import Foundation
import MotionKit
import TestSupport
import Testing

/// The IIO source on sysfs trees laid out as the kernel documents them
/// (Documentation/ABI/testing/sysfs-bus-iio), copied to a scratch directory that the
/// tests change under the running source.
@Suite struct IIOSourceTests {
  static let laptop = TestPaths.fixture("iio/laptop")
  static let everything: Set<SensorKind> = Set(SensorKind.allCases)

  @Test func readingsAreInTheDevicesAxesAndThePlatformsUnits() throws {
    let tree = try SysfsTree(copying: Self.laptop)
    defer { tree.remove() }
    try tree.write("iio:device0/sampling_frequency", "10")
    try tree.write("iio:device1/sampling_frequency", "10")
    let source = IIOSource(root: tree.root)
    let collector = Collector()
    source.start(sensors: Self.everything, interval: 0.02, collector.sink)
    collector.wait { Set($0.readings.map(\.sensor)).count == 4 }
    // Asked for 50 Hz: raised from 10 to the listed 50, and written as is where no list is.
    #expect(try tree.read("iio:device0/sampling_frequency") == "50")
    #expect(try tree.read("iio:device1/sampling_frequency") == "50")
    source.stop()
    // Put back once the source stops.
    #expect(try tree.read("iio:device0/sampling_frequency") == "10")
    #expect(try tree.read("iio:device1/sampling_frequency") == "10")
    let readings = collector.readings
    // in_accel_{x,y,z}_raw 174, 0, -985 × 0.0098066 m/s² ÷ 9.80665, then the mount matrix
    // "0, 1, 0; -1, 0, 0; 0, 0, 1": device = (chip y, -chip x, chip z).
    let accel = try #require(readings.first { $0.sensor == .accelerometer })
    let scale = 0.0098066 / 9.80665
    #expect(abs(accel.vector.x - 0) < 1e-12)
    #expect(abs(accel.vector.y - -174 * scale) < 1e-12)
    #expect(abs(accel.vector.z - -985 * scale) < 1e-12)
    #expect(accel.device == "iio:device0")
    // in_anglvel_*: 6, -3, 0 × 0.000174533 rad/s.
    let gyro = try #require(readings.first { $0.sensor == .gyroscope })
    #expect(gyro.vector == MotionVector(x: 6 * 0.000174533, y: -3 * 0.000174533, z: 0))
    // in_magn_*: -134, 54, -466 × 0.001 gauss = µT × 100.
    let field = try #require(readings.first { $0.sensor == .magnetometer })
    #expect(
      abs(field.vector.x - -13.4) < 1e-9 && abs(field.vector.y - 5.4) < 1e-9 && abs(field.vector.z - -46.6) < 1e-9)
    // in_rot_quaternion_raw "805 -334 -3812 9204" (x y z w) × 0.0001, normalised.
    let attitude = try #require(readings.first { $0.sensor == .attitude }?.quaternion)
    let squares: Double = 805.0 * 805 + 334.0 * 334 + 3812.0 * 3812 + 9204.0 * 9204
    let norm = squares.squareRoot()
    #expect(abs(attitude.x - 805 / norm) < 1e-12 && abs(attitude.w - 9204 / norm) < 1e-12)
    #expect(collector.errors.isEmpty, "\(collector.errors)")
  }

  @Test func aRateAnotherProgramSetMeanwhileIsLeftAsItIs() throws {
    let tree = try SysfsTree(copying: Self.laptop)
    defer { tree.remove() }
    try tree.write("iio:device0/sampling_frequency", "10")
    let source = IIOSource(root: tree.root)
    let collector = Collector()
    source.start(sensors: [.accelerometer], interval: 0.02, collector.sink)
    collector.wait { !$0.readings.isEmpty }
    #expect(try tree.read("iio:device0/sampling_frequency") == "50")
    try tree.write("iio:device0/sampling_frequency", "100")
    source.stop()
    #expect(try tree.read("iio:device0/sampling_frequency") == "100")
  }

  @Test func aSamplingFrequencyIsNeverLowered() throws {
    // The fixture's sensors run at 200 Hz; 10 Hz is asked for.
    let tree = try SysfsTree(copying: Self.laptop)
    defer { tree.remove() }
    let source = IIOSource(root: tree.root)
    let collector = Collector()
    source.start(sensors: [.accelerometer], interval: 0.1, collector.sink)
    collector.wait { !$0.readings.isEmpty }
    source.stop()
    #expect(try tree.read("iio:device0/sampling_frequency") == "200")
  }

  @Test func aValueThatIsNotANumberIsReportedOnceAndReadingsGoOn() throws {
    let tree = try SysfsTree(copying: Self.laptop)
    defer { tree.remove() }
    let source = IIOSource(root: tree.root)
    let collector = Collector()
    source.start(sensors: [.accelerometer, .gyroscope], interval: 0.01, collector.sink)
    collector.wait { $0.readings.count > 4 }
    try tree.write("iio:device0/in_accel_x_raw", "1x7")
    collector.wait { !$0.errors.isEmpty }
    let gyroBefore = collector.readings.filter { $0.sensor == .gyroscope }.count
    // The gyroscope goes on while the accelerometer's value is no number.
    collector.wait { $0.readings.filter { $0.sensor == .gyroscope }.count > gyroBefore }
    try tree.write("iio:device0/in_accel_x_raw", "180")
    collector.wait {
      $0.readings.contains { $0.sensor == .accelerometer && abs($0.vector.y - -180 * 0.0098066 / 9.80665) < 1e-12 }
    }
    source.stop()
    let errors = collector.errors
    #expect(errors.count == 1, "\(errors.map(\.message))")
    #expect(errors.first?.code == .unknown && errors.first?.isFinal == false)
    #expect(
      errors.first?.message
        == "\(tree.root)/iio:device0/in_accel_x_raw: '1x7' is not a number; accelerometer readings resume with the next one"
    )
    #expect(collector.readings.filter { $0.sensor == .gyroscope }.count > gyroBefore, "the gyroscope went on")
  }

  @Test func aDeviceThatGoesAwayIsLookedForAgain() throws {
    let tree = try SysfsTree(copying: Self.laptop)
    defer { tree.remove() }
    let source = IIOSource(root: tree.root)
    let collector = Collector()
    source.start(sensors: [.accelerometer, .gyroscope], interval: 0.01, collector.sink)
    collector.wait { $0.readings.count > 4 }
    let saved = NSTemporaryDirectory() + "whereami-gyro-\(getpid())"
    try? FileManager.default.removeItem(atPath: saved)
    try FileManager.default.moveItem(atPath: tree.root + "/iio:device1", toPath: saved)
    #expect(collector.wait { !$0.errors.isEmpty })
    let accelerometerBefore = collector.readings.filter { $0.sensor == .accelerometer }.count
    try FileManager.default.moveItem(atPath: saved, toPath: tree.root + "/iio:device7")
    let count = collector.readings.filter { $0.sensor == .gyroscope }.count
    #expect(collector.wait { $0.readings.filter { $0.sensor == .gyroscope }.count > count + 2 }, "back as device 7")
    source.stop()
    #expect(
      collector.errors.map(\.message) == ["iio:device1 (gyroscope) went away; its readings resume when it is back"])
    #expect(collector.errors.first?.code == .unknown)
    #expect(collector.readings.filter { $0.sensor == .accelerometer }.count > accelerometerBefore)
    #expect(collector.readings.last { $0.sensor == .gyroscope }?.device == "iio:device7")
  }

  @Test func missingSensorsAndRootsAreSaid() throws {
    let tree = try SysfsTree(copying: Self.laptop)
    defer { tree.remove() }
    try FileManager.default.removeItem(atPath: tree.root + "/iio:device2")
    let source = IIOSource(root: tree.root)
    let collector = Collector()
    source.start(sensors: [.accelerometer, .magnetometer], interval: 0.01, collector.sink)
    collector.wait { $0.readings.count > 2 }
    source.stop()
    let error = try #require(collector.errors.first)
    #expect(error.code == .sensorUnavailable && !error.isFinal && error.sensor == .magnetometer)
    #expect(error.message == "no magnetometer under \(tree.root)")

    let nothing = Collector()
    let empty = IIOSource(root: tree.root + "/iio:device1")  // one device: a gyroscope only
    empty.start(sensors: [.accelerometer], interval: 0.01, nothing.sink)
    nothing.wait { $0.errors.contains { $0.isFinal } }
    empty.stop()
    #expect(nothing.errors.last?.code == .sensorUnavailable && nothing.errors.last?.isFinal == true)

    let missing = Collector()
    let nowhere = IIOSource(root: "/nonexistent/iio")
    nowhere.start(sensors: [.accelerometer], interval: 0.01, missing.sink)
    missing.wait { !$0.errors.isEmpty }
    nowhere.stop()
    #expect(missing.errors.first?.code == .sourceNotFound)
    #expect(missing.errors.first?.message == "cannot read /nonexistent/iio: No such file or directory")
  }

  @Test func aMountMatrixThatIsNoRotationIsRefused() throws {
    let tree = try SysfsTree(copying: Self.laptop)
    defer { tree.remove() }
    try tree.write("iio:device0/in_accel_mount_matrix", "1, 0, 0; 0, 1")
    let discovery = IIOSource.discover(root: tree.root)
    #expect(!discovery.sensors.contains { $0.kind == .accelerometer })
    #expect(
      discovery.problems == [
        "iio:device0: the mount matrix '1, 0, 0; 0, 1' is not a rotation or a mirror (3 rows of 3 numbers); its accelerometer is not used"
      ])
    // One that scales an axis would make 1 g read 2 g: refused too.
    try tree.write("iio:device0/in_accel_mount_matrix", "2, 0, 0; 0, 1, 0; 0, 0, 1")
    #expect(!IIOSource.discover(root: tree.root).sensors.contains { $0.kind == .accelerometer })
    // A mirror, as systemd's hwdb gives for a chip whose z reads +1 g face up: used, z negated.
    try tree.write("iio:device0/in_accel_mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, -1")
    let mirrored = IIOSource.discover(root: tree.root)
    #expect(mirrored.problems.isEmpty, "\(mirrored.problems)")
    let accel = try #require(mirrored.best(.accelerometer))
    #expect(accel.mountMatrix.determinant == -1)
    // A quaternion sensor's must rotate: a mirror is refused.
    try tree.write("iio:device3/in_rot_mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, -1")
    let quaternion = IIOSource.discover(root: tree.root)
    #expect(!quaternion.sensors.contains { $0.kind == .attitude })
    #expect(quaternion.problems.contains { $0.contains("is not a rotation (3 rows") }, "\(quaternion.problems)")
  }

  @Test func theDisplaysSensorIsPreferredOnAConvertible() throws {
    let tree = try SysfsTree(copying: Self.laptop)
    defer { tree.remove() }
    try FileManager.default.copyItem(atPath: tree.root + "/iio:device0", toPath: tree.root + "/iio:device10")
    try tree.write("iio:device0/label", "accel-base")
    try tree.write("iio:device10/label", "accel-display")
    #expect(IIOSource.discover(root: tree.root).best(.accelerometer)?.device == "iio:device10")
  }
}

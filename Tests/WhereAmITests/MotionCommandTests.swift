import Foundation
import TestSupport
import Testing

/// `whereami motion` end to end: on a fake sysfs tree, through umockdev at the real
/// /sys paths, as a user who may not read a sensor, recording and replaying, shakes from
/// a log, and gpsd's ATT reports from a real gpsd.
@Suite struct MotionCommandTests {
  static let laptop = Paths.fixture("iio/laptop")

  /// A scratch copy of the laptop's tree, readable by every user.
  static func tree() throws -> String {
    let root = Reachable.directory + "/iio-\(UUID().uuidString.prefix(8))"
    try FileManager.default.copyItem(atPath: laptop, toPath: root)
    return root
  }

  static func objects(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map { line in
      try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }
  }

  @Test func printsTheLaptopsSensorsInTheirUnits() throws {
    let root = try Self.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let result = try runWhereAmI(["motion", "iio:\(root)", "--json", "--count", "12", "--interval", "0.05"])
    #expect(result.code == 0, "\(result.error)")
    #expect(result.error.isEmpty, "\(result.error)")
    let objects = try Self.objects(result.output)
    #expect(objects.count == 12)
    let acc = try #require(objects.first { $0["class"] as? String == "ACC" })
    #expect(acc["acc_unit"] as? String == "g")
    #expect(abs((acc["acc_y"] as? Double ?? 0) - -0.17400) < 1e-5)
    #expect(abs((acc["acc_z"] as? Double ?? 0) - -0.98499) < 1e-5)
    let gyro = try #require(objects.first { $0["class"] as? String == "GYRO" })
    #expect(gyro["gyro_unit"] as? String == "rad/s" && abs((gyro["gyro_x"] as? Double ?? 0) - 0.00105) < 1e-5)
    let mag = try #require(objects.first { $0["class"] as? String == "MAG" })
    #expect(mag["mag_unit"] as? String == "uT" && mag["mag_z"] as? Double == -46.6)
    // The quaternion sensor's attitude: 45° east of magnetic north, top up 10°.
    let attitudes = objects.filter {
      $0["class"] as? String == "ATT" && $0["attitudeSource"] as? String == "quaternion"
    }
    let attitude = try #require(attitudes.first)
    #expect(abs((attitude["mheading"] as? Double ?? 0) - 45) < 0.05)
    #expect(abs((attitude["pitch"] as? Double ?? 0) - 10) < 0.05)
    #expect(abs((attitude["yaw"] as? Double ?? 0) - -45) < 0.05)
    #expect(objects.contains { $0["headingSource"] as? String == "quaternion sensor" })
  }

  @Test func readsTheRealSysPathsUnderUmockdev() throws {
    // The same tree as the kernel shows it, at /sys/bus/iio/devices, through umockdev's
    // preload: the default source, with nothing pointing at the fixture.
    let description = Reachable.directory + "/laptop-\(UUID().uuidString.prefix(8)).umockdev"
    var text = ""
    let devices = try FileManager.default.contentsOfDirectory(atPath: Self.laptop).sorted()
    for device in devices {
      text += "P: /devices/platform/sensor-hub/\(device)\nE: SUBSYSTEM=iio\n"
      for file in try FileManager.default.contentsOfDirectory(atPath: Self.laptop + "/" + device).sorted() {
        var value = try String(contentsOfFile: Self.laptop + "/\(device)/\(file)", encoding: .utf8)
        // Slower than asked for below, so that the raise shows.
        if file == "sampling_frequency" { value = "10\n" }
        text += "A: \(file)=\(value.replacingOccurrences(of: "\n", with: "\\n"))\n"
      }
      text += "\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: description))
    defer { unlink(description) }
    // The rate while motion runs (once the lines checked below are out), and after it has
    // ended. Motion runs until interrupted, not for a count of lines: on a loaded machine
    // the shell may look only after a short count had ended and put the rate back. The
    // shell waits for the accelerometer's line and the heading, not for the first line:
    // the attitude comes first, and a loaded machine had interrupted motion after it.
    // The loop's bound (10 000 looks, at least 100 s) and the wait's only stop a hang.
    let output = description + ".out"
    defer { unlink(output) }
    let script = """
      ls /sys/bus/iio/devices >&2 && \
      { \(shellQuoted(Paths.whereami)) motion --json --interval 0.02 > \(output) & pid=$!; } && \
      n=0; until { grep -q '"class":"ACC"' \(output) && grep -q '"mheading"' \(output); } || [ $n -ge 10000 ]; \
      do sleep 0.01; n=$((n + 1)); done && \
      cat /sys/bus/iio/devices/iio:device0/sampling_frequency > \(output).rate; kill -INT $pid; wait $pid; \
      cat \(output) \(output).rate /sys/bus/iio/devices/iio:device0/sampling_frequency; rm -f \(output).rate
      """
    let child = try ChildProcess("/usr/bin/umockdev-run", ["-d", description, "--", "/bin/sh", "-c", script])
    #expect(child.wait(timeout: 600) == 0, "\(child.standardError)")
    let lines = child.standardOutput.split(separator: "\n").map(String.init)
    #expect(child.standardError.contains("iio:device3"), "\(child.standardError)")
    #expect(lines.count >= 3, "\(child.standardOutput)")
    let objects = try Self.objects(lines.dropLast(2).joined(separator: "\n"))
    let acc = try #require(objects.first { $0["class"] as? String == "ACC" })
    #expect(abs((acc["acc_z"] as? Double ?? 0) - -0.98499) < 1e-5)
    #expect(objects.contains { abs(($0["mheading"] as? Double ?? 0) - 45) < 0.05 })
    // 0.02 s asked for: the sensor was raised from 10 Hz to 50 Hz through the real path
    // while motion ran, and put back when it ended.
    #expect(lines.suffix(2) == ["50", "10"], "\(lines.suffix(2))")
  }

  @Test func anUnreadableSensorIsDenied() throws {
    let root = try Self.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let file = root + "/iio:device0/in_accel_x_raw"
    // As root every file is readable: only another user gets EACCES.
    let user = getuid() == 0 ? "nobody" : nil
    chmod(file, 0o000)
    let result = try runWhereAmI(["motion", "iio:\(root)", "--sensors", "accel"], asUser: user)
    #expect(result.code == 77, "\(result.error)")
    #expect(result.error == "whereami: denied: cannot read \(file): Permission denied\n")
  }

  @Test func aRecordingReplaysAsRecorded() throws {
    let root = try Self.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let log = Reachable.directory + "/recorded-\(UUID().uuidString.prefix(8)).csv"
    defer { unlink(log) }
    let live = try runWhereAmI([
      "motion", "iio:\(root)", "--record", log, "--json", "--count", "20", "--interval", "0.02",
    ])
    #expect(live.code == 0, "\(live.error)")
    let recorded = try String(contentsOfFile: log, encoding: .utf8)
    #expect(recorded.hasPrefix("# recorded by whereami motion\ntime,sensor,x,y,z,w\n"))
    #expect(recorded.contains(",attitude,") && recorded.contains(",magnetometer,"))
    let replay = try runWhereAmI(["motion", log, "--json", "--speed", "0", "--interval", "0.02"])
    #expect(replay.code == 0, "\(replay.error)")
    // Every accelerometer line of the live run is in the replay, digit for digit.
    let liveAcc = live.output.split(separator: "\n").filter { $0.contains("\"ACC\"") }
    let replayAcc = Set(replay.output.split(separator: "\n").filter { $0.contains("\"ACC\"") })
    #expect(!liveAcc.isEmpty && liveAcc.allSatisfy { replayAcc.contains($0) }, "\(liveAcc) \(replayAcc)")
  }

  @Test func aLogIsNeverRecordedOntoItself() throws {
    let log = Reachable.directory + "/self-\(UUID().uuidString.prefix(8)).csv"
    let link = log + ".link"
    defer {
      unlink(log)
      unlink(link)
    }
    let original = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("motion/shake.csv")))
    try original.write(to: URL(fileURLWithPath: log))
    symlink(log, link)
    // By its own path, through a link, and as standard input.
    for (source, record, stdin) in [(log, log, nil), (log, link, nil), ("-", log, log)] as [(String, String, String?)] {
      let result = try runWhereAmI(["motion", source, "--record", record, "--speed", "0"], stdinPath: stdin)
      #expect(result.code == 64, "\(source) --record \(record): \(result.error)")
      #expect(result.error.contains("is the log being read"), "\(result.error)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == original, "\(source) --record \(record)")
    }
  }

  @Test func aRecordingReplacesAFileOnlyWhenCompleteAndSurvivesRepeatedSignals() throws {
    let root = try Self.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let directory = Reachable.directory + "/record-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let target = directory + "/today.csv"
    try "yesterday's recording\n".write(toFile: target, atomically: true, encoding: .utf8)
    let child = try ChildProcess(
      Paths.whereami, ["motion", "iio:\(root)", "--record", target, "--sensors", "accel", "--interval", "0.02"])
    defer { child.terminate() }
    #expect(child.waitForOutputLines(5))
    // While it records, the old file is intact and the readings go to a partial file beside it.
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "yesterday's recording\n")
    let partials = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".partial-") }
    #expect(partials.count == 1, "\(partials)")
    // Two signals at once, as `timeout` and a double Ctrl-C send: the second must not undo the first.
    child.signalGroup(SIGINT)
    child.signalGroup(SIGINT)
    let code = child.wait(timeout: 30)
    // 0, or the second signal's default action once the recording was complete and the
    // handlers released.
    #expect(code == 0 || code == 128 + SIGINT, "\(code): \(child.standardError)")
    let recorded = try String(contentsOfFile: target, encoding: .utf8)
    #expect(recorded.hasPrefix("# recorded by whereami motion\ntime,sensor,x,y,z,w\n"), "\(recorded.prefix(200))")
    #expect(recorded.contains(",accelerometer,"), "\(recorded.prefix(300))")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["today.csv"])
  }

  @Test func shakesFromARecordedLog() throws {
    let result = try runWhereAmI(["motion", Paths.fixture("motion/shake.csv"), "--shake", "--speed", "0"])
    #expect(result.code == 0, "\(result.error)")
    #expect(
      result.output == """
        12:00:02.160 shake    began: 2 peaks in 0.12 s, up to 2.24 g (strong)
        12:00:04.500 shake    ended: 16 peaks in 1.86 s, up to 2.51 g (strong)
        12:00:08.480 shake    began: 2 peaks in 0.14 s, up to 1.94 g (light)
        12:00:10.360 shake    cancelled: 11 peaks in 1.44 s, up to 2.26 g (strong), put down

        """)
    let json = try runWhereAmI(["motion", Paths.fixture("motion/shake.csv"), "--shake", "--speed", "0", "--json"])
    let objects = try Self.objects(json.output)
    #expect(objects.map { $0["phase"] as? String } == ["began", "ended", "began", "cancelled"])
    #expect(objects[1]["start"] as? String == "2026-12-01T12:00:02.040Z")
    #expect(objects[3]["reason"] as? String == "put down")
  }

  @Test func shakeThresholdsAndWindowAreOptions() throws {
    // The log's shakes peak at 2.5 and 2.3 g: over a 2.6 g threshold, nothing is a peak.
    let high = try runWhereAmI(
      ["motion", Paths.fixture("motion/shake.csv"), "--shake", "--speed", "0", "--shake-threshold", "2.6,3"])
    #expect(high.code == 0 && high.output.isEmpty, "\(high.output)")
    // Strong from 3 g: the first shake is light now.
    let strong = try runWhereAmI(
      ["motion", Paths.fixture("motion/shake.csv"), "--shake", "--speed", "0", "--shake-threshold", "1.5,3"])
    #expect(strong.output.contains("ended: 16 peaks in 1.86 s, up to 2.51 g (light)"), "\(strong.output)")
    // Five peaks within 0.1 s never happen at 4 Hz.
    let narrow = try runWhereAmI(
      ["motion", Paths.fixture("motion/shake.csv"), "--shake", "--speed", "0", "--shake-window", "0.1"])
    #expect(!narrow.output.contains("ended"), "\(narrow.output)")
    #expect(try runWhereAmI(["motion", "--shake-threshold", "2,1", Self.laptop]).code == 64)
  }

  @Test func aSensorThatGoesAwayAndAValueThatIsNoNumberAreSaidAndReadingsGoOn() throws {
    let root = try Self.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let child = try ChildProcess(
      Paths.whereami, ["motion", "iio:\(root)", "--sensors", "accel,gyro", "--interval", "0.02"])
    defer { child.terminate() }
    #expect(child.waitForOutputLines(6))
    func gyroLines() -> Int { child.standardOutput.split(separator: "\n").filter { $0.contains(" gyro ") }.count }
    // The gyroscope's device goes away, and comes back as another device.
    try FileManager.default.moveItem(atPath: root + "/iio:device1", toPath: root + "/gyro-away")
    let deadline = Date().addingTimeInterval(60)
    while !child.standardError.contains("went away") && Date() < deadline { usleep(20_000) }
    let before = gyroLines()
    try FileManager.default.moveItem(atPath: root + "/gyro-away", toPath: root + "/iio:device5")
    while gyroLines() < before + 3 && Date() < deadline { usleep(20_000) }
    #expect(gyroLines() >= before + 3, "\(child.standardError)")
    // A value that is no number: said once, and the gyroscope goes on meanwhile.
    try replaceFile(root + "/iio:device0/in_accel_z_raw", with: "n/a\n".utf8)
    while !child.standardError.contains("is not a number") && Date() < deadline { usleep(20_000) }
    let gyro = gyroLines()
    while gyroLines() < gyro + 3 && Date() < deadline { usleep(20_000) }
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0)
    #expect(
      child.standardError == """
        whereami: motion unknown: iio:device1 (gyroscope) went away; its readings resume when it is back
        whereami: motion unknown: \(root)/iio:device0/in_accel_z_raw: 'n/a' is not a number; accelerometer readings resume with the next one

        """)
    #expect(gyroLines() >= gyro + 3)
  }

  @Test func gpsdsATTReportsKeepTheirDeviceUnits() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let child = try ChildProcess(
      Paths.whereami, ["motion", "gpsd://127.0.0.1:\(daemon.port)", "--json", "--count", "6", "--interval", "0.01"])
    defer { child.terminate() }
    #expect(daemon.waitForClients(1), "\(child.standardError)")
    // An OceanServer compass: heading, pitch, roll, temperature, depth, the field's length
    // and x, y, z, the acceleration's length and x, y, z, a reserved field, gyro x, y.
    let ohpr = checksummed(
      "$OHPR,123.4,5.6,-7.8,21.5,10.0,0.512,0.101,-0.202,0.303,1.001,0.011,-0.022,0.999,0,1.5,-2.5,0,0")
    for _ in 0..<6 {
      daemon.feed.send(checksummed("$GPRMC,120000.00,A,5230.0000,N,01322.0000,E,0.0,0.0,011226,,,A") + "\r\n")
      daemon.feed.send(ohpr + "\r\n")
      usleep(150_000)
    }
    #expect(child.wait(timeout: 15) == 0, "\(child.standardError)")
    let objects = try Self.objects(child.standardOutput)
    let acc = try #require(objects.first { $0["acc_x"] != nil }, "\(child.standardOutput)")
    #expect(acc["acc_unit"] as? String == "device")
    #expect(acc["acc_x"] as? Double == 0.011 && acc["acc_z"] as? Double == 0.999)
    let gyro = try #require(objects.first { $0["gyro_x"] != nil })
    #expect(gyro["gyro_x"] as? Double == 1.5 && gyro["gyro_z"] == nil, "gpsd has no gyro_z")
    let attitude = try #require(objects.first { $0["attitudeSource"] as? String == "reported" })
    #expect(abs((attitude["heading"] as? Double ?? 0) - 123.4) < 1e-6)
    #expect(abs((attitude["pitch"] as? Double ?? 0) - 5.6) < 1e-6)
    #expect(abs((attitude["roll"] as? Double ?? 0) - -7.8) < 1e-6)
    #expect(attitude["frame"] as? String == "trueNorth")
  }

  /// gpsd passes a True North compass's raw counts (65,536 to the circle) on as if they
  /// were degrees (its own corpus: heading 14223, pitch 169); they are scaled as on the
  /// direct path.
  @Test func aTrueNorthCompassThroughGpsdIsInDegrees() throws {
    let log = try String(contentsOf: TestPaths.corpus.appendingPathComponent("tnt-revolution.log"), encoding: .utf8)
    let lines = log.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$PTNTHTM") }.prefix(12).map(String.init)
    #expect(lines.count == 12)
    let scale = 360.0 / 65536
    let expected = lines.map { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
      return (heading: fields[1]! * scale, pitch: fields[3]! * scale, roll: fields[5]! * scale)
    }
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let child = try ChildProcess(
      Paths.whereami, ["motion", "gpsd://127.0.0.1:\(daemon.port)", "--json", "--count", "4"])
    defer { child.terminate() }
    #expect(daemon.waitForClients(1), "\(child.standardError)")
    // gpsd reports each sentence as it comes; fed at a compass's pace until `--count` is met.
    var fed = 0
    while !child.hasExited && fed < 10 * lines.count {
      daemon.feed.send(lines[fed % lines.count] + "\r\n")
      fed += 1
      usleep(100_000)
    }
    #expect(child.wait(timeout: 15) == 0, "\(child.standardError)")
    let attitudes = try Self.objects(child.standardOutput).filter { $0["attitudeSource"] as? String == "reported" }
    #expect(!attitudes.isEmpty, "\(child.standardOutput)")
    for attitude in attitudes {
      let heading = try #require(attitude["heading"] as? Double, "\(attitude)")
      let pitch = attitude["pitch"] as? Double ?? .nan
      let roll = attitude["roll"] as? Double ?? .nan
      #expect(
        expected.contains {
          abs($0.heading - heading) < 0.006 && abs($0.pitch - pitch) < 0.006 && abs($0.roll - roll) < 0.006
        },
        "\(attitude) is none of the compass's readings in degrees")
    }
  }

  @Test func badSourcesAndOptionsHaveTheirExitCodes() throws {
    #expect(try runWhereAmI(["motion", "ftp://example"]).code == 64)
    #expect(try runWhereAmI(["motion", "--sensors", "sonar", Self.laptop]).code == 64)
    #expect(try runWhereAmI(["motion", "--interval", "0", Self.laptop]).code == 64)
    let missing = try runWhereAmI(["motion", "iio:/nonexistent/iio"])
    #expect(missing.code == 66)
    #expect(
      missing.error == "whereami: source not found: cannot read /nonexistent/iio: No such file or directory\n")
    let noLog = try runWhereAmI(["motion", "/nonexistent/shake.csv"])
    #expect(noLog.code == 66)
    let notALog = try runWhereAmI(["motion", Paths.fixture("walk.nmea"), "--speed", "0"])
    #expect(notALog.code == 65, "\(notALog.error)")
    #expect(notALog.error.contains("it has no header (time,sensor,x,y,z,w), so it is not a sensor log"))
    let root = try Self.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let noGyro = try runWhereAmI(["motion", "iio:\(root)/iio:device0", "--sensors", "gyro"])
    #expect(noGyro.code == 69, "\(noGyro.error)")
    #expect(noGyro.error.contains("sensor unavailable"))
  }
}

/// `watch --motion`: the motion panel beside the position.
@Suite struct WatchMotionPanelTests {
  @Test func theMotionPanelShowsAttitudeHeadingAndShakes() throws {
    let tmux = try TmuxServer(shellNamed: "motion", width: 120, height: 44)
    defer { tmux.stop() }
    let root = try MotionCommandTests.tree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try tmux.type(
      WatchEndToEndTests.checkedLine(
        "env TERM=xterm-256color TZ=UTC NO_COLOR=1 \(shellQuoted(Paths.whereami)) watch "
          + "\(shellQuoted(Paths.fixture("walk.nmea"))) --speed 5 --motion iio:\(shellQuoted(root))"))
    // The quaternion sensor (the facing, the attitude) and the accelerometer are devices
    // of their own, each read at its interval: on a loaded machine the panel showed the
    // facing while the acceleration was still to come ("Accel –"). Both are waited for.
    let screen = try tmux.waitFor("the motion panel", timeout: 60) {
      $0.contains("Facing      45.0° magnetic") && $0.contains("Accel       x+0.00 y-0.17 z-0.98 g")
    }
    #expect(screen.contains("Attitude    roll +0.0° pitch +10.0°"))
    #expect(screen.contains("Shake       none yet"))
    #expect(screen.contains(#/Latitude    52\.51\d{5}° N/#))
    try tmux.send(["q"])
  }

  @Test func aShakeFromALogShowsInThePanel() throws {
    let tmux = try TmuxServer(shellNamed: "shake", width: 120, height: 44)
    defer { tmux.stop() }
    // The log's first 7 s: its first shake ends 4.5 s in, at the log's own pace, and
    // nothing follows it, so the panel keeps it however late the screen is read (the
    // whole log puts the device down at 10 s, and a loaded machine could miss the 5.5 s
    // between).
    let scratch = try ExportScratch()
    let log = try String(contentsOfFile: Paths.fixture("motion/shake.csv"), encoding: .utf8)
    let firstSeconds = log.split(separator: "\n").filter { line in
      guard let time = Double(line.prefix { $0 != "," }) else { return true }
      return time < 1_796_126_407
    }
    let shake = try scratch.write("shake.csv", firstSeconds.joined(separator: "\n") + "\n")
    try tmux.type(
      WatchEndToEndTests.checkedLine(
        "env TERM=xterm-256color TZ=UTC NO_COLOR=1 \(shellQuoted(Paths.whereami)) watch "
          + "\(shellQuoted(Paths.fixture("walk.nmea"))) --speed 5 --motion " + shellQuoted(shake)))
    let screen = try tmux.waitFor("the shake", timeout: 60) { $0.contains("Shake       ended 12:00:04, 2.5 g") }
    #expect(screen.contains("Attitude    roll "))
    try tmux.send(["q"])
  }

  /// A still device's heading is a line per interval like every other kind, so that
  /// `--count` ends (it waited for a change of a degree that never came).
  @Test func aStillDevicesHeadingsAreCountedLines() throws {
    let result = try runWhereAmI([
      "motion", "iio:" + MotionCommandTests.laptop, "--count", "3", "--sensors", "heading", "--interval", "0.02",
    ])
    #expect(result.code == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 3 && lines.allSatisfy { $0.contains(" heading ") }, "\(result.output)")
  }

}

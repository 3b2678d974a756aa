import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A source is what it is, not what it is called: how each kind is recognised, ends and
/// stops (issue: sources that end, stop and keep apart as a user expects).
@Suite struct SourceKindTests {
  static let walk = Paths.fixture("walk.nmea")

  private func lines(_ text: String) -> Int { text.split(separator: "\n").count }

  /// A new FIFO in the temporary directory, removed by `body`'s end.
  private func withFIFO(_ name: String, _ body: (String) throws -> Void) throws {
    let fifo = NSTemporaryDirectory() + "whereami-\(name)-\(getpid()).fifo"
    unlink(fifo)
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    try body(fifo)
  }

  @Test func aLogUnderDevIsALogNotASerialReceiver() throws {
    let path = "/dev/shm/whereami-\(getpid()).nmea"
    try FileManager.default.copyItem(atPath: Self.walk, toPath: path)
    defer { unlink(path) }
    let result = try runWhereAmI(["print", path], timeout: 30)
    #expect(result.code == 0)
    #expect(lines(result.output) == 1160)
    let export = try runWhereAmI(["export", "--format", "csv", path], timeout: 30)
    #expect(export.output.split(separator: "\r\n").count == 1161)
  }

  @Test func devStdinRedirectedFromAFileIsThatFile() throws {
    let result = try runWhereAmI(["print", "/dev/stdin"], stdinPath: Self.walk, timeout: 30)
    #expect(result.code == 0)
    #expect(lines(result.output) == 1160)
  }

  @Test func processSubstitutionAndAPipeOnDevStdinEndWithTheirInput() throws {
    for script in [
      "'\(Paths.whereami)' print <(cat '\(Self.walk)')",
      "cat '\(Self.walk)' | '\(Paths.whereami)' print /dev/stdin",
    ] {
      let child = try ChildProcess("/bin/bash", ["-c", script])
      #expect(child.wait(timeout: 30) == 0, "\(script)")
      #expect(lines(child.standardOutput) == 1160, "\(script)")
    }
  }

  @Test func devNullIsAnEmptyInputNotAReceiverThatReconnects() throws {
    let result = try runWhereAmI(["print", "/dev/null"], timeout: 30)
    #expect(result.code == 65)
    #expect(result.error.contains("no fix in /dev/null: 0 bytes"))
    #expect(result.error.contains("it is empty"))
    #expect(!result.error.contains("reconnecting"))
  }

  @Test func devZeroIsGarbageAndSaidToBe() throws {
    let child = try ChildProcess(Paths.whereami, ["print", "/dev/zero"])
    defer { child.terminate() }
    let deadline = Date().addingTimeInterval(15)
    while !child.standardError.contains("sends bytes but no NMEA reports"), Date() < deadline { usleep(100_000) }
    #expect(child.standardError.contains("/dev/zero sends bytes but no NMEA reports"), "\(child.standardError)")
    kill(child.pid, SIGINT)
    #expect(child.wait(timeout: 30) == 0)
  }

  @Test(arguments: [SIGINT, SIGTERM, SIGQUIT, SIGHUP])
  func aFIFOWithNoWriterStopsOnASignal(signalNumber: Int32) throws {
    try withFIFO("nowriter-\(signalNumber)") { fifo in
      for command in ["print", "replay"] {
        let child = try ChildProcess(Paths.whereami, [command, fifo])
        defer { child.terminate() }
        #expect(child.waitUntilBlocking(signalNumber))
        kill(child.pid, signalNumber)
        #expect(child.wait(timeout: 30) == 0, "\(command) after signal \(signalNumber)")
        #expect(!child.standardError.contains("Crash"), "\(child.standardError)")
        #expect(child.standardError.components(separatedBy: "fixes from").count - 1 == 1, "\(child.standardError)")
      }
    }
  }

  @Test func twoSignalsGiveOneSummary() throws {
    try withFIFO("twice") { fifo in
      let child = try ChildProcess(Paths.whereami, ["print", fifo])
      defer { child.terminate() }
      #expect(child.waitUntilBlocking(SIGTERM))
      kill(child.pid, SIGTERM)
      kill(child.pid, SIGTERM)
      #expect(child.wait(timeout: 30) == 0)
      #expect(child.standardError.components(separatedBy: "fixes from").count - 1 == 1, "\(child.standardError)")
    }
  }

  @Test func aFIFOsWriterIsFollowedToItsEnd() throws {
    try withFIFO("writer") { fifo in
      let child = try ChildProcess(Paths.whereami, ["print", fifo])
      defer { child.terminate() }
      usleep(300_000)
      let writer = try ChildProcess("/bin/sh", ["-c", "cat '\(Self.walk)' > '\(fifo)'"])
      #expect(writer.wait(timeout: 30) == 0)
      #expect(child.wait(timeout: 20) == 0)
      #expect(lines(child.standardOutput) == 1160)
    }
  }

  @Test func whatAnInputWithoutFixesHeldIsSaid() throws {
    let directory = NSTemporaryDirectory() + "whereami-nofix-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let gzip = directory + "/walk.nmea.gz"
    #expect(try ChildProcess("/bin/sh", ["-c", "gzip -c '\(Self.walk)' > '\(gzip)'"]).wait(timeout: 30) == 0)
    let utf16 = directory + "/walk-utf16.nmea"
    let text = try String(contentsOfFile: Self.walk, encoding: .utf8)
    try text.data(using: .utf16)!.write(to: URL(fileURLWithPath: utf16))
    let random = directory + "/random.bin"
    var generator = SeededRandom(seed: 5)
    try Data((0..<100_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }).write(
      to: URL(fileURLWithPath: random))
    let cold = directory + "/cold.nmea"
    let coldLines = ["GPGGA,120000.00,,,,,0,00,99.9,,,,,,", "GPGGA,120001.00,,,,,0,00,99.9,,,,,,"].map { body in
      checksummed("$" + body) + "\r\n"
    }
    try Data(coldLines.joined().utf8).write(to: URL(fileURLWithPath: cold))
    for (path, hint) in [
      (gzip, "gzip-compressed: try zcat"), (utf16, "UTF-16 text: try iconv"), (random, "it is not NMEA 0183"),
      (cold, "no position in its 2 reporting cycles"),
    ] {
      let result = try runWhereAmI(["print", path], timeout: 30)
      #expect(result.code == 65, "\(path)")
      #expect(result.error.contains("no fix in \(path): "), "\(result.error)")
      #expect(result.error.contains(hint), "\(result.error)")
    }
  }

  @Test func implausibleFixesAreSetAsideCountedAndNamedUnderVerbose() throws {
    // A walk with one fix at the North Pole and one whose time goes back ten minutes.
    let original = try String(contentsOfFile: Self.walk, encoding: .utf8)
    var lines = original.components(separatedBy: "\r\n")
    func replaceGGA(_ index: Int, _ transform: (String) -> String) {
      let line = lines[index]
      let body = transform(String(line.dropFirst().prefix { $0 != "*" }))
      lines[index] = checksummed("$" + body)
    }
    let ggas = lines.indices.filter { lines[$0].hasPrefix("$GPGGA") }
    let rmcs = lines.indices.filter { lines[$0].hasPrefix("$GPRMC") }
    // The pole: both position sentences of the 100th cycle.
    for index in [ggas[100], rmcs[100]] {
      replaceGGA(index) { $0.replacingOccurrences(of: ",5230.", with: ",8959.") }
    }
    // Time going back: the 300th cycle claims a time ten minutes earlier.
    for index in [ggas[300], rmcs[300]] {
      replaceGGA(index) { $0.replacingOccurrences(of: ",0747", with: ",0737") }
    }
    let path = NSTemporaryDirectory() + "whereami-implausible-\(getpid()).nmea"
    try lines.joined(separator: "\r\n").write(toFile: path, atomically: false, encoding: .utf8)
    defer { unlink(path) }
    let clean =
      try JSONSerialization.jsonObject(
        with: Data(try runWhereAmI(["summary", "--json", Self.walk]).output.utf8)) as! [String: Any]
    let summary = try runWhereAmI(["summary", "--json", path])
    let object = try JSONSerialization.jsonObject(with: Data(summary.output.utf8)) as! [String: Any]
    let implausible = try #require(object["implausible"] as? [String: Int])
    #expect(implausible["tooFast"] == 1, "\(implausible)")
    #expect(implausible["timeWentBackwards"] == 1, "\(implausible)")
    let distance = try #require(object["distance"] as? Double)
    let cleanDistance = try #require(clean["distance"] as? Double)
    #expect(abs(distance - cleanDistance) < 5, "\(distance) m, clean \(cleanDistance) m")
    let printed = try runWhereAmI(["print", "-v", path])
    #expect(printed.output.split(separator: "\n").count == 1158)
    #expect(printed.error.contains("set aside: too fast"))
    #expect(printed.error.contains("set aside: time went backwards"))
    #expect(!printed.output.contains("lat 89.9"))
  }

  @Test func severalFilesSumTheirDurationsAndHaveNoCommonDisplacement() throws {
    let result = try runWhereAmI(["summary", "--json", Self.walk, Paths.fixture("drive-midnight.nmea")])
    let objects = try result.output.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    #expect(objects.count == 3)
    let total = objects[2]
    #expect(abs((total["duration"] as? Double ?? 0) - (1159 + 600)) < 1e-6, "\(total)")
    #expect(total["displacement"] == nil)
  }

  @Test func theAccuracyFilterComparesWhatIsShown() throws {
    let all = try runWhereAmI(["print", Self.walk]).output.split(separator: "\n")
    let shown35 = all.filter { $0.contains(" acc 3.5 m ") }.count
    try #require(shown35 > 0)
    let kept = try runWhereAmI(["print", "--accuracy", "3.5", Self.walk]).output.split(separator: "\n")
    #expect(kept.filter { $0.contains(" acc 3.5 m ") }.count == shown35)
    #expect(!kept.contains { $0.contains(" acc 3.6 m ") })
  }

  @Test func replaySpeedsHaveAFloorAndZeroIsAsFastAsItReads() throws {
    let tiny = try runWhereAmI(["replay", "--speed", "1e-320", Self.walk], timeout: 30)
    #expect(tiny.code == 64)
    #expect(tiny.error.contains("0.01"))
    let zero = try runWhereAmI(["replay", "--speed", "0", Self.walk], timeout: 30)
    #expect(zero.code == 0)
    #expect(lines(zero.output) == 1160)
    // A quarter speed: a fix every 4 s, and no false "no data for 3 s".
    let slow = try ChildProcess(Paths.whereami, ["replay", "--speed", "0.25", Self.walk])
    defer { slow.terminate() }
    // Past the unscaled watchdog's 3 s: the second fix comes 4 s after the first.
    #expect(slow.waitForOutputLines(2, timeout: 60), "\(slow.standardError)")
    kill(slow.pid, SIGINT)
    #expect(slow.wait(timeout: 30) == 0)
    #expect(!slow.standardError.contains("no data"), "\(slow.standardError)")
    #expect(lines(slow.standardOutput) >= 2)
  }

  @Test func aConnectionFailureIsSaidOnceAndPlainly() throws {
    let port = freeLoopbackPort()
    let child = try ChildProcess(Paths.whereami, ["print", "--wait", "gpsd://127.0.0.1:\(port)"])
    defer { child.terminate() }
    #expect(waitUntil { child.standardError.contains("cannot connect") }, "\(child.standardError)")
    // Retried meanwhile (after 0.25, 0.5, 1 and 2 s), and never said again.
    usleep(4_000_000)
    kill(child.pid, SIGINT)
    #expect(child.wait(timeout: 30) == 0)
    let said = child.standardError.components(separatedBy: "cannot connect to gpsd at 127.0.0.1:\(port)").count - 1
    #expect(said == 1, "\(child.standardError)")
    #expect(!child.standardError.contains("cannot connect: cannot connect"))
  }

  @Test func helpForACommandByName() throws {
    let result = try runWhereAmI(["help", "print"])
    #expect(result.code == 0)
    #expect(result.output.hasPrefix("USAGE: whereami print"))
  }
}

import Foundation
import NMEA
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct CommandLineTests {
  @Test func printsOneLinePerFix() throws {
    let result = try runWhereAmI(["print", Paths.fixture("walk.nmea")])
    #expect(result.code == 0)
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 1160)
    #expect(lines.first?.hasPrefix("2025-06-14T07:42:13.000Z 3D lat 52.514") == true)
    for field in ["acc ", "alt ", "vacc ", "speed ", "course ", "distance "] {
      #expect(lines[10].contains(field), "missing \(field)")
    }
    #expect(result.error.isEmpty)
  }

  @Test func jsonUsesGpsdNamesAndOmitsUnknowns() throws {
    let result = try runWhereAmI(["print", "--json", Paths.fixture("drive-midnight.nmea")])
    #expect(result.code == 0)
    let objects = try result.output.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    #expect(objects.count == 601)
    let first = objects[0]
    #expect(first["class"] as? String == "TPV")
    #expect(
      (first["time"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression)
        != nil)
    for key in [
      "mode", "lat", "lon", "altMSL", "altHAE", "geoidSep", "speed", "eph", "epv", "status", "distance",
      "satellitesUsed",
    ] {
      #expect(first[key] != nil, "missing \(key)")
    }
    // During the traffic-light stop the receiver gives no course: omitted, never null or 0.
    let stopped = objects.filter { ($0["time"] as? String)?.hasPrefix("2025-12-31T23:57:2") == true }
    #expect(!stopped.isEmpty && stopped.allSatisfy { $0["track"] == nil })
    #expect(!result.output.contains("null"))
    // Full precision: nine decimals.
    let line = result.output.split(separator: "\n")[0]
    #expect(line.range(of: #""lat":-?\d+\.\d{9},"#, options: .regularExpression) != nil)
    // Distance grows monotonically and crosses midnight without a jump in time.
    let distances = objects.compactMap { $0["distance"] as? Double }
    #expect(zip(distances, distances.dropFirst()).allSatisfy { $0 <= $1 })
  }

  /// A leap second is printed as the receiver sent it, 23:59:60 of the old day (not a
  /// second 00:00:00), and its steps count: 10 m/s for 14 s across it is 140 m.
  @Test func aLeapSecondIsPrintedAndCounted() throws {
    var lines: [String] = []
    let times = (50...60).map { ("2359\($0)", "311216") } + (0...3).map { ("00000\($0)", "010117") }
    for (index, (time, date)) in times.enumerated() {
      let minutes = String(format: "%09.6f", 30 + Double(index) * 10 / 1852)
      lines.append(checksummed("$GPRMC,\(time).00,A,52\(minutes),N,01318.000000,E,19.438,0.0,\(date),,,A"))
      lines.append(checksummed("$GPGGA,\(time).00,52\(minutes),N,01318.000000,E,1,10,0.9,35.0,M,39.6,M,,"))
    }
    let scratch = try ExportScratch()
    let log = try scratch.write("leap.nmea", lines.joined(separator: "\r\n") + "\r\n")
    let text = try runWhereAmI(["print", log]).output.split(separator: "\n")
    #expect(text.count == 15)
    let around: [Substring] = text.map { $0.prefix(23) }.filter {
      $0.hasSuffix("00:00:00.000") || $0.hasSuffix("23:59:60.000")
    }
    #expect(around == ["2016-12-31T23:59:60.000", "2017-01-01T00:00:00.000"])
    #expect(text.last?.contains(" distance 140.0 m ±") == true, "\(text.last ?? "")")
    let json = try runWhereAmI(["print", "--json", log]).output
    #expect(json.contains("\"time\":\"2016-12-31T23:59:60.000Z\""))
  }

  @Test func readsStandardInput() throws {
    let result = try runWhereAmI(["print", "-"], stdinPath: Paths.fixture("walk.nmea"))
    #expect(result.code == 0)
    #expect(result.output.split(separator: "\n").count == 1160)
  }

  @Test func aPipeOnStandardInputIsFollowedLive() throws {
    let fifo = NSTemporaryDirectory() + "whereami-stdin-\(getpid()).fifo"
    unlink(fifo)
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    // Opened for reading and writing, so that neither this open nor the child's blocks;
    // closing it is the end of the input.
    let writer = FileHandle(fileDescriptor: open(fifo, O_RDWR | O_CLOEXEC), closeOnDealloc: true)
    let child = try ChildProcess(Paths.whereami, ["print", "-"], stdinPath: fifo)
    defer { child.terminate() }
    let walk = try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8)
    let lines = walk.split(separator: "\r\n", omittingEmptySubsequences: false)
    let cycleStarts = lines.indices.filter { lines[$0].hasPrefix("$GPRMC") }
    // Three whole cycles, as `cat /dev/ttyUSB0 |` would pass them on: all three are
    // printed while the pipe stays open (a log file's last cycle waits for the next).
    try #require(cycleStarts.count > 3)
    writer.write(Data((lines[..<cycleStarts[3]].joined(separator: "\r\n") + "\r\n").utf8))
    #expect(child.waitForOutputLines(3, timeout: 30))
    try writer.close()
    #expect(child.wait(timeout: 30) == 0)
    #expect(child.standardOutput.split(separator: "\n").count == 3)
  }

  @Test func aLogPipedToStandardInputPrintsWhatTheFileDoes() throws {
    // A pipe is live, yet read at full speed it must decode as the file does (the gpsd
    // corpus is checked the same way, in process: LocationManagerTests).
    for fixture in ["walk.nmea", "multi-gnss-burst.nmea", "corrupted.nmea"].map(Paths.fixture) {
      let piped = try ChildProcess("/bin/sh", ["-c", "cat '\(fixture)' | '\(Paths.whereami)' print --json -"])
      #expect(piped.wait(timeout: 30) == 0)
      let file = try runWhereAmI(["print", "--json", fixture])
      #expect(!file.output.isEmpty)
      #expect(piped.standardOutput == file.output, "\(fixture)")
    }
  }

  @Test func liveAndFileGiveTheSameDistanceOnALogTheFixturesNeverSaw() throws {
    // A walk with pauses from a receiver of the odometer's test family, piped through
    // `cat` (a live source: no look-ahead) and read as a file, and summarised.
    var random = SeededRandom(seed: 77)
    let phases: [MovementPhase] = [
      .move(seconds: 600, speed: 1.3), .stand(seconds: 40), .move(seconds: 500, speed: 1.5),
    ]
    let track = TrackSimulator(receiver: .drawn(&random), phases: phases).generate(seed: 77)
    let path = NSTemporaryDirectory() + "whereami-generated-walk-\(getpid()).nmea"
    try Data(track.nmea).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    func lastDistance(_ output: String) throws -> Double {
      let last = try #require(output.split(separator: "\n").last)
      let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as! [String: Any]
      return try #require(object["distance"] as? Double)
    }
    let piped = try ChildProcess("/bin/sh", ["-c", "cat '\(path)' | '\(Paths.whereami)' print --json -"])
    #expect(piped.wait(timeout: 60) == 0)
    let file = try runWhereAmI(["print", "--json", path])
    let live = try lastDistance(piped.standardOutput)
    let replayed = try lastDistance(file.output)
    #expect(live == replayed)
    #expect(abs(replayed - track.pathLength) / track.pathLength < 0.01, "\(replayed) m for \(track.pathLength) m")
    let summary = try runWhereAmI(["summary", "--json", path])
    let object = try JSONSerialization.jsonObject(with: Data(summary.output.utf8)) as! [String: Any]
    #expect(object["distance"] as? Double == replayed)
  }

  @Test func aSignalAtAnyMomentEndsTheCommand() throws {
    // Nothing listens on the port: the command retries (--wait) until a signal ends it.
    // Sent from the very start on, while the command is still setting up, no signal may be
    // lost.
    let port = freeLoopbackPort()
    for attempt in 0..<30 {
      let signalNumber = attempt % 2 == 0 ? SIGINT : SIGTERM
      let child = try ChildProcess(Paths.whereami, ["print", "--wait", "gpsd://127.0.0.1:\(port)"])
      usleep(useconds_t(attempt / 2 * 1500))
      kill(child.pid, signalNumber)
      let code = child.wait(timeout: 30)
      // Before the command's handler is set the signal ends it as by default; after, the
      // command ends normally with its summary.
      #expect(code == 0 || code == 128 + signalNumber, "attempt \(attempt): exit \(code)")
    }
  }

  /// SIGQUIT (or SIGHUP) at a random moment of the first 50 ms, hundreds of times: the
  /// command ends as after it has started (its summary, exit 0), or as the signal's
  /// default would end it, and never shows the runtime's crash report or hangs. It had,
  /// in 8 of 100 runs of `print`, when the signal came before the handlers were in place.
  /// Every fifth run waits until the command blocks the signal, as it does first thing:
  /// that one must end as started, however slowly the machine starts it (under
  /// AddressSanitizer on a loaded machine, 50 ms may pass before any run gets that far).
  @Test(arguments: [["print", "--wait", "gpsd://127.0.0.1:1"], ["motion", "iio:\(Paths.fixture("iio/laptop"))"]])
  func aSignalWhileStartingNeverCrashesNorHangs(command: [String]) throws {
    // Fewer under AddressSanitizer, whose programs take longer to start.
    let runs = ProcessInfo.processInfo.environment["WHEREAMI_CHILD_ASAN_OPTIONS"] == nil ? 150 : 30
    var generator = SystemRandomNumberGenerator()
    var codes: [Int32: Int] = [:]
    for run in 0..<runs {
      let signalNumber = run % 3 == 2 ? SIGHUP : SIGQUIT
      let child = try ChildProcess(Paths.whereami, command)
      let started = run % 5 == 4
      if started {
        #expect(child.waitUntilBlocking(signalNumber), "run \(run)")
      } else {
        usleep(UInt32.random(in: 0..<50_000, using: &generator))
      }
      kill(child.pid, signalNumber)
      let code = child.wait(timeout: 30)
      codes[code, default: 0] += 1
      let error = child.standardError
      #expect(!error.contains("crashed") && !error.contains("Backtrac"), "run \(run): \(error.prefix(400))")
      #expect(code == 0 || (!started && code == 128 + signalNumber), "run \(run): exit \(code): \(error.prefix(400))")
    }
    #expect(codes[0, default: 0] >= runs / 5, "the runs that waited for the command to start: \(codes)")
  }

  @Test func summaryCountsEverything() throws {
    let result = try runWhereAmI(["summary", "--json", Paths.fixture("corrupted.nmea")])
    #expect(result.code == 0)
    let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as! [String: Any]
    #expect(object["fixes"] as? Int == 180)
    #expect((object["rejections"] as? [String: Int])?["badChecksum"] == 13)
    #expect((object["sentenceTypes"] as? [String: Int])?["GGA"] != nil)
    #expect((object["sentenceTypes"] as? [String: Int])?["PGRME"] == 3, "Garmin's accuracy sentence is decoded")
    #expect(object["first"] as? String == "2025-03-08T18:20:00.000Z")
    let still = try runWhereAmI(["summary", "--json", Paths.fixture("static-hour.nmea")])
    let hour = try JSONSerialization.jsonObject(with: Data(still.output.utf8)) as! [String: Any]
    #expect((hour["distance"] as? Double ?? 99) < 10, "jitter-proof")
    #expect(abs((hour["pathLength"] as? Double ?? 0) - 1290.3) < 1, "raw sum")
    #expect((hour["displacement"] as? Double ?? 99) < 10)
    let text = try runWhereAmI(["summary", Paths.fixture("walk.nmea"), Paths.fixture("drive-midnight.nmea")])
    #expect(text.code == 0)
    #expect(text.output.contains("total:"))
    #expect(text.output.contains("distance"))
  }

  @Test func verboseNamesSourceLineAndReason() throws {
    let result = try runWhereAmI(["print", "-v", Paths.fixture("corrupted.nmea")])
    #expect(result.code == 0)
    #expect(
      result.error.contains(
        "corrupted.nmea:22: bad checksum (it says B1, its bytes give 5C): $GPGGA,182005.00,4000.476669,N,"))
    #expect(result.error.contains("corrupted.nmea:53: malformed fields: GPGGA field 2 (latitude): out of range"))
  }

  @Test func strictRejectsMissingChecksums() throws {
    let result = try runWhereAmI(["summary", "--json", "--strict", Paths.fixture("corrupted.nmea")])
    let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as! [String: Any]
    #expect((object["rejections"] as? [String: Int])?["missingChecksum"] == 4)
    #expect(object["unchecked"] as? Int == 0)
  }

  @Test func missingFileIsExit66() throws {
    let result = try runWhereAmI(["print", "/nonexistent/log.nmea"])
    #expect(result.code == 66)
    #expect(
      result.error == "whereami: source not found: cannot open /nonexistent/log.nmea: No such file or directory\n")
    #expect(result.output.isEmpty)
  }

  @Test func directoryIsAReadError() throws {
    let result = try runWhereAmI(["print", "/tmp"])
    #expect(result.code == 74)
    #expect(result.error == "whereami: read error: cannot read /tmp: Is a directory\n")
  }

  @Test func unreadableFileIsPermissionDenied() throws {
    // As root every file is readable: only another user gets EACCES.
    let path = NSTemporaryDirectory() + "whereami-secret-\(getpid()).nmea"
    try Data("$GPGGA,1*00\n".utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o600)
    defer { unlink(path) }
    let user = getuid() == 0 ? "nobody" : nil
    if user == nil { chmod(path, 0o000) }
    let result = try runWhereAmI(["print", path], asUser: user)
    #expect(result.code == 77, "\(result.error)")
    #expect(result.error == "whereami: denied: cannot open \(path): Permission denied\n")
  }

  @Test func usageErrorsAreExit64() throws {
    // (No arguments is `now`; an unknown option is still a usage error.)
    let unknown = try runWhereAmI(["--bogus"])
    #expect(unknown.code == 64 && unknown.error.contains("--bogus"), "\(unknown.error)")
    #expect(try runWhereAmI(["fly"]).code == 64)
    let missing = try runWhereAmI(["replay"])
    #expect(missing.code == 64 && missing.error.contains("missing FILE"))
    #expect(try runWhereAmI(["print", "ftp://example"]).code == 64)
    // An empty SOURCE or FILE (an unset variable) is no path: 64, not "not found" (66).
    for arguments in [["print", ""], ["summary", ""], ["now", ""], ["trips", ""]] {
      let empty = try runWhereAmI(arguments)
      #expect(empty.code == 64 && empty.error.contains("''"), "\(arguments): \(empty.error)")
    }
    #expect(try runWhereAmI(["print", "tcp://localhost"]).code == 64, "a TCP source needs a port")
    #expect(try runWhereAmI(["print", "--accuracy", "-3", Paths.fixture("walk.nmea")]).code == 64)
    #expect(try runWhereAmI(["replay", "--speed", "-1", Paths.fixture("walk.nmea")]).code == 64)
    #expect(try runWhereAmI(["print", "--bogus", "x"]).code == 64)
    #expect(try runWhereAmI(["print", "--date", "yesterday", Paths.fixture("walk.nmea")]).code == 64)
  }

  @Test func helpAndVersion() throws {
    let help = try runWhereAmI(["--help"])
    #expect(
      help.code == 0 && help.output.contains("print") && help.output.contains("summary")
        && help.output.contains("EXIT CODES"))
    for command in ["print", "summary", "replay"] {
      let commandHelp = try runWhereAmI([command, "--help"])
      #expect(commandHelp.code == 0 && commandHelp.output.contains("USAGE: whereami \(command)"))
    }
    let version = try runWhereAmI(["--version"])
    #expect(version.code == 0 && version.output.hasPrefix("whereami "))
  }

  @Test func closedPipeEndsQuietly() throws {
    let child = try ChildProcess(
      "/bin/sh", ["-c", "'\(Paths.whereami)' print '\(Paths.fixture("walk.nmea"))' | head -1"])
    #expect(child.wait() == 0)
    #expect(child.standardOutput.split(separator: "\n").count == 1)
    #expect(child.standardError.isEmpty)
  }
}

@Suite struct LiveCommandLineTests {
  @Test func printFiltersByAccuracyAndDistance() throws {
    let all = try runWhereAmI(["print", Paths.fixture("walk.nmea")])
    let filtered = try runWhereAmI(["print", "--distance-filter", "50", Paths.fixture("walk.nmea")])
    #expect(filtered.code == 0)
    let count = filtered.output.split(separator: "\n").count
    #expect(count > 10 && count < 60, "\(count) lines for a 1.6 km walk at 50 m")
    let strict = try runWhereAmI(["print", "--accuracy", "1", Paths.fixture("walk.nmea")])
    #expect(strict.code == 0 && strict.output.isEmpty, "no fix of the walk is within 1 m")
    #expect(all.output.split(separator: "\n").count == 1160)
  }

  @Test func jsonCarriesTheThreeDistances() throws {
    let result = try runWhereAmI(["print", "--json", Paths.fixture("static-hour.nmea")])
    let last =
      try JSONSerialization.jsonObject(with: Data(result.output.split(separator: "\n").last!.utf8)) as! [String: Any]
    let distance = try #require(last["distance"] as? Double)
    let pathLength = try #require(last["pathLength"] as? Double)
    #expect(distance < 10, "standing still")
    #expect(pathLength > 1000, "the raw sum over-counts")
    #expect(last["displacement"] as? Double != nil)
  }

  /// What the receiver did not send and we filled in is marked: an EGM96 geoid
  /// separation (`geoidSource`), a speed from positions (`speedSource`, `~` in text); with no
  /// geoid grid, standard error says so once and there is no ellipsoidal height.
  @Test func modelledAndDerivedValuesAreMarked() throws {
    let scratch = try ExportScratch()
    // GGA only: no geoid separation, no speed; 0.0100′ east per second at 52.5° N.
    let log = try scratch.write(
      "gga-only.nmea",
      (0..<5).map { second in
        checksummed(
          "$GPGGA,12000\(second),5230.000000,N,01320.\(String(format: "%06d", second * 10_000)),E,1,08,0.9,35.0,M,,M,,")
      }.joined())
    let json = try runWhereAmI(["print", "--json", "--date", "2026-03-01", log])
    #expect(json.code == 0 && json.error.isEmpty, "\(json.error)")
    let objects = try json.output.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    #expect(objects.count == 5)
    let second = objects[1]
    #expect(second["geoidSource"] as? String == "EGM96")
    let separation = try #require(second["geoidSep"] as? Double)
    #expect(separation > 35 && separation < 45, "EGM96 near Berlin: about 39.6 m")
    #expect(abs((second["altHAE"] as? Double ?? 0) - (35 + separation)) < 1e-3)
    #expect(second["speedSource"] as? String == "positions")
    #expect(abs((second["speed"] as? Double ?? 0) - 11.318) < 0.001)
    #expect(objects[0]["speedSource"] == nil && objects[0]["speed"] == nil)
    let text = try runWhereAmI(["print", "--date", "2026-03-01", log])
    #expect(text.output.split(separator: "\n")[1].contains(" speed ~11.32 m/s course ~90.0°"), "\(text.output)")

    let child = try ChildProcess(
      "/usr/bin/env", ["WHEREAMI_GEOID_GRID=/nonexistent/egm96.gtx", Paths.whereami, "print", "--json", log])
    #expect(child.wait(timeout: 30) == 0)
    let warnings = child.standardError.split(separator: "\n")
    #expect(warnings.count == 1 && warnings[0].contains("no geoid model"), "\(warnings)")
    #expect(warnings.first?.contains("/nonexistent/egm96.gtx: No such file or directory") == true)
    #expect(!child.standardOutput.contains("altHAE") && !child.standardOutput.contains("geoidSource"))
    #expect(child.standardOutput.contains("\"altMSL\":35.0000"))
  }

  /// A file among several that cannot be read is said, and the others are still
  /// summarised with their total; the exit code is the missing file's. The whole report
  /// was lost (summarised, never written) and the command exited 66.
  @Test func summaryGoesOnPastAFileItCannotRead() throws {
    let missing = "/nonexistent/whereami-missing.nmea"
    let files = [
      Paths.fixture("walk.nmea"), missing, Paths.fixture("static-hour.nmea"), Paths.fixture("drive-midnight.nmea"),
    ]
    let result = try runWhereAmI(["summary", "--json"] + files)
    #expect(result.code == 66, "\(result.error)")
    #expect(result.error == "whereami: cannot open '\(missing)': No such file or directory\n", "\(result.error)")
    let objects = result.output.split(separator: "\n").map {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(objects.count == 4, "\(result.output)")
    let each = try #require(objects.dropLast().map { $0?["fixes"] as? Int })
    let fixes = each.compactMap { $0 }
    #expect(fixes.count == 3)
    #expect(objects.last??["fixes"] as? Int == fixes.reduce(0, +))
    let alone = try runWhereAmI(["summary", Paths.fixture("walk.nmea"), missing])
    #expect(alone.code == 66)
    #expect(alone.output.contains("walk.nmea") && !alone.output.contains("total"), "\(alone.output)")
  }

  @Test func replayIsPacedAndCtrlCEndsWithASummaryLine() throws {
    // The walk is 1,160 fixes a second apart; at 60× the first 101 take 100 s / 60 = 1.7 s
    // of replay, and the whole walk 19 s. Interrupt it after those 101.
    let started = Date()
    let child = try ChildProcess(Paths.whereami, ["replay", "--speed", "60", Paths.fixture("walk.nmea")])
    #expect(child.waitForOutputLines(101, timeout: 60), "\(child.standardError)")
    let elapsed = Date().timeIntervalSince(started)
    kill(child.pid, SIGINT)
    #expect(child.wait(timeout: 30) == 0)
    #expect(elapsed > 1.6, "101 fixes in \(elapsed) s: not paced")
    let lines = child.standardOutput.split(separator: "\n").count
    #expect(lines < 1100, "\(lines) lines: Ctrl-C did not end the replay")
    #expect(child.standardError.contains("fixes from"))
    #expect(child.standardError.contains("distance"))
  }

  @Test func printFollowsATCPStream() throws {
    let listener = try LoopbackListener()
    let child = try ChildProcess(Paths.whereami, ["print", "tcp://127.0.0.1:\(listener.port)"])
    #expect(listener.accept())
    let walk = try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8)
    listener.send(String(walk.prefix(20_000)))
    // A live source is written line by line even into a pipe: the fixes show while the
    // stream is still open.
    #expect(child.waitForOutputLines(50, timeout: 30))
    listener.dropClient()
    #expect(listener.accept(), "whereami reconnects")
    Thread.sleep(forTimeInterval: 0.2)
    child.signalGroup(SIGTERM)
    #expect(child.wait(timeout: 30) == 0)
    #expect(child.standardOutput.split(separator: "\n").count > 50)
    #expect(child.standardError.contains("location unknown"), "the lost connection is reported")
  }

  @Test func printFromGpsd() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let child = try ChildProcess(Paths.whereami, ["print", "--json", "gpsd://127.0.0.1:\(daemon.port)"])
    #expect(daemon.waitForClients(1), "\(child.standardError)")
    let walk = try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8)
    for line in walk.split(separator: "\r\n").prefix(200) where !line.hasPrefix("#") {
      daemon.feed.send(line + "\r\n")
      usleep(1000)
    }
    child.waitForOutputLines(21, timeout: 30)
    daemon.waitUntilDelivered()
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0)
    let objects = child.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(objects.count > 20)
    #expect((objects.first?["lat"] as? Double).map { abs($0 - 52.514) < 0.01 } == true)
  }

  /// `-V`, `-h`, help within 80 columns, the closest command suggested, defaults from the
  /// environment, and the manual page and completions made from the same option tables.
  @Test func shellConventions() throws {
    #expect(try runWhereAmI(["-V"]).output.hasPrefix("whereami 0."))
    let typo = try runWhereAmI(["pirnt", "x"])
    #expect(typo.code == 64 && typo.error.contains("did you mean 'print'?"), "\(typo.error)")
    #expect(try runWhereAmI(["frobnicate"]).error.contains("see whereami --help"))
    let commands = ["now", "print", "replay", "summary", "trips", "regions", "watch", "export", "motion"]
    let overview = try runWhereAmI(["--help"]).output
    for command in commands + ["manual", "completions"] {
      #expect(overview.contains("\n  \(command) "), "the overview lists \(command)")
    }
    let completionsHelp = try runWhereAmI(["completions", "--help"])
    #expect(completionsHelp.code == 0 && completionsHelp.output.hasPrefix("USAGE: whereami completions"))
    // `manual --help` is its help, not the page.
    let manualHelp = try runWhereAmI(["manual", "--help"])
    #expect(manualHelp.code == 0 && manualHelp.output.hasPrefix("USAGE: whereami manual"), "\(manualHelp.output)")
    #expect(try runWhereAmI(["manual", "extra"]).code == 64)
    for arguments in [["--help"], ["manual", "-h"], ["completions", "-h"]] + commands.map({ [$0, "-h"] }) {
      let help = try runWhereAmI(arguments)
      #expect(help.code == 0)
      for line in help.output.split(separator: "\n") {
        #expect(line.count <= 80, "\(arguments): \(line.count) columns: \(line)")
      }
    }
    let child = try ChildProcess(
      "/usr/bin/env", ["WHEREAMI_SOURCE=\(Paths.fixture("walk.nmea"))", Paths.whereami, "print"])
    #expect(child.wait(timeout: 30) == 0)
    #expect(child.standardOutput.hasPrefix("2025-06-14T07:42:13.000Z 3D"), "\(child.standardOutput.prefix(200))")

    let manual = try runWhereAmI(["manual"]).output
    #expect(manual.hasPrefix(".TH WHEREAMI 1 "))
    #expect(manual.contains(".SH EXAMPLES\n"))
    // Each example fits an 80-column page after man's indent of 14.
    let manualLines = manual.split(separator: "\n")
    for (index, line) in manualLines.enumerated() where index > 0 && manualLines[index - 1] == ".nf" {
      #expect(line.replacing("\\-", with: "-").count <= 66, "\(line)")
    }
    // Every variable of the README's table, in the manual page's ENVIRONMENT.
    let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let table = readme.components(separatedBy: "### Environment")[1].components(separatedBy: "\n\n")[1]
    let variables = table.matches(of: /`([A-Z_]+)`/).map { String($0.output.1) }
    #expect(variables.contains("WHEREAMI_MOTION_SOURCE"), "\(variables)")
    for variable in variables {
      #expect(manual.contains(".B " + variable + "\n"), "\(variable)")
    }
    let bash = try runWhereAmI(["completions", "bash"]).output
    let fish = try runWhereAmI(["completions", "fish"]).output
    for command in commands {
      let help = try runWhereAmI([command, "--help"]).output
      // Every option the help lists is in the manual page and the completions.
      for option in help.matches(of: /--([a-z-]+)/).map({ String($0.output.1) }) where option != "help" {
        #expect(manual.contains("\\-\\-" + option.replacingOccurrences(of: "-", with: "\\-")), "\(command) --\(option)")
        #expect(bash.contains("--" + option) && fish.contains("-l " + option), "\(command) --\(option)")
      }
    }
    #expect(try runWhereAmI(["completions", "tcsh"]).code == 64)
    // Saved to a full disk, the page, the completions and the help fail as every
    // command's output does: 74, and why. They had ended with 0 and a truncated file.
    for arguments in [["manual"], ["completions", "bash"], ["--help"], ["print", "--help"], ["-V"]] {
      let full = try ChildProcess(
        "/bin/sh", ["-c", "exec \"$0\" \"$@\" > /dev/full", Paths.whereami] + arguments)
      #expect(full.wait(timeout: 30) == 74, "\(arguments)")
      #expect(full.standardError == "whereami: cannot write output: No space left on device\n", "\(arguments)")
    }
    // Values complete as well as names: from the same tables the parsing uses.
    let scratch = try ExportScratch()
    let script = try scratch.write("whereami.bash", bash)
    func completed(_ line: String) throws -> String {
      let child = try ChildProcess(
        "/bin/bash",
        [
          "-c",
          "source \"$1\"; read -a COMP_WORDS <<< \"$2\"; [[ \"$2\" == *' ' ]] && COMP_WORDS+=(''); "
            + "COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _whereami; echo \"${COMPREPLY[*]}\"",
          "_", script, line,
        ])
      #expect(child.wait(timeout: 30) == 0, "\(child.standardError)")
      return child.standardOutput.trimmingCharacters(in: .newlines)
    }
    #expect(try completed("whereami export --format g") == "gpx geojson")
    #expect(try completed("whereami watch --units n") == "nautical")
    #expect(try completed("whereami watch --coords d") == "decimal dm dms")
    #expect(try completed("whereami print --sentences GS") == "GSA GSV GST")
    #expect(try completed("whereami motion --sensors g") == "gyro")
    #expect(try completed("whereami print --baud 11") == "115200")
    #expect(try completed("whereami print --accuracy ").isEmpty, "a number completes to nothing")
    #expect(try completed("whereami completions ") == "bash zsh fish")
    #expect(try completed("whereami print gpsd") == "gpsd://localhost:2947")
    #expect(try completed("whereami export -o \(scratch.path("whereami.b"))") == scratch.path("whereami.bash"))
  }

  /// The walk with a gyro compass's HDT after each GGA: two headings a second.
  static func walkWithHeadings(cycles: Int) throws -> [String] {
    let walk = try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8)
    var lines: [String] = []
    var count = 0
    for line in walk.split(separator: "\r\n") where !line.hasPrefix("#") {
      if line.hasPrefix("$GPRMC") {
        count += 1
        if count > cycles { break }
      }
      lines.append(String(line))
      if line.hasPrefix("$GPGGA") {
        for half in 0..<2 {
          let heading = Double((count * 37 + half * 11) % 3600) / 10 + 0.25
          lines.append(checksummed("$GPHDT,\(String(format: "%.2f", heading)),T").trimmingCharacters(in: .newlines))
        }
      }
    }
    return lines
  }

  /// A compass's log without a fix: `print` shows its headings when asked for them
  /// (`--heading`, `--json`); without, it printed nothing and exited 0, as if the log
  /// had given positions. It exits 65 and says what the log holds instead.
  @Test func aCompassLogWithoutFixesIsNoPositionUnlessItsHeadingsAreAskedFor() throws {
    let scratch = try ExportScratch()
    let lines = (0..<30).map { checksummed("$HCHDM,\(100 + 2 * $0).0,M").trimmingCharacters(in: .newlines) }
    let log = try scratch.write("compass.nmea", lines.joined(separator: "\r\n") + "\r\n")
    let plain = try runWhereAmI(["print", log])
    #expect(plain.code == 65, "\(plain.error)")
    #expect(plain.output.isEmpty)
    #expect(plain.error.contains("no fix in \(log)") && plain.error.contains("it holds 30 headings"), "\(plain.error)")
    for options in [["--heading"], ["--json"]] {
      let shown = try runWhereAmI(["print"] + options + [log])
      #expect(shown.code == 0, "\(options): \(shown.error)")
      #expect(shown.output.split(separator: "\n").count == 30, "\(options)")
    }
  }

  /// HDT through a real gpsd becomes ATT reports, which `print gpsd://` shows as the same
  /// headings as reading the log directly.
  @Test func headingsThroughGpsdAreTheLogsHeadings() throws {
    let lines = try Self.walkWithHeadings(cycles: 60)
    let scratch = try ExportScratch()
    let log = try scratch.write("walk-hdt.nmea", lines.joined(separator: "\r\n") + "\r\n")
    func headings(_ output: String) -> [Double] {
      output.split(separator: "\n").compactMap {
        guard let object = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any],
          object["class"] as? String == "ATT"
        else { return nil }
        return object["heading"] as? Double
      }
    }
    let direct = try runWhereAmI(["print", "--json", log])
    #expect(direct.code == 0)
    let expected = headings(direct.output)
    #expect(expected.count == 120)

    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let child = try ChildProcess(Paths.whereami, ["print", "--json", "gpsd://127.0.0.1:\(daemon.port)"])
    #expect(daemon.waitForClients(1), "\(child.standardError)")
    for line in lines {
      daemon.feed.send(line + "\r\n")
      usleep(1000)
    }
    waitUntil { headings(child.standardOutput).count >= 100 }
    daemon.waitUntilDelivered()
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0)
    let throughGpsd = headings(child.standardOutput)
    #expect(throughGpsd.count >= 100, "\(throughGpsd.count) ATT headings through gpsd")
    let known = Set(expected.map { Int(($0 * 1000).rounded()) })
    for heading in throughGpsd {
      #expect(known.contains(Int((heading * 1000).rounded())), "gpsd's heading \(heading) is not in the log")
    }
    // The text fix line shows the heading too.
    let text = try runWhereAmI(["print", log])
    #expect(text.output.split(separator: "\n").first?.contains(" heading ") == true, "\(text.output.prefix(300))")
  }

  /// `print --heading` prints every heading report; `--json` has them as ATT objects with
  /// gpsd's names and where the declination came from.
  @Test func everyHeadingReportIsPrinted() throws {
    let lines = try Self.walkWithHeadings(cycles: 10)
    let scratch = try ExportScratch()
    let log = try scratch.write("walk-hdt.nmea", lines.joined(separator: "\r\n") + "\r\n")
    let text = try runWhereAmI(["print", "--heading", log])
    #expect(text.code == 0)
    let headingLines = text.output.split(separator: "\n").filter { $0.contains(" heading ") && $0.hasSuffix(")") }
    #expect(headingLines.count == 20, "\(text.output)")
    // The walk's RMC has no variation: WMM2025 gives the magnetic heading (Berlin, 2025: about 4.5° E).
    #expect(headingLines.first?.contains("(HDT, declination from WMM2025)") == true, "\(headingLines.first ?? "")")
    let json = try runWhereAmI(["print", "--json", log])
    let attitude = try json.output.split(separator: "\n").compactMap {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }.filter { $0["class"] as? String == "ATT" }
    #expect(attitude.count == 20)
    let first = try #require(attitude.first)
    let heading = try #require(first["heading"] as? Double)
    let magnetic = try #require(first["mheading"] as? Double)
    let declination = try #require(first["declination"] as? Double)
    #expect(declination > 3 && declination < 7 && first["declinationSource"] as? String == "WMM2025")
    #expect(abs(HeadingMath.normalized(heading - declination) - magnetic) < 0.0055, "declination printed to 0.01°")
    #expect(first["time"] as? String != nil && first["source"] as? String == "HDT")
  }

  /// gpsd reports positions without a time until it knows the date (after a restart; a
  /// GGA-only receiver never gives one). `print` shows them with `-` for the time and says
  /// why once; they are not counted in the distance; `export` leaves them out and says how
  /// many. None becomes a fix at midnight.
  @Test func gpsdPositionsWithoutATimeAreNeverMidnight() throws {
    let walk = try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8)
    var lines: [Substring] = []
    var cycle = 0
    for line in walk.split(separator: "\r\n") where !line.hasPrefix("#") {
      if line.hasPrefix("$GPRMC") { cycle += 1 }
      if cycle > 40 { break }
      // The first 20 cycles without their RMC, GSA and GSV: a time of day but no date.
      if cycle > 20 || line.hasPrefix("$GPGGA") { lines.append(line) }
    }
    let scratch = try ExportScratch()
    let gpx = scratch.path("undated.gpx")
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let source = "gpsd://127.0.0.1:\(daemon.port)"
    let print = try ChildProcess(Paths.whereami, ["print", source])
    let export = try ChildProcess(Paths.whereami, ["export", "-o", gpx, source])
    let json = try ChildProcess(Paths.whereami, ["print", "--json", source])
    #expect(daemon.waitForClients(3), "\(print.standardError) \(export.standardError) \(json.standardError)")
    for line in lines {
      daemon.feed.send(line + "\r\n")
      usleep(1000)
    }
    // The last fix is held until gpsd's burst for it is over: wait until it is out.
    let lastRMC = try #require(lines.last { $0.hasPrefix("$GPRMC") }?.split(separator: ",")[1])
    let lastTime = "T\(lastRMC.prefix(2)):\(lastRMC.dropFirst(2).prefix(2)):\(lastRMC.dropFirst(4).prefix(2))"
    #expect(
      waitUntil { print.standardOutput.contains(lastTime) && json.standardOutput.contains(lastTime) },
      "\(lastTime) in \(print.standardOutput)")
    print.signalGroup(SIGINT)
    export.signalGroup(SIGINT)
    json.signalGroup(SIGINT)
    #expect(print.wait(timeout: 30) == 0)
    #expect(json.wait(timeout: 30) == 0)
    #expect(export.wait(timeout: 30) == 0, "\(export.standardError)")
    let output = print.standardOutput.split(separator: "\n")
    let untimed = output.filter { $0.hasPrefix("- ") }
    let timed = output.filter { $0.hasPrefix("2025-06-14T") }
    #expect(untimed.count >= 18 && untimed.count <= 20, "\(output.prefix(25))")
    #expect(timed.count >= 15, "\(output)")
    #expect(untimed.count + timed.count == output.count, "every line is one or the other: \(output)")
    #expect(!print.standardOutput.contains("00:00:00"))
    #expect(
      print.standardError.components(separatedBy: "without a time").count == 2, "said once: \(print.standardError)")
    // The positions before the date moved 25 m, but only the timed fixes count.
    #expect(untimed.allSatisfy { $0.hasSuffix(" distance 0.0 m ±0.0 m") }, "\(untimed)")
    #expect(timed.first?.hasSuffix(" distance 0.0 m ±0.0 m") == true, "\(timed.first ?? "")")
    let document = try String(contentsOfFile: gpx, encoding: .utf8)
    // Exactly the timed fixes (the last may not have reached the export when it stopped).
    let times = document.matches(of: /<time>([^<]+)<\/time>/).map { String($0.output.1) }
    let printedTimes = Set(timed.map { String($0.prefix(while: { $0 != " " })) })
    #expect(times.count == timed.count || times.count == timed.count - 1, "\(times.count) of \(timed.count)")
    #expect(times.allSatisfy(printedTimes.contains), "\(times)")
    #expect(!document.contains("T00:00:00"))
    // Each client counts what it heard: one whose watch gpsd took a moment later than
    // print's (a loaded machine) misses the first positions, so the counts may differ.
    let told = export.standardError.firstMatch(of: /(\d+) fixes from (\S+) had no time/)
    #expect(
      told.map { (18...20).contains(Int($0.output.1) ?? 0) && $0.output.2 == source } == true,
      "\(export.standardError)")
    // JSON leaves "time" out, as gpsd does.
    let objects = json.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }.filter { $0["class"] as? String == "TPV" }
    #expect(objects.count == output.count, "\(json.standardOutput)")
    #expect(objects.count { $0["time"] == nil } == untimed.count)
  }

  @Test func twoGpsdDevicesAreTwoTracks() throws {
    // Berlin and Lisbon through one gpsd: each device has its own distance, and says so,
    // in print's lines and in every export format, all recorded at once.
    let lisbon = try LoopbackListener()
    let daemon = try GPSDaemon()
    try daemon.start(alsoFeeding: [lisbon])
    defer { daemon.stop() }
    let scratch = try ExportScratch()
    let source = "gpsd://127.0.0.1:\(daemon.port)"
    let runs: [[String]] =
      [["print", "--json"], ["print"]]
      + ["csv", "gpx", "geojson", "kml", "svg"].map { ["export", "--format", $0, "-o", scratch.path("two.\($0)")] }
      + [["export", "--format", "geojson", "--points", "-o", scratch.path("points.geojson")]]
    let children = try runs.map { try ChildProcess(Paths.whereami, $0 + [source]) }
    defer { children.forEach { $0.terminate() } }
    #expect(daemon.waitForClients(children.count))
    let walk = try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8)
      .split(separator: "\r\n").filter { !$0.hasPrefix("#") }
    let drive = try String(contentsOfFile: Paths.fixture("drive-midnight.nmea"), encoding: .utf8)
      .split(separator: "\r\n").filter { !$0.hasPrefix("#") }
    for (berlin, portugal) in zip(walk.prefix(300), drive.prefix(300)) {
      daemon.feed.send(berlin + "\r\n")
      lisbon.send(portugal + "\r\n")
      usleep(2000)
    }
    waitUntil { children[0].standardOutput.split(separator: "\n").count > 40 }
    daemon.waitUntilDelivered(alsoFeeding: [lisbon])
    children.forEach { $0.signalGroup(SIGINT) }
    for (arguments, child) in zip(runs, children) {
      #expect(child.wait(timeout: 30) == 0, "\(arguments): \(child.standardError)")
    }
    let berlinDevice = "tcp://127.0.0.1:\(daemon.feed.port)"
    let lisbonDevice = "tcp://127.0.0.1:\(lisbon.port)"
    let devices: Set<String> = [berlinDevice, lisbonDevice]

    let json = children[0].standardOutput.split(separator: "\n")
    #expect(json.count > 40, "\(children[0].standardError)")
    let objects = json.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    #expect(objects.allSatisfy { $0["device"] is String })
    #expect(Set(objects.compactMap { $0["device"] as? String }) == devices)
    // Each track's distance is its own: a few kilometres at most, never 2,300.
    let distances = objects.compactMap { $0["distance"] as? Double }
    #expect((distances.max() ?? 0) < 10_000, "\(distances.max() ?? 0) m")

    // Text: once the second device has reported, each line starts with its device.
    let text = children[1]
    #expect(
      text.standardOutput.split(separator: "\n").last.map { $0.hasPrefix(berlinDevice) || $0.hasPrefix(lisbonDevice) }
        == true)
    #expect(text.standardError.contains("fixes from \(berlinDevice)"))
    #expect(text.standardError.contains("fixes from \(lisbonDevice)"))

    // CSV: rows as they come, each device's with its own segments and distance.
    let rows = ExportTools.lines(try String(contentsOfFile: scratch.path("two.csv"), encoding: .utf8))
    let columns = rows[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let device = try #require(columns.firstIndex(of: "device"))
    let segment = try #require(columns.firstIndex(of: "segment"))
    let distance = try #require(columns.firstIndex(of: "distance"))
    let cells = rows.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    #expect(Set(cells.map { $0[device] }) == devices)
    for name in devices {
      let own = cells.filter { $0[device] == name }
      #expect(own.first?[segment] == "0", "\(name)")
      #expect(own.allSatisfy { Double($0[distance])! < 10_000 }, "\(name)")
    }
    #expect(children[2].standardError.contains("distances "), "\(children[2].standardError)")

    // GPX: a trk per device, each naming its device, valid against the schema.
    let gpx = try String(contentsOfFile: scratch.path("two.gpx"), encoding: .utf8)
    #expect(gpx.components(separatedBy: " <trk>").count - 1 == 2)
    #expect(devices.allSatisfy { gpx.contains("<src>\($0)</src>") })
    let validation = try ExportTools.run(
      ExportTools.xmllint, ["--noout", "--nonet", "--schema", ExportTools.gpxSchema, scratch.path("two.gpx")])
    #expect(validation.code == 0, "\(validation.error)")

    // GeoJSON: features name their device; the collection's figures add both up.
    for file in ["two.geojson", "points.geojson"] {
      let collection = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path(file))))
          as? [String: Any])
      let features = try #require(collection["features"] as? [[String: Any]])
      let named = features.compactMap { ($0["properties"] as? [String: Any])?["device"] as? String }
      #expect(named.count == features.count && Set(named) == devices, "\(file)")
      // One device's features, then the other's.
      #expect(zip(named, named.dropFirst()).filter { $0 != $1 }.count == 1, "\(file)")
      #expect(collection["tracks"] as? Int == 2 && collection["displacement"] == nil, "\(file)")
    }
    let validated = try ExportTools.run(
      ExportTools.python,
      ["-c", ExportFormatTests.geojsonCheck, scratch.path("two.geojson"), scratch.path("points.geojson")])
    #expect(validated.code == 0, "\(validated.output) \(validated.error)")

    // KML: a folder of fixes and a track per device, well-formed.
    let kml = try String(contentsOfFile: scratch.path("two.kml"), encoding: .utf8)
    #expect(kml.components(separatedBy: "<styleUrl>#track</styleUrl>").count - 1 == 2)
    #expect(
      kml.contains("<name>Fixes of \(lisbonDevice)</name>") || kml.contains("<name>Fixes of \(berlinDevice)</name>"))
    #expect(try ExportTools.run(ExportTools.xmllint, ["--noout", "--nonet", scratch.path("two.kml")]).code == 0)

    // SVG: a map per device, one below the other, in one well-formed document.
    let svg = try String(contentsOfFile: scratch.path("two.svg"), encoding: .utf8)
    #expect(svg.contains("height=\"1520\" viewBox=\"0 0 1000 1520\""))
    #expect(svg.contains("<svg x=\"0\" y=\"760\" "))
    #expect(devices.allSatisfy { svg.contains("(\($0))") })
    #expect(try ExportTools.run(ExportTools.xmllint, ["--noout", "--nonet", scratch.path("two.svg")]).code == 0)
  }

  /// As gpsd's own clients do: a source that never answered ends the command (69), with
  /// the reason said once; gpsd and TCP alike, and `export` too.
  @Test func aSourceThatNeverAnsweredEndsTheCommand() throws {
    let port = freeLoopbackPort()
    let started = Date()
    let gpsd = try runWhereAmI(["print", "gpsd://127.0.0.1:\(port)"], timeout: 20)
    #expect(gpsd.code == 69, "\(gpsd.error)")
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(
      gpsd.error
        == "whereami: cannot connect to gpsd at 127.0.0.1:\(port): connection refused; "
        + "is gpsd running? (systemctl status gpsd) (--wait keeps trying)\n", "\(gpsd.error)")
    let tcp = try runWhereAmI(["print", "tcp://127.0.0.1:\(port)"], timeout: 20)
    #expect(
      tcp.code == 69 && tcp.error.hasPrefix("whereami: cannot connect to tcp://127.0.0.1:\(port)"), "\(tcp.error)")
    let scratch = try ExportScratch()
    let export = try runWhereAmI(
      ["export", "--format", "gpx", "-o", scratch.path("never.gpx"), "gpsd://127.0.0.1:\(port)"], timeout: 20)
    #expect(export.code == 69, "\(export.error)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path("never.gpx")))
  }

  @Test func noGpsdIsReportedAndRetriedWithWait() throws {
    let port = freeLoopbackPort()
    let child = try ChildProcess(Paths.whereami, ["print", "--wait", "gpsd://127.0.0.1:\(port)"])
    #expect(waitUntil { child.standardError.contains("cannot connect") }, "\(child.standardError)")
    // Retried meanwhile (after 0.25 and 0.5 s), and not said again.
    Thread.sleep(forTimeInterval: 1.0)
    child.signalGroup(SIGTERM)
    #expect(child.wait(timeout: 30) == 0)
    let reports = child.standardError.components(separatedBy: "cannot connect to gpsd at 127.0.0.1:\(port)").count - 1
    // Retried, but said once (again only when it changes, or after a minute).
    #expect(reports == 1, "\(child.standardError)")
    #expect(child.standardError.contains("connection refused"))
  }

  @Test func unreadableSerialDeviceIsDeniedWithTheDialoutHint() throws {
    // A pseudo-terminal owned by root with mode 600: 'nobody' may not open it.
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    defer { close(master) }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    #expect(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
    let device = "/dev/pts/\(number)"
    chmod(device, 0o600)
    let result = try runWhereAmI(["print", device], asUser: getuid() == 0 ? "nobody" : nil)
    #expect(result.code == 77, "\(result.error)")
    #expect(result.error.hasPrefix("whereami: denied: cannot open \(device): Permission denied"))
    #expect(result.error.contains("dialout"))
  }
}

import Foundation
import TestSupport
import Testing

@testable import whereami

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami export -o FILE`: a file is complete or absent, errors are one line with the
/// documented exit code, a live recording ends cleanly on Ctrl-C, and memory stays
/// constant when the output is slow.
@Suite struct ExportOutputTests {
  @Test func aFullDiskIsAWriteErrorWithExitCode74() throws {
    let result = try runWhereAmI(["export", Paths.fixture("walk.nmea"), "--format", "gpx", "-o", "/dev/full"])
    #expect(result.code == 74)
    #expect(result.error == "whereami: cannot write '/dev/full': No space left on device\n")
    // Written directly, not replaced by a renamed file.
    var info = stat()
    #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
  }

  @Test func aFileThatCannotBeCreatedExits74AndLeavesNothing() throws {
    let scratch = try ExportScratch()
    let missing = scratch.path("no/such/dir/track.gpx")
    let result = try runWhereAmI(["export", Paths.fixture("walk.nmea"), "-o", missing])
    #expect(result.code == 74)
    #expect(result.error == "whereami: cannot create '\(missing)': No such file or directory\n")
    // A directory the user may not write to (root's scratch directory, for 'nobody').
    let locked = scratch.path("locked")
    try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
    chmod(locked, 0o555)
    let denied = try runWhereAmI(
      ["export", Paths.fixture("walk.nmea"), "-o", locked + "/track.kml"], asUser: getuid() == 0 ? "nobody" : nil)
    #expect(denied.code == 74)
    #expect(denied.error == "whereami: cannot create '\(locked)/track.kml': Permission denied\n")
    #expect(scratch.names == ["locked"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: locked).isEmpty)
  }

  @Test func aFailedExportLeavesAnExistingFileAlone() throws {
    let scratch = try ExportScratch()
    let file = try scratch.write("track.gpx", "the old track\n")
    let result = try runWhereAmI(["export", scratch.path("missing.nmea"), "-o", file])
    #expect(result.code == 66)
    #expect(try scratch.read("track.gpx") == "the old track\n")
    #expect(scratch.names == ["track.gpx"])
  }

  @Test func theSourceIsNeverOverwritten() throws {
    let scratch = try ExportScratch()
    let log = try scratch.write("walk.nmea", try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8))
    let result = try runWhereAmI(["export", log, "--format", "gpx", "-o", scratch.path("./walk.nmea")])
    #expect(result.code == 64)
    #expect(result.error.hasPrefix("whereami: export: -o '\(scratch.path("./walk.nmea"))' is the SOURCE itself"))
    #expect(try scratch.read("walk.nmea").hasPrefix("# Name: Walk"))
  }

  /// Standard input redirected from the log is the log too: `export - -o walk.nmea <
  /// walk.nmea` had replaced the log with its export, and said nothing.
  @Test func theSourceOnStandardInputIsNeverOverwritten() throws {
    let scratch = try ExportScratch()
    let log = try scratch.write("walk.nmea", try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8))
    let result = try runWhereAmI(["export", "-", "--format", "gpx", "-o", log], stdinPath: log)
    #expect(result.code == 64, "\(result.error)")
    #expect(result.error.hasPrefix("whereami: export: -o '\(log)' is the SOURCE itself"), "\(result.error)")
    #expect(try scratch.read("walk.nmea").hasPrefix("# Name: Walk"))
    #expect(scratch.names == ["walk.nmea"])
  }

  /// A log that states no date (GGA, GSA and VTG, no RMC or ZDA): its fixes have a time of
  /// day, which no GPX, KML or CSV time can hold. The export says so and how to give a
  /// date; it had written a track without times, and said nothing.
  @Test func anExportWithoutDatesSaysHowToGiveOne() throws {
    let scratch = try ExportScratch()
    let text = try String(contentsOfFile: Paths.fixture("drive-midnight.nmea"), encoding: .utf8)
    // At newline Characters: "\r\n" is one, which a split at "\n" does not cut.
    let undated =
      text.split(whereSeparator: \.isNewline)
      .filter { !$0.contains("RMC") && !$0.hasPrefix("# Date") }.joined(separator: "\r\n") + "\r\n"
    let log = try scratch.write("undated.nmea", undated)
    let result = try runWhereAmI(["export", log, "-o", scratch.path("undated.gpx")])
    #expect(result.code == 0)
    #expect(
      result.error == "whereami: 601 fixes from \(log) had no date (no RMC or ZDA gave one) and have no time in "
        + "the export; --date YYYY-MM-DD gives the first one its date\n", "\(result.error)")
    #expect(try !scratch.read("undated.gpx").contains("<time>"))
    let dated = try runWhereAmI(["export", log, "--date", "2025-06-14", "-o", scratch.path("dated.gpx")])
    #expect(dated.code == 0 && dated.error.isEmpty, "\(dated.error)")
    #expect(try scratch.read("dated.gpx").components(separatedBy: "<time>").count - 1 == 601)
  }

  @Test func aCompleteExportReplacesTheFileItsLinkNames() throws {
    let scratch = try ExportScratch()
    let file = try scratch.write("track.gpx", "the old track\n")
    chmod(file, 0o640)
    let link = scratch.path("latest.gpx")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "track.gpx")
    let result = try runWhereAmI(["export", Paths.fixture("walk.nmea"), "-o", link])
    #expect(result.code == 0, "\(result.error)")
    #expect(result.output.isEmpty && result.error.isEmpty)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "track.gpx")
    let text = try scratch.read("track.gpx")
    #expect(text.hasPrefix("<?xml") && text.hasSuffix("</gpx>\n"))
    #expect(text.components(separatedBy: "<trkpt ").count - 1 == 1160)
    #expect(scratch.names == ["latest.gpx", "track.gpx"])
    var info = stat()
    #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o640)
  }

  @Test func theFormatComesFromTheExtensionAndDashIsStandardOutput() throws {
    let scratch = try ExportScratch()
    let expected = [
      "geojson": "{\"type\":\"FeatureCollection\"", "kml": "<?xml", "csv": "time,segment,lat,lon",
      "jsonl": "{\"class\":\"TPV\"", "svg": "<?xml", "gpx": "<?xml",
    ]
    for (format, start) in expected {
      let file = scratch.path("track.\(format)")
      #expect(try runWhereAmI(["export", Paths.fixture("walk.nmea"), "-o", file]).code == 0)
      #expect(try scratch.read("track.\(format)").hasPrefix(start), "\(format)")
    }
    let dash = try runWhereAmI(["export", Paths.fixture("walk.nmea"), "--format", "csv", "-o", "-"])
    #expect(dash.code == 0 && dash.output.hasPrefix("time,segment,lat,lon"))
    let unknown = try runWhereAmI(["export", Paths.fixture("walk.nmea"), "-o", scratch.path("track.txt")])
    #expect(unknown.code == 64 && unknown.error.contains("--format is missing"))
  }

  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func interruptingTheExportOfALogLeavesNoFile(signal: Int32, code: Int32) throws {
    let scratch = try ExportScratch()
    let log = try scratch.longLog(copies: 100)
    let file = scratch.path("track.kml")
    let child = try ChildProcess(Paths.whereami, ["export", log, "-o", file])
    let partial = "\(file).partial-\(child.pid)"
    #expect(ExportPoll.until(seconds: 30) { (ExportPoll.fileSize(partial) ?? 0) > 0 }, "no partial file")
    child.signalGroup(signal)
    #expect(child.wait(timeout: 60) == code)
    #expect(child.standardError == "whereami: interrupted; '\(file)' not written\n")
    #expect(scratch.names == ["long.nmea"])
  }

  @Test func ctrlCEndsAnExportWhoseOutputIsStuck() throws {
    let scratch = try ExportScratch()
    let log = try scratch.longLog(copies: 20)
    // An output FIFO that is open but never read: the export blocks writing to it.
    let fifo = scratch.path("stuck")
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = open(fifo, O_RDWR | O_CLOEXEC)
    defer { close(reader) }
    let child = try ChildProcess(Paths.whereami, ["export", log, "--format", "csv", "-o", fifo])
    #expect(ExportPoll.until(seconds: 60) { child.hasThreadWaiting(in: "pipe_write") }, "never blocked on the FIFO")
    #expect(!child.hasExited)
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 130)
    #expect(child.standardError == "whereami: interrupted; '\(fifo)' is incomplete\n")
  }

  @Test func aThirdSignalEndsALiveRecordingWhoseOutputIsStuck() throws {
    let scratch = try ExportScratch()
    let receiver = scratch.path("receiver")
    let stuck = scratch.path("stuck")
    #expect(mkfifo(receiver, 0o600) == 0 && mkfifo(stuck, 0o600) == 0)
    let input = open(receiver, O_RDWR | O_NONBLOCK | O_CLOEXEC)
    let output = open(stuck, O_RDWR | O_CLOEXEC)
    defer {
      close(input)
      close(output)
    }
    let child = try ChildProcess(Paths.whereami, ["export", "-", "--format", "gpx", "-o", stuck], stdinPath: receiver)
    // Feed the receiver's lines until the export is held up writing to its full output.
    let walk = Array(try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("walk.nmea"))))
    var offset = 0
    while offset < walk.count && !child.hasThreadWaiting(in: "pipe_write") {
      let written = walk[offset...].withUnsafeBytes { write(input, $0.baseAddress, min($0.count, 4096)) }
      if written > 0 { offset += written } else { usleep(2000) }
    }
    #expect(ExportPoll.until(seconds: 60) { child.hasThreadWaiting(in: "pipe_write") }, "never blocked on the FIFO")
    // The first signal asks to complete the document, which cannot be written; the
    // second, as `timeout` sends, changes nothing; the third gives up.
    for _ in 1...2 {
      child.signalGroup(SIGINT)
      #expect(child.waitUntilTaken(SIGINT))
      #expect(!child.hasExited)
    }
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 130)
    #expect(child.standardError.hasSuffix("whereami: interrupted; '\(stuck)' is incomplete\n"))
  }

  /// How a recording is stopped: Ctrl-C once; two signals at once, as `timeout` and its
  /// process group get; two taken one after the other, as a user's two Ctrl-C are; and
  /// `timeout` itself, told to stop.
  enum Stop: String, CaseIterable, CustomTestStringConvertible {
    case once, twoAtOnce, twoInTurn, timeout
    var testDescription: String { rawValue }
  }

  @Test(arguments: Stop.allCases, [false, true])
  func aLiveRecordingIsCompletedHoweverManySignalsStopIt(stop: Stop, toStandardOutput: Bool) throws {
    let scratch = try ExportScratch()
    // Standard input is a FIFO whose writer stays open: a live source, as a receiver piped
    // in (`cat /dev/ttyUSB0 | whereami export - ...`) is.
    let fifo = scratch.path("receiver")
    #expect(mkfifo(fifo, 0o600) == 0)
    let writer = open(fifo, O_RDWR | O_CLOEXEC)
    defer { close(writer) }
    let file = scratch.path("recording.gpx")
    let command = ["export", "-"] + (toStandardOutput ? ["--format", "gpx"] : ["-o", file])
    let child =
      stop == .timeout
      ? try ChildProcess("/usr/bin/timeout", ["3600", Paths.whereami] + command, stdinPath: fifo)
      : try ChildProcess(Paths.whereami, command, stdinPath: fifo)
    let walk = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("walk.nmea")))
    walk.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(writer, bytes.baseAddress! + offset, bytes.count - offset)
        if written > 0 { offset += written } else if errno != EINTR { break }
      }
    }
    // Fixes are written as they come from a live source, the last one as soon as the
    // pipe falls quiet after it: all 1160 of the walk's show before the signals.
    let arrived = ExportPoll.until(seconds: 60) {
      if toStandardOutput { return child.standardOutput.components(separatedBy: "</trkpt>").count > 1160 }
      guard let partial = scratch.names.first(where: { $0.hasPrefix("recording.gpx.partial-") }) else { return false }
      return ((try? scratch.read(partial)) ?? "").components(separatedBy: "</trkpt>").count > 1160
    }
    #expect(arrived, "the fixes did not reach the partial file: \(scratch.names)")
    switch stop {
    case .once:
      child.signalGroup(SIGINT)
    case .twoAtOnce:
      child.signalGroup(SIGTERM)
      child.signalGroup(SIGTERM)
    case .twoInTurn:
      child.signalGroup(SIGINT)
      #expect(child.waitUntilTaken(SIGINT))
      child.signalGroup(SIGINT)
    case .timeout:
      // timeout(1) passes a signal it gets on to whereami, then to its whole group.
      kill(child.pid, SIGTERM)
    }
    #expect(child.wait(timeout: 30) == 0, "\(child.standardError)")
    let written = toStandardOutput ? "standard output" : file
    #expect(child.standardError.hasPrefix("whereami: 1160 fixes from standard input written to \(written); distance"))
    #expect(child.standardError.split(separator: "\n").count == 1, "\(child.standardError)")
    if toStandardOutput { try child.standardOutput.write(toFile: file, atomically: false, encoding: .utf8) }
    let check = try ExportTools.run(
      ExportTools.xmllint, ["--noout", "--nonet", "--schema", ExportTools.gpxSchema, file])
    #expect(check.code == 0, "\(check.error)")
    #expect(try scratch.read("recording.gpx").components(separatedBy: "<trkpt ").count - 1 == 1160)
    #expect(scratch.names == ["receiver", "recording.gpx"])
  }

  @Test func aPartialFileKeptByAThirdSignalIsNeverRenamedOrRemoved() throws {
    let scratch = try ExportScratch()
    let partial = try scratch.write("track.gpx.partial-1", "<gpx>")
    let kept = PartialFile()
    kept.prepare(partial)
    guard case .kept(let path) = kept.keepUnlessCompleted(signal: SIGINT) else {
      Issue.record("the partial file was not kept")
      return
    }
    #expect(path == partial)
    // The export, still completing, finds the interruption rather than renaming.
    guard case .interrupted(signal: SIGINT) = kept.complete({ rename($0, scratch.path("track.gpx")) == 0 ? 0 : errno })
    else {
      Issue.record("a kept partial file was renamed")
      return
    }
    guard case .kept = kept.removeUnlessCompleted() else {
      Issue.record("a kept partial file was removed")
      return
    }
    #expect(scratch.names == ["track.gpx.partial-1"])
    // Once the export has been completed, a late signal changes nothing.
    let completed = PartialFile()
    completed.prepare(try scratch.write("other.gpx.partial-1", "<gpx/>"))
    guard case .renamed = completed.complete({ rename($0, scratch.path("other.gpx")) == 0 ? 0 : errno }) else {
      Issue.record("the export was not completed")
      return
    }
    guard case .completed = completed.keepUnlessCompleted(signal: SIGTERM) else {
      Issue.record("a completed export was given up")
      return
    }
    #expect(scratch.names == ["other.gpx", "track.gpx.partial-1"])
  }

  @Test func memoryStaysConstantWhenTheOutputIsSlow() throws {
    let scratch = try ExportScratch()
    let log = try scratch.longLog(copies: 60)
    // The output is a FIFO that nobody reads for a while: the export must wait for it,
    // not queue the rest of the log in memory.
    let fifo = scratch.path("slow-reader")
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
    defer { close(reader) }
    // One thread: the writer's wait is what is measured. In chunks, memory also rises by
    // the chunks decoded ahead (bounded, and slow to reach under AddressSanitizer);
    // BadInputTests checks that bound with a stalled pipe.
    let child = try ChildProcess(Paths.whereami, ["export", log, "--format", "gpx", "--jobs", "1", "-o", fifo])
    #expect(ExportPoll.until(seconds: 60) { child.hasThreadWaiting(in: "pipe_write") }, "never blocked on the FIFO")
    let before = ExportPoll.residentKilobytes(child.pid)
    // What the time it waits does to its memory.
    usleep(3_000_000)
    let after = ExportPoll.residentKilobytes(child.pid)
    #expect(!child.hasExited)
    if let before, let after {
      #expect(after - before < 8_000, "resident memory grew from \(before) kB to \(after) kB while the output waited")
    } else {
      Issue.record("cannot read the resident memory of \(child.pid)")
    }
    // Now read it all: the export completes.
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let deadline = Date().addingTimeInterval(300)
    while Date() < deadline {
      let count = read(reader, &chunk, chunk.count)
      if count > 0 {
        received += chunk[0..<count]
      } else if child.hasExited {
        break
      } else {
        usleep(2000)
      }
    }
    while case let count = read(reader, &chunk, chunk.count), count > 0 { received += chunk[0..<count] }
    #expect(child.wait(timeout: 30) == 0)
    #expect(String(decoding: received.suffix(7), as: UTF8.self) == "</gpx>\n")
    #expect(child.standardError.isEmpty, "\(child.standardError)")
  }
}

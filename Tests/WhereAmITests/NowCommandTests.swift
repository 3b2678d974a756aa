import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami now` and `whereami` alone: one answer, from logs and live from a real gpsd
/// (the first fix, a wait for an accuracy, a timeout).
@Suite struct NowCommandTests {
  /// The fixture's fixes as `print` gives them, for comparison.
  static func printed(_ fixture: String, _ options: [String] = []) throws -> [Substring] {
    let result = try runWhereAmI(["print"] + options + [Paths.fixture(fixture)])
    #expect(result.code == 0)
    return result.output.split(separator: "\n")
  }

  @Test func aLogsAnswerIsItsLastFix() throws {
    let lines = try Self.printed("walk.nmea")
    let now = try runWhereAmI(["now", Paths.fixture("walk.nmea")])
    #expect(now.code == 0, "\(now.error)")
    #expect(now.output == lines.last! + "\n")
    #expect(now.error.isEmpty)
    // No command at all is `now`, with the source from the environment or as an argument.
    let alone = try runWhereAmI([], environment: ["WHEREAMI_SOURCE": Paths.fixture("walk.nmea")])
    #expect(alone.code == 0, "\(alone.error)")
    #expect(alone.output == now.output)
    let json = try runWhereAmI(["--json", Paths.fixture("walk.nmea")])
    #expect(json.code == 0, "\(json.error)")
    let lastObject = try Self.printed("walk.nmea", ["--json"]).last!
    #expect(json.output == lastObject + "\n")
  }

  /// With a compass in the log, the answer is print's last line, its heading included
  /// (the corpus's hemi.log: `now` left out "heading 274.1°T 288.6°M"); a compass's log
  /// without a fix is still no answer.
  @Test func aLogsAnswerCarriesTheCompasssHeadingAsPrintsDoes() throws {
    let scratch = try ExportScratch()
    let lines = try LiveCommandLineTests.walkWithHeadings(cycles: 60)
    let log = try scratch.write("walk-hdt.nmea", lines.joined(separator: "\r\n") + "\r\n")
    let printed = try runWhereAmI(["print", log])
    #expect(printed.code == 0, "\(printed.error)")
    let last = try #require(printed.output.split(separator: "\n").last)
    #expect(last.contains(" heading "), "\(last)")
    let now = try runWhereAmI(["now", log])
    #expect(now.code == 0, "\(now.error)")
    #expect(now.output == last + "\n")
    let compass = (0..<30).map { checksummed("$HCHDM,\(100 + 2 * $0).0,M").trimmingCharacters(in: .newlines) }
    let compassLog = try scratch.write("compass.nmea", compass.joined(separator: "\r\n") + "\r\n")
    let none = try runWhereAmI(["now", compassLog])
    #expect(none.code == 65 && none.output.isEmpty, "\(none.code) \(none.error)")
  }

  @Test func withAnAccuracyALogsAnswerIsItsLastFixWithinIt() throws {
    let lines = try Self.printed("walk.nmea")
    func accuracy(_ line: Substring) -> Double { Double(line.split(separator: " ")[7])! }
    // A bar that some fixes meet and the last one does not.
    let values = lines.map(accuracy).sorted()
    let bar = values[values.count / 2]
    guard let index = lines.lastIndex(where: { accuracy($0) <= bar }) else {
      Issue.record("no fix within \(bar) m")
      return
    }
    #expect(index < lines.count - 1, "the walk's last fix meets the median accuracy; pick another bar")
    let now = try runWhereAmI(["--accuracy", String(bar), Paths.fixture("walk.nmea")])
    #expect(now.code == 0, "\(now.error)")
    #expect(now.output == lines[index] + "\n")
    #expect(now.error.contains("the last fix within \(bar) m is"), "\(now.error)")
    // None good enough: the best (the newest of the best) is printed all the same, and said.
    let best = values[0]
    let bestIndex = lines.lastIndex(where: { accuracy($0) == best })!
    let short = try runWhereAmI(["--accuracy", String(best / 2), Paths.fixture("walk.nmea")])
    #expect(short.code == 75, "\(short.error)")
    #expect(short.output == lines[bestIndex] + "\n")
    #expect(short.error.contains("no fix within \(best / 2) m in the log; printed the best"), "\(short.error)")
  }

  @Test func aLogWithoutAFixAndBadOptionsSayWhy() throws {
    let empty = NSTemporaryDirectory() + "whereami-now-empty-\(getpid()).nmea"
    try "$GPTXT,01,01,02,no fix here*00\r\n".write(toFile: empty, atomically: true, encoding: .utf8)
    defer { unlink(empty) }
    let result = try runWhereAmI([empty])
    #expect(result.code == 65, "\(result.error)")
    #expect(result.output.isEmpty)
    for bad in [["--timeout", "0"], ["--timeout", "soon"], ["--accuracy", "-1"]] {
      let usage = try runWhereAmI(["now"] + bad + [Paths.fixture("walk.nmea")])
      #expect(usage.code == 64, "\(bad): \(usage.error)")
      #expect(usage.error.contains(bad[0]), "\(usage.error)")
    }
    // A misspelt command is still one, not a source.
    let typo = try runWhereAmI(["prnit"])
    #expect(typo.code == 64)
    #expect(typo.error.contains("did you mean 'print'"), "\(typo.error)")
    // Nobody at the address: 69 at once, as for print.
    let port = freeLoopbackPort()
    let absent = try runWhereAmI(["gpsd://127.0.0.1:\(port)"])
    #expect(absent.code == 69, "\(absent.error)")
    #expect(absent.error.contains("cannot connect to gpsd at 127.0.0.1:\(port)"), "\(absent.error)")
  }

  /// With no SOURCE and no WHEREAMI_SOURCE, the answer comes from the local gpsd: where
  /// none runs (CI), 69 naming it; where one does, its answer or a timeout.
  @Test func withNothingNamedItAsksTheLocalGpsd() throws {
    let result = try runWhereAmI(["--timeout", "1"], environment: ["WHEREAMI_SOURCE": ""])
    #expect([0, 69, 75].contains(result.code), "\(result.code): \(result.error)")
    if result.code == 69 {
      #expect(result.error.contains("cannot connect to gpsd at localhost:2947"), "\(result.error)")
    }
  }

  /// The walk's cycles with the dilution of precision of the first `poor` raised to 9, in
  /// GGA and GSA alike, so that their accuracy is tens of metres.
  static func cycles(poor: Int, count: Int) throws -> [String] {
    let cycles = try TestPaths.cycles("walk.nmea", limit: count)
    return cycles.enumerated().map { index, cycle in
      guard index < poor else { return cycle }
      return cycle.split(separator: "\r\n").map { line -> String in
        var fields = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false).map(
          String.init)
        if fields[0].hasSuffix("GGA") { fields[8] = "9.00" }
        if fields[0].hasSuffix("GSA") { (fields[15], fields[16], fields[17]) = ("9.50", "9.00", "3.00") }
        guard fields[0].hasSuffix("GGA") || fields[0].hasSuffix("GSA") else { return String(line) }
        return checksummed(fields.joined(separator: ","))
      }.joined(separator: "\r\n") + "\r\n"
    }
  }

  /// `whereami now --json` on a fresh gpsd, fed `cycles` one by one while it runs, and
  /// with `alongside` a `print --json` on the same gpsd (what gpsd reported, for
  /// comparison, ended by SIGINT); returns them once `now` has ended by itself.
  func answerFromGpsd(
    _ options: [String], feeding cycles: [String], alongside: Bool = false
  ) throws -> (now: ChildProcess, print: ChildProcess?) {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let address = "gpsd://127.0.0.1:\(daemon.port)"
    let child = try ChildProcess(Paths.whereami, ["now", "--json"] + options + [address])
    let printer = alongside ? try ChildProcess(Paths.whereami, ["print", "--json", address]) : nil
    #expect(daemon.waitForClients(alongside ? 2 : 1), "\(child.standardError)")
    for cycle in cycles {
      guard !child.hasExited else { break }
      daemon.feed.send(cycle)
      // At a receiver's pace, faster: gpsd ends a cycle on the next one's first sentence.
      usleep(100_000)
    }
    #expect(child.wait(timeout: 60) != -1)
    if let printer {
      printer.signalGroup(SIGINT)
      #expect(printer.wait(timeout: 60) == 0, "\(printer.standardError)")
    }
    return (child, printer)
  }

  static func object(_ line: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
  }

  @Test func fromGpsdTheFirstFixIsTheAnswerWithItsAccuracy() throws {
    let child = try answerFromGpsd([], feeding: try TestPaths.cycles("walk.nmea", limit: 40)).now
    defer { child.terminate() }
    #expect(child.wait(timeout: 60) == 0, "\(child.standardError)")
    let lines = child.standardOutput.split(separator: "\n")
    #expect(lines.count == 1, "\(child.standardOutput)")
    let fix = try Self.object(String(lines.first ?? ""))
    // The first fix gpsd sent it: the first cycle, or (when gpsd decoded that one before
    // it took the client's WATCH, as it once did under AddressSanitizer in CI) one of the
    // next few; never one from later in the 40 s fed.
    let time = fix["time"] as? String ?? ""
    #expect(time >= "2025-06-14T07:42:13.000Z" && time <= "2025-06-14T07:42:16.000Z", "\(fix)")
    #expect(fix["eph"] is Double, "the first fix has its cycle's accuracy: \(fix)")
  }

  @Test func fromGpsdAnAccuracyIsWaitedFor() throws {
    let (child, printer) = try answerFromGpsd(
      ["--accuracy", "10"], feeding: try Self.cycles(poor: 6, count: 40), alongside: true)
    defer { child.terminate() }
    #expect(child.wait(timeout: 60) == 0, "\(child.standardError)")
    let lines = child.standardOutput.split(separator: "\n")
    #expect(lines.count == 1, "\(child.standardOutput)")
    let fix = try Self.object(String(lines.first ?? ""))
    #expect((fix["eph"] as? Double).map { $0 <= 10 } == true, "\(fix)")
    // gpsd's first report within 10 m (gpsd keeps the poor dilution for a few cycles
    // after the good ones start), not a poor one before it.
    let reports = try printer!.standardOutput.split(separator: "\n").map { try Self.object(String($0)) }
    #expect((reports.first?["eph"] as? Double).map { $0 > 10 } == true, "\(reports.first ?? [:])")
    let firstGood = reports.first { ($0["eph"] as? Double).map { $0 <= 10 } == true }
    #expect(fix["time"] as? String != nil)
    #expect(fix["time"] as? String == firstGood?["time"] as? String, "\(fix) against \(firstGood ?? [:])")
  }

  @Test func fromGpsdATimeoutPrintsTheBestItHadAndExits75() throws {
    let started = Date()
    let child = try answerFromGpsd(["--accuracy", "10", "--timeout", "3"], feeding: try Self.cycles(poor: 8, count: 8))
      .now
    defer { child.terminate() }
    #expect(child.wait(timeout: 60) == 75, "\(child.standardError)")
    // The timeout is the feature: it ends no sooner.
    #expect(Date().timeIntervalSince(started) >= 3)
    let lines = child.standardOutput.split(separator: "\n")
    #expect(lines.count == 1, "\(child.standardOutput)")
    let fix = try Self.object(String(lines.first ?? ""))
    #expect((fix["eph"] as? Double).map { $0 > 10 } == true, "\(fix)")
    #expect(
      child.standardError.contains("no fix within 10 m in 3 s; printed the best, accuracy"), "\(child.standardError)")
  }
}

extension NowCommandTests {
  /// From a pipe: the first fix after cycles without one is the answer, every time (an
  /// earlier "no fix" once ended the run as if the time were up, in 4 runs of 40); and a
  /// pipe that ends before any fix meets the accuracy gives the best it had.
  @Test func aPipesFirstFixIsTheAnswerAfterCyclesWithoutOne() throws {
    let scratch = try ExportScratch()
    let noFix = (0..<3).map { second in
      checksummed(String(format: "$GPGGA,0742%02d.00,,,,,0,00,,,M,,M,,", second)) + "\r\n"
        + checksummed(String(format: "$GPRMC,0742%02d.00,V,,,,,,,140625,,,N", second)) + "\r\n"
    }.joined()
    let log = try scratch.write("late.nmea", noFix + (try TestPaths.cycles("walk.nmea", limit: 3)).joined())
    for run in 0..<20 {
      let child = try ChildProcess("/bin/sh", ["-c", "cat \(shellQuoted(log)) | \(shellQuoted(Paths.whereami)) now -"])
      #expect(child.wait(timeout: 60) == 0, "run \(run): \(child.standardError)")
      #expect(child.standardOutput.hasPrefix("2025-06-14T07:42:13.000Z"), "run \(run): \(child.standardOutput)")
    }
    let walk = Paths.fixture("walk.nmea")
    let best = try ChildProcess(
      "/bin/sh", ["-c", "cat \(shellQuoted(walk)) | \(shellQuoted(Paths.whereami)) now --accuracy 1 -"])
    #expect(best.wait(timeout: 60) == 75, "\(best.standardError)")
    #expect(best.standardOutput.contains(" acc 3.5 m "), "\(best.standardOutput)")
    #expect(
      best.standardError.contains("no fix within 1 m before the source ended; printed the best"),
      "\(best.standardError)")
  }

  @Test func noFixAtAllByTheTimeoutPrintsNothingAndExits75() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let result = try runWhereAmI(["now", "--timeout", "2", "gpsd://127.0.0.1:\(daemon.port)"])
    #expect(result.code == 75, "\(result.error)")
    #expect(result.output.isEmpty)
    #expect(result.error.contains("no location from gpsd://127.0.0.1:\(daemon.port) within 2"), "\(result.error)")
  }

  @Test func stoppedBeforeAnyFixItSaysSoAndExits75() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let child = try ChildProcess(Paths.whereami, ["now", "--timeout", "600", "gpsd://127.0.0.1:\(daemon.port)"])
    defer { child.terminate() }
    // Connected, so the signal's handler is in place (it is before updates start).
    #expect(daemon.waitForClients(1), "\(child.standardError)")
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 60) == 75, "\(child.standardError)")
    #expect(child.standardOutput.isEmpty)
    #expect(child.standardError.contains("no fix before it was stopped"), "\(child.standardError)")
  }
}

import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `print --count N` (gpspipe's `-n`) and `print` / `export --interval SECONDS`
/// (gpxlogger's `-i`).
@Suite struct CountAndIntervalTests {
  static func lines(_ arguments: [String]) throws -> [Substring] {
    let result = try runWhereAmI(arguments)
    #expect(result.code == 0, "\(arguments): \(result.error)")
    return result.output.split(whereSeparator: \.isNewline)
  }

  /// The seconds of a line's `HH:MM:SS.sss` time within the day.
  static func seconds(_ line: Substring) -> Double {
    let time = line.split(separator: "T")[1].prefix(12)
    let parts = time.split(separator: ":").map { Double($0)! }
    return parts[0] * 3600 + parts[1] * 60 + parts[2]
  }

  @Test func anIntervalKeepsTheFixesOnItsGridWithTheirFullDistance() throws {
    let all = try Self.lines(["print", Paths.fixture("walk.nmea")])
    let thinned = try Self.lines(["print", "--interval", "5", Paths.fixture("walk.nmea")])
    // Every fifth fix of the 1 Hz walk, each the same line as without the interval: the
    // distance counts every fix.
    #expect(thinned.count == (all.count + 4) / 5)
    #expect(Array(thinned) == all.enumerated().filter { $0.offset % 5 == 0 }.map(\.element))
    // An interval shorter than the receiver's cycle keeps every fix.
    #expect(try Self.lines(["print", "--interval", "0.3", Paths.fixture("walk.nmea")]) == all)
    // export writes the same fixes, with the same distances.
    let csv = try Self.lines(["export", "--format", "csv", "--interval", "5", Paths.fixture("walk.nmea")])
    let json = try Self.lines(["print", "--json", "--interval", "5", Paths.fixture("walk.nmea")])
    #expect(csv.count == json.count + 1)
    let header = csv[0].split(separator: ",", omittingEmptySubsequences: false)
    let distanceColumn = header.firstIndex(of: "distance")!
    for (row, line) in zip(csv.dropFirst(), json) {
      let fields = row.split(separator: ",", omittingEmptySubsequences: false)
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      #expect(String(fields[0]) == object["time"] as? String)
      #expect(Double(fields[distanceColumn]) == object["distance"] as? Double, "\(row)")
    }
  }

  /// The walk's first `count` cycles with their times moved by `offset(i)` seconds, as a
  /// receiver whose timestamps wander around its cycle.
  static func wandering(count: Int, cycle: Double, offset: (Int) -> Double) throws -> String {
    let cycles = try TestPaths.cycles("walk.nmea", limit: count)
    let start = 7 * 3600.0 + 42 * 60 + 13
    return cycles.enumerated().map { (index: Int, cycle_: String) -> String in
      let time: Double = start + Double(index) * cycle + offset(index)
      let hours = Int(time / 3600)
      let minutes = Int(time / 60) % 60
      let text = String(format: "%02d%02d%06.3f", hours, minutes, time - Double(hours * 3600 + minutes * 60))
      return cycle_.split(separator: "\r\n").map { line -> String in
        var fields = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)
          .map(String.init)
        guard fields[0].hasSuffix("RMC") || fields[0].hasSuffix("GGA") else { return String(line) }
        fields[1] = text
        return checksummed(fields.joined(separator: ","))
      }.joined(separator: "\r\n") + "\r\n"
    }.joined()
  }

  @Test func timestampsThatWanderAroundTheCycleStillLandOnTheGrid() throws {
    let scratch = try ExportScratch()
    // Wander up to a fifth of the cycle (the bound is a quarter): 1 Hz with ±200 ms,
    // 10 Hz with ±20 ms, 5 Hz with ±40 ms.
    for (cycle, wander, interval) in [(1.0, 0.2, 5.0), (0.1, 0.02, 1.0), (0.2, 0.04, 3.0)] {
      var random = SeededRandom(seed: 7)
      let offsets = (0..<300).map { _ in random.uniform(-wander...wander) }
      let log = try scratch.write(
        "wander-\(cycle).nmea", try Self.wandering(count: 300, cycle: cycle) { offsets[$0] })
      let all = try Self.lines(["print", log])
      #expect(all.count == 300)
      let thinned = try Self.lines(["print", "--interval", String(interval), log])
      let step = Int((interval / cycle).rounded())
      #expect(thinned.count == (300 + step - 1) / step, "\(cycle) s cycle")
      // The fix nearest each grid point, never one cycle late: the naive "at least SECONDS
      // since the last printed" takes :06 after a :04.985, and drifts.
      #expect(Array(thinned) == all.enumerated().filter { $0.offset % step == 0 }.map(\.element), "\(cycle) s cycle")
    }
  }

  /// A fix that comes a cycle late, out of order, is off the grid and left out (it was a
  /// line of its own, and a new grid); a jump back by more (another session) starts a new
  /// grid.
  @Test func aLateFixIsLeftOutAndASessionStartsAGrid() throws {
    let scratch = try ExportScratch()
    var cycles = try TestPaths.cycles("walk.nmea", limit: 30)
    // :28 comes after :29 (a reordered datagram).
    cycles.swapAt(15, 16)
    let log = try scratch.write(
      "reordered.nmea", cycles.joined() + (try TestPaths.cycles("walk.nmea", limit: 6)).joined())
    let lines = try Self.lines(["print", "--interval", "5", log])
    let times = lines.map { String($0.prefix(24)) }
    #expect(
      times == [
        "2025-06-14T07:42:13.000Z", "2025-06-14T07:42:18.000Z", "2025-06-14T07:42:23.000Z", "2025-06-14T07:42:29.000Z",
        "2025-06-14T07:42:33.000Z", "2025-06-14T07:42:38.000Z",
        // The second session: its first fix the plausibility check lets through.
        "2025-06-14T07:42:15.000Z",
      ], "\(times)")
  }

  @Test func aCountEndsTheRunFromALogAndFromALiveStream() throws {
    let all = try Self.lines(["print", Paths.fixture("walk.nmea")])
    #expect(try Self.lines(["print", "--count", "3", Paths.fixture("walk.nmea")]) == Array(all.prefix(3)))
    let sentences = try Self.lines(["print", "--nmea", "--count", "4", Paths.fixture("walk.nmea")])
    #expect(sentences.count == 4 && sentences.allSatisfy { $0.hasPrefix("$GP") }, "\(sentences)")
    // A count above the log's fixes: all of them, and 0.
    #expect(try Self.lines(["print", "--count", "5000", Paths.fixture("walk.nmea")]).count == all.count)
    // Live: the run ends by itself after the count, the stream still sending.
    let listener = try LoopbackListener()
    let child = try ChildProcess(Paths.whereami, ["print", "--count", "2", "tcp://127.0.0.1:\(listener.port)"])
    defer { child.terminate() }
    #expect(listener.accept(timeout: 30), "\(child.standardError)")
    for cycle in try TestPaths.cycles("walk.nmea", limit: 200) {
      guard !child.hasExited else { break }
      listener.send(cycle)
      usleep(20_000)
    }
    #expect(child.wait(timeout: 60) == 0, "\(child.standardError)")
    #expect(child.standardOutput.split(whereSeparator: \.isNewline) == Array(all.prefix(2)), "\(child.standardOutput)")
    for bad in [["--count", "0"], ["--count", "x"], ["--interval", "0"], ["--interval", "-2"]] {
      let result = try runWhereAmI(["print"] + bad + [Paths.fixture("walk.nmea")])
      #expect(result.code == 64 && result.error.contains(bad[0]), "\(bad): \(result.error)")
    }
    let nmeaInterval = try runWhereAmI(["print", "--nmea", "--interval", "5", Paths.fixture("walk.nmea")])
    #expect(nmeaInterval.code == 64, "\(nmeaInterval.error)")
  }
}

/// `print --json`'s per-axis accuracies and grid square, beside gpsd's TPV names.
@Suite struct AxesAndGridSquareTests {
  static func objects(_ fixture: String) throws -> [[String: Any]] {
    let result = try runWhereAmI(["print", "--json", Paths.fixture(fixture)])
    #expect(result.code == 0)
    return try result.output.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
  }

  @Test func jsonHasEpxEpyAndTheMaidenheadLocator() throws {
    // From the receiver's GST: its longitude and latitude sigmas as they are.
    let burst = try Self.objects("multi-gnss-burst.nmea")[0]
    #expect(burst["accuracySource"] as? String == "GST")
    #expect(burst["epx"] as? Double == 0.576 && burst["epy"] as? Double == 0.636, "\(burst)")
    #expect(burst["maidenhead"] as? String == "QF56od43", "\(burst)")
    // From DOP: the accuracy shared by the satellites' geometry, on every fix of the walk.
    for fix in try Self.objects("walk.nmea") {
      let (eph, epx, epy) = (fix["eph"] as! Double, fix["epx"] as! Double, fix["epy"] as! Double)
      #expect(abs((epx * epx + epy * epy).squareRoot() - eph) < 0.002, "\(fix)")
      #expect((fix["maidenhead"] as? String)?.hasPrefix("JO62q") == true, "\(fix)")
    }
  }
}

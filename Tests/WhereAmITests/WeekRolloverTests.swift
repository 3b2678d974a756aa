import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A receiver whose GPS week number rolled over dates its fixes 1,024 weeks early: said
/// once, from a log (against its file's time) and live (against now), and
/// `--week-rollover` corrects it.
@Suite struct WeekRolloverTests {
  /// The walk's cycles with their RMC dates set to `date` (DDMMYY) less `days`.
  static func walk(dated date: Date, cycles: Int = 60) throws -> [String] {
    var format = Date.FormatStyle().day(.twoDigits).month(.twoDigits).year(.twoDigits)
    format.timeZone = TimeZone(identifier: "UTC")!
    let text = date.formatted(format).filter(\.isNumber)
    return try TestPaths.cycles("walk.nmea", limit: cycles).map { cycle in
      cycle.split(separator: "\r\n").map { line -> String in
        guard line.hasPrefix("$GPRMC") else { return String(line) }
        var fields = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false).map(
          String.init)
        fields[9] = text
        return checksummed(fields.joined(separator: ","))
      }.joined(separator: "\r\n") + "\r\n"
    }
  }

  static let rollover: TimeInterval = 1024 * 7 * 86_400

  @Test func aRolledOverLogIsSaidOnceAndCorrected() throws {
    let scratch = try ExportScratch()
    // Recorded on 2025-06-14 by a receiver that said 2005-10-29.
    let truth = Date(timeIntervalSince1970: 1_749_887_000)
    let log = try scratch.write("rolled.nmea", try Self.walk(dated: truth - Self.rollover).joined())
    try FileManager.default.setAttributes([.modificationDate: truth + 3600], ofItemAtPath: log)
    let printed = try runWhereAmI(["print", log])
    #expect(printed.code == 0)
    #expect(printed.output.hasPrefix("2005-10-29T07:42:13.000Z"), "\(printed.output.prefix(80))")
    let notices = printed.error.components(separatedBy: "GPS week number looks rolled over").count - 1
    #expect(notices == 1, "\(printed.error)")
    #expect(printed.error.contains("the receiver's date 2005-10-29 is 1024 weeks before the file's last change"))
    #expect(printed.error.contains("--week-rollover 1"))
    #expect(try runWhereAmI(["summary", log]).error.contains("--week-rollover 1"))
    let corrected = try runWhereAmI(["print", "--week-rollover", "1", log])
    #expect(corrected.output.hasPrefix("2025-06-14T07:42:13.000Z"), "\(corrected.output.prefix(80))")
    #expect(corrected.error.isEmpty, "\(corrected.error)")
    // The same early date in a file written years later is a true old date: nothing said.
    try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: log)
    #expect(try runWhereAmI(["print", log]).error.isEmpty)
    #expect(try runWhereAmI(["print", "--week-rollover", "9", log]).code == 64)
  }

  @Test func aLiveReceiverIsJudgedAgainstNow() throws {
    let listener = try LoopbackListener()
    let child = try ChildProcess(Paths.whereami, ["print", "--count", "3", "tcp://127.0.0.1:\(listener.port)"])
    defer { child.terminate() }
    #expect(listener.accept(timeout: 30), "\(child.standardError)")
    for cycle in try Self.walk(dated: Date() - Self.rollover, cycles: 200) where !child.hasExited {
      listener.send(cycle)
      usleep(20_000)
    }
    #expect(child.wait(timeout: 60) == 0, "\(child.standardError)")
    #expect(child.standardError.contains("1024 weeks before now"), "\(child.standardError)")
  }
}

/// A declination the World Magnetic Model cannot vouch for is marked in JSON and said once.
@Suite struct DeclinationCaveatTests {
  @Test func aCompassNearTheMagneticPoleIsMarkedAndSaidOnce() throws {
    let scratch = try ExportScratch()
    var lines: [String] = []
    for second in 0..<5 {
      let time = String(format: "1200%02d.00", second)
      lines += [
        "$GPRMC,\(time),A,8600.0000,N,14000.0000,E,0.0,0.0,150626,,,A",
        "$GPGGA,\(time),8600.0000,N,14000.0000,E,1,08,1.0,35.0,M,0.0,M,,",
        "$HCHDM,\(100 + second).0,M",
      ]
    }
    let log = try scratch.write("arctic.nmea", lines.map { checksummed($0) + "\r\n" }.joined())
    let result = try runWhereAmI(["print", "--json", log])
    #expect(result.code == 0, "\(result.error)")
    let attitudes = result.output.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }.filter { $0["class"] as? String == "ATT" }
    #expect(attitudes.count == 5)
    #expect(attitudes.allSatisfy { $0["declinationCaveat"] as? String == "blackout" }, "\(attitudes.first ?? [:])")
    #expect(result.error.components(separatedBy: "blackout zone").count == 2, "once: \(result.error)")
    // Where the model holds, nothing is marked or said.
    let berlin = try runWhereAmI([
      "print", "--json",
      try scratch.write(
        "berlin.nmea",
        lines.map {
          checksummed($0.replacingOccurrences(of: "8600.0000,N,14000.0000,E", with: "5230.0000,N,01320.0000,E"))
            + "\r\n"
        }.joined()),
    ])
    #expect(!berlin.output.contains("declinationCaveat") && berlin.error.isEmpty, "\(berlin.error)")
  }
}

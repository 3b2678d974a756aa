import Foundation
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

  @Test func readsStandardInput() throws {
    let result = try runWhereAmI(["print", "-"], stdinPath: Paths.fixture("walk.nmea"))
    #expect(result.code == 0)
    #expect(result.output.split(separator: "\n").count == 1160)
  }

  @Test func summaryCountsEverything() throws {
    let result = try runWhereAmI(["summary", "--json", Paths.fixture("corrupted.nmea")])
    #expect(result.code == 0)
    let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as! [String: Any]
    #expect(object["fixes"] as? Int == 180)
    #expect((object["rejections"] as? [String: Int])?["badChecksum"] == 13)
    #expect((object["sentenceTypes"] as? [String: Int])?["GGA"] != nil)
    #expect((object["otherSentences"] as? [String: Int])?["PGRME"] == 3)
    #expect(object["first"] as? String == "2025-03-08T18:20:00.000Z")
    let text = try runWhereAmI(["summary", Paths.fixture("walk.nmea"), Paths.fixture("drive-midnight.nmea")])
    #expect(text.code == 0)
    #expect(text.output.contains("total:"))
    #expect(text.output.contains("distance"))
  }

  @Test func verboseNamesSourceLineAndReason() throws {
    let result = try runWhereAmI(["print", "-v", Paths.fixture("corrupted.nmea")])
    #expect(result.code == 0)
    #expect(result.error.contains("corrupted.nmea:22: bad checksum"))
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
    #expect(result.error == "whereami: cannot open '/nonexistent/log.nmea': No such file or directory\n")
    #expect(result.output.isEmpty)
  }

  @Test func directoryIsAReadError() throws {
    let result = try runWhereAmI(["print", "/tmp"])
    #expect(result.code == 74)
    #expect(result.error.contains("'/tmp'") && result.error.contains("Is a directory"))
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
    #expect(result.error.contains("Permission denied"))
  }

  @Test func usageErrorsAreExit64() throws {
    #expect(try runWhereAmI([]).code == 64)
    #expect(try runWhereAmI(["fly"]).code == 64)
    let missing = try runWhereAmI(["print"])
    #expect(missing.code == 64 && missing.error.contains("missing SOURCE"))
    #expect(try runWhereAmI(["print", "--bogus", "x"]).code == 64)
    #expect(try runWhereAmI(["print", "--date", "yesterday", Paths.fixture("walk.nmea")]).code == 64)
  }

  @Test func helpAndVersion() throws {
    let help = try runWhereAmI(["--help"])
    #expect(
      help.code == 0 && help.output.contains("print") && help.output.contains("summary")
        && help.output.contains("EXIT CODES"))
    for command in ["print", "summary"] {
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

import Foundation
import TestSupport
import Testing

/// `--jobs N` decodes a log file on N threads; what the commands print and write must be
/// the same, byte for byte, as with `--jobs 1`.
@Suite struct ParallelDecodingTests {
  /// Small chunks, so that the fixtures are cut in many places, inside cycles.
  static let manyCuts = ["WHEREAMI_CHUNK_SIZE": "1009"]

  static let commands: [[String]] = [
    ["summary"], ["summary", "--json"], ["print", "--json", "-v"], ["print"], ["print", "--nmea"],
    ["export", "--format", "csv"], ["export", "--format", "gpx"], ["trips"],
  ]

  /// Runs `command` on `log` with `--jobs 1` and with `jobs` threads; writes go to files
  /// in `scratch`, which are compared as well.
  static func expectSameOutput(
    _ command: [String], _ log: String, jobs: Int, environment: [String: String], _ scratch: ExportScratch
  ) throws {
    func run(_ jobsArgument: String, _ environment: [String: String]) throws -> [String] {
      var arguments = command + [log, "--jobs", jobsArgument]
      let file = scratch.path("out-\(jobsArgument)")
      if command.first == "export" { arguments += ["-o", file] }
      let result = try runWhereAmI(arguments, timeout: 300, environment: environment)
      let written = command.first == "export" ? try String(contentsOfFile: file, encoding: .utf8) : ""
      return ["exit \(result.code)", result.output, result.error, written]
    }
    let one = try run("1", [:])
    let many = try run("\(jobs)", environment)
    #expect(one[0] == "exit 0" || command == ["print", "--json", "-v"], "\(command) \(log): \(one[2])")
    for (name, (single, parallel)) in zip(["exit code", "output", "errors", "file"], zip(one, many)) {
      #expect(single == parallel, "\(command.joined(separator: " ")) \(log): the \(name) differs")
    }
  }

  @Test(arguments: ["walk.nmea", "drive-midnight.nmea", "corrupted.nmea", "multi-gnss-burst.nmea"])
  func everyCommandGivesTheSameOnEveryFixture(_ name: String) throws {
    let scratch = try ExportScratch()
    for command in Self.commands {
      try Self.expectSameOutput(command, Paths.fixture(name), jobs: 3, environment: Self.manyCuts, scratch)
    }
  }

  @Test func printAndSummaryInChunksOnADamagedLog() throws {
    // The one comparison the sanitizer runs keep: rejections with their lines, fixes and
    // counts, through the location manager and straight from the decoder.
    let scratch = try ExportScratch()
    for command in [["print", "--json", "-v"], ["summary", "--json"]] {
      try Self.expectSameOutput(command, Paths.fixture("corrupted.nmea"), jobs: 3, environment: Self.manyCuts, scratch)
    }
  }

  @Test func jobsMustBeANumberOfThreads() throws {
    for bad in ["0", "x", "-2", "100000"] {
      let result = try runWhereAmI(["summary", Paths.fixture("walk.nmea"), "--jobs", bad])
      #expect(result.code == 64)
      #expect(result.error.contains("--jobs '\(bad)'"))
    }
  }
}

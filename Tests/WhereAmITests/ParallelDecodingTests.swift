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

  @Test func summaryVerboseSaysHowTheFileWasSplit() throws {
    // The multi-GNSS burst cut every kilobyte: a warm-up of four chunks does not always
    // hold the two cycles that teach which sentence ends them, so some chunks are decoded
    // again, and why is said.
    let log = Paths.fixture("multi-gnss-burst.nmea")
    let split = try runWhereAmI(["summary", "-v", log, "--jobs", "2"], environment: Self.manyCuts)
    #expect(split.code == 0)
    let pattern = /whereami: (.+): (\d+) chunks on 2 threads; (\d+) decoded in order \((\d+) of them twice\): (.+)\n/
    let line = try #require(split.error.wholeMatch(of: pattern), "\(split.error)")
    #expect(line.output.1 == log && Int(line.output.2)! > 100)
    let inOrder = Int(line.output.3)!
    #expect(inOrder > 0 && Int(line.output.4)! == inOrder)
    // Each reason with its count, and the counts add up.
    let reasons = line.output.5.split(separator: ", ").map { $0.wholeMatch(of: /the (.+) differed (\d+)/) }
    #expect(reasons.allSatisfy { $0 != nil }, "\(line.output.5)")
    let counts: [Int] = reasons.compactMap { $0.map { Int($0.output.2)! } }
    #expect(counts.reduce(0, +) == inOrder)
    #expect(reasons.contains { $0?.output.1 == "cycle end" }, "\(line.output.5)")
    // The output is the same as without -v.
    #expect(split.output == (try runWhereAmI(["summary", log, "--jobs", "1"])).output)
    // One job, or a file under 8 MB: one decoder, and it says so.
    let one = try runWhereAmI(["summary", "-v", log, "--jobs", "1"])
    #expect(one.error == "whereami: \(log): decoded by one decoder (one job)\n")
    let small = try runWhereAmI(["summary", "--verbose", log, "--jobs", "2"])
    #expect(small.error == "whereami: \(log): decoded by one decoder (not a regular file of 8 MB or more)\n")
  }

  /// Compass headings before the chunk's own variation, one given further back than the
  /// warm-up (as in the corpus's logs joined end to end): only the stretch up to the
  /// variation is decoded again, `-v` says how much, and the output is the same.
  @Test func summaryVerboseSaysWhatWasDecodedTwiceInPart() throws {
    let log = try GeneratedLog(cycles: 6000, start: 3600, dated: true, lossEvery: 0)
    #expect(try log.insertHeadingsBeforeVariations(seed: 23) > 5)
    let environment = ["WHEREAMI_CHUNK_SIZE": "65536"]
    let split = try runWhereAmI(["summary", "-v", log.path, "--jobs", "2"], environment: environment)
    #expect(split.code == 0)
    let pattern =
      /whereami: .+: (\d+) chunks on 2 threads; 0 decoded in order; (\d+) decoded twice in part \((\d+) KB in all: a heading went without the variation the receiver gave before the chunk\)\n/
    let line = try #require(split.error.wholeMatch(of: pattern), "\(split.error)")
    #expect(Int(line.output.1)! >= 20 && Int(line.output.2)! > 0 && Int(line.output.3)! > 0)
    #expect(split.output == (try runWhereAmI(["summary", log.path, "--jobs", "1"])).output)
    let scratch = try ExportScratch()
    for command in [["print", "--json"], ["summary", "--json"]] {
      try Self.expectSameOutput(command, log.path, jobs: 2, environment: environment, scratch)
    }
  }

  /// A log whose chunks must nearly all be decoded twice (more than 256 kinds of unknown
  /// sentence, each chunk bringing new ones): after the first chunks the rest is read on
  /// one thread, and `-v` says from where.
  @Test func summaryVerboseSaysWhenItStoppedSplitting() throws {
    let scratch = try ExportScratch()
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    let walk = try String(contentsOfFile: Paths.fixture("walk.nmea"), encoding: .utf8)
    func unknown(_ kind: Int) -> String {
      checksummed("$YX" + String([letters[kind / 676], letters[kind / 26 % 26], letters[kind % 26]]) + ",1")
    }
    // 300 kinds first, so that the list of them is full from the first chunk on; then
    // every chunk brings kinds that are not on it.
    var lines = (0..<300).map(unknown)
    // (A CR LF is one Character: split the bytes.)
    for (index, line) in walk.utf8.split(separator: UInt8(ascii: "\n")).enumerated() {
      lines.append(unknown(300 + index % 600))
      lines.append(String(decoding: line, as: UTF8.self))
    }
    let log = try scratch.write("unknown-kinds.nmea", lines.joined(separator: "\n") + "\n")
    let split = try runWhereAmI(["summary", "-v", log, "--jobs", "2"], environment: Self.manyCuts)
    #expect(split.code == 0)
    let pattern =
      /whereami: .+: (\d+) chunks on 2 threads; (\d+) decoded in order .+; from byte (\d+) on, read on one thread: most chunks had to be decoded twice\n/
    let line = try #require(split.error.wholeMatch(of: pattern), "\(split.error)")
    // The 300 kinds fill the first 4 of the 340 chunks; most of the next few fail.
    let (chunks, inOrder, from) = (Int(line.output.1)!, Int(line.output.2)!, Int(line.output.3)!)
    #expect(chunks < 16 && 2 * inOrder > chunks && from > chunks * 900, "\(split.error)")
    #expect(split.output == (try runWhereAmI(["summary", log, "--jobs", "1"])).output)
  }

  @Test func jobsMustBeANumberOfThreads() throws {
    for bad in ["0", "x", "-2", "100000"] {
      let result = try runWhereAmI(["summary", Paths.fixture("walk.nmea"), "--jobs", bad])
      #expect(result.code == 64)
      #expect(result.error.contains("--jobs '\(bad)'"))
    }
  }
}

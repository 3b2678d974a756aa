import Foundation
import LocationKit
import Testing

@testable import whereami

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct SourceRunTests {
  /// A log read as fast as it decodes cannot fall silent: under a sanitizer, the wait for
  /// a parallel decode's first chunk was reported as "no data for 3 s".
  @Test func aLogReadAsFastAsItDecodesHasNoWatchdog() throws {
    let log = Paths.fixture("walk.nmea")
    let print = try SourceRun(ParsedArguments(), address: .file(path: log), command: "print", label: "test")
    #expect(print.manager.watchdogTimeout == .infinity)
    // A replay keeps the receiver's pace, and its silences are the log's.
    let replay = try SourceRun(
      ParsedArguments(), address: .file(path: log), command: "replay", replaySpeed: 1, label: "test")
    #expect(replay.manager.watchdogTimeout == 3)
    // A named pipe is live: a writer that goes quiet is reported.
    let fifo = NSTemporaryDirectory() + "whereami-source-run-\(getpid())"
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let live = try SourceRun(ParsedArguments(), address: .file(path: fifo), command: "print", label: "test")
    #expect(live.manager.watchdogTimeout == 3)
  }
}

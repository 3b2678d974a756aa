import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Live sources seen through the real binary: `watch` on a terminal (tmux) with a FIFO that
/// has no writer, a gpsd that is not there, and a gpsd with two receivers; `print` on a
/// receiver that leaves gpsd and comes back.
@Suite struct LiveSourceEndToEndTests {
  static func cycles(_ fixture: String, limit: Int) throws -> [String] {
    try TestPaths.cycles(fixture, limit: limit)
  }

  @Test func watchOnAFIFOWithoutAWriterEndsOnQ() throws {
    let fifo = NSTemporaryDirectory() + "whereami-watch-fifo-\(getpid()).fifo"
    unlink(fifo)
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let tmux = try TmuxServer(shellNamed: "fifo", width: 100, height: 30)
    defer { tmux.stop() }
    try tmux.type(
      WatchEndToEndTests.checkedLine(
        "env TERM=xterm-256color \(shellQuoted(Paths.whereami)) watch \(shellQuoted(fifo))"))
    // The frame is up while open() waits for a writer.
    try tmux.waitFor("the watch frame") { $0.contains("whereami watch ·") }
    try tmux.send(["q"])
    let after = try tmux.waitFor("the exit status", timeout: 30) { WatchEndToEndTests.showsExitStatus($0) }
    #expect(after.contains("WATCH-EXIT=0 MODES-RESTORED=yes"), "\(after)")
  }

  @Test func watchKeepsTheConnectionFailureRatherThanNoData() throws {
    let port = freeLoopbackPort()
    let tmux = try TmuxServer(shellNamed: "refused", width: 120, height: 30)
    defer { tmux.stop() }
    try tmux.type(
      WatchEndToEndTests.checkedLine(
        "env TERM=xterm-256color \(shellQuoted(Paths.whereami)) watch --wait gpsd://127.0.0.1:\(port)"))
    try tmux.waitFor("the connection failure") { $0.contains("cannot connect to gpsd at 127.0.0.1:\(port)") }
    // Past the 3 s watchdog: the specific reason stays, no vaguer "no data".
    usleep(3_500_000)
    let screen = try tmux.capture()
    #expect(screen.contains("cannot connect to gpsd at 127.0.0.1:\(port)"), "\(screen)")
    #expect(!screen.contains("no data"), "\(screen)")
    try tmux.send(["q"])
    let after = try tmux.waitFor("the exit status", timeout: 30) { WatchEndToEndTests.showsExitStatus($0) }
    #expect(after.contains("WATCH-EXIT=0 MODES-RESTORED=yes"), "\(after)")
  }

  @Test func watchShowsOneGpsdDeviceAtATimeAndDSwitches() throws {
    let lisbon = try LoopbackListener()
    let daemon = try GPSDaemon()
    try daemon.start(alsoFeeding: [lisbon])
    defer { daemon.stop() }
    let tmux = try TmuxServer(shellNamed: "devices", width: 120, height: 44)
    defer { tmux.stop() }
    try tmux.type(
      WatchEndToEndTests.checkedLine(
        "env TERM=xterm-256color TZ=UTC \(shellQuoted(Paths.whereami)) watch gpsd://127.0.0.1:\(daemon.port)"))
    try tmux.waitFor("the watch frame") { $0.contains("whereami watch ·") }
    let walk = try Self.cycles("walk.nmea", limit: 30)
    let drive = try Self.cycles("drive-midnight.nmea", limit: 30)
    for (berlin, portugal) in zip(walk, drive) {
      daemon.feed.send(berlin)
      lisbon.send(portugal)
      usleep(20_000)
    }
    let berlinDevice = "tcp://127.0.0.1:\(daemon.feed.port)"
    let lisbonDevice = "tcp://127.0.0.1:\(lisbon.port)"
    let first = try tmux.waitFor("two devices") { $0.contains(" (1 of 2)") && $0.contains("Latitude") }
    #expect(first.contains("d next device"))
    let shown = first.contains(berlinDevice + " (1 of 2)") ? berlinDevice : lisbonDevice
    let other = shown == berlinDevice ? lisbonDevice : berlinDevice
    // Each device's own position: Berlin is at 52° N, the drive near 38° N.
    let berlinLatitude = #/Latitude    52\.\d+° N/#
    let lisbonLatitude = #/Latitude    3\d\.\d+° N/#
    if shown == berlinDevice {
      #expect(first.contains(berlinLatitude), "\(first)")
      // The walk's satellite 24 has no signal: gpsd's ss 0 is shown as on the NMEA path.
      #expect(first.contains(#/\n +24 +2° +341° +- /#), "\(first)")
    } else {
      #expect(first.contains(lisbonLatitude), "\(first)")
    }
    try tmux.send(["d"])
    let second = try tmux.waitFor("the other device") { $0.contains(other + " (2 of 2)") }
    #expect(second.contains(other == berlinDevice ? berlinLatitude : lisbonLatitude), "\(second)")
    if other == berlinDevice {
      #expect(second.contains(#/\n +24 +2° +341° +- /#), "\(second)")
    }
    try tmux.send(["Tab"])
    try tmux.waitFor("the first device again") { $0.contains(shown + " (1 of 2)") }
    try tmux.send(["q"])
    let after = try tmux.waitFor("the exit status", timeout: 30) { WatchEndToEndTests.showsExitStatus($0) }
    #expect(after.contains("WATCH-EXIT=0 MODES-RESTORED=yes"), "\(after)")
  }

  /// A reader that falls behind a receiver gets the newest fix, not one minutes old: once
  /// a line has waited for it longer than a second, a line is written only once it has
  /// taken the previous one; the fixes in between are said (at once, then once a minute),
  /// and every fix is printed or counted.
  @Test func aReaderBehindAReceiverGetsTheNewestFix() throws {
    let feed = try LoopbackListener()
    let fifo = NSTemporaryDirectory() + "whereami-slow-reader-\(getpid())-\(feed.port)"
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    // The reading end first, so that the shell's open for writing does not wait.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(reader) }
    let child = try ChildProcess(
      "/bin/sh", ["-c", "exec '\(Paths.whereami)' print --json tcp://127.0.0.1:\(feed.port) > '\(fifo)'"])
    defer { child.terminate() }
    #expect(feed.accept(timeout: 30), "\(child.standardError)")
    let cycles = try Self.cycles("walk.nmea", limit: 1000)
    // A 20 Hz receiver, and a reader that takes nothing for a while: the lines of the
    // first second wait in the pipe, and then the reader is behind.
    var sent = 0
    #expect(
      waitUntil(timeout: 60) {
        if child.standardError.contains("fixes not printed so far") { return true }
        if sent < cycles.count {
          feed.send(cycles[sent])
          sent += 1
        }
        usleep(45_000)
        return false
      }, "\(sent) sent: \(child.standardError)")
    var lines: [String] = []
    var partial: [UInt8] = []
    func readLines() {
      var buffer = [UInt8](repeating: 0, count: 65536)
      let count = read(reader, &buffer, buffer.count)
      guard count > 0 else { return }
      partial += buffer[0..<count]
      while let end = partial.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(String(decoding: partial[..<end], as: UTF8.self))
        partial.removeSubrange(...end)
      }
    }
    // The reader now takes what comes, and the receiver goes on: once the reader has
    // taken what waited, it has the newest fix sent.
    func time(_ cycle: String) -> String {
      let time = Array(cycle.split(separator: ",")[1])
      return "T\(String(time[0..<2])):\(String(time[2..<4])):\(String(time[4..<6]))"
    }
    var polls = 0
    #expect(
      waitUntil(timeout: 60) {
        readLines()
        if lines.last?.contains(time(cycles[sent - 1])) == true { return true }
        polls += 1
        if polls % 10 == 0, sent < cycles.count {
          feed.send(cycles[sent])
          sent += 1
        }
        return false
      }, "\(lines.count) lines, the last \(lines.last ?? "none"): \(child.standardError)")
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0, "\(child.standardError)")
    let times = lines.compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["time"] as? String
    }
    #expect(times.count == lines.count && times == times.sorted() && Set(times).count == times.count, "\(times)")
    let total = try #require(
      child.standardError.firstMatch(of: #/(\d+) fixes in all not printed/#).flatMap { Int($0.1) },
      "\(child.standardError)")
    #expect(total > 0 && lines.count + total == sent, "\(sent) sent, \(lines.count) printed, \(total) not")
    #expect(child.standardError.contains("\(sent) fixes from tcp://"), "the distance counts them all")
  }

  /// A reader that keeps up on average gets every fix, even when it is busy for a moment:
  /// here for 0.2 s after every ten lines, at a 10 Hz receiver's pace.
  @Test func aReaderThatKeepsUpGetsEveryFix() throws {
    let feed = try LoopbackListener()
    let reader = "n=0; while read -r line; do echo \"$line\"; n=$((n + 1)); [ $((n % 10)) -ne 0 ] || sleep 0.2; done"
    let child = try ChildProcess(
      "/bin/sh", ["-c", "'\(Paths.whereami)' print --json tcp://127.0.0.1:\(feed.port) | (\(reader))"])
    defer { child.terminate() }
    #expect(feed.accept(timeout: 30), "\(child.standardError)")
    let cycles = try Self.cycles("walk.nmea", limit: 40)
    for cycle in cycles {
      feed.send(cycle)
      usleep(100_000)
    }
    #expect(child.waitForOutputLines(40, timeout: 30), "\(child.standardError)")
    child.signalGroup(SIGINT)
    child.wait(timeout: 30)
    #expect(child.standardOutput.split(separator: "\n").count == 40)
    #expect(!child.standardError.contains("not printed"), "\(child.standardError)")
  }

  /// A second outage soon after the first is said too: the same message within a minute
  /// was kept quiet as a repeat, even with fixes between.
  @Test func aSecondOutageSoonAfterTheFirstIsSaid() throws {
    let feed = try LoopbackListener()
    let child = try ChildProcess(Paths.whereami, ["print", "tcp://127.0.0.1:\(feed.port)"])
    defer { child.terminate() }
    #expect(feed.accept(timeout: 30), "\(child.standardError)")
    let cycles = try Self.cycles("walk.nmea", limit: 20)
    func outages() -> Int { child.standardError.components(separatedBy: "no data from").count - 1 }
    for cycle in cycles[0..<10] {
      feed.send(cycle)
      usleep(50_000)
    }
    #expect(waitUntil { outages() == 1 }, "\(child.standardError)")
    for cycle in cycles[10..<20] {
      feed.send(cycle)
      usleep(50_000)
    }
    #expect(child.waitForOutputLines(19, timeout: 30), "fixes again: \(child.standardError)")
    #expect(waitUntil { outages() == 2 }, "the second outage is said: \(child.standardError)")
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0)
  }

  @Test func printSaysWhenAReceiverThatLeftGpsdIsReceivedAgain() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let child = try ChildProcess(Paths.whereami, ["print", "--json", "gpsd://127.0.0.1:\(daemon.port)"])
    defer { child.terminate() }
    #expect(daemon.waitForClients(1), "\(child.standardError)")
    let cycles = try Self.cycles("walk.nmea", limit: 60)
    for cycle in cycles[0..<20] {
      daemon.feed.send(cycle)
      usleep(4_000)
    }
    #expect(child.waitForOutputLines(15, timeout: 30), "\(child.standardError)")
    // The receiver goes away for longer than the watchdog's 3 s; gpsd drops it, and
    // connects to it again while a client watches.
    daemon.feed.dropClient()
    usleep(4_000_000)
    #expect(daemon.feed.accept(timeout: 15), "gpsd never came back for the device: \(child.standardError)")
    let before = child.standardOutput.split(separator: "\n").count
    for cycle in cycles[20..<60] {
      daemon.feed.send(cycle)
      usleep(4_000)
    }
    #expect(child.waitForOutputLines(before + 20, timeout: 15), "\(child.standardError)")
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0)
    #expect(child.standardError.contains("no data from"), "\(child.standardError)")
    #expect(child.standardError.contains(#/receiving again after \d+ s/#), "\(child.standardError)")
  }
}

extension LiveSourceEndToEndTests {
  /// `print --wait` on a receiver's path that does not exist yet waits for it, says so
  /// once, and prints its fixes once it is plugged in (a device node appearing under
  /// /dev/, as udev makes one; here a link to a pseudo-terminal, which needs root).
  @Test func printWaitsForAReceiverPluggedInLater() throws {
    let path = "/dev/whereami-plugged-later-\(getpid())"
    unlink(path)
    defer { unlink(path) }
    let child = try ChildProcess(Paths.whereami, ["print", "--wait", path])
    defer { child.terminate() }
    #expect(waitUntil { child.standardError.contains("waiting for it to be plugged in") }, "\(child.standardError)")
    #expect(!child.hasExited, "\(child.standardError)")
    // Past the watchdog's 3 s: its "no data" had followed every retry's "waiting" (six
    // pairs in 40 s). What is awaited must not come.
    let spoke = waitUntil(timeout: 4) { child.standardError.contains("no data") || child.hasExited }
    #expect(!spoke, "\(child.standardError)")
    let terminal = try PseudoTerminal()
    #expect(symlink(terminal.devicePath, path) == 0, "creating \(path) needs root")
    // The receiver talks once a cycle until whereami, retrying with backoff (up to 8 s
    // apart), has opened it and printed three fixes.
    let cycles = try Self.cycles("walk.nmea", limit: 200)
    for cycle in cycles where child.standardOutput.split(separator: "\n").count < 3 {
      terminal.write(cycle)
      _ = child.waitForOutputLines(3, timeout: 0.2)
    }
    #expect(child.standardOutput.split(separator: "\n").count >= 3, "\(child.standardError)")
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0)
    #expect(
      child.standardError.components(separatedBy: "waiting for it").count == 2, "said once: \(child.standardError)")
    // Its first fixes: "receiving", not "receiving again".
    #expect(child.standardError.contains(#/receiving after \d+ s/#), "\(child.standardError)")
    #expect(!child.standardError.contains("no data"), "\(child.standardError)")
    // Without --wait, not found at once.
    unlink(path)
    let absent = try runWhereAmI(["print", path])
    #expect(absent.code == 66, "\(absent.error)")
  }
}

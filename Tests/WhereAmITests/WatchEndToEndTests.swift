import Foundation
import LocationKit
import NMEA
import TestSupport
import Testing

@testable import TrackExport
@testable import whereami

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami watch` on a real terminal: tmux runs it, `capture-pane` reads the screen.
@Suite struct WatchEndToEndTests {
  /// The last location of walk.nmea and the jitter-proof distance of the whole walk, from
  /// the library, to compare with the screen.
  static func walkEnd() throws -> (location: Location, distance: Double, distanceError: Double) {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.fixture("walk.nmea"))))
    var decoder = NMEADecoder()
    var odometer = TrackOdometer()
    var last: Location?
    let handle: (DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event, let location = Location(fix) {
        odometer.add(location)
        last = location
      }
    }
    bytes.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    return (try #require(last), odometer.distance, odometer.distanceError)
  }

  /// `command` in the test shell, then its exit status and whether the terminal modes are
  /// as before it ran.
  static func checkedLine(_ command: String) -> String {
    "S=$(stty -g); \(command); "
      + #"echo WATCH-EXIT=$? MODES-RESTORED=$([ "$(stty -g)" = "$S" ] && echo yes || echo no)"#
  }

  /// Whether `screen` shows the exit status line printed by ``checkedLine(_:)`` (not just
  /// the command line echoed).
  static func showsExitStatus(_ screen: String) -> Bool {
    screen.contains(#/WATCH-EXIT=\d+ MODES-RESTORED=\w+/#)
  }

  @Test func liveReplayThenQRestoresTheTerminal() throws {
    let tmux = try TmuxServer(shellNamed: "q", width: 120, height: 40)
    defer { tmux.stop() }
    // The test runner sets NO_COLOR; this run is about colours being on.
    try tmux.type(
      Self.checkedLine(
        "env -u NO_COLOR TERM=xterm-256color TZ=UTC \(shellQuoted(Paths.whereami)) watch "
          + "\(shellQuoted(Paths.fixture("walk.nmea"))) --speed 50"))
    // A whole frame, its top and its last line (the map's scale bar): tmux may show one
    // half drawn (the new top over the old bottom), or the first frame not yet drawn to
    // its end on a loaded machine.
    let screen = try tmux.waitFor("the latitude") {
      $0.contains(#/Latitude    52\.51\d{5}° N/#) && $0.contains(#/GPS · 10 of 12 used/#)
        && $0.contains(#/├─*┤ \d+ m/#)
    }
    #expect(screen.contains(#/Longitude   13\.3\d{6}° E/#))
    #expect(screen.contains(#/Distance    \d+\.\d m/#))
    #expect(screen.contains(#/UTC         2025-06-14 07:4\d:\d\d\.\d/#))
    #expect(screen.contains(" PRN  Elev  Azim  SNR             Used"))
    #expect(screen.contains(#/GPS · 10 of 12 used/#))
    #expect(screen.contains(#/\n +2 +\d+° +\d+° +\d+ █+/#))
    #expect(screen.contains(#/├─*┤ \d+ m/#))
    #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "1 0")
    // Colours are on: the title is in reverse video.
    #expect(try tmux.capture(escapes: true).contains("\u{1B}[7m"))
    // The replay goes on: the distance grows.
    let distance = try #require(screen.firstMatch(of: #/Distance    (\d+\.\d) m/#)).output.1
    try tmux.waitFor("the distance to grow") { later in
      later.firstMatch(of: #/Distance    (\d+\.\d) m/#).map { Double($0.output.1)! > Double(distance)! } ?? false
    }

    try tmux.send(["q"])
    let after = try tmux.waitFor("the exit status") { Self.showsExitStatus($0) }
    #expect(after.contains("WATCH-EXIT=0 MODES-RESTORED=yes"))
    #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    // The main screen is back as it was: the frame was on the alternate screen only.
    for frameText in ["Latitude", "PRN", "whereami watch ·", "receiving"] {
      #expect(!after.contains(frameText), "'\(frameText)' left on the screen")
    }
  }

  @Test func finishedReplayShowsTheWholeWalkUntilSIGTERM() throws {
    let (last, distance, _) = try Self.walkEnd()
    let tmux = try TmuxServer(shellNamed: "term", width: 120, height: 40)
    defer { tmux.stop() }
    let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("whereami-watch-\(getpid()).pid").path
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    // `exec` keeps the shell's process id, written first, so the test can signal `watch`.
    let command =
      "sh -c "
      + shellQuoted(
        "echo $$ > \(shellQuoted(pidFile)); exec env TERM=xterm-256color TZ=UTC NO_COLOR=1 "
          + "\(shellQuoted(Paths.whereami)) watch \(shellQuoted(Paths.fixture("walk.nmea"))) --speed 0")
    try tmux.type(Self.checkedLine(command))
    let screen = try tmux.waitFor("the end of the replay") { $0.contains("source ended — press q to quit") }
    #expect(screen.contains("Latitude    " + WatchFormat.latitude(last.latitude, .decimal)))
    #expect(screen.contains("Longitude   " + WatchFormat.longitude(last.longitude, .decimal)))
    #expect(screen.contains("Distance    " + WatchFormat.distance(distance, .metric)))
    #expect(screen.contains("UTC         2025-06-14 08:01:32.0"))
    #expect(screen.contains("Local       2025-06-14 08:01:32.0 UTC"))
    #expect(screen.contains("1160 fixes"))
    for satellite in last.satellites {
      let elevation = Int(satellite.elevation!.rounded())
      let azimuth = Int(satellite.azimuth!.rounded())
      let row = try Regex("\n +\(satellite.id) +\(elevation)° +\(azimuth)° ")
      #expect(screen.contains(row), "no row for satellite \(satellite.id)")
    }
    // NO_COLOR: not one colour or attribute on the screen.
    #expect(!(try tmux.capture(escapes: true)).contains("\u{1B}["))

    let pid = try #require(
      Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(kill(pid, SIGTERM) == 0)
    let after = try tmux.waitFor("the exit status") { Self.showsExitStatus($0) }
    #expect(after.contains("WATCH-EXIT=0 MODES-RESTORED=yes"))
    #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    #expect(!after.contains("Latitude"))
    // Its summary line, as print's, once the screen is restored (it had none).
    let unwrapped = after.replacingOccurrences(of: "\n", with: "")
    #expect(after.contains("whereami: 1160 fixes from "), "\(after)")
    #expect(unwrapped.contains("distance \(fixed(distance, 1)) m ±"), "\(after)")
  }

  /// The anchor watch on a terminal: the swing circle and the distance to the anchor, then
  /// an alarm (bell and a red line) that stays while the replay goes on, until `a`.
  @Test func anchorWatchLatchesItsAlarmUntilAcknowledged() throws {
    let tmux = try TmuxServer(shellNamed: "anchor", width: 120, height: 40)
    defer { tmux.stop() }
    try tmux.type(
      Self.checkedLine(
        "env -u NO_COLOR TERM=xterm-256color TZ=UTC \(shellQuoted(Paths.whereami)) watch --anchor 30 "
          + "\(shellQuoted(RegionsCommandTests.dragLog)) --speed 10"))
    let holding = try tmux.waitFor("the anchor watch") { $0.contains(#/Alarm       holding · \d+\.\d m to spare/#) }
    #expect(holding.contains(#/Anchor      \d+\.\d m \d+° · swing 30\.0 m/#), "\(holding)")
    #expect(try tmux.display("#{window_bell_flag}") == "0")
    let alarm = try tmux.waitFor("the alarm") { $0.contains("DRAGGING — press a") && $0.contains("ANCHOR ALARM") }
    #expect(alarm.contains("a acknowledge · q quit"))
    #expect(
      alarm.contains(#/ANCHOR ALARM 2026-03-14T08:0\d:\d\d\.000Z: 3\d\.\d m from the anchor \(swing radius 30 m\)/#))
    // The anchor, west of the boat now, marked inside its circle on the map.
    #expect(alarm.contains("×"))
    #expect(try tmux.display("#{window_bell_flag}") == "1")
    // In red, and latched: the replay goes on, and so does the alarm.
    #expect(try tmux.capture(escapes: true).contains("\u{1B}[31m"))
    let fixes = try #require(alarm.firstMatch(of: #/(\d+) fixes/#).flatMap { Int($0.output.1) })
    let later = try tmux.waitFor("more fixes") { screen in
      screen.firstMatch(of: #/(\d+) fixes/#).flatMap { Int($0.output.1) }.map { $0 > fixes + 10 } ?? false
    }
    #expect(later.contains("DRAGGING — press a"))
    try tmux.send(["a"])
    let acknowledged = try tmux.waitFor("the acknowledgement") { $0.contains("outside (acknowledged)") }
    #expect(!acknowledged.contains("ANCHOR ALARM"))
    #expect(!acknowledged.contains("a acknowledge"))
    try tmux.send(["q"])
    let after = try tmux.waitFor("the exit status") { Self.showsExitStatus($0) }
    #expect(after.contains("WATCH-EXIT=0 MODES-RESTORED=yes"))
  }

  /// The anchor watch on a live source: a boat's network sending its receiver over UDP.
  @Test func anchorWatchOnALiveUDPSource() throws {
    let port = freeLoopbackPort()
    let tmux = try TmuxServer(shellNamed: "anchor-udp", width: 120, height: 40)
    defer { tmux.stop() }
    try tmux.type(
      Self.checkedLine(
        "env TERM=xterm-256color TZ=UTC \(shellQuoted(Paths.whereami)) watch --anchor 30@48.137,11.575 "
          + "udp://127.0.0.1:\(port)"))
    #expect(waitUntil { udpPortIsBound(port) }, "whereami never bound port \(port)")
    let sender = try DatagramSender(host: "127.0.0.1", port: port)
    for cycle in RegionsCommandTests.drag {
      try sender.send(cycle)
      usleep(2000)
    }
    let alarm = try tmux.waitFor("the alarm") { $0.contains("DRAGGING — press a") && $0.contains("ANCHOR ALARM") }
    #expect(alarm.contains(#/Anchor      \d+\.\d m 2\d\d° · swing 30\.0 m/#), "\(alarm)")
    try tmux.send(["a"])
    try tmux.waitFor("the acknowledgement") { $0.contains("outside (acknowledged)") }
    try tmux.send(["q"])
    let after = try tmux.waitFor("the exit status") { Self.showsExitStatus($0) }
    #expect(after.contains("WATCH-EXIT=0 MODES-RESTORED=yes"))
  }

  @Test func deniedSourceRestoresTheTerminalThenSaysWhy() throws {
    // As root every file is readable: only another user gets EACCES.
    let path = NSTemporaryDirectory() + "whereami-watch-secret-\(getpid()).nmea"
    try Data("$GPGGA,1*00\n".utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o600)
    defer { unlink(path) }
    let asNobody = getuid() == 0
    if !asNobody { chmod(path, 0o000) }
    let tmux = try TmuxServer(shellNamed: "denied", width: 100, height: 30)
    defer { tmux.stop() }
    let run = (asNobody ? "runuser -u nobody -- " : "") + "env TERM=xterm-256color "
    let binary = asNobody ? Reachable.copy(Paths.whereami) : Paths.whereami
    try tmux.type(Self.checkedLine(run + "\(shellQuoted(binary)) watch \(shellQuoted(path))"))
    let screen = try tmux.waitFor("the exit status") { Self.showsExitStatus($0) }
    #expect(screen.contains("whereami: denied: cannot open \(path): Permission denied"))
    #expect(screen.contains("WATCH-EXIT=77 MODES-RESTORED=yes"))
    #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
  }

  @Test func dumbTerminalGetsLines() throws {
    let tmux = try TmuxServer(shellNamed: "dumb", width: 200, height: 10)
    defer { tmux.stop() }
    try tmux.type(
      "env TERM=dumb \(shellQuoted(Paths.whereami)) watch \(shellQuoted(Paths.fixture("walk.nmea"))) --speed 0 | tail -1; echo WATCH-EXIT=${PIPESTATUS[0]}"
    )
    let screen = try tmux.waitFor("the exit status") { $0.contains(#/WATCH-EXIT=\d/#) }
    #expect(screen.contains("WATCH-EXIT=0"))
    #expect(screen.contains(#/2025-06-14T08:01:32\.000Z 3D lat 52\.507496017 lon 13\.346784817 .* distance \d+\.\d m/#))
    // Without a pipe, TERM=dumb alone chooses lines too.
    try tmux.type(
      "clear; env TERM=dumb \(shellQuoted(Paths.whereami)) watch \(shellQuoted(Paths.fixture("walk.nmea"))) --speed 0; echo DUMB-EXIT=$?"
    )
    let direct = try tmux.waitFor("the second exit status") { $0.contains(#/DUMB-EXIT=\d/#) }
    #expect(direct.contains("DUMB-EXIT=0"))
    #expect(direct.contains("2025-06-14T08:01:32.000Z 3D lat 52.507496017"))
    #expect(try tmux.display("#{alternate_on}") == "0")
  }

  @Test func withoutATerminalOneLinePerFix() throws {
    let result = try runWhereAmI(["watch", Paths.fixture("walk.nmea"), "--speed", "0"])
    #expect(result.code == 0)
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 1160)
    #expect(lines.first?.hasPrefix("2025-06-14T07:42:13.000Z 3D lat 52.514") == true)
    let end = try Self.walkEnd()
    #expect(
      lines.last?.hasSuffix("distance \(fixed(end.distance, 1)) m ±\(fixed(end.distanceError, 1)) m") == true,
      "\(lines.last ?? "")")
    #expect(result.error.isEmpty)
    // The lines are print's, from the same renderer.
    let printed = try runWhereAmI(["print", Paths.fixture("walk.nmea")])
    #expect(printed.code == 0)
    #expect(result.output == printed.output)
    // Paced: the 1159 s of the walk at 2000 times its pace take at least 0.58 s.
    let started = Date()
    let paced = try runWhereAmI(["watch", Paths.fixture("walk.nmea"), "--speed", "2000"], timeout: 30)
    #expect(Date().timeIntervalSince(started) >= 0.55)
    #expect(paced.code == 0)
    #expect(paced.output.split(separator: "\n").count == 1160)
  }

  /// A signal ends `watch` with print's summary line on standard error, and 0.
  @Test func aSignalEndsWatchWithItsSummaryLine() throws {
    let child = try ChildProcess(Paths.whereami, ["watch", Paths.fixture("walk.nmea"), "--speed", "20"])
    #expect(child.waitForOutputLines(5))
    #expect(kill(child.pid, SIGINT) == 0)
    #expect(child.wait(timeout: 30) == 0)
    let lines = child.standardOutput.split(separator: "\n")
    let summary = child.standardError.split(separator: "\n")
    #expect(summary.count == 1 && summary[0].hasPrefix("whereami: \(lines.count) fixes from "), "\(summary)")
    // The distance the last line showed.
    let distance = try #require(lines.last?.components(separatedBy: " distance ").last)
    #expect(summary[0].contains("; distance \(distance), path "), "\(summary) after \(lines.last ?? "")")
  }

  @Test func usageAndSourceErrors() throws {
    let coords = try runWhereAmI(["watch", "--coords", "utm", Paths.fixture("walk.nmea")])
    #expect(coords.code == 64)
    #expect(coords.error.contains("--coords 'utm' is not one of decimal, dm, dms"))
    let units = try runWhereAmI(["watch", "--units", "furlongs", Paths.fixture("walk.nmea")])
    #expect(units.code == 64)
    let speed = try runWhereAmI(["watch", "--speed", "-2", Paths.fixture("walk.nmea")])
    #expect(speed.code == 64)
    let live = try runWhereAmI(["watch", "--speed", "2", "-"], stdinPath: Paths.fixture("walk.nmea"))
    #expect(live.code == 64)
    #expect(live.error.contains("--speed replays a log file"))
    let missing = try runWhereAmI(["watch", "/nonexistent/walk.nmea"])
    #expect(missing.code == 66)
    #expect(missing.error.contains("whereami: source not found: cannot open /nonexistent/walk.nmea"))
    let standardInput = try runWhereAmI(["watch", "-"], stdinPath: Paths.fixture("walk.nmea"))
    #expect(standardInput.code == 0)
    #expect(standardInput.output.split(separator: "\n").count == 1160)
  }
}

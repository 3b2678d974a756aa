import LocationKit
import NMEA
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami now [SOURCE]`, and `whereami` with no command: one answer to "where am I?",
/// as the library's `requestLocation()` gives one, then the program ends.
enum NowCommand {
  static let spec = CommandSpec(
    name: "now",
    abstract: "Answer where you are: wait for one fix (within --accuracy, if given), print it once and exit.",
    arguments: "[SOURCE]",
    minimumArguments: 0,
    maximumArguments: 1,
    options: [
      OptionSpec(name: "json", value: nil, help: "The fix as one JSON object, with gpsd's TPV field names."),
      OptionSpec(
        name: "accuracy", value: "METRES",
        help: "Wait for a fix whose horizontal accuracy is this good (default: the first fix)."),
      OptionSpec(
        name: "timeout", value: "SECONDS",
        help: "Wait at most this long for a live source (default 30); then print the best fix it gave, exit code 75."),
    ] + SourceRun.specs.filter { $0.name != "accuracy" && $0.name != "distance-filter" },
    discussion: """
      The command run when whereami is given no command: 'whereami', 'whereami --json',
      'whereami /dev/ttyACM0' are 'whereami now ...'. SOURCE is any of print's (see
      whereami print --help); without it, $WHEREAMI_SOURCE, else gpsd://localhost:2947.
      From a live source (gpsd, a receiver, a TCP or UDP stream, a pipe) the answer is the
      newest fix when it comes: the first one, or the first within --accuracy. From a log
      file it is the log's last fix (with --accuracy, the last one within it). The line is
      print's, or with --json its TPV object. When no fix is good enough in --timeout
      seconds (or before a live source ends, or in the whole log), the best one (the
      smallest accuracy, the newest of equals) is printed all the same, standard error
      says so, and the exit code is 75; with no fix at all, nothing is printed (75 live,
      65 for a log).
      Denied (77), not found (66) and a gpsd or TCP source that never answers (69, unless
      --wait) end it at once, as for print.
      """)

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    let address = try SourceRun.address(arguments, defaultSource: PrintCommand.defaultSource)
    let wanted = try accuracy(arguments)
    let timeout = try self.timeout(arguments)
    let source = try SourceRun(arguments, address: address, command: spec.name, label: "whereami.now")
    let live = address.isLive
    // Accuracies are shown to 0.1 m: --accuracy 3.5 takes a fix shown as "acc 3.5 m".
    let bar = wanted.map { $0 + 0.049_999 }
    if live {
      // The manager's requestLocation: the first fix within the bar, or at the deadline
      // the most accurate it had. A receiver's answer is its newest fix, never one that
      // waited behind others.
      source.manager.desiredAccuracy = bar ?? LocationAccuracy.best
      source.manager.deliveryPolicy = .newestLocation
      source.requestTimeout = timeout
    } else {
      // A log's answer is its last fix within the bar: every fix is looked at.
      source.manager.desiredAccuracy = LocationAccuracy.best
    }
    let answer = Answer(wanted: bar, live: live)
    // Headings are asked for, so that the fix line carries the compass's as print's does;
    // none is printed on its own: a compass's log without a fix is no answer (65).
    let session = LocationSession(source, verbose: arguments.has("verbose"), renderHeading: { _, _ in true }) {
      location, odometer, _, heading in
      answer.consider(location, odometer, heading)
    }
    session.outputsHeadings = false
    let started = SystemClock.monotonic()
    let code = session.run()
    let ranOut = SystemClock.monotonic() - started >= timeout
    guard let (fix, odometer, heading) = answer.chosen else {
      // The manager said why (no location within the time: 75).
      if code != .success { throw CommandError(message: nil, code: code) }
      // Interrupted before any fix: nothing to say but that.
      throw CommandError(message: "\(address): no fix before it was stopped", code: .temporaryFailure)
    }
    var output = OutputStream(descriptor: STDOUT_FILENO)
    output.write { line in
      if arguments.has("json") {
        LocationRenderer.json(fix, odometer, into: &line)
      } else {
        LocationRenderer.text(fix, odometer, heading: heading, into: &line)
      }
    }
    output.flush()
    if let failure = output.failure { throw failure }
    let age = answer.age(of: fix).map { "\(seconds($0)) s older than the log's last fix" }
    if answer.meets(fix) {
      if let age, let text = arguments.value("accuracy") {
        printError("whereami: \(address): the last fix within \(text) m is \(age)")
      }
      return
    }
    // Live, a fix short of the bar is the manager's best at the deadline.
    let within = arguments.value("accuracy").map { "within \($0) m " } ?? "with an accuracy "
    let span = !live ? "in the log" : ranOut ? "in \(seconds(timeout)) s" : "before the source ended"
    let best = fix.horizontalAccuracy.map { "accuracy \(fixed($0, 1)) m" } ?? "no accuracy"
    let when = live ? fix.timestamp.map { ", of \($0)" } ?? "" : age.map { ", " + $0 } ?? ""
    throw CommandError(
      message: "\(address): no fix \(within)\(span); printed the best, \(best)\(when)", code: .temporaryFailure)
  }

  private static func accuracy(_ arguments: ParsedArguments) throws(CommandError) -> Double? {
    guard let text = arguments.value("accuracy") else { return nil }
    guard let value = Double(text), value >= 0, value.isFinite else {
      throw CommandError(message: "now: --accuracy '\(text)' is not a distance in metres", code: .usage)
    }
    return value
  }

  private static func timeout(_ arguments: ParsedArguments) throws(CommandError) -> Double {
    guard let text = arguments.value("timeout") else { return 30 }
    guard let value = Double(text), value > 0, value.isFinite, value <= 86_400 * 365 else {
      throw CommandError(
        message: "now: --timeout '\(text)' is not a number of seconds above 0, at most a year (31536000)",
        code: .usage)
    }
    return value
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : fixed(value, 1)
  }

  /// The fix being chosen, as the session's fixes come (live: the one the manager's
  /// requested location delivers); touched only on the session's queue while it runs,
  /// and by the main thread after it has ended.
  final class Answer: @unchecked Sendable {
    // @unchecked Sendable: `consider` runs on the location session's serial queue; the
    // main thread reads the rest only after LocationSession.run() has returned, which
    // stops the manager and waits for that queue first.
    let wanted: Double?
    let live: Bool
    /// The fix to print, with the odometer and heading that go with it.
    private(set) var chosen: (Location, TrackOdometer, Heading?)?
    /// The newest fix seen, for the chosen one's age.
    private var latest: Location?
    private var answered = false

    init(wanted: Double?, live: Bool) {
      self.wanted = wanted
      self.live = live
    }

    /// Whether `fix` is good enough.
    func meets(_ fix: Location) -> Bool {
      guard let wanted else { return true }
      guard let accuracy = fix.horizontalAccuracy else { return false }
      return accuracy <= wanted
    }

    /// Takes a delivered fix; `false` when it is the answer and the source may stop.
    func consider(_ fix: Location, _ odometer: TrackOdometer, _ heading: Heading?) -> Bool {
      guard !answered else { return false }
      // Live, the manager delivers one location, the answer: the first within the bar,
      // or the best at the deadline.
      if live {
        chosen = (fix, odometer, heading)
        answered = true
        return false
      }
      latest = fix
      if meets(fix) {
        chosen = (fix, odometer, heading)
        return true
      }
      // Short of the bar: the best so far, unless one that meets it came already.
      if let current = chosen?.0, meets(current) || !isBetter(fix, than: current) { return true }
      chosen = (fix, odometer, heading)
      return true
    }

    /// Whether `fix` is at least as good as `other` (newer wins ties).
    private func isBetter(_ fix: Location, than other: Location) -> Bool {
      guard let accuracy = fix.horizontalAccuracy else { return other.horizontalAccuracy == nil }
      guard let otherAccuracy = other.horizontalAccuracy else { return true }
      return accuracy <= otherAccuracy
    }

    /// How many seconds `fix` is older than the latest fix, when it is not the latest.
    func age(of fix: Location) -> Double? {
      guard let latest, latest != fix, let time = fix.timestamp, let newest = latest.timestamp else { return nil }
      let seconds = newest.seconds(since: time)
      return seconds > 0 ? seconds : nil
    }
  }
}

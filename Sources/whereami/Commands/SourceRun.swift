import Dispatch
import LocationKit
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// What every command that follows a SOURCE shares (print, replay, trips, watch,
/// export): the SOURCE parsed once, a location manager for it with the command line's
/// options and its callbacks on ``queue``, and the wait for the end, which comes once
/// however many things ask for it (a signal, the source's end, a closed output).
///
/// The commands' sessions are the manager's delegates; what they do with the events is
/// theirs, the lifecycle is this.
final class SourceRun: @unchecked Sendable {
  // @unchecked Sendable: `isFinished` is read and written only on `queue`; everything
  // else is immutable after init.

  /// The options of every command that follows a source.
  static let specs: [OptionSpec] =
    [
      OptionSpec(
        name: "accuracy", value: "METRES", help: "Skip fixes whose horizontal accuracy is worse (or unknown)."),
      OptionSpec(
        name: "distance-filter", value: "METRES", help: "Skip fixes closer than this to the last one printed."),
      OptionSpec(name: "baud", value: "RATE", help: "Serial speed, 4800 to 921600 (default 9600)."),
      OptionSpec(
        name: "verbose", short: "v", value: nil,
        help: "Report every rejected line on standard error (source, line and reason)."),
      OptionSpec(
        name: "wait", value: nil,
        help:
          "Keep trying a gpsd or TCP source that does not answer (without it, exit code 69), and wait for a serial "
          + "receiver not plugged in yet (without it, 66)."),
    ] + DecodeOptions.specs

  /// The SOURCE, as parsed.
  let address: SourceAddress
  /// The manager, configured; its callbacks run on ``queue``.
  let manager: LocationManager
  /// The serial queue of the manager's callbacks, and of the signal handlers that
  /// ``run(onSignal:starting:ending:stopped:)`` installs.
  let queue: DispatchQueue
  private let finished = DispatchSemaphore(value: 0)
  private var isFinished = false
  /// Whether `--wait` asks to keep trying a source that does not answer.
  let waits: Bool
  /// Whether the source has answered once (a fix, a report, any error but "cannot
  /// connect"). Read and written on ``queue``.
  private var hasAnswered = false

  /// The source's name for messages (`walk.nmea`, `gpsd://localhost:2947`).
  var name: String { address.description }
  /// Whether the source goes on until stopped (gpsd, serial, TCP, a pipe).
  var isLive: Bool { address.isLive }
  /// Whether the run also delivers headings (every one: no heading filter). Set before
  /// ``run(onSignal:starting:ending:stopped:)``.
  var headings = false
  /// With a timeout, the run asks the manager for one location (`requestLocation`)
  /// instead of starting updates. Set before ``run(onSignal:starting:ending:stopped:)``.
  var requestTimeout: Double?

  /// The environment variable with the SOURCE to use when a command line names none (for a
  /// gpsd elsewhere, `gpsd://boat.local`, or a receiver, `/dev/ttyACM0`).
  static let sourceVariable = "WHEREAMI_SOURCE"

  /// The SOURCE of a command line: its first positional argument, else ``sourceVariable``
  /// when `usesEnvironment` (the commands whose default is gpsd), else `defaultSource`.
  static func address(
    _ arguments: ParsedArguments, defaultSource: String, usesEnvironment: Bool = true
  ) throws(CommandError) -> SourceAddress {
    var fallback = defaultSource
    if usesEnvironment, let text = Environment.value(sourceVariable), !text.isEmpty {
      fallback = text
    }
    do throws(LocationError) {
      return try SourceAddress(arguments.positionals.first ?? fallback)
    } catch {
      throw CommandError(message: error.message, code: .usage)
    }
  }

  /// A manager for `address` with `--accuracy`, `--distance-filter`, `--baud`,
  /// `--verbose`, `--strict` and `--date` applied; starts nothing.
  /// `passThrough` receives every accepted sentence as it came, on the reading thread
  /// (`print --nmea`); NMEA sources only.
  init(
    _ arguments: ParsedArguments, address: SourceAddress, command: String, replaySpeed: Double? = nil,
    label: String, passThrough: (@Sendable ([UInt8]) -> Void)? = nil,
    decoded: (@Sendable (Sentence, [UInt8]) -> Void)? = nil
  ) throws(CommandError) {
    self.address = address
    queue = DispatchQueue(label: label)
    waits = arguments.has("wait")
    var options = SourceAddress.SourceOptions()
    let decodes = if case .gpsd = address { false } else { true }
    options.nmea.decoder = try DecodeOptions.decoderOptions(arguments, command: command, decodes: decodes)
    options.nmea.replaySpeed = replaySpeed
    options.nmea.waitsForDevice = waits
    let parallelism = try DecodeOptions.parallelism(arguments, command: command)
    options.nmea.jobs = parallelism.jobs
    options.nmea.chunkSize = parallelism.chunkSize
    if let baud = arguments.value("baud") {
      guard let rate = Int(baud) else {
        throw CommandError(message: "\(command): --baud '\(baud)' is not a number", code: .usage)
      }
      options.baud = rate
    }
    if passThrough != nil || decoded != nil {
      if case .gpsd = address {
        throw CommandError(
          message: "\(command): --nmea reads NMEA sources; for gpsd's sentences use 'gpspipe -r'", code: .usage)
      }
      options.nmea.decoder.passesThrough = true
      options.nmea.onSentence = passThrough
      if let decoded {
        options.nmea.decoder.reportsSentences = true
        options.nmea.onDecodedSentence = decoded
      }
    }
    if arguments.has("verbose") || ((passThrough != nil || decoded != nil) && arguments.has("all")) {
      options.nmea.decoder.detailsRejections = true
      let name = address.description
      options.nmea.onRejection = { rejection in
        printError("whereami: \(name):\(rejection.line): \(rejection.explanation)")
      }
    }
    let source: any LocationSource
    do throws(LocationError) {
      source = try address.makeSource(options)
    } catch {
      throw CommandError(message: error.message, code: .usage)
    }
    manager = LocationManager(source: source, callbackQueue: queue)
    // Accuracies are shown to 0.1 m: --accuracy 3.5 keeps every fix shown as "acc 3.5 m".
    manager.desiredAccuracy =
      try Self.metres(arguments, "accuracy", command: command).map { $0 + 0.049_999 } ?? LocationAccuracy.best
    manager.distanceFilter = try Self.metres(arguments, "distance-filter", command: command) ?? LocationDistance.none
    // A slowed replay is silent for longer than a receiver: scale the watchdog with it.
    if let replaySpeed, replaySpeed < 1 { manager.watchdogTimeout = manager.watchdogTimeout / replaySpeed }
    // A log read as fast as it decodes cannot fall silent: a pause there is the decoder at
    // work (a chunk decoded on other threads before its first fix is handed on, on a slow
    // or instrumented build), not a receiver gone quiet.
    if replaySpeed == nil, !address.isLive { manager.watchdogTimeout = .infinity }
  }

  /// Starts updates and waits until ``finish()``. With `onSignal`, Ctrl-C, SIGTERM, SIGQUIT
  /// and SIGHUP call it on the queue meanwhile, and end the program again once the run is
  /// over. On the queue: `starting` runs once the signals are caught and before updates
  /// start; `ending` before the manager stops (a display puts the terminal back first, so
  /// that a source slow to stop never keeps it); `stopped` after.
  func run(
    onSignal: (@Sendable (Int32) -> Void)? = nil, starting: () -> Void = {}, ending: () -> Void = {},
    stopped: () -> Void = {}
  ) {
    queue.sync {
      if let onSignal { Interrupts.handle(on: queue, onSignal) }
      starting()
    }
    if headings { manager.headingFilter = HeadingFilter.none }
    if let requestTimeout {
      manager.requestLocation(timeout: requestTimeout)
    } else {
      manager.startUpdating(location: true, heading: headings)
    }
    finished.wait()
    queue.sync(execute: ending)
    manager.stopUpdating()
    queue.sync(execute: stopped)
    // The handler holds its session: release it so that the session can go.
    if onSignal != nil { Interrupts.reset() }
  }

  /// Notes that the source answered. Call on the queue.
  func answered() { hasAnswered = true }

  /// What to end the command with when `error` says that a source that never answered
  /// cannot be reached, as gpsd's own clients do; `nil` to go on (the source answered
  /// before, so it is retried, or `--wait`). Notes any other error as an answer. Call on
  /// the queue.
  func unavailable(_ error: LocationError) -> CommandError? {
    guard error.code == .cannotConnect else {
      hasAnswered = true
      return nil
    }
    guard !hasAnswered, !waits else { return nil }
    // The source says "; retrying", which is not what happens now.
    var message = error.message
    if message.hasSuffix("; retrying") { message.removeLast("; retrying".count) }
    // The kind once: "cannot connect to ...", not "cannot connect: cannot connect to ...".
    if !message.hasPrefix(error.kind) { message = "\(error.kind): \(message)" }
    return CommandError(message: "\(message) (--wait keeps trying)", code: .unavailable)
  }

  /// Ends ``run(onSignal:starting:ending:stopped:)``, once; `false` when it had ended already. Call on the
  /// queue.
  @discardableResult
  func finish() -> Bool {
    guard !isFinished else { return false }
    isFinished = true
    finished.signal()
    return true
  }

  /// Whether ``finish()`` has been called. Call on the queue.
  var hasFinished: Bool { isFinished }

  /// The exit code for a final error: 77 denied, 66 not found, 64 invalid, 75 no location
  /// within a requested location's time, 74 the rest.
  static func exitCode(for error: LocationError) -> ExitCode {
    switch error.code {
    case .denied: .permissionDenied
    case .sourceNotFound: .noInput
    case .invalidSource: .usage
    // Only a requested location's deadline makes it final: no fix in the time (now).
    case .locationUnknown: .temporaryFailure
    default: .ioError
    }
  }

  private static func metres(_ arguments: ParsedArguments, _ name: String, command: String) throws(CommandError)
    -> Double?
  {
    guard let text = arguments.value(name) else { return nil }
    guard let value = Double(text), value >= 0, value.isFinite else {
      throw CommandError(message: "\(command): --\(name) '\(text)' is not a distance in metres", code: .usage)
    }
    return value
  }
}

import Dispatch
import LocationKit
import NMEA
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a location manager over a SOURCE until the source ends, a final error, or
/// Ctrl-C / SIGTERM, handing each delivered location to a renderer (which returns `false`
/// when its output is gone) and reporting errors on standard error as they happen, with
/// their kind.
final class LocationSession: LocationManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable: every mutable property is touched only on `queue`, the
  // manager's serial callback queue (the signal handlers run on it too).

  /// Options shared by the commands that follow a source.
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
    ] + DecodeOptions.specs

  private let queue: DispatchQueue
  private static let exitCodes: [LocationError.Code: ExitCode] = [
    .denied: .permissionDenied, .sourceNotFound: .noInput, .invalidSource: .usage,
  ]
  private let manager: LocationManager
  private let render: (Location, TrackOdometer, _ severalDevices: Bool) -> Bool
  private let recognized: ((MovementEvent) -> Bool)?
  private let finished = DispatchSemaphore(value: 0)
  /// One odometer per device ("" for a source that is one receiver): each gpsd device is
  /// its own track. In the order the devices first reported.
  private var odometers: [String: TrackOdometer] = [:]
  private var devices: [String] = []
  /// The device of the latest fix, and its odometer (kept out of `odometers` meanwhile).
  private var currentDevice = ""
  private var odometer = TrackOdometer()
  private var fixCounts: [String: Int] = [:]
  private var currentFixes = 0
  private var fixes = 0
  private var exitCode = ExitCode.success
  private let sourceName: String
  private let verbose: Bool
  private let isLive: Bool
  private var wasInterrupted = false
  private var messages = RepeatedMessages()
  /// When the source last went from delivering to failing (monotonic seconds).
  private var troubleSince: Double?

  /// Makes the manager for `arguments.positionals[0]` (or `defaultSource`).
  init(
    _ arguments: ParsedArguments, command: String, replaySpeed: Double? = nil, defaultSource: String = "-",
    movement recognizer: MovementRecognizer? = nil, recognized: ((MovementEvent) -> Bool)? = nil,
    render: @escaping (Location, TrackOdometer, _ severalDevices: Bool) -> Bool
  ) throws(CommandError) {
    let queue = DispatchQueue(label: "whereami.session")
    let (manager, name) = try Self.makeManager(
      arguments, command: command, replaySpeed: replaySpeed, defaultSource: defaultSource, queue: queue)
    self.queue = queue
    self.manager = manager
    sourceName = name
    self.render = render
    self.recognized = recognized
    verbose = arguments.has("verbose")
    isLive = (try? SourceAddress(arguments.positionals.first ?? defaultSource))?.isLive ?? true
    manager.movementRecognizer = recognizer
    manager.delegate = self
  }

  /// The manager's movement recognisers by device, as they stand (after ``run()``: at
  /// the end).
  var movementRecognizers: [String: MovementRecognizer] { manager.movementRecognizers }

  /// A location manager for the SOURCE of a command line (the first positional argument,
  /// or `defaultSource`), with `--accuracy`, `--distance-filter`, `--baud`, `--verbose`,
  /// `--strict` and `--date` applied; callbacks on `queue`. Also returns the source's name.
  static func makeManager(
    _ arguments: ParsedArguments, command: String, replaySpeed: Double?, defaultSource: String, queue: DispatchQueue
  ) throws(CommandError) -> (LocationManager, String) {
    let text = arguments.positionals.first ?? defaultSource
    let address: SourceAddress
    do throws(LocationError) {
      address = try SourceAddress(text)
    } catch {
      throw CommandError(message: error.message, code: .usage)
    }
    var options = SourceAddress.SourceOptions()
    options.nmea.decoder = try DecodeOptions.decoderOptions(arguments, command: command)
    options.nmea.replaySpeed = replaySpeed
    if let baud = arguments.value("baud") {
      guard let rate = Int(baud) else {
        throw CommandError(message: "\(command): --baud '\(baud)' is not a number", code: .usage)
      }
      options.baud = rate
    }
    if arguments.has("verbose") {
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
    let manager = LocationManager(source: source, callbackQueue: queue)
    // Accuracies are shown to 0.1 m: --accuracy 3.5 keeps every fix shown as "acc 3.5 m".
    manager.desiredAccuracy =
      try metres(arguments, "accuracy", command: command).map { $0 + 0.049_999 } ?? LocationAccuracy.best
    manager.distanceFilter = try metres(arguments, "distance-filter", command: command) ?? LocationDistance.none
    // A slowed replay is silent for longer than a receiver: scale the watchdog with it.
    if let replaySpeed, replaySpeed < 1 { manager.watchdogTimeout = manager.watchdogTimeout / replaySpeed }
    return (manager, address.description)
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

  /// Runs until the end; returns the exit code.
  func run() -> ExitCode {
    Interrupts.handle(on: queue) { [self] _ in interrupted() }
    manager.startUpdatingLocation()
    finished.wait()
    manager.stopUpdatingLocation()
    return queue.sync {
      // The handler holds the session: release it so that the session can go.
      Interrupts.reset()
      return exitCode
    }
  }

  /// The line printed when Ctrl-C ends a session.
  private var summaryLine: String {
    var all = odometers
    var counts = fixCounts
    if !devices.isEmpty {
      all[currentDevice] = odometer
      counts[currentDevice] = currentFixes
    }
    let tracks = devices.compactMap { device in all[device].map { (device, $0) } }
    guard !tracks.isEmpty else { return "whereami: 0 fixes from \(sourceName)" }
    return tracks.map { device, odometer in
      "whereami: \(counts[device] ?? 0) fixes from \(device.isEmpty ? sourceName : device); "
        + "distance \(fixed(odometer.distance, 1)) m, "
        + "path \(fixed(odometer.pathLength, 1)) m, displacement \(fixed(odometer.displacement, 1)) m"
    }.joined(separator: "\n")
  }

  private func interrupted() {
    // One summary, however many signals come (timeout(1) sends two).
    guard !wasInterrupted else { return }
    wasInterrupted = true
    manager.stopUpdatingLocation()
    printError(summaryLine)
    finished.signal()
  }

  func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
    if let since = troubleSince {
      troubleSince = nil
      // A live receiver that was lost (or never there) and is back; a log's cold start
      // is not worth a line.
      let seconds = Int((monotonicClock() - since).rounded())
      if isLive, seconds >= 1 { printError("whereami: \(sourceName): receiving again after \(seconds) s") }
    }
    fixes += 1
    // The usual case, one receiver, without a dictionary look-up per fix.
    let device = location.device ?? ""
    if device != currentDevice || devices.isEmpty {
      if !devices.isEmpty {
        odometers[currentDevice] = odometer
        fixCounts[currentDevice] = currentFixes
      }
      if odometers[device] == nil {
        devices.append(device)
        odometers[device] = TrackOdometer()
      }
      odometer = odometers[device]!
      currentFixes = fixCounts[device] ?? 0
      currentDevice = device
    }
    currentFixes += 1
    odometer.add(location)
    if !render(location, odometer, devices.count > 1) {
      // Nobody reads the output any more (a closed pipe): end quietly.
      manager.stopUpdatingLocation()
      finished.signal()
    }
  }

  func locationManager(_ manager: LocationManager, didSetAside location: Location, because reason: ImplausibleFix) {
    guard verbose else { return }
    let time = location.timestamp?.description ?? location.timeOfDay.description
    printError("whereami: \(sourceName): fix of \(time) set aside: \(reason)")
  }

  func locationManager(_ manager: LocationManager, didRecognize movement: MovementEvent) {
    if let recognized, !recognized(movement) {
      manager.stopUpdatingLocation()
      finished.signal()
    }
  }

  /// The exit code for a final error: 77 denied, 66 not found, 64 invalid, 74 the rest.
  static func exitCode(for error: LocationError) -> ExitCode {
    exitCodes[error.code] ?? .ioError
  }

  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    if error.code == .sourceEnded {
      // A log that gave nothing says what it held instead.
      if fixes == 0, let source = manager.source as? NMEASource, source.statistics.fixesWithPosition == 0 {
        printError(
          "whereami: "
            + InputDiagnosis.noFix(in: sourceName, source.statistics, leadingBytes: source.leadingBytes))
        exitCode = .dataError
      }
      finished.signal()
      return
    }
    if error.isFinal || messages.shouldSay("\(error)") { printError("whereami: \(error)") }
    if !error.isFinal, troubleSince == nil { troubleSince = monotonicClock() }
    guard error.isFinal else { return }
    exitCode = Self.exitCode(for: error)
    finished.signal()
  }
}

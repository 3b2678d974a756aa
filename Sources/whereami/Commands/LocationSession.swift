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
  // @unchecked Sendable: every mutable property is touched only on the source's queue,
  // the manager's serial callback queue (the signal handlers run on it too).
  //
  // The properties read or written for every fix skip the runtime's exclusivity check
  // (`@exclusivity(unchecked)`: a call into the runtime per access, more than the work
  // beside it). Being on one serial queue, no two accesses overlap in time, and no access
  // spans a call that could begin another: the renderer is handed the odometer in place
  // (`inout`, below), and no renderer calls back into the session.

  private let source: SourceRun
  private var manager: LocationManager { source.manager }
  /// Shows a fix. The odometer is `inout` only so that it is not copied: it is a stored
  /// property of this class, and passing it by value copied all of it (2 KB, two dozen
  /// retains) for every fix. Renderers read it and do not change it.
  private let render: (Location, inout TrackOdometer, _ severalDevices: Bool, _ heading: Heading?) -> Bool
  /// Called with every heading, when headings are wanted.
  private let renderHeading: ((Heading, _ severalDevices: Bool) -> Bool)?
  /// Each device's latest heading, for the fix it goes with.
  @exclusivity(unchecked) private var headings: [String: Heading] = [:]
  private var headingCount = 0
  /// Whether headings are output (`print --json`, `--heading`, `--nmea`): a log whose
  /// headings are output gave something; otherwise its headings only go with the fix
  /// lines, and a compass's log without fixes gave nothing that was asked for.
  var outputsHeadings = true
  private let recognized: ((MovementEvent) -> Bool)?
  /// Called with every region event (a monitored region's state changed, or was asked for).
  private let regionEvent: ((RegionEvent, _ severalDevices: Bool) -> Bool)?
  /// One odometer per device ("" for a source that is one receiver): each gpsd device is
  /// its own track. In the order the devices first reported.
  private var odometers: [String: TrackOdometer] = [:]
  @exclusivity(unchecked) private var devices: [String] = []
  /// The device of the latest fix, and its odometer (kept out of `odometers` meanwhile).
  @exclusivity(unchecked) private var currentDevice = ""
  @exclusivity(unchecked) private var odometer = TrackOdometer()
  private var fixCounts: [String: Int] = [:]
  @exclusivity(unchecked) private var currentFixes = 0
  @exclusivity(unchecked) private var fixes = 0
  private var exitCode = ExitCode.success
  private var sourceName: String { source.name }
  private let verbose: Bool
  private var messages = RepeatedMessages()
  /// When the source last went from delivering to failing (monotonic seconds).
  @exclusivity(unchecked) private var troubleSince: Double?
  /// The devices said to have fallen silent while others report, and since when.
  private var silentDevices: [String: Double] = [:]
  /// Whether the first position without a time has been explained.
  private var saidUntimed = false
  /// Whether the first dated fix has been checked for a week-number rollover.
  private var checkedRollover = false
  /// The caveats of the model's declination said so far.
  private var saidCaveats: Set<String> = []

  /// A session over `source`, whose manager it becomes the delegate of.
  init(
    _ source: SourceRun, verbose: Bool, movement recognizer: MovementRecognizer? = nil,
    recognized: ((MovementEvent) -> Bool)? = nil,
    renderHeading: ((Heading, _ severalDevices: Bool) -> Bool)? = nil,
    regionEvent: ((RegionEvent, _ severalDevices: Bool) -> Bool)? = nil,
    render: @escaping (Location, inout TrackOdometer, _ severalDevices: Bool, _ heading: Heading?) -> Bool
  ) {
    self.source = source
    self.render = render
    self.renderHeading = renderHeading
    source.headings = renderHeading != nil
    self.recognized = recognized
    self.regionEvent = regionEvent
    self.verbose = verbose
    source.manager.movementRecognizer = recognizer
    source.manager.delegate = self
  }

  /// The manager's movement recognisers by device, as they stand (after ``run()``: at
  /// the end).
  var movementRecognizers: [String: MovementRecognizer] { manager.movementRecognizers }

  /// Runs until the end; returns the exit code. `starting` runs on the queue before
  /// updates start.
  func run(starting: () -> Void = {}) -> ExitCode {
    source.run(onSignal: { [self] _ in interrupted() }, starting: starting)
    return source.queue.sync { exitCode }
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
    return Self.summaryLine(
      tracks.map { device, odometer in (counts[device] ?? 0, device.isEmpty ? sourceName : device, odometer) },
      from: sourceName)
  }

  /// The summary line of each track, when a signal ends a command that follows a source
  /// (`print`, `watch`, ...): its fixes, where from, and its odometer's figures.
  static func summaryLine(_ tracks: [(fixes: Int, name: String, odometer: TrackOdometer)], from sourceName: String)
    -> String
  {
    guard !tracks.isEmpty else { return "whereami: 0 fixes from \(sourceName)" }
    return tracks.map { fixes, name, odometer in
      "whereami: \(fixes) fixes from \(name); "
        + "distance \(fixed(odometer.distance, 1)) m ±\(fixed(odometer.distanceError, 1)) m, "
        + "path \(fixed(odometer.pathLength, 1)) m, displacement \(fixed(odometer.displacement, 1)) m"
    }.joined(separator: "\n")
  }

  private func interrupted() {
    // One summary, however many signals come (timeout(1) sends two).
    guard source.finish() else { return }
    manager.stopUpdating()
    printError(summaryLine)
    if let line = datagramsLine { printError(line) }
  }

  /// For UDP: the datagrams the kernel dropped (always said when there were any), and
  /// the receive buffer (with `-v`).
  private var datagramsLine: String? {
    guard let source = manager.source as? NMEASource, let buffer = source.receiveBufferBytes else { return nil }
    let dropped = source.droppedDatagrams
    if dropped > 0 {
      return "whereami: \(sourceName): the kernel dropped \(dropped) datagrams that came faster than they were read "
        + "(receive buffer \(buffer) bytes)"
    }
    return verbose ? "whereami: \(sourceName): no datagram dropped (receive buffer \(buffer) bytes)" : nil
  }

  func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
    source.answered()
    if !silentDevices.isEmpty, let device = location.device, let since = silentDevices.removeValue(forKey: device) {
      let seconds = Int((SystemClock.monotonic() - since).rounded())
      printError("whereami: \(device): receiving again after \(seconds) s")
    }
    if let since = troubleSince {
      troubleSince = nil
      messages.received()
      // A live receiver that was lost, or never there, and now reports ("again" only if
      // it had); a log's cold start is not worth a line.
      let seconds = Int((SystemClock.monotonic() - since).rounded())
      if source.isLive, seconds >= 1 {
        printError("whereami: \(sourceName): receiving \(fixes > 0 ? "again " : "")after \(seconds) s")
      }
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
    if !checkedRollover, let time = location.timestamp {
      checkedRollover = true
      if let reference = WeekRolloverNotice.reference(for: source.address),
        let message = WeekRolloverNotice.message(time, source: sourceName, reference: reference)
      {
        printError(message)
      }
    }
    if !location.hasTime, !saidUntimed {
      saidUntimed = true
      printError(
        "whereami: \(sourceName): positions without a time (gpsd gives none until it knows the date): "
          + "shown with '-' for the time, not counted in the distance")
    }
    let sessions = odometer.sessions
    odometer.add(location)
    if odometer.sessions != sessions {
      printError(
        "whereami: \(sourceName): another session from \(Self.time(location)) (logs joined, a clock reset: the "
          + "time went back, or the date or the place jumped as no travel does), counted on its own from here")
    }
    // The device's latest heading goes with the fix when it is of the same second or newer.
    var heading = headings[device]
    if let time = heading?.timestamp, let fixTime = location.timestamp, time.seconds(since: fixTime) < -1 {
      heading = nil
    }
    if !render(location, &odometer, devices.count > 1, heading) {
      // Nobody reads the output any more (a closed pipe): end quietly.
      manager.stopUpdating()
      source.finish()
    }
  }

  func locationManager(_ manager: LocationManager, didUpdateSky sky: SkyView) {
    source.answered()
  }

  func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading) {
    source.answered()
    let device = heading.device ?? ""
    headingCount += 1
    if heading.direction != nil { headings[device] = heading }
    if let caveat = heading.declinationCaveat, saidCaveats.insert(caveat.rawValue).inserted {
      printError(DeclinationNotice.message(caveat, source: sourceName))
    }
    if let renderHeading, !renderHeading(heading, devices.count > 1) {
      manager.stopUpdating()
      source.finish()
    }
  }

  func locationManager(_ manager: LocationManager, didSetAside location: Location, because reason: ImplausibleFix) {
    guard verbose else { return }
    printError("whereami: \(sourceName): fix of \(Self.time(location)) set aside: \(reason)")
  }

  /// A fix's time for a message: its timestamp, or its time of day without a date.
  private static func time(_ location: Location) -> String {
    location.timestamp?.description ?? location.timeOfDay.description
  }

  func locationManager(_ manager: LocationManager, didRecognize movement: MovementEvent) {
    if let recognized, !recognized(movement) {
      manager.stopUpdating()
      source.finish()
    }
  }

  func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: Region, event: RegionEvent
  ) {
    if let regionEvent, !regionEvent(event, devices.count > 1) {
      manager.stopUpdating()
      source.finish()
    }
  }

  func locationManager(_ manager: LocationManager, monitoringDidFailFor region: Region?, withError error: LocationError)
  {
    printError("whereami: \(error)")
  }

  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    if let failure = source.unavailable(error) {
      printError("whereami: \(failure.message ?? "")")
      exitCode = failure.code
      source.finish()
      return
    }
    if error.code == .sourceEnded {
      // A log that gave nothing (not even headings, for a compass's log) says what it
      // held instead.
      if fixes == 0, headingCount == 0 || !outputsHeadings, let source = manager.source as? NMEASource,
        source.statistics.fixesWithPosition == 0
      {
        let hint = headingCount > 0 ? "; it holds \(headingCount) headings: print --heading shows them" : ""
        printError(
          "whereami: "
            + InputDiagnosis.noFix(in: sourceName, source.statistics, leadingBytes: source.leadingBytes) + hint)
        exitCode = .dataError
      }
      source.finish()
      return
    }
    if error.code == .headingUnknown {
      // The compass, not the receiver: locations go on.
      if messages.shouldSay("\(error)") { printError("whereami: \(error)") }
      return
    }
    if let device = error.device {
      // One device of several: the others go on.
      printError("whereami: \(error)")
      // Bounded as the manager's clocks are: the oldest of the devices that never came back go.
      if silentDevices.count >= 256, let oldest = silentDevices.min(by: { $0.value < $1.value })?.key {
        silentDevices[oldest] = nil
      }
      silentDevices[device] = SystemClock.monotonic()
      return
    }
    if error.isFinal || messages.shouldSay(error) { printError("whereami: \(error)") }
    if !error.isFinal, troubleSince == nil { troubleSince = SystemClock.monotonic() }
    guard error.isFinal else { return }
    exitCode = SourceRun.exitCode(for: error)
    source.finish()
  }
}

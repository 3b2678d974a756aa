import Dispatch
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// Delivers locations from a source to a delegate, in the style of Core Location's
/// `CLLocationManager`.
///
/// Creating a manager starts nothing. ``startUpdatingLocation()`` opens the source;
/// ``stopUpdatingLocation()`` closes it at once, and no callback comes after it returns.
/// Fixes worse than ``desiredAccuracy``, or closer than ``distanceFilter`` to the last
/// delivered location, are not delivered; nor are physically implausible ones (time going
/// backwards, a jump faster than 515 m/s: ``FixPlausibility``), which are reported apart. Errors tell ``LocationError/Code/denied``
/// (final: updates stop) from ``LocationError/Code/locationUnknown`` (transient: no fix
/// yet, fix lost, or no data for the watchdog period; updates resume by themselves).
///
/// Callbacks run on ``callbackQueue``, a serial queue (a private one unless given), one at
/// a time and in order. The same events are offered to Swift concurrency as ``updates``.
/// While updates run, the manager stays alive even without other references to it.
public final class LocationManager: Sendable {
  private struct State {
    weak var delegate: (any LocationManagerDelegate)?
    var filter = LocationFilter()
    var watchdogTimeout = 3.0
    var running = false
    var generation = 0
    var oneShot = false
    /// For a requested location: the most accurate fix ``desiredAccuracy`` left out, for
    /// the deadline.
    var bestLeftOut: Location?
    /// The last location delivered by an earlier run; this run's is the filter's last
    /// admitted one (kept once, not twice, per fix).
    var earlierLocation: Location?
    var unknownReported = false
    /// The devices whose lack of a fix has been said since their last location: each is
    /// said once per outage (with one flag for all, a receiver without a fix beside one
    /// with a fix was said every cycle).
    var noFixDevices: Set<String> = []
    var silenceReported = false
    var lastEvent = 0.0
    var lastCycle: Double?
    var cycleInterval: Double?
    var timers: [Timer] = []
    /// The recogniser as configured, and one running copy per device (key "" for a
    /// source that is one receiver): each device is its own track.
    var movementRecognizer: MovementRecognizer?
    var recognizers: [String: MovementRecognizer] = [:]
    var lastDevice = ""
    var plausibility: [String: FixPlausibility] = [:]
    var currentPlausibility = FixPlausibility()
    /// The source's byte count at the watchdog's last look after an event, to tell
    /// silence from garbage (looked at by the watchdog, not for every fix), and when that
    /// look was.
    var bytesAtLastEvent = 0
    var lastWatchdogLook = 0.0
    /// What the running source is for: locations, headings, or both.
    var wantsLocation = false
    var wantsHeading = false
    var headingFilter = 1.0
    var heading: Heading?
    /// When the last heading came (monotonic seconds), the average interval between
    /// headings, and whether their stop has been reported.
    var lastHeadingAt: Double?
    var headingInterval: Double?
    var headingUnknownReported = false
    /// For a source of several devices (gpsd's, a UDP port's senders): when each last
    /// reported, so that one falling silent while the others report is said.
    var deviceClocks: [String: DeviceClock] = [:]
    var deliveryPolicy = DeliveryPolicy.everyEvent
    /// The regions watched and their states per device; the regions stay across runs, the
    /// states start unknown with each.
    var regionMonitor = RegionMonitor()
    /// The regions said to be too small for the position's uncertainty, this run.
    var unresolvableRegions: Set<String> = []
    /// Circles to place about the next fix with a position and a time.
    var pendingCircles: [(identifier: String, radius: Double)] = []
    /// Counts the changes of regions' states, so that one the watchdog made is not
    /// delivered after a fix has decided again (its thread and the source's race).
    var regionEpoch = 0
    /// Counts the stops of location updates, so that the location callbacks queued
    /// before one (heading updates going on) are not delivered after it.
    var locationEpoch = 0
  }

  /// What the manager does when its delegate, or an ``updates`` consumer, falls behind
  /// the source.
  public enum DeliveryPolicy: Sendable, Equatable {
    /// Every event, in order: once 64 wait for the consumer, the source is held back until
    /// it catches up, so nothing is lost and memory stays bounded, and a live source's
    /// positions grow old meanwhile. The default; right for logs, replays and recordings.
    case everyEvent
    /// The newest location: the source is never held back by locations. While the
    /// delegate is busy, the newest location of each device waits, and a newer one takes
    /// its place (counted in ``skippedLocations``); so do the newest sky view and heading.
    /// Errors, movement events and set-aside fixes are never replaced, and keep their
    /// order with the rest. The manager's plausibility check and movement recogniser still
    /// see every location; an update's `previous` is the last location admitted, which
    /// the delegate may not have had. An ``updates`` sequence still holds up to 64 events
    /// in order. For a live source whose consumer shows where the receiver is now.
    case newestLocation
  }

  /// When a device last reported, how often it does, and whether its silence was said.
  private struct DeviceClock {
    var lastEvent: Double
    var interval: Double?
    var silenceReported = false
    /// Whether the source as a whole was silent or held back since the device's last
    /// report: the interval across it is not the device's.
    var restarted = false
  }

  /// The source as a whole was silent or held back: each device's clock starts afresh.
  private static func restartDeviceClocks(_ state: inout State, _ now: Double) {
    for device in Array(state.deviceClocks.keys) {
      state.deviceClocks[device]?.lastEvent = now
      state.deviceClocks[device]?.restarted = true
    }
  }

  /// The most devices whose silence is watched; beyond, the one heard least recently is
  /// forgotten (a UDP port sprayed from many addresses stays bounded).
  static let watchedDevices = 256

  /// How many devices the manager keeps a plausibility check and a movement recogniser
  /// of; for tests.
  var devicesKept: (plausibility: Int, recognizers: Int) {
    state.withLock { ($0.plausibility.count, $0.recognizers.count) }
  }

  /// Where the locations come from.
  public let source: any LocationSource
  /// The serial queue callbacks run on. A block of your own queued on it runs after the
  /// callbacks of every event handed over before it; events that come meanwhile may run
  /// before it too (those not yet begun run together, in one block).
  public let callbackQueue: DispatchQueue
  private let state = Locked(State())
  private let timerQueue = DispatchQueue(label: "whereami.location-manager.timers")
  /// The delegate's queue and the sequences: a source that produces faster than they
  /// consume (a log file read at full speed into a slow pipe) waits there, so memory stays
  /// bounded; a stop releases the wait. While it waits, the watchdog keeps quiet.
  private let channel: EventChannel<LocationEvent>

  /// Creates a manager for `source`; callbacks run on `callbackQueue` (default: a private
  /// serial queue).
  public init(source: any LocationSource, callbackQueue: DispatchQueue? = nil) {
    self.source = source
    channel = EventChannel(
      queue: callbackQueue, label: "whereami.location-manager.callbacks", capacity: Self.updatesBuffer)
    self.callbackQueue = channel.queue
  }

  /// What to do when the delegate or an ``updates`` consumer falls behind the source
  /// (``DeliveryPolicy/everyEvent`` unless set); read when each event is delivered.
  public var deliveryPolicy: DeliveryPolicy {
    get { state.withLock { $0.deliveryPolicy } }
    set { state.withLock { $0.deliveryPolicy = newValue } }
  }

  /// The locations a newer one replaced before the delegate had them, under
  /// ``DeliveryPolicy/newestLocation``; 0 under ``DeliveryPolicy/everyEvent``.
  public var skippedLocations: Int { channel.replaced(kind: "update") }

  /// Receives updates and errors; held weakly, as in Core Location.
  public var delegate: (any LocationManagerDelegate)? {
    get { state.withLock { $0.delegate } }
    set { state.withLock { $0.delegate = newValue } }
  }

  /// The worst horizontal accuracy, in metres, of a location worth delivering; see
  /// ``LocationAccuracy``. A fix of unknown accuracy passes only ``LocationAccuracy/best``.
  public var desiredAccuracy: Double {
    get { state.withLock { $0.filter.desiredAccuracy } }
    set { state.withLock { $0.filter.desiredAccuracy = newValue } }
  }

  /// The geodesic distance in metres a location must be from the last delivered one to be
  /// delivered; ``LocationDistance/none`` (the default) delivers every fix.
  public var distanceFilter: Double {
    get { state.withLock { $0.filter.distanceFilter } }
    set { state.withLock { $0.filter.distanceFilter = newValue } }
  }

  /// Seconds without any data after which ``LocationError/Code/locationUnknown`` is
  /// reported: 3 by default, or three of the receiver's observed cycles when longer.
  public var watchdogTimeout: Double {
    get { state.withLock { $0.watchdogTimeout } }
    set { state.withLock { $0.watchdogTimeout = newValue } }
  }

  /// Recognises trips and stops in the source's fixes and reports each transition to
  /// ``LocationManagerDelegate/locationManager(_:didRecognize:)`` and as
  /// ``LocationEvent/movement(_:)``; `nil` (the default) recognises none. It sees every fix
  /// with a position, before ``desiredAccuracy`` and ``distanceFilter`` (which would
  /// otherwise hide a standstill), starts afresh with each start of updates, and ends a
  /// trip under way when the source ends. Reading it gives its current state.
  public var movementRecognizer: MovementRecognizer? {
    get { state.withLock { $0.recognizers[$0.lastDevice] ?? $0.movementRecognizer } }
    set {
      state.withLock {
        $0.movementRecognizer = newValue
        $0.recognizers = [:]
      }
    }
  }

  /// The running recognisers by device (`""` for a source that is one receiver): a
  /// source with several devices (gpsd) has one per device, each its own track.
  public var movementRecognizers: [String: MovementRecognizer] { state.withLock { $0.recognizers } }

  /// The regions being monitored (``startMonitoring(for:)``), in the order they were
  /// added; a circle of ``startMonitoringCircle(identifier:radius:)`` once its fix has
  /// placed it. They stay monitored across stops and starts of updates; each start
  /// determines their states afresh.
  public var monitoredRegions: [Region] { state.withLock { $0.regionMonitor.regions } }

  /// Starts telling when the receiver enters and leaves `region`
  /// (``LocationManagerDelegate/locationManager(_:didEnterRegion:event:)``,
  /// ``LocationManagerDelegate/locationManager(_:didExitRegion:event:)``, and each change of
  /// state to ``LocationManagerDelegate/locationManager(_:didDetermineState:for:event:)``; the
  /// same as ``LocationEvent/region(_:)``), while updates run. A region of the same
  /// identifier is replaced. Its state is ``RegionState/unknown`` until the fixes decide; a
  /// region smaller than the position's uncertainty can resolve stays unknown, and is
  /// reported once per run to
  /// ``LocationManagerDelegate/locationManager(_:monitoringDidFailFor:withError:)`` as
  /// ``LocationError/Code/locationUnknown``. Every region sees every fix with a position
  /// and a time, before ``desiredAccuracy`` and ``distanceFilter``.
  public func startMonitoring(for region: Region) {
    guard !region.identifier.isEmpty else {
      deliverAsked(.regionFailure(region, LocationError(.invalidSource, "a region needs an identifier")), key: "")
      return
    }
    state.withLock { state in
      state.pendingCircles.removeAll { $0.identifier == region.identifier }
      state.regionMonitor.add(region)
    }
  }

  /// Starts monitoring a circle of `radius` metres about where the receiver is at the next
  /// fix with a position and a time, named `identifier`: an anchor watch, or "tell me when
  /// I have left here". The circle is placed while that fix is handled, before the regions
  /// see it, so that no fix escapes it; from then on it is a monitored region like any
  /// other (``monitoredRegions``, events whose ``RegionEvent/region`` has the centre). A
  /// region of the same identifier is replaced. Throws ``LocationError/Code/invalidSource``
  /// for a radius that is not positive and finite, or an empty identifier.
  public func startMonitoringCircle(identifier: String, radius: Double) throws(LocationError) {
    guard !identifier.isEmpty else { throw LocationError(.invalidSource, "a region needs an identifier") }
    _ = try Region(identifier: identifier, latitude: 0, longitude: 0, radius: radius)
    state.withLock { state in
      state.regionMonitor.remove(identifier: identifier)
      state.pendingCircles.removeAll { $0.identifier == identifier }
      state.pendingCircles.append((identifier, radius))
    }
  }

  /// Stops monitoring the region with `region`'s identifier.
  public func stopMonitoring(for region: Region) {
    state.withLock { state in
      state.regionMonitor.remove(identifier: region.identifier)
      state.pendingCircles.removeAll { $0.identifier == region.identifier }
      state.unresolvableRegions.remove(region.identifier)
    }
  }

  /// Asks for `region`'s state now: the delegate hears it as
  /// ``LocationManagerDelegate/locationManager(_:didDetermineState:for:event:)`` (and
  /// ``updates`` as ``LocationEvent/region(_:)``), with ``RegionEvent/isRequested`` set, once
  /// per device heard (once, unknown, before any fix), also while updates are stopped. A
  /// region not monitored is reported to
  /// ``LocationManagerDelegate/locationManager(_:monitoringDidFailFor:withError:)`` as
  /// ``LocationError/Code/invalidSource``. It may be called from a callback: the answer
  /// comes after it, never waiting for the queue.
  public func requestState(for region: Region) {
    let events: [(LocationEvent, String)] = state.withLock { state in
      guard let monitored = state.regionMonitor.regions.first(where: { $0.identifier == region.identifier }) else {
        let error = LocationError(.invalidSource, "region \(region.identifier) is not monitored")
        return [(.regionFailure(region, error), region.identifier)]
      }
      let devices = state.regionMonitor.devicesHeard
      if devices.isEmpty { return [(.region(state.regionMonitor.state(of: monitored)), monitored.identifier)] }
      return devices.map {
        (.region(state.regionMonitor.state(of: monitored, device: $0)), monitored.identifier + " " + $0)
      }
    }
    for (event, key) in events { deliverAsked(event, key: key) }
  }

  /// An event a call asked for (a state requested, a region refused): it never waits for
  /// the queue, since the call may come from a callback, which holds the queue; a newer one
  /// of the same `key` replaces it while it waits. During a run it is that run's, as the
  /// source's events are; while stopped, the delegate has it.
  private func deliverAsked(_ event: LocationEvent, key: String) {
    let generation = state.withLock { $0.running ? $0.generation : nil }
    channel.deliver(
      event, replacing: "asked " + key,
      isCurrent: { [self] in generation.map { generation in state.withLock { $0.generation == generation } } ?? true }
    ) { [self] event in tell(event) }
  }

  /// How many fixes this run of updates has set aside as physically implausible, by
  /// reason (see ``FixPlausibility``).
  public var implausibleFixes: [ImplausibleFix: Int] {
    state.withLock { state in
      (Array(state.plausibility.values) + [state.currentPlausibility]).reduce(into: [:]) { total, check in
        total.merge(check.counts, uniquingKeysWith: +)
      }
    }
  }

  /// The last location delivered.
  public var location: Location? { state.withLock { $0.filter.lastAdmitted ?? $0.earlierLocation } }

  /// The least change of heading, degrees, worth delivering: a heading closer than this to
  /// the last delivered one is not delivered. 1° by default, as in Core Location;
  /// ``HeadingFilter/none`` delivers every reading. Readings without a heading (an attitude
  /// or a rate of turn alone) are always delivered.
  public var headingFilter: Double {
    get { state.withLock { $0.headingFilter } }
    set { state.withLock { $0.headingFilter = newValue } }
  }

  /// The last heading delivered.
  public var heading: Heading? { state.withLock { $0.heading } }

  /// Whether heading updates are on.
  public var isUpdatingHeading: Bool { state.withLock { $0.running && $0.wantsHeading } }

  /// Whether updates are running.
  public var isUpdating: Bool { state.withLock { $0.running } }

  /// The manager's events as an asynchronous sequence. Each access makes a new sequence
  /// that sees the events from then on; it ends when updates stop. A consumer that falls
  /// behind holds the source back once ``updatesBuffer`` events wait for it, as a slow
  /// delegate does: no event is dropped, and memory stays bounded.
  public var updates: AsyncStream<LocationEvent> { channel.makeStream() }

  /// Starts delivering locations. Does nothing while already running, but for a
  /// ``requestLocation(timeout:)`` pending: its location is then the first update, and
  /// updates go on.
  public func startUpdatingLocation() {
    start(location: true, heading: false)
  }

  /// Starts delivering headings (``LocationManagerDelegate/locationManager(_:didUpdateHeading:)``,
  /// ``LocationEvent/heading(_:)``), apart from locations: the source runs while either is
  /// on. A heading sensor that stops sending is reported as
  /// ``LocationError/Code/headingUnknown``, and location updates go on.
  public func startUpdatingHeading() {
    start(location: false, heading: true)
  }

  /// Starts location updates, heading updates or both at once, so that neither misses the
  /// source's first reports (starting one and then the other could).
  public func startUpdating(location: Bool, heading: Bool) {
    if location || heading { start(location: location, heading: heading) }
  }

  /// Stops heading updates; the source stops too unless location updates run.
  public func stopUpdatingHeading() {
    let stopsAll = state.withLock { state in
      state.wantsHeading = false
      return !state.wantsLocation
    }
    if stopsAll { stopUpdating() }
  }

  /// Delivers one location that passes the filters, then stops by itself. When none comes
  /// within `timeout` seconds, it delivers the most accurate one it had all the same (as
  /// Core Location does: compare its ``Location/horizontalAccuracy`` with
  /// ``desiredAccuracy`` to tell), or, without any, reports
  /// ``LocationError/Code/locationUnknown`` as a final error; either way it stops. A
  /// source that ends first gives the best it had before its end.
  ///
  /// During continuous location updates it changes nothing: the next update is the
  /// location asked for, and updates go on. During heading updates alone it asks for one
  /// location beside them, with its deadline; headings go on after it (and the error at
  /// the deadline is then not final).
  public func requestLocation(timeout: Double = 10) {
    start(oneShot: true, timeout: timeout)
  }

  /// Starts continuous updates of locations, headings or both (``start(oneShot:timeout:)``).
  private func start(location: Bool, heading: Bool) {
    start(oneShot: false, timeout: nil, location: location, heading: heading)
  }

  /// Stops location updates and, unless heading updates run, releases the source (file,
  /// device or socket closed, reading thread ended). Without heading updates, no callback
  /// comes after this returns. Beside them, no location callback starts after it returns
  /// (no location, sky view, set-aside fix, movement, region event or
  /// ``LocationError/Code/locationUnknown``); headings and the source's other errors go
  /// on, and a location callback already running on another thread may still finish
  /// (waiting for it could wait for ever on a consumer that is the caller).
  public func stopUpdatingLocation() {
    let stopsAll = state.withLock { state in
      state.wantsLocation = false
      state.locationEpoch += 1
      // A request pending beside heading updates is cancelled with them: its deadline
      // finds nothing to answer.
      state.oneShot = false
      return !state.wantsHeading
    }
    // Beside headings, the location callbacks queued see the new epoch.
    if stopsAll { stopUpdating() }
  }

  /// Stops location and heading updates and releases the source. No callback comes after
  /// this returns.
  public func stopUpdating() {
    state.withLock { state in
      state.wantsLocation = false
      state.wantsHeading = false
      Self.markStopped(&state)
      state.generation += 1
    }
    // Also when updates had already ended by themselves (a final error, a requested
    // location): the source stopped itself from its own thread then, and this waits for
    // that thread to be gone, as the doc promises.
    source.stop()
    channel.finishStreams()
    // Wait for a callback in progress elsewhere; queued ones see the new generation.
    channel.drain()
  }

  // MARK: Internals

  /// Starts the source for the updates asked for (`oneShot`: one location, which also
  /// asks for locations), or joins the run under way: continuous location updates take
  /// over a pending request, a request during them changes nothing, and a request during
  /// heading updates alone gets its own deadline and a fresh filter.
  private func start(oneShot: Bool, timeout: Double?, location: Bool = false, heading: Bool = false) {
    let (generation, joinedRequest): (Int?, Int?) = state.withLock { state in
      let wantedLocations = state.wantsLocation
      if location || oneShot { state.wantsLocation = true }
      if heading { state.wantsHeading = true }
      if state.running {
        // Locations wanted again beside headings: the devices' fixes were not followed
        // meanwhile, and their silence counts from now.
        if (location || oneShot) && !wantedLocations {
          Self.restartDeviceClocks(&state, SystemClock.monotonic())
        }
        // Continuous location updates: a request pending is answered by the first.
        if location { state.oneShot = false }
        // A request joins the run only where it delivers no locations yet (headings alone).
        guard oneShot, !wantedLocations else { return (nil, nil) }
        state.oneShot = true
        Self.freshRequest(&state)
        return (nil, state.generation)
      }
      state.running = true
      state.generation += 1
      state.oneShot = oneShot
      Self.freshRequest(&state)
      state.unknownReported = false
      state.noFixDevices = []
      state.silenceReported = false
      state.lastEvent = SystemClock.monotonic()
      state.lastCycle = nil
      state.cycleInterval = nil
      state.lastWatchdogLook = 0
      state.plausibility = [:]
      state.currentPlausibility = FixPlausibility()
      state.lastDevice = ""
      state.recognizers = [:]
      state.lastHeadingAt = nil
      state.headingInterval = nil
      state.headingUnknownReported = false
      state.deviceClocks = [:]
      state.regionMonitor.forgetStates()
      state.unresolvableRegions = []
      // The heading filter measures from the first heading of this run.
      state.heading = nil
      return (state.generation, nil)
    }
    if let joinedRequest, let timeout { startDeadline(timeout, joinedRequest) }
    guard let generation else { return }
    startWatchdog(generation)
    if let timeout { startDeadline(timeout, generation) }
    // Strong captures here and in the timers: a running manager keeps itself alive, as the
    // source and the timers hold it until updates stop (stopping releases them).
    source.start { [self] event in handle(event, generation) }
  }

  private func handle(_ event: SourceEvent, _ generation: Int) {
    let now = SystemClock.monotonic()
    let outcome: (events: EventList, final: Bool, locationEpoch: Int)? = state.withLock { state in
      guard state.running, state.generation == generation else { return nil }
      // After the whole source was silent (gpsd restarted, the network down), each device
      // starts afresh: the first to report does not make the others silent.
      if !state.deviceClocks.isEmpty,
        now - state.lastEvent > max(state.watchdogTimeout, 3 * (state.cycleInterval ?? 0))
      {
        Self.restartDeviceClocks(&state, now)
      }
      // A compass's headings do not say that positions still come (a boat's multiplexer
      // whose GPS fell silent while its compass goes on): while locations are wanted,
      // only the source's other reports count as not silent.
      var isHeading = false
      if case .heading = event { isHeading = true }
      if !isHeading || !state.wantsLocation {
        state.lastEvent = now
        state.silenceReported = false
      }
      var events = EventList()
      var final = false
      switch event {
      case .location where !state.wantsLocation, .noFix where !state.wantsLocation:
        noteCycle(&state, now)
      case .heading(let heading):
        Self.noteHeading(&state, now)
        guard state.wantsHeading else { break }
        if let direction = heading.direction, let last = state.heading?.direction, state.headingFilter > 0,
          HeadingMath.difference(direction, last) < state.headingFilter
        {
          break
        }
        if heading.direction != nil || state.heading == nil { state.heading = heading }
        events.append(.heading(heading))
      case .location(let location):
        noteCycle(&state, now)
        state.unknownReported = false
        let device = location.device ?? ""
        if !state.noFixDevices.isEmpty { state.noFixDevices.remove(device) }
        if !device.isEmpty { Self.noteDevice(device, &state, now) }
        if device != state.lastDevice {
          // Each device its own check; the current one's stays out of the dictionary, and
          // goes back in unless the device was forgotten meanwhile (``noteDevice``: with
          // clocks equal to the tick, the one forgotten may be the last one heard).
          if state.lastDevice.isEmpty || state.deviceClocks[state.lastDevice] != nil {
            state.plausibility[state.lastDevice] = state.currentPlausibility
          }
          state.currentPlausibility = state.plausibility.removeValue(forKey: device) ?? FixPlausibility()
          state.lastDevice = device
        }
        if let reason = state.currentPlausibility.check(location) {
          events.append(.setAside(location, reason))
          break
        }
        var movement: MovementEvent?
        // Its settings read in place: binding the template would copy all of it (its
        // odometer and locations, kilobytes) at every fix.
        if let stopDuration = state.movementRecognizer?.stopDuration,
          let minimumDistance = state.movementRecognizer?.minimumDistance
        {
          movement = state.recognizers[
            device, default: MovementRecognizer(stopDuration: stopDuration, minimumDistance: minimumDistance)
          ].add(location)
        }
        if let update = Self.filtered(location, &state) {
          events.append(update)
          if state.oneShot {
            // A requested location ends location updates; heading updates go on, and
            // the request is over (a later start is continuous).
            if state.wantsHeading {
              state.wantsLocation = false
              state.oneShot = false
            } else {
              final = true
            }
          }
        } else if state.oneShot, Self.isMoreAccurate(location, than: state.bestLeftOut) {
          state.bestLeftOut = location
        }
        if let movement { events.append(.movement(movement)) }
        if !state.pendingCircles.isEmpty, location.hasTime {
          for circle in state.pendingCircles {
            // Checked when asked for: the radius is valid.
            if let region = try? Region(
              identifier: circle.identifier, latitude: location.latitude, longitude: location.longitude,
              radius: circle.radius)
            {
              state.regionMonitor.add(region)
            }
          }
          state.pendingCircles = []
        }
        if !state.regionMonitor.regions.isEmpty {
          let changes = state.regionMonitor.add(location)
          if !changes.isEmpty { state.regionEpoch += 1 }
          for event in changes { events.append(.region(event)) }
          Self.noteUnresolvable(device: device, &events, &state)
        }
      case .noFix(let sky):
        noteCycle(&state, now)
        if let device = sky.device, !device.isEmpty { Self.noteDevice(device, &state, now) }
        events.append(.sky(sky))
        let lost = state.regionMonitor.lose(device: sky.device ?? "")
        if !lost.isEmpty { state.regionEpoch += 1 }
        for event in lost { events.append(.region(event)) }
        let device = sky.device ?? ""
        if !state.unknownReported, state.noFixDevices.insert(device).inserted {
          // With several devices, which one.
          let which = !device.isEmpty && state.deviceClocks.count > 1 ? " from \(device)" : ""
          events.append(.failure(LocationError(.locationUnknown, "\(source.name): no fix\(which)")))
        }
      case .error(let error):
        // The source has said why it is silent (a receiver not plugged in yet, a peer
        // that refuses or went away): the watchdog's "no data" would only repeat it.
        if error.device == nil, error.code == .locationUnknown || error.code == .cannotConnect {
          state.silenceReported = true
        }
        if error.code == .locationUnknown {
          state.unknownReported = true
          let lost = state.regionMonitor.lose(device: error.device)
          if !lost.isEmpty { state.regionEpoch += 1 }
          for event in lost { events.append(.region(event)) }
        }
        // A requested location that never met the accuracy: the best there was, before
        // the end is said (as at the deadline).
        if error.code == .sourceEnded, state.oneShot, state.filter.lastAdmitted == nil, let best = state.bestLeftOut {
          state.bestLeftOut = nil
          // The last location delivered, as ``location`` says.
          state.earlierLocation = best
          events.append(.update(best, previous: nil))
        }
        // The end of a log ends a trip under way with it.
        if error.code == .sourceEnded {
          for device in state.recognizers.keys.sorted() {
            if let movement = state.recognizers[device]?.finish() { events.append(.movement(movement)) }
          }
        }
        events.append(.failure(error))
        final = error.isFinal
      }
      guard !events.isEmpty else { return nil }
      // Updates are over before the last callback runs, so that the delegate sees
      // `isUpdating` false when it gets a final error or a requested location.
      if final { Self.markStopped(&state) }
      return (events, final, state.locationEpoch)
    }
    guard let outcome else { return }
    // The source stops before anyone hears of the end: a delegate that starts again on
    // a final error finds it stopped and ready (stopped after, it would end the new run).
    if outcome.final { source.stop() }
    outcome.events.forEach { deliver($0, generation, locationEpoch: outcome.locationEpoch) }
    if outcome.final { finishStreamsAfterQueued(generation) }
  }

  /// The events one source event gives, in order: nearly always one or two, kept inline
  /// (an array per fix was an allocation per fix).
  private struct EventList {
    private var first: LocationEvent?
    private var second: LocationEvent?
    private var more: [LocationEvent] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ event: LocationEvent) {
      if first == nil {
        first = event
      } else if second == nil {
        second = event
      } else {
        more.append(event)
      }
    }

    func forEach(_ body: (LocationEvent) -> Void) {
      if let first { body(first) }
      if let second { body(second) }
      more.forEach(body)
    }
  }

  /// The update for `location`, unless ``desiredAccuracy`` or ``distanceFilter`` leaves
  /// it out.
  private static func filtered(_ location: Location, _ state: inout State) -> LocationEvent? {
    var previous: Location?
    guard state.filter.admit(location, previous: &previous) else { return nil }
    return .update(location, previous: previous)
  }

  /// Whether `location` is at least as accurate as `other` (a newer one wins a tie; one
  /// without an accuracy loses to any with one).
  private static func isMoreAccurate(_ location: Location, than other: Location?) -> Bool {
    guard let other else { return true }
    guard let accuracy = location.horizontalAccuracy else { return other.horizontalAccuracy == nil }
    return other.horizontalAccuracy.map { accuracy <= $0 } ?? true
  }

  /// What a start of location updates begins afresh: no best fix left out yet, and the
  /// filter measuring from the next fix (the last one admitted stays ``location``).
  private static func freshRequest(_ state: inout State) {
    state.bestLeftOut = nil
    if let last = state.filter.lastAdmitted { state.earlierLocation = last }
    state.filter.reset()
  }

  private static func markStopped(_ state: inout State) {
    state.running = false
    // What the next start asks for is its own: a heading-only start after a final error
    // delivers no locations.
    state.wantsLocation = false
    state.wantsHeading = false
    state.timers.forEach { $0.cancel() }
    state.timers = []
  }

  private static func noteHeading(_ state: inout State, _ now: Double) {
    if let last = state.lastHeadingAt {
      let interval = now - last
      state.headingInterval = state.headingInterval.map { 0.8 * $0 + 0.2 * interval } ?? interval
    }
    state.lastHeadingAt = now
    state.headingUnknownReported = false
  }

  private static func noteDevice(_ device: String, _ state: inout State, _ now: Double) {
    guard var clock = state.deviceClocks[device] else {
      if state.deviceClocks.count >= Self.watchedDevices,
        let oldest = state.deviceClocks.min(by: { $0.value.lastEvent < $1.value.lastEvent })?.key
      {
        // Forgotten whole: its plausibility check and its trip under way too (kilobytes
        // each), which had grown by one for every address that ever sent.
        state.deviceClocks[oldest] = nil
        state.plausibility[oldest] = nil
        state.recognizers[oldest] = nil
        state.noFixDevices.remove(oldest)
      }
      state.deviceClocks[device] = DeviceClock(lastEvent: now)
      return
    }
    let interval = now - clock.lastEvent
    // An interval across a reported silence is the outage, not the device's rate.
    if !clock.silenceReported && !clock.restarted {
      clock.interval = clock.interval.map { 0.8 * $0 + 0.2 * interval } ?? interval
    }
    clock.lastEvent = now
    clock.silenceReported = false
    clock.restarted = false
    state.deviceClocks[device] = clock
  }

  /// The devices fallen silent while the source as a whole goes on reporting (its own
  /// silence is said once for all of them), each with its timeout: no report for three of
  /// its intervals, and at least ``watchdogTimeout``. Each is said once per outage.
  private static func silentDevices(_ state: inout State, _ now: Double) -> [(device: String, timeout: Double)] {
    guard state.deviceClocks.count > 1,
      now - state.lastEvent <= max(state.watchdogTimeout, 3 * (state.cycleInterval ?? 0))
    else { return [] }
    var silent: [(device: String, timeout: Double)] = []
    for (device, clock) in state.deviceClocks where !clock.silenceReported {
      let timeout = max(state.watchdogTimeout, 3 * (clock.interval ?? 0))
      if now - clock.lastEvent > timeout {
        state.deviceClocks[device]?.silenceReported = true
        silent.append((device, timeout))
      }
    }
    return silent.sorted { $0.device < $1.device }
  }

  private func noteCycle(_ state: inout State, _ now: Double) {
    if let last = state.lastCycle {
      let interval = now - last
      state.cycleInterval = state.cycleInterval.map { 0.8 * $0 + 0.2 * interval } ?? interval
    }
    state.lastCycle = now
  }

  /// Updates ended without the user asking (a requested location delivered, a final
  /// error), and the source was stopped: the callbacks already queued still run; then
  /// the asynchronous sequences end.
  private func finishStreamsAfterQueued(_ generation: Int) {
    channel.async { [self] in
      // Unless updates were started again meanwhile: those are the new run's sequences.
      if state.withLock({ $0.generation == generation }) { channel.finishStreams() }
    }
  }

  /// `seconds` to a tenth, for a message: "3", "1.5".
  static func tenths(_ seconds: Double) -> String {
    let tenths = (seconds * 10).rounded()
    return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
  }

  /// The watchdog's region states made unknown by a silence (`device` `nil`: the whole
  /// source's), delivered unless a fix has changed a state since: a fix handled on the
  /// source's thread meanwhile may deliver first, and a stale unknown after it would stay.
  private func deliverLoss(device: String?, _ generation: Int, locationEpoch: Int) {
    let (lost, epoch): ([RegionEvent], Int) = state.withLock { state in
      let lost = state.regionMonitor.lose(device: device)
      if !lost.isEmpty { state.regionEpoch += 1 }
      return (lost, state.regionEpoch)
    }
    for event in lost {
      deliver(.region(event), generation, locationEpoch: locationEpoch, stillValid: { $0.regionEpoch == epoch })
    }
  }

  /// Queues `event` of the run `generation` for the delegate and the sequences. It is
  /// dropped if, by its turn, that run is over, `stillValid` no longer holds, or (unless
  /// heading updates still want it) location updates were stopped since `locationEpoch`,
  /// the epoch of the lock that decided it (by default, the epoch now).
  private func deliver(
    _ event: LocationEvent, _ generation: Int, locationEpoch: Int? = nil,
    stillValid: (@Sendable (State) -> Bool)? = nil
  ) {
    var key: String?
    let (policy, currentEpoch) = state.withLock { ($0.deliveryPolicy, $0.locationEpoch) }
    let epoch = locationEpoch ?? currentEpoch
    // What heading updates beside location updates still want: headings, and errors
    // other than a position's (the source ended, cannot connect, heading unknown).
    let outlivesLocationUpdates: Bool
    switch event {
    case .heading: outlivesLocationUpdates = true
    case .failure(let error): outlivesLocationUpdates = error.code != .locationUnknown
    default: outlivesLocationUpdates = false
    }
    if policy == .newestLocation {
      switch event {
      case .update(let location, _): key = "update " + (location.device ?? "")
      case .sky(let sky): key = "sky " + (sky.device ?? "")
      case .heading(let heading): key = "heading " + (heading.device ?? "")
      case .failure, .movement, .setAside, .region, .regionFailure: key = nil
      }
    }
    channel.deliver(
      event, replacing: key,
      isCurrent: { [self] in
        state.withLock {
          $0.generation == generation && (outlivesLocationUpdates || $0.locationEpoch == epoch)
            && stillValid?($0) != false
        }
      },
      waited: { [self] in
        state.withLock { state in
          // The source starts afresh: neither the wait nor the interval across it counts.
          let now = SystemClock.monotonic()
          state.lastEvent = now
          state.lastCycle = nil
          Self.restartDeviceClocks(&state, now)
        }
      }
    ) { [self] event in tell(event) }
  }

  /// Calls the delegate with `event`. On the callback queue.
  private func tell(_ event: LocationEvent) {
    let delegate = state.withLock { $0.delegate }
    switch event {
    case .update(let location, let previous):
      delegate?.locationManager(self, didUpdate: location, previous: previous)
    case .failure(let error):
      delegate?.locationManager(self, didFailWithError: error)
    case .movement(let movement):
      delegate?.locationManager(self, didRecognize: movement)
    case .setAside(let location, let reason):
      delegate?.locationManager(self, didSetAside: location, because: reason)
    case .sky(let sky):
      delegate?.locationManager(self, didUpdateSky: sky)
    case .heading(let heading):
      delegate?.locationManager(self, didUpdateHeading: heading)
    case .region(let regionEvent):
      Self.tell(regionEvent, to: delegate, of: self)
    case .regionFailure(let region, let error):
      delegate?.locationManager(self, monitoringDidFailFor: region, withError: error)
    }
  }

  /// A region event to the delegate: its state, and the crossing it completes.
  private static func tell(
    _ event: RegionEvent, to delegate: (any LocationManagerDelegate)?, of manager: LocationManager
  ) {
    guard let delegate else { return }
    delegate.locationManager(manager, didDetermineState: event.state, for: event.region, event: event)
    switch event.transition {
    case .entered: delegate.locationManager(manager, didEnterRegion: event.region, event: event)
    case .exited: delegate.locationManager(manager, didExitRegion: event.region, event: event)
    case nil: break
    }
  }

  /// Reports, once per region and run, a region smaller than the position's uncertainty
  /// can resolve.
  private static func noteUnresolvable(device: String, _ events: inout EventList, _ state: inout State) {
    guard let threshold = state.regionMonitor.threshold(device: device) else { return }
    for region in state.regionMonitor.regions
    where threshold >= region.resolutionRadius && state.unresolvableRegions.insert(region.identifier).inserted {
      let error = LocationError(
        .locationUnknown,
        "region \(region.identifier): the position's uncertainty (\(tenths(threshold)) m at "
          + "\(Int(RegionMonitor.confidence * 100)) %) is larger than the region (\(tenths(region.resolutionRadius)) m)"
      )
      events.append(.regionFailure(region, error))
    }
  }

  /// Whether deliveries wait for a delegate or an ``updates`` consumer to catch up (the
  /// source is held back meanwhile); for tests.
  var isHoldingBackSource: Bool { channel.isHoldingBack }

  /// The events an ``updates`` sequence holds for a consumer that has not taken them yet.
  public static let updatesBuffer = 64

  private func startWatchdog(_ generation: Int) {
    let timer = DispatchSource.makeTimerSource(queue: timerQueue)
    timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
    timer.setEventHandler { [self] in
      let bytes = source.receivedBytes
      let holdingBack = channel.isHoldingBack
      let report: (timeout: Double, garbage: Bool, headingsGoOn: Bool, locationEpoch: Int)? = state.withLock {
        state in
        let now = SystemClock.monotonic()
        if state.lastEvent >= state.lastWatchdogLook { state.bytesAtLastEvent = bytes }
        state.lastWatchdogLook = now
        // Locations wanted: a heading-only run has the heading watchdog below.
        guard state.running, state.generation == generation, state.wantsLocation, !state.silenceReported,
          !holdingBack
        else { return nil }
        let timeout = max(state.watchdogTimeout, 3 * (state.cycleInterval ?? 0))
        guard now - state.lastEvent > timeout else { return nil }
        state.silenceReported = true
        state.unknownReported = true
        let headingsGoOn = state.lastHeadingAt.map { $0 > state.lastEvent } ?? false
        return (timeout, bytes > state.bytesAtLastEvent, headingsGoOn, state.locationEpoch)
      }
      // Locations wanted: beside headings alone, the devices' fixes are not followed.
      let (silentDevices, devicesEpoch): ([(device: String, timeout: Double)], Int) = state.withLock { state in
        guard state.running, state.generation == generation, state.wantsLocation, !holdingBack else {
          return ([], state.locationEpoch)
        }
        return (Self.silentDevices(&state, SystemClock.monotonic()), state.locationEpoch)
      }
      for (device, timeout) in silentDevices {
        deliverLoss(device: device, generation, locationEpoch: devicesEpoch)
        var error = LocationError(
          .locationUnknown,
          "no data from \(device) for \(Self.tenths(timeout)) s (\(source.name): its other devices report)")
        error.device = device
        deliver(.failure(error), generation, locationEpoch: devicesEpoch)
      }
      let headingTimeout: Double? = state.withLock { state in
        guard state.running, state.generation == generation, state.wantsHeading, !state.headingUnknownReported,
          !holdingBack, let last = state.lastHeadingAt
        else { return nil }
        let timeout = max(state.watchdogTimeout, 3 * (state.headingInterval ?? 0))
        guard SystemClock.monotonic() - last > timeout else { return nil }
        state.headingUnknownReported = true
        return timeout
      }
      if let headingTimeout {
        let seconds = Self.tenths(headingTimeout)
        deliver(
          .failure(LocationError(.headingUnknown, "no heading from \(source.name) for \(seconds) s")), generation)
      }
      if let report {
        let timeout = report.timeout
        let seconds = Self.tenths(timeout)
        let message =
          report.headingsGoOn
          ? "no position from \(source.name) for \(seconds) s (its headings go on)"
          : report.garbage
            ? "\(source.name) sends bytes but no NMEA reports for \(seconds) s "
              + "(not an NMEA receiver, or the wrong baud rate?)"
            : "no data from \(source.name) for \(seconds) s"
        deliverLoss(device: nil, generation, locationEpoch: report.locationEpoch)
        deliver(.failure(LocationError(.locationUnknown, message)), generation, locationEpoch: report.locationEpoch)
      }
    }
    keep(timer, for: generation)
  }

  /// Keeps `timer` with the run `generation`, to be cancelled when it stops, and starts
  /// it; cancelled at once if that run was stopped meanwhile (by another thread, since
  /// `start` decided), where it would otherwise fire, and hold the manager, for ever.
  private func keep(_ timer: DispatchSourceTimer, for generation: Int) {
    let kept = state.withLock { state in
      guard state.running, state.generation == generation else { return false }
      state.timers.append(Timer(source: timer))
      return true
    }
    if !kept { timer.cancel() }
    // A cancelled source is resumed too: one released while suspended is a crash.
    timer.resume()
  }

  private func startDeadline(_ timeout: Double, _ generation: Int) {
    let timer = DispatchSource.makeTimerSource(queue: timerQueue)
    timer.schedule(deadline: .now() + timeout)
    timer.setEventHandler { [self] in
      let expired: (Bool, best: Location?, stopsAll: Bool, locationEpoch: Int) = state.withLock { state in
        guard state.running, state.generation == generation, state.oneShot, state.filter.lastAdmitted == nil else {
          return (false, nil, false, state.locationEpoch)
        }
        // The best it had is the last location delivered, as ``location`` says.
        if let best = state.bestLeftOut { state.earlierLocation = best }
        // The request is over; heading updates beside it go on.
        if state.wantsHeading {
          state.wantsLocation = false
          state.oneShot = false
          return (true, state.bestLeftOut, false, state.locationEpoch)
        }
        Self.markStopped(&state)
        return (true, state.bestLeftOut, true, state.locationEpoch)
      }
      guard expired.0 else { return }
      if expired.stopsAll { source.stop() }
      if let best = expired.best {
        // As Core Location does: the best it had, short of the accuracy asked for.
        deliver(.update(best, previous: nil), generation, locationEpoch: expired.locationEpoch)
      } else {
        // Final: the request is over (a transient error would leave a delegate waiting);
        // beside heading updates, which go on, it is not.
        deliver(
          .failure(
            LocationError(
              .locationUnknown, "no location from \(source.name) within \(timeout) s", final: expired.stopsAll)),
          generation, locationEpoch: expired.locationEpoch)
      }
      if expired.stopsAll { finishStreamsAfterQueued(generation) }
    }
    keep(timer, for: generation)
  }
}

/// A dispatch timer kept in the manager's state.
private struct Timer: @unchecked Sendable {
  // @unchecked Sendable: DispatchSource's cancel() may be called from any thread (it is
  // documented thread-safe), and cancel is the only thing done with it after creation.
  let source: DispatchSourceTimer
  func cancel() { source.cancel() }
}

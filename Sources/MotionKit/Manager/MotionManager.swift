import Dispatch
import Geodesy
import LocationKit
import NMEA

/// Delivers accelerometer, gyroscope, magnetometer and device-motion readings, headings
/// and shakes from a motion source, in the style of Core Motion's `CMMotionManager`.
///
/// Each kind of update starts and stops on its own and is delivered at most once per its
/// interval (a live sensor is read at the shortest interval any update has asked for
/// since updates started; a log or gpsd keeps its own pace and is thinned). The latest value of each kind can also be
/// polled (``accelerometerData`` ...). Shakes are recognised by ``ShakeRecognizer`` on
/// every accelerometer reading, whatever the intervals. Callbacks run on
/// ``callbackQueue``, one at a time and in order; the same events are offered as
/// ``updates``. A delegate or consumer that falls behind holds the source back once 64
/// events wait: memory stays bounded and nothing is dropped. While updates run, the
/// manager keeps itself alive.
///
/// Errors: ``MotionError/Code/denied`` (final: updates stop); ``MotionError/Code/unknown``
/// (transient), also when no reading has come for ``watchdogTimeout`` seconds (or five of
/// the source's intervals); ``MotionError/Code/sensorUnavailable`` for a kind the source
/// lacks, which is only reported for kinds an update needs (device motion can do without
/// a gyroscope or a magnetometer).
public final class MotionManager: Sendable {
  private struct State {
    weak var delegate: (any MotionManagerDelegate)?
    var intervals: [MotionUpdate: Double] = [
      .accelerometer: 0.1, .gyro: 0.1, .magnetometer: 0.1, .deviceMotion: 0.1, .heading: 0.1, .shake: 0.02,
    ]
    var active: Set<MotionUpdate> = []
    var running = false
    var generation = 0
    var sensors: Set<SensorKind> = []
    var interval = 0.1
    var analysis = MotionAnalysis()
    var gravityTimeConstant = 0.5
    var shakeOptions = ShakeRecognizer.Options()
    var nextDue: [MotionUpdate: Double] = [:]
    var accelerometerData: AccelerometerData?
    var gyroData: GyroData?
    var magnetometerData: MagnetometerData?
    var deviceMotion: DeviceMotion?
    var heading: Heading?
    var headingFilter = 1.0
    var declinationPosition: (latitude: Double, longitude: Double)?
    var seen: Set<SensorKind> = []
    var lastReadingAt = 0.0
    var silenceReported = false
    var watchdogTimeout = 2.0
    var timer: (any DispatchSourceTimer)?
  }

  /// The source the manager reads: started when the first update starts (restarted when a
  /// live source must read more sensors or faster), stopped when the last one stops.
  public let source: any MotionSource
  /// The queue delegate callbacks run on, one at a time and in order: the one given to
  /// ``init(source:callbackQueue:)``, or a private serial queue.
  public let callbackQueue: DispatchQueue
  private let state = Locked(State())
  private let timerQueue = DispatchQueue(label: "whereami.motion-manager.timer")
  /// The delegate's queue and the sequences, bounded as the location manager's are.
  private let channel: EventChannel<MotionEvent>

  /// A manager for `source`; callbacks run on `callbackQueue` (default: a private serial
  /// queue).
  public init(source: any MotionSource, callbackQueue: DispatchQueue? = nil) {
    self.source = source
    channel = EventChannel(queue: callbackQueue, label: "whereami.motion-manager.callbacks")
    self.callbackQueue = channel.queue
  }

  /// Receives readings and errors; held weakly.
  public var delegate: (any MotionManagerDelegate)? {
    get { state.withLock { $0.delegate } }
    set { state.withLock { $0.delegate = newValue } }
  }

  // MARK: Intervals and options

  /// Seconds between accelerometer deliveries (0.1 by default).
  public var accelerometerUpdateInterval: Double {
    get { interval(.accelerometer) }
    set { setInterval(.accelerometer, newValue) }
  }
  /// Seconds between gyroscope deliveries.
  public var gyroUpdateInterval: Double {
    get { interval(.gyro) }
    set { setInterval(.gyro, newValue) }
  }
  /// Seconds between magnetometer deliveries.
  public var magnetometerUpdateInterval: Double {
    get { interval(.magnetometer) }
    set { setInterval(.magnetometer, newValue) }
  }
  /// Seconds between device-motion (and heading) deliveries.
  public var deviceMotionUpdateInterval: Double {
    get { interval(.deviceMotion) }
    set {
      setInterval(.deviceMotion, newValue)
      setInterval(.heading, newValue)
    }
  }
  /// Seconds between the accelerometer readings shake recognition asks a live sensor for
  /// (0.02: 50 Hz, enough to see each stroke of a shake).
  public var shakeSamplingInterval: Double {
    get { interval(.shake) }
    set { setInterval(.shake, newValue) }
  }

  /// The shake recogniser's thresholds and times; applies from the next start.
  public var shakeOptions: ShakeRecognizer.Options {
    get { state.withLock { $0.shakeOptions } }
    set { state.withLock { $0.shakeOptions = newValue } }
  }

  /// The time constant, seconds, of the filter that separates gravity (see
  /// ``AttitudeEstimator``); applies from the next start.
  public var gravityTimeConstant: Double {
    get { state.withLock { $0.gravityTimeConstant } }
    set { state.withLock { $0.gravityTimeConstant = max(0.001, newValue) } }
  }

  /// The least change of heading, degrees, worth delivering (1 by default);
  /// `HeadingFilter.none` delivers every one.
  public var headingFilter: Double {
    get { state.withLock { $0.headingFilter } }
    set { state.withLock { $0.headingFilter = newValue } }
  }

  /// Where the device is, for the declination (WMM2025) that turns a magnetic heading
  /// into a true one; `nil` (the default) leaves true headings out.
  public var declinationPosition: (latitude: Double, longitude: Double)? {
    get { state.withLock { $0.declinationPosition } }
    set { state.withLock { $0.declinationPosition = newValue } }
  }

  /// Seconds without any reading after which ``MotionError/Code/unknown`` is reported
  /// (2 by default, or five of the source's intervals when longer).
  public var watchdogTimeout: Double {
    get { state.withLock { $0.watchdogTimeout } }
    set { state.withLock { $0.watchdogTimeout = newValue } }
  }

  // MARK: Latest values

  /// The latest accelerometer reading the source gave, whatever the delivery interval;
  /// `nil` until one comes, kept after updates stop. Readings in a source's own units
  /// (gpsd's) do not count.
  public var accelerometerData: AccelerometerData? { state.withLock { $0.accelerometerData } }
  /// The latest gyroscope reading, whatever the delivery interval; `nil` until one comes,
  /// kept after updates stop. Readings in a source's own units (gpsd's) do not count.
  public var gyroData: GyroData? { state.withLock { $0.gyroData } }
  /// The latest magnetometer reading, whatever the delivery interval; `nil` until one
  /// comes, kept after updates stop. Readings in a source's own units (gpsd's) do not count.
  public var magnetometerData: MagnetometerData? { state.withLock { $0.magnetometerData } }
  /// The latest device motion (from the readings, or from gpsd's reported attitude),
  /// whatever the delivery interval; `nil` until one is known, kept after updates stop.
  public var deviceMotion: DeviceMotion? { state.withLock { $0.deviceMotion } }
  /// The latest heading delivered to heading updates (past ``headingFilter`` and the
  /// interval); `nil` until one is, and again when updates start afresh.
  public var heading: Heading? { state.withLock { $0.heading } }

  /// The updates running.
  public var activeUpdates: Set<MotionUpdate> { state.withLock { $0.active } }
  /// Whether accelerometer updates run (`false` again once they stop or a final error
  /// ends them).
  public var isAccelerometerActive: Bool { activeUpdates.contains(.accelerometer) }
  /// Whether gyroscope updates run (`false` again once they stop or a final error ends
  /// them).
  public var isGyroActive: Bool { activeUpdates.contains(.gyro) }
  /// Whether magnetometer updates run (`false` again once they stop or a final error ends
  /// them).
  public var isMagnetometerActive: Bool { activeUpdates.contains(.magnetometer) }
  /// Whether device-motion updates run (`false` again once they stop or a final error
  /// ends them).
  public var isDeviceMotionActive: Bool { activeUpdates.contains(.deviceMotion) }

  // MARK: Starting and stopping

  /// Starts accelerometer updates, and the source if nothing ran: readings arrive through
  /// ``MotionManagerDelegate/motionManager(_:didUpdateAccelerometer:)`` and ``updates``,
  /// at most one per ``accelerometerUpdateInterval``. Calling it again while they run is
  /// harmless (a live source restarts only for an interval shortened since).
  public func startAccelerometerUpdates() { start([.accelerometer]) }
  /// Stops accelerometer updates; the source stops when no other kind runs (see
  /// ``stop(_:)``). Harmless when they are not running.
  public func stopAccelerometerUpdates() { stop([.accelerometer]) }
  /// Starts gyroscope updates, and the source if nothing ran: readings arrive through
  /// ``MotionManagerDelegate/motionManager(_:didUpdateGyro:)`` and ``updates``, at most
  /// one per ``gyroUpdateInterval``. Calling it again while they run is harmless.
  public func startGyroUpdates() { start([.gyro]) }
  /// Stops gyroscope updates; the source stops when no other kind runs (see ``stop(_:)``).
  /// Harmless when they are not running.
  public func stopGyroUpdates() { stop([.gyro]) }
  /// Starts magnetometer updates, and the source if nothing ran: readings arrive through
  /// ``MotionManagerDelegate/motionManager(_:didUpdateMagnetometer:)`` and ``updates``, at
  /// most one per ``magnetometerUpdateInterval``. Calling it again while they run is
  /// harmless.
  public func startMagnetometerUpdates() { start([.magnetometer]) }
  /// Stops magnetometer updates; the source stops when no other kind runs (see
  /// ``stop(_:)``). Harmless when they are not running.
  public func stopMagnetometerUpdates() { stop([.magnetometer]) }
  /// Starts device-motion updates (attitude, gravity and user acceleration, see
  /// ``AttitudeEstimator``), and the source if nothing ran: they arrive through
  /// ``MotionManagerDelegate/motionManager(_:didUpdateDeviceMotion:)`` and ``updates``, at
  /// most one per ``deviceMotionUpdateInterval``. They come from an accelerometer, a
  /// quaternion sensor or gpsd's reported attitude; a missing gyroscope or magnetometer is
  /// not an error. Calling it again while they run is harmless.
  public func startDeviceMotionUpdates() { start([.deviceMotion]) }
  /// Stops device-motion updates; the source stops when no other kind runs (see
  /// ``stop(_:)``). Harmless when they are not running.
  public func stopDeviceMotionUpdates() { stop([.deviceMotion]) }
  /// Headings from the attitude (``/LocationKit/Heading``, as the location manager's).
  public func startHeadingUpdates() { start([.heading]) }
  /// Stops heading updates; the source stops when no other kind runs (see ``stop(_:)``).
  /// Harmless when they are not running.
  public func stopHeadingUpdates() { stop([.heading]) }
  /// Shake recognition: ``MotionManagerDelegate/motionBegan(_:shake:)`` and its siblings.
  public func startShakeUpdates() { start([.shake]) }
  /// Stops shake recognition; the source stops when no other kind runs (see
  /// ``stop(_:)``). Harmless when it is not running.
  public func stopShakeUpdates() { stop([.shake]) }

  /// Starts several kinds at once, so that none misses the source's first readings.
  public func start(_ updates: Set<MotionUpdate>) {
    let restart: Int? = state.withLock { state in
      state.active.formUnion(updates)
      return reconfigure(&state)
    }
    if let restart { restartSource(restart) }
  }

  /// Stops the given kinds; the source stops, and the ``updates`` sequences end, when
  /// none runs. No callback of a stopped kind starts after this returns; when every kind
  /// stops, none at all runs after it returns. (A partial stop does not wait for a
  /// callback under way: a consumer of ``updates`` may call it from its loop while the
  /// queue waits for that very loop.)
  public func stop(_ updates: Set<MotionUpdate>) {
    let change: (restart: Int?, all: Bool) = state.withLock { state in
      state.active.subtract(updates)
      if state.active.isEmpty {
        markStopped(&state)
        // Queued callbacks see the new generation and are dropped.
        state.generation += 1
        return (nil, true)
      }
      return (reconfigure(&state), false)
    }
    if let restart = change.restart { restartSource(restart) }
    guard change.all else { return }
    // Also after a final error, when the source stopped itself on its own thread: this
    // waits for that thread to be gone.
    source.stop()
    channel.finishStreams()
    channel.drain()
  }

  /// Stops every kind and releases the source. No callback comes after this returns.
  public func stopUpdates() { stop(Set(MotionUpdate.allCases)) }

  /// The manager's events as an asynchronous sequence, from now until updates stop. A
  /// consumer that falls behind holds the source back once 64 events wait for it.
  public var updates: AsyncStream<MotionEvent> { channel.makeStream() }

  // MARK: Internals

  /// The sensors each update reads, and the ones it cannot do without.
  private static func sensors(for update: MotionUpdate) -> (all: Set<SensorKind>, required: Set<SensorKind>) {
    switch update {
    case .accelerometer: ([.accelerometer], [.accelerometer])
    case .gyro: ([.gyroscope], [.gyroscope])
    case .magnetometer: ([.magnetometer], [.magnetometer])
    case .deviceMotion, .heading: (Set(SensorKind.allCases), [])
    case .shake: ([.accelerometer, .gyroscope], [.accelerometer])
    }
  }

  private static func required(_ active: Set<MotionUpdate>) -> Set<SensorKind> {
    active.reduce(into: Set<SensorKind>()) { $0.formUnion(sensors(for: $1).required) }
  }

  /// Applies a change of the running updates: the generation to restart the source with
  /// when its sensors or interval must change, else `nil`.
  private func reconfigure(_ state: inout State) -> Int? {
    let sensors = state.active.reduce(into: Set<SensorKind>()) { $0.formUnion(Self.sensors(for: $1).all) }
    let interval = state.active.map { state.intervals[$0] ?? 0.1 }.min() ?? 0.1
    if state.running && (source.readsEverything || sensors.isSubset(of: state.sensors) && interval >= state.interval) {
      return nil
    }
    let fresh = !state.running
    state.running = true
    state.generation += 1
    state.sensors = fresh ? sensors : sensors.union(state.sensors)
    state.interval = interval
    if fresh {
      state.analysis = MotionAnalysis(
        estimator: AttitudeEstimator(gravityTimeConstant: state.gravityTimeConstant),
        recognizer: ShakeRecognizer(options: state.shakeOptions))
      state.nextDue = [:]
      state.seen = []
      state.silenceReported = false
      state.heading = nil
    }
    state.lastReadingAt = SystemClock.monotonic()
    return state.generation
  }

  /// Updates are over (stopped, or a final error): the deliveries already made still run.
  private func markStopped(_ state: inout State) {
    state.running = false
    state.active = []
    state.timer?.cancel()
    state.timer = nil
  }

  private func interval(_ update: MotionUpdate) -> Double { state.withLock { $0.intervals[update] ?? 0.1 } }
  private func setInterval(_ update: MotionUpdate, _ value: Double) {
    state.withLock { $0.intervals[update] = max(0.001, value) }
  }

  private func restartSource(_ generation: Int) {
    source.stop()
    let (sensors, interval) = state.withLock { ($0.sensors, $0.interval) }
    startWatchdog(generation)
    // Strong capture: a running manager keeps itself alive until updates stop.
    source.start(sensors: sensors, interval: interval) { [self] event in handle(event, generation) }
  }

  private func handle(_ event: MotionSourceEvent, _ generation: Int) {
    let outcome: (events: [MotionEvent], final: Bool)? = state.withLock { state in
      guard state.running, state.generation == generation else { return nil }
      var events: [MotionEvent] = []
      var final = false
      switch event {
      case .reading(let reading):
        noteReading(&state)
        state.seen.insert(reading.sensor)
        events = readingEvents(reading, &state)
      case .deviceUnits(let reading):
        noteReading(&state)
        let event = MotionEvent.deviceUnits(reading)
        if let update = Self.update(of: event), state.active.contains(update) { events.append(event) }
      case .reportedAttitude(let reported):
        noteReading(&state)
        events = reportedEvents(reported, &state)
      case .error(let error):
        if error.code == .sensorUnavailable, let sensor = error.sensor, !Self.required(state.active).contains(sensor) {
          break
        }
        if error.code == .sourceEnded {
          if let shake = state.analysis.finish(time: state.accelerometerData?.timestamp ?? 0) {
            events.append(.shake(shake))
          }
          for kind in Self.required(state.active).subtracting(state.seen).sorted() {
            events.append(
              .failure(
                MotionError(.sensorUnavailable, "\(source.name) has no \(kind.rawValue) readings", sensor: kind)))
          }
        }
        events.append(.failure(error))
        final = error.isFinal
      }
      guard !events.isEmpty else { return nil }
      if final { markStopped(&state) }
      return (events, final)
    }
    guard let outcome else { return }
    outcome.events.forEach { deliver($0, generation) }
    if outcome.final {
      source.stop()
      channel.async { [self] in
        // Unless updates were started again meanwhile: those are the new run's sequences.
        if state.withLock({ $0.generation == generation && !$0.running }) { channel.finishStreams() }
      }
    }
  }

  private func noteReading(_ state: inout State) {
    state.lastReadingAt = SystemClock.monotonic()
    state.silenceReported = false
  }

  /// Whether an update of `kind` at `time` is due by its interval. Due times follow a
  /// schedule (one interval after the last due time, not after the last delivery), with
  /// 2 % spare, so that a sensor read at exactly the rate, with some jitter, is neither
  /// thinned to half nor drifts; after a gap (or time going back) the schedule restarts.
  private static func due(_ kind: MotionUpdate, _ time: Double, _ state: inout State) -> Bool {
    guard state.active.contains(kind) else { return false }
    let interval = state.intervals[kind] ?? 0.1
    if let next = state.nextDue[kind], time < next - 0.02 * interval, time > next - 2 * interval { return false }
    var next = (state.nextDue[kind] ?? time) + interval
    if next <= time || next > time + 2 * interval { next = time + interval }
    state.nextDue[kind] = next
    return true
  }

  private func readingEvents(_ reading: SensorReading, _ state: inout State) -> [MotionEvent] {
    var events: [MotionEvent] = []
    switch reading.sensor {
    case .accelerometer:
      let data = AccelerometerData(timestamp: reading.time, acceleration: reading.vector)
      state.accelerometerData = data
      if Self.due(.accelerometer, reading.time, &state) { events.append(.accelerometer(data)) }
    case .gyroscope:
      let data = GyroData(timestamp: reading.time, rotationRate: reading.vector)
      state.gyroData = data
      if Self.due(.gyro, reading.time, &state) { events.append(.gyro(data)) }
    case .magnetometer:
      let data = MagnetometerData(timestamp: reading.time, magneticField: reading.vector)
      state.magnetometerData = data
      if Self.due(.magnetometer, reading.time, &state) { events.append(.magnetometer(data)) }
    case .attitude:
      break
    }
    state.analysis.recognizesShakes = state.active.contains(.shake)
    let (motion, shakes) = state.analysis.add(reading)
    if let motion {
      state.deviceMotion = motion
      if Self.due(.deviceMotion, reading.time, &state) { events.append(.deviceMotion(motion)) }
      if state.active.contains(.heading), let heading = heading(of: motion, &state) { events.append(.heading(heading)) }
    }
    events += shakes.map(MotionEvent.shake)
    return events
  }

  private func reportedEvents(_ reported: ReportedAttitude, _ state: inout State) -> [MotionEvent] {
    var events: [MotionEvent] = []
    if let heading = reported.heading, let pitch = reported.pitch, let roll = reported.roll {
      let attitude = MotionAttitude(heading: heading, pitch: pitch, roll: roll, referenceFrame: .trueNorth)
      let down = attitude.quaternion.conjugate.rotate(MotionVector(x: 0, y: 0, z: -1))
      let motion = DeviceMotion(
        timestamp: reported.time, attitude: attitude, rotationRate: nil, gravity: down, userAcceleration: nil,
        magneticField: nil, attitudeSource: .reported)
      state.deviceMotion = motion
      if Self.due(.deviceMotion, reported.time, &state) { events.append(.deviceMotion(motion)) }
    }
    if state.active.contains(.heading), let direction = reported.heading {
      var heading = Heading(source: "gpsd ATT")
      heading.trueHeading = HeadingMath.normalized(direction)
      heading.attitude = Attitude(roll: reported.roll, pitch: reported.pitch, dip: reported.dip)
      heading.device = reported.device
      if let filtered = filtered(heading, reported.time, &state) { events.append(.heading(filtered)) }
    }
    return events
  }

  /// The heading of a device motion whose frame has a north.
  private func heading(of motion: DeviceMotion, _ state: inout State) -> Heading? {
    guard let direction = motion.heading else { return nil }
    var heading = Heading(
      source: motion.attitudeSource == .quaternionSensor ? "quaternion sensor" : "tilt-compensated compass")
    let degrees = 180 / Double.pi
    heading.attitude = Attitude(
      roll: motion.attitude.roll * degrees, pitch: motion.attitude.pitch * degrees, yaw: motion.attitude.yaw * degrees)
    if motion.attitude.referenceFrame == .trueNorth {
      heading.trueHeading = direction
    } else {
      heading.magneticHeading = direction
      // A log's times may have any origin: a date outside the model's years gives no
      // true heading rather than an extrapolated one.
      let year = 1970 + motion.timestamp / (365.2425 * 86400)
      if let place = state.declinationPosition, MagneticModel.wmm2025.isValid(year: year) {
        let declination = MagneticModel.wmm2025.declination(
          latitude: place.latitude, longitude: place.longitude, year: year)
        heading.declination = declination
        heading.declinationSource = .wmm2025
        let reliability = MagneticModel.wmm2025.reliability(
          latitude: place.latitude, longitude: place.longitude, year: year)
        heading.declinationCaveat = reliability == .reliable ? nil : reliability
        heading.trueHeading = HeadingMath.normalized(direction + declination)
      }
    }
    return filtered(heading, motion.timestamp, &state)
  }

  /// `heading`, stamped, unless the heading filter or the interval leaves it out.
  private func filtered(_ heading: Heading, _ time: Double, _ state: inout State) -> Heading? {
    var heading = heading
    heading.timestamp = Timestamp(microsecondsSinceEpoch: Int64((time * 1e6).rounded()))
    heading.timeOfDay = heading.timestamp?.timeOfDay
    if let direction = heading.direction, let last = state.heading?.direction, state.headingFilter > 0,
      HeadingMath.difference(direction, last) < state.headingFilter
    {
      return nil
    }
    guard Self.due(.heading, time, &state) else { return nil }
    state.heading = heading
    return heading
  }

  private func startWatchdog(_ generation: Int) {
    let timer = DispatchSource.makeTimerSource(queue: timerQueue)
    timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
    timer.setEventHandler { [self] in
      let holdingBack = channel.isHoldingBack
      let silence: Double? = state.withLock { state in
        guard state.running, state.generation == generation, !state.silenceReported, !holdingBack
        else { return nil }
        let timeout = max(state.watchdogTimeout, 5 * state.interval)
        let quiet = SystemClock.monotonic() - state.lastReadingAt
        guard quiet > timeout else { return nil }
        state.silenceReported = true
        return timeout
      }
      if let silence {
        let seconds = silence == silence.rounded() ? String(Int(silence)) : String(silence)
        deliver(.failure(MotionError(.unknown, "no readings from \(source.name) for \(seconds) s")), generation)
      }
    }
    state.withLock { state in
      state.timer?.cancel()
      state.timer = timer
    }
    timer.resume()
  }

  /// The update an event belongs to; `nil` for errors, which every update gets.
  private static func update(of event: MotionEvent) -> MotionUpdate? {
    switch event {
    case .accelerometer: .accelerometer
    case .gyro: .gyro
    case .magnetometer: .magnetometer
    case .deviceMotion: .deviceMotion
    case .heading: .heading
    case .shake: .shake
    case .deviceUnits(let reading):
      switch reading.sensor {
      case .accelerometer: .accelerometer
      case .gyroscope: .gyro
      case .magnetometer: .magnetometer
      case .attitude: .deviceMotion
      }
    case .failure: nil
    }
  }

  private func deliver(_ event: MotionEvent, _ generation: Int) {
    channel.deliver(
      event, isCurrent: { [self] in state.withLock { $0.generation == generation } },
      waited: { [self] in state.withLock { $0.lastReadingAt = SystemClock.monotonic() } }
    ) { [self] event in
      // A kind the user stopped since this was queued is not delivered (after a final
      // error, whose run is over, everything queued still is).
      let delegate: (any MotionManagerDelegate)? = state.withLock { state in
        guard state.running, let update = Self.update(of: event), !state.active.contains(update) else {
          return state.delegate
        }
        return nil
      }
      switch event {
      case .accelerometer(let data): delegate?.motionManager(self, didUpdateAccelerometer: data)
      case .gyro(let data): delegate?.motionManager(self, didUpdateGyro: data)
      case .magnetometer(let data): delegate?.motionManager(self, didUpdateMagnetometer: data)
      case .deviceMotion(let motion): delegate?.motionManager(self, didUpdateDeviceMotion: motion)
      case .heading(let heading): delegate?.motionManager(self, didUpdateHeading: heading)
      case .deviceUnits(let reading): delegate?.motionManager(self, didReceiveDeviceUnits: reading)
      case .failure(let error): delegate?.motionManager(self, didFailWithError: error)
      case .shake(let shake):
        switch shake.phase {
        case .began: delegate?.motionBegan(self, shake: shake)
        case .ended: delegate?.motionEnded(self, shake: shake)
        case .cancelled: delegate?.motionCancelled(self, shake: shake)
        }
      }
    }
  }
}

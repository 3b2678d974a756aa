import CGPS
import Geodesy
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// Locations from a gpsd daemon through libgps.
///
/// The source watches gpsd (`?WATCH={"enable":true,"json":true}`, optionally one device)
/// on a thread of its own and maps each TPV report to a ``Location``, trusting a field only
/// when gpsd's `set` mask says the report carried it and it is a finite number, so that a
/// stale value is never reported as fresh. Satellites and DOPs come from the latest SKY.
///
/// gpsd not running: ``LocationError/Code/cannotConnect`` naming host and port, retried
/// with capped exponential backoff (0.25 s to 8 s). gpsd going away mid-stream:
/// ``LocationError/Code/locationUnknown``, then the same reconnection. gpsd with no device
/// or a fix mode of 1 or less: ``LocationError/Code/locationUnknown``. A device gpsd does
/// not have: ``LocationError/Code/sourceNotFound``, saying whether the path exists and
/// whether gpsd's user could read it (gpsd does not say why it lacks a device, so the path
/// is checked here). After ``rewatchInterval`` seconds
/// without a report the watch is sent again, since gpsd reopens a device that went away
/// only for a client that watches anew.
public final class GPSDSource: LocationSource, @unchecked Sendable {
  // @unchecked Sendable: the configuration is immutable; the thread's state lives in
  // `reader` (itself safe); libgps's gps_data_t is allocated and used on the reading
  // thread alone.

  /// gpsd's host name or address.
  public let host: String
  /// gpsd's TCP port (2947 by default).
  public let port: UInt16
  /// A device to watch (`/dev/ttyUSB0`); `nil` watches every device gpsd has.
  public let device: String?
  public let name: String
  /// The first delay before reconnecting, seconds; it doubles with each failure.
  public let initialBackoff: Double
  /// The longest delay between reconnection attempts, seconds.
  public let maximumBackoff: Double
  /// After this many seconds without a report, the watch is asked for again.
  public let rewatchInterval: Double

  private let reader = SourceThread()

  /// Creates a source for gpsd at `host:port`; nothing is opened until ``start(_:)``.
  public init(
    host: String = "localhost", port: UInt16 = SourceAddress.gpsdDefaultPort, device: String? = nil,
    initialBackoff: Double = 0.25, maximumBackoff: Double = 8, rewatchInterval: Double = 3
  ) {
    self.initialBackoff = initialBackoff
    self.maximumBackoff = maximumBackoff
    self.rewatchInterval = rewatchInterval
    self.host = host
    self.port = port
    self.device = device
    name = SourceAddress.gpsd(host: host, port: port, device: device).description
  }

  public func start(_ sink: @escaping @Sendable (SourceEvent) -> Void) {
    reader.start(name: "whereami.gpsd-source") { [self] signal in run(signal, sink) }
  }

  public func stop() { reader.stop() }

  private func emit(_ event: SourceEvent, _ sink: @Sendable (SourceEvent) -> Void) {
    reader.emit(event, sink)
  }

  // MARK: Reading

  private func run(_ stop: StopSignal, _ sink: @escaping @Sendable (SourceEvent) -> Void) {
    let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
    UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
    defer { data.deallocate() }
    var backoff = Backoff(initial: initialBackoff, maximum: maximumBackoff)
    var message = [CChar](repeating: 0, count: 16 * 1024)
    var state = ReportState()

    while !stop.isFired {
      guard gps_open(host, String(port), data) == 0 else {
        emit(
          .error(
            LocationError(.cannotConnect, "cannot connect to gpsd at \(hostAndPort): \(connectFailure(stop)); retrying")
          ), sink)
        if !stop.sleep(backoff.delay()) { return }
        continue
      }
      // One connection, closed exactly once, before the wait for the next.
      let outcome = readConnection(data, &message, &state, &backoff, stop, sink)
      gps_close(data)
      guard outcome == .reconnect, stop.sleep(backoff.delay()) else { return }
    }
  }

  /// How a connection to gpsd ended.
  private enum ConnectionOutcome {
    /// Stopped, or a final error: no more connections.
    case finished
    /// gpsd went away or refused the watch: connect again after the backoff.
    case reconnect
  }

  /// Watches and reads one open connection until it ends.
  private func readConnection(
    _ data: UnsafeMutablePointer<gps_data_t>, _ message: inout [CChar], _ state: inout ReportState,
    _ backoff: inout Backoff, _ stop: StopSignal, _ sink: @escaping @Sendable (SourceEvent) -> Void
  ) -> ConnectionOutcome {
    guard whereami_gps_watch(data, device) >= 0 else {
      emit(.error(LocationError(.locationUnknown, "gpsd at \(hostAndPort) refused the watch; reconnecting")), sink)
      return .reconnect
    }
    // A gpsd connected to anew (restarted, perhaps) learns its receivers' cycles anew, and
    // its sky views are its own.
    state.connectionStarted()
    var receivedReport = false
    while true {
      if !gps_waiting(data, 0) {
        // The burst of the cycle is over: the location held for its GST and SKY goes.
        if state.mayReleaseAfterBurst, !gps_waiting(data, Self.burstGap) {
          for event in state.releaseAfterBurst() { emit(event, sink) }
        }
        switch stop.wait(for: data.pointee.gps_fd, timeout: rewatchInterval) {
        case .stopped: return .finished
        case .timedOut:
          // Silence: whatever cycle was held is over.
          for event in state.release() { emit(event, sink) }
          // gpsd reopens a device that went away (unplugged, its feed closed)
          // only when a client asks to watch again. A dead connection would have woken
          // the wait (end of file), so this write goes to a live one.
          guard whereami_gps_watch(data, device) >= 0 else {
            emit(
              .error(LocationError(.locationUnknown, "lost the connection to gpsd at \(hostAndPort); reconnecting")),
              sink)
            return .reconnect
          }
          continue
        case .readable: break
        }
      }
      let count = message.withUnsafeMutableBufferPointer { gps_read(data, $0.baseAddress, Int32($0.count)) }
      if count < 0 {
        // gpsd went away. Never write to this connection again (SIGPIPE).
        for event in state.release() { emit(event, sink) }
        emit(
          .error(LocationError(.locationUnknown, "lost the connection to gpsd at \(hostAndPort); reconnecting")), sink
        )
        return .reconnect
      }
      if count == 0 { continue }
      if !receivedReport {
        receivedReport = true
        backoff.reset()
      }
      let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      for event in state.events(for: text, data.pointee, source: self) { emit(event, sink) }
      if let final = state.finalError {
        emit(.error(final), sink)
        return .finished
      }
    }
  }

  /// How long a quiet connection means that gpsd's burst of reports for a cycle is over,
  /// microseconds (gpsd writes a cycle's TPV, GST and SKY together).
  static let burstGap: Int32 = 50_000

  private var hostAndPort: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// Why connecting failed: libgps only says "can't connect", so connect(2) is tried here
  /// to tell "connection refused" (gpsd not running) from the rest.
  private func connectFailure(_ stop: StopSignal) -> String {
    do throws(TCPConnection.Failure) {
      let descriptor = try TCPConnection.connect(host: host, port: port, timeout: 2, stop: stop)
      descriptor.close()
      return "gpsd did not answer"
    } catch {
      switch error {
      case .unknownHost(let name): return "unknown host '\(name)'"
      case .unreachable(let failure):
        return failure.errno == ECONNREFUSED
          ? "connection refused; is gpsd running? (systemctl status gpsd)" : failure.reason
      }
    }
  }

  /// Whether gpsd (user `gpsd`, group `dialout` on Debian) may read a local device;
  /// `nil` when the device does not exist or cannot be examined.
  static func gpsdCanRead(_ path: String) -> (readable: Bool, detail: String)? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    let mode = status.st_mode
    let gpsdUser = getpwnam("gpsd")?.pointee.pw_uid
    let dialout = getgrnam("dialout")?.pointee.gr_gid
    let readable =
      mode & S_IROTH != 0 || (dialout == status.st_gid && mode & S_IRGRP != 0)
      || (gpsdUser == status.st_uid && mode & S_IRUSR != 0)
    let owner = getpwuid(status.st_uid).map { String(cString: $0.pointee.pw_name) } ?? String(status.st_uid)
    let group = getgrgid(status.st_gid).map { String(cString: $0.pointee.gr_name) } ?? String(status.st_gid)
    let octal = String(mode & 0o777, radix: 8)
    return (readable, "mode \(octal), owner \(owner), group \(group)")
  }
}

/// Turns gpsd's reports into source events, remembering each device's last SKY and GST.
///
/// A TPV's location is held until the rest of its cycle's reports have come (gpsd sends
/// the GST and SKY of a cycle after its TPV), so that its accuracy is computed as the NMEA
/// decoder computes it: from the receiver's GST sigmas when gpsd has a GST of the same
/// time, otherwise from the DOPs × the UERE of the fix quality. gpsd's own `eph`, whose
/// confidence gpsd does not state, is used only when neither is there. While gpsd refines
/// a cycle sentence by sentence (as it does until it has learned the receiver's cycle), the
/// last report of a time is the one delivered.
private struct ReportState {
  /// What a device's last GST said: 1-sigma errors in metres.
  struct Statistics {
    var time: Timestamp
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
  }
  var statistics: [String: Statistics] = [:]
  /// Each device's last fix time, position and magnetic variation, for its ATT reports.
  var lastTimes: [String: Timestamp] = [:]
  var places: [String: (latitude: Double, longitude: Double)] = [:]
  var variations: [String: Double] = [:]
  /// A TPV's location, until its cycle's reports are in.
  private struct Held {
    var location: Location
    /// gpsd's `eph` and `epv` for it.
    var estimates: (horizontal: Double?, vertical: Double?)
    /// How many TPVs of its time have come.
    var reports = 1
  }
  /// By device: one device's reports do not end another's cycle.
  private var held: [String: Held] = [:]
  /// The devices whose cycle gpsd has learned: it sent one TPV for their last cycle, at
  /// the cycle's end, with the cycle's GST and SKY in the same burst. Until then gpsd sends
  /// a TPV after each sentence, as slowly as the receiver's line carries them (70 ms a
  /// sentence at 9600 baud, longer than a burst's gap), and the cycle's GST and SKY come
  /// later: such a TPV is held until its device's next one, never released by a pause.
  private var learnedCycles: Set<String> = []

  /// Whether a held location may go once gpsd's burst of reports pauses: its device's
  /// cycle is learned (otherwise it goes with the device's next TPV, or after a silence).
  var mayReleaseAfterBurst: Bool { held.keys.contains { learnedCycles.contains($0) } }

  /// Forgets what the last connection's gpsd had learned and reported of the sky.
  mutating func connectionStarted() {
    learnedCycles = []
    skies = [:]
  }

  /// The held locations of the devices whose cycle is learned (after a burst's pause).
  mutating func releaseAfterBurst() -> [SourceEvent] {
    let learned = learnedCycles
    return release { learned.contains($0) }
  }

  /// What a device's last SKY said.
  struct Sky {
    var satellites: [SatelliteInfo] = []
    var dop = DilutionOfPrecision()
    var satellitesUsed: Int?
  }
  /// By device path; bounded by the devices gpsd has (a few), forgotten with the
  /// connection.
  var skies: [String: Sky] = [:]
  var finalError: LocationError?

  private static func device(_ data: gps_data_t) -> String {
    [data].withUnsafeBufferPointer { String(cString: whereami_gps_device_path($0.baseAddress!)) }
  }

  mutating func events(for message: String, _ data: gps_data_t, source: GPSDSource) -> [SourceEvent] {
    if message.hasPrefix("{\"class\":\"SKY\"") {
      readSky(data)
      return []
    }
    if message.hasPrefix("{\"class\":\"GST\"") {
      readStatistics(data)
      return []
    }
    if message.hasPrefix("{\"class\":\"ATT\"") {
      return attitude(message, data).map { [.heading($0)] } ?? []
    }
    if message.hasPrefix("{\"class\":\"TPV\"") {
      return position(data)
    }
    let released = release()
    return released + otherEvents(for: message, data, source: source)
  }

  /// A TPV: held for the rest of its cycle's reports; its device's earlier one goes.
  private mutating func position(_ data: gps_data_t) -> [SourceEvent] {
    guard let location = location(data) else {
      return release { $0 == Self.device(data) } + [.noFix(sky(data))]
    }
    let device = location.device ?? ""
    let estimates: (horizontal: Double?, vertical: Double?) = (finite(data.fix.eph), finite(data.fix.epv))
    if held[device] == nil, location.hasTime, location.timestamp == lastTimes[device] {
      // A second TPV of a time already delivered: gpsd refines cycles sentence by sentence
      // again (the receiver changed its sentences), so the next ones wait for their
      // device's next TPV. This one goes too, being the better report of its time.
      learnedCycles.remove(device)
    }
    if let previous = held[device], location.hasTime, previous.location.hasTime {
      if previous.location.timestamp == location.timestamp {
        // gpsd refines a cycle sentence by sentence while it learns the receiver's cycle:
        // the later report of the same time replaces the earlier one.
        held[device] = Held(location: location, estimates: estimates, reports: previous.reports + 1)
        learnedCycles.remove(device)
        return []
      }
      // One TPV for the whole cycle, and the next cycle has begun: gpsd knows the cycle.
      if previous.reports == 1 { learnedCycles.insert(device) }
    }
    let released = release { $0 == device }
    lastTimes[device] = location.timestamp
    places[device] = (location.latitude, location.longitude)
    variations[device] = location.magneticVariation
    held[device] = Held(location: location, estimates: estimates)
    return released
  }

  /// The held locations of the devices `releases` names (all by default), oldest first,
  /// each with its accuracy from what its cycle brought.
  mutating func release(where releases: (String) -> Bool = { _ in true }) -> [SourceEvent] {
    guard !held.isEmpty else { return [] }
    let going = held.filter { releases($0.key) }.sorted {
      ($0.value.location.timestamp?.microsecondsSinceEpoch ?? 0, $0.key)
        < ($1.value.location.timestamp?.microsecondsSinceEpoch ?? 0, $1.key)
    }
    return going.map { device, cycle in
      held[device] = nil
      return .location(completed(cycle))
    }
  }

  /// A held location with its accuracy from what its cycle brought.
  private func completed(_ cycle: Held) -> Location {
    var location = cycle.location
    let heldEstimates = cycle.estimates
    let device = location.device ?? ""
    let sky = skies[device] ?? Sky()
    location.dop = sky.dop
    if !sky.satellites.isEmpty {
      location.satellites = sky.satellites
      location.satellitesUsed = sky.satellitesUsed
    }
    if let errors = statistics[device], location.hasTime, errors.time == location.timestamp,
      let latitude = errors.latitude,
      let longitude = errors.longitude
    {
      location.horizontalAccuracy = (latitude * latitude + longitude * longitude).squareRoot()
      location.latitudeAccuracy = latitude
      location.longitudeAccuracy = longitude
      location.verticalAccuracy = location.altitude == nil ? nil : errors.altitude
      location.accuracySource = .receiverStatistics
    } else if let hdop = location.dop.horizontal, hdop > 0 {
      let rangeError = UserEquivalentRangeError.metres(for: location.quality)
      location.horizontalAccuracy = hdop * rangeError
      location.verticalAccuracy = location.altitude == nil ? nil : location.dop.vertical.map { $0 * rangeError }
      location.accuracySource = .dilutionOfPrecision
    } else {
      location.horizontalAccuracy = heldEstimates.horizontal
      location.verticalAccuracy = location.altitude == nil ? nil : heldEstimates.vertical
      location.accuracySource = location.horizontalAccuracy == nil ? nil : .gpsd
    }
    return location
  }

  /// The heading and attitude of an ATT report. libgps leaves `heading` at 0 rather than
  /// NaN in a report without one, so a member counts only when the JSON text has it.
  private func attitude(_ message: String, _ data: gps_data_t) -> Heading? {
    var copy = data
    let report = whereami_gps_attitude(&copy)!.pointee
    func member(_ name: String, _ value: Double) -> Double? {
      message.contains("\"\(name)\":") ? finite(value) : nil
    }
    let device = Self.device(data)
    var heading = Heading(source: "gpsd ATT")
    heading.device = device.isEmpty ? nil : device
    var trueHeading = member("heading", report.heading)
    var roll = member("roll", report.roll)
    var pitch = member("pitch", report.pitch)
    let yaw = member("yaw", report.yaw)
    var dip = member("dip", report.dip)
    // gpsd passes a True North compass's raw counts on as degrees: scale them as the
    // direct path does, by the same decision.
    if PTNTHTM.areRawCounts(heading: trueHeading, pitch: pitch, roll: roll, dip: dip) {
      let scale = PTNTHTM.degreesPerCount
      trueHeading = trueHeading.map { $0 * scale }
      roll = roll.map { $0 * scale }
      pitch = pitch.map { $0 * scale }
      dip = dip.map { $0 * scale }
    }
    heading.trueHeading = trueHeading.map(HeadingMath.normalized)
    let sensors = ATTSensorValues(
      acceleration: (member("acc_x", report.acc_x), member("acc_y", report.acc_y), member("acc_z", report.acc_z)),
      rotation: (member("gyro_x", report.gyro_x), member("gyro_y", report.gyro_y)),
      magneticField: (member("mag_x", report.mag_x), member("mag_y", report.mag_y), member("mag_z", report.mag_z)))
    if roll != nil || pitch != nil || yaw != nil || dip != nil || !sensors.isEmpty {
      heading.attitude = Attitude(roll: roll, pitch: pitch, yaw: yaw, dip: dip)
      heading.attitude?.sensorValues = sensors.isEmpty ? nil : sensors
    }
    guard heading.trueHeading != nil || heading.attitude != nil else { return nil }
    if message.contains("\"time\":"), let seconds = finite(whereami_gps_attitude_time(&copy)), seconds > 0 {
      heading.timestamp = Timestamp(microsecondsSinceEpoch: Int64((seconds * 1e6).rounded()))
    } else {
      heading.timestamp = lastTimes[device]
    }
    heading.timeOfDay = heading.timestamp?.timeOfDay
    // The magnetic heading: with the receiver's variation from the last TPV, else WMM2025.
    if let trueHeading = heading.trueHeading {
      if let variation = variations[device] {
        heading.declination = variation
        heading.declinationSource = .receiver
      } else if let place = places[device], let time = heading.timestamp {
        let year = 1970 + time.secondsSinceEpoch / (365.2425 * 86400)
        heading.declination = MagneticModel.wmm2025.declination(
          latitude: place.latitude, longitude: place.longitude, year: year)
        heading.declinationSource = .wmm2025
        let reliability = MagneticModel.wmm2025.reliability(
          latitude: place.latitude, longitude: place.longitude, year: year)
        heading.declinationCaveat = reliability == .reliable ? nil : reliability
      }
      if let declination = heading.declination {
        heading.magneticHeading = HeadingMath.normalized(trueHeading - declination)
      }
    }
    return heading
  }

  private mutating func readStatistics(_ data: gps_data_t) {
    var copy = data
    guard let seconds = finite(whereami_gps_gst_time(&copy)), seconds > 0 else { return }
    let gst = whereami_gps_gst(&copy)!.pointee
    statistics[Self.device(data)] = Statistics(
      time: Timestamp(microsecondsSinceEpoch: Int64((seconds * 1e6).rounded())),
      latitude: finite(gst.lat_err_deviation), longitude: finite(gst.lon_err_deviation),
      altitude: finite(gst.alt_err_deviation))
  }

  private mutating func otherEvents(for message: String, _ data: gps_data_t, source: GPSDSource) -> [SourceEvent] {
    if message.hasPrefix("{\"class\":\"DEVICES\"") {
      return whereami_gps_device_count([data]) == 0
        ? [.error(LocationError(.locationUnknown, "gpsd at \(source.host):\(source.port) has no GPS device"))] : []
    }
    if message.hasPrefix("{\"class\":\"ERROR\"") {
      let text = [data].withUnsafeBufferPointer { String(cString: whereami_gps_error($0.baseAddress!)) }
      // gpsd says the same ("No such device as X", "Can't assign X") whether it was never
      // told of X or could not open it: what is known here is that it does not have X. A
      // missing path, and one gpsd's user could not read anyway, are said as well.
      if let device = source.device {
        var message = "gpsd does not manage \(device) (gpsd said: \(text))"
        if device.hasPrefix("/") {
          if let access = GPSDSource.gpsdCanRead(device) {
            message += "; start gpsd with it, or add it with 'gpsdctl add \(device)'"
            if !access.readable {
              message +=
                ". gpsd (user gpsd, group dialout) could not read it either (\(access.detail)): "
                + "give the dialout group read and write access, e.g. with a udev rule"
            }
          } else {
            message += ": there is no such device"
          }
        } else {
          message += "; start gpsd with it, or add it with 'gpsdctl add \(device)'"
        }
        finalError = LocationError(.sourceNotFound, message)
        return []
      }
      return [.error(LocationError(.readError, "gpsd reports: \(text)"))]
    }
    return []
  }

  private mutating func readSky(_ data: gps_data_t) {
    var sky = skies[Self.device(data)] ?? Sky()
    defer { skies[Self.device(data)] = sky }
    var copy = data
    let count = Int(whereami_gps_satellite_count(&copy))
    var list: [SatelliteInfo] = []
    list.reserveCapacity(count)
    var used = 0
    for index in 0..<count {
      let satellite = whereami_gps_satellite(&copy, Int32(index))!.pointee
      guard satellite.PRN > 0 else { continue }
      if satellite.used { used += 1 }
      list.append(
        SatelliteInfo(
          constellation: Constellation(rawValue: Int(satellite.gnssid)), id: Int(satellite.PRN),
          elevation: finite(satellite.elevation), azimuth: finite(satellite.azimuth),
          snr: finite(satellite.ss).flatMap { $0 > 0 ? $0 : nil }, isUsed: satellite.used))
    }
    if count > 0 {
      sky.satellites = list
      sky.satellitesUsed = used
    }
    let dops = data.dop
    sky.dop = DilutionOfPrecision(
      position: finite(dops.pdop), horizontal: finite(dops.hdop), vertical: finite(dops.vdop))
  }

  /// What a TPV without a position says: its time, and the last SKY's satellites.
  private func sky(_ data: gps_data_t) -> SkyView {
    var copy = data
    var timestamp: Timestamp?
    if data.set & UInt64(TIME_SET) != 0, let seconds = finite(whereami_gps_fix_time(&copy)), seconds > 0 {
      timestamp = Timestamp(microsecondsSinceEpoch: Int64((seconds * 1e6).rounded()))
    }
    let device = Self.device(data)
    let sky = skies[device] ?? Sky()
    return SkyView(
      timestamp: timestamp, satellites: sky.satellites, satellitesUsed: sky.satellitesUsed,
      device: device.isEmpty ? nil : device)
  }

  private func location(_ data: gps_data_t) -> Location? {
    let set = data.set
    let fix = data.fix
    guard fix.mode >= MODE_2D, set & UInt64(LATLON_SET) != 0, let latitude = finite(fix.latitude),
      let longitude = finite(fix.longitude)
    else { return nil }
    var copy = data
    var location = Location(latitude: latitude, longitude: longitude, mode: fix.mode >= MODE_3D ? .threeD : .twoD)
    if let seconds = finite(whereami_gps_fix_time(&copy)), seconds > 0, set & UInt64(TIME_SET) != 0 {
      let timestamp = Timestamp(microsecondsSinceEpoch: Int64((seconds * 1e6).rounded()))
      location.timestamp = timestamp
      location.timeOfDay = timestamp.timeOfDay
    } else {
      // A TPV without "time": gpsd before it knows the date (after a restart), or a
      // receiver that never gives one. Where, but not when.
      location.hasTime = false
    }
    if set & UInt64(ALTITUDE_SET) != 0, fix.mode >= MODE_3D {
      location.altitude = finite(fix.altMSL)
      location.ellipsoidalAltitude = finite(fix.altHAE)
      location.geoidSeparation = finite(fix.geoid_sep)
    }
    if set & UInt64(SPEED_SET) != 0 { location.speed = finite(fix.speed) }
    if set & UInt64(TRACK_SET) != 0 { location.course = finite(fix.track) }
    if set & UInt64(CLIMB_SET) != 0 { location.climb = finite(fix.climb) }
    location.magneticVariation = finite(fix.magnetic_var)
    location.quality =
      switch whereami_gps_status(&copy) {
      // gpsd leaves "status" out of a TPV for a plain GPS fix.
      case 0, 1: .gps
      case 2: .differential
      case 3: .rtkFixed
      case 4: .rtkFloat
      case 5, 6: .deadReckoning
      case 7: .manualInput
      case 8: .simulation
      case 9: .pps
      default: nil
      }
    let device = Self.device(data)
    let sky = skies[device] ?? Sky()
    location.dop = sky.dop
    location.satellites = sky.satellites
    location.satellitesUsed = sky.satellitesUsed
    location.device = device.isEmpty ? nil : device
    return location
  }
}

private func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

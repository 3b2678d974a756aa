import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// Motion readings from the Linux kernel's IIO sensors, read through sysfs.
///
/// The source finds sensors under ``root`` (`/sys/bus/iio/devices`, or a directory laid
/// out the same way, or one device's directory) by their channel files, and polls each
/// requested one every interval: sysfs holds the latest sample, so a read is a fresh
/// value. When a sensor's `sampling_frequency` is below the requested rate and the file is
/// writable, the rate is raised to the nearest one the device lists as available (it is
/// never lowered: other programs may be reading the same sensor), and put back when the
/// source stops, unless something else has changed it since.
///
/// Errors: ``MotionError/Code/sourceNotFound`` for a missing root;
/// ``MotionError/Code/denied`` (final) when a sensor file may not be read;
/// ``MotionError/Code/sensorUnavailable`` for a requested kind no device has (final when
/// none of the requested kinds exists); ``MotionError/Code/unknown`` (transient) when a
/// device goes away — it is looked for again every second and readings resume when it
/// is back — or a file holds something that is not a number, reported once until a
/// number comes back. On a convertible with a sensor in the lid and one in the base, the
/// lid's (the display's) is used.
public final class IIOSource: MotionSource, @unchecked Sendable {
  // @unchecked Sendable: `root` and `name` are immutable; the reading thread's state is in
  // its own stack frame, and `reader` is itself safe.

  /// The kernel's directory of IIO devices.
  public static let systemRoot = "/sys/bus/iio/devices"

  /// Where sensors are looked for: ``IIOSource/systemRoot``, a directory laid out the same
  /// way, or one device's directory.
  public let root: String
  public let name: String
  private let reader = SourceThread()

  /// A source reading the sensors under `root`.
  public init(root: String = IIOSource.systemRoot) {
    self.root = root
    name = root == Self.systemRoot ? "iio" : "iio:\(root)"
  }

  /// What a look under a root found.
  public struct Discovery: Sendable {
    /// Every sensor, devices in number order.
    public var sensors: [IIOSensor]
    /// Sensors left out, with the reason.
    public var problems: [String]
    /// Why the root itself could not be read, if it could not.
    public var error: MotionError?

    /// The sensor of `kind` to use: the display's on a convertible, else the first.
    public func best(_ kind: SensorKind) -> IIOSensor? {
      let candidates = sensors.filter { $0.kind == kind }
      return candidates.first { ($0.label ?? "").contains("display") || ($0.label ?? "").contains("lid") }
        ?? candidates.first { !($0.label ?? "").contains("base") } ?? candidates.first
    }
  }

  /// Looks for sensors under `root`.
  public static func discover(root: String) -> Discovery {
    let entries: [String]
    switch SysfsAttribute.list(root) {
    case .success(let names): entries = names
    case .failure(let error):
      let code: MotionError.Code =
        error.isPermissionDenied ? .denied : error.isNotFound ? .sourceNotFound : .readError
      return Discovery(
        sensors: [], problems: [], error: MotionError(code, "cannot read \(root): \(error.reason)", final: true))
    }
    // A device's own directory holds channel files; the bus directory holds devices.
    if entries.contains(where: { $0.hasPrefix("in_") }) {
      let device = String(root.split(separator: "/").last ?? Substring(root))
      let found = IIOSensor.sensors(inDevice: root, named: device, files: entries)
      return Discovery(sensors: found.sensors, problems: found.problems)
    }
    var discovery = Discovery(sensors: [], problems: [])
    // The bus holds iio:deviceN (and triggerN, which have no channels), as the ABI lays it out.
    let devices = entries.filter { $0.hasPrefix("iio:device") }.sorted { deviceNumber($0) < deviceNumber($1) }
    for device in devices {
      let directory = root + "/" + device
      guard case .success(let files) = SysfsAttribute.list(directory) else { continue }
      let found = IIOSensor.sensors(inDevice: directory, named: device, files: files)
      discovery.sensors += found.sensors
      discovery.problems += found.problems
    }
    return discovery
  }

  private static func deviceNumber(_ name: String) -> (String, Int) {
    let digits = name.reversed().prefix { $0.isNumber }
    return (String(name.dropLast(digits.count)), Int(String(digits.reversed())) ?? -1)
  }

  public func start(sensors: Set<SensorKind>, interval: Double, _ sink: @escaping @Sendable (MotionSourceEvent) -> Void)
  {
    reader.start(name: "whereami.iio-source") { [self] stop in
      run(sensors, max(0.005, interval), stop, sink)
    }
  }

  public func stop() { reader.stop() }

  private func emit(_ event: MotionSourceEvent, _ sink: @Sendable (MotionSourceEvent) -> Void) {
    reader.emit(event, sink)
  }

  private func run(
    _ wanted: Set<SensorKind>, _ interval: Double, _ stop: StopSignal,
    _ sink: @escaping @Sendable (MotionSourceEvent) -> Void
  ) {
    let discovery = Self.discover(root: root)
    if let error = discovery.error { return emit(.error(error), sink) }
    for problem in discovery.problems { emit(.error(MotionError(.readError, problem)), sink) }
    var chosen: [SensorKind: IIOSensor] = [:]
    for kind in wanted.sorted() {
      if let sensor = discovery.best(kind) {
        chosen[kind] = sensor
      } else {
        let what = kind == .attitude ? "attitude (quaternion) sensor" : kind.rawValue
        emit(.error(MotionError(.sensorUnavailable, "no \(what) under \(root)", sensor: kind)), sink)
      }
    }
    guard !chosen.isEmpty else {
      let asked = wanted.sorted().map(\.rawValue).joined(separator: ", ")
      return emit(
        .error(
          MotionError(.sensorUnavailable, "\(name): none of the sensors asked for (\(asked)) exists", final: true)),
        sink)
    }
    // The rates raised, put back however the reading ends.
    var raised: [RaisedFrequency] = []
    defer { for change in raised { change.restore() } }
    for sensor in chosen.values {
      if let change = Self.raiseSamplingFrequency(sensor, to: 1 / interval) { raised.append(change) }
    }

    // Per kind: the failure last reported (reported once until a reading succeeds), and
    // whether its device is gone (looked for again each second).
    var reported: [SensorKind: IIOSensor.ReadFailure] = [:]
    var gone: Set<SensorKind> = []
    var lastSearch = 0.0
    var next = SystemClock.monotonic()
    while true {
      let time = SystemClock.wall()
      // The accelerometer last: its device motion then sees the same poll's others.
      for kind in chosen.keys.sorted(by: >) where !gone.contains(kind) {
        let sensor = chosen[kind]!
        do {
          let reading = try sensor.read(time: time)
          reported[kind] = nil
          emit(.reading(reading), sink)
        } catch {
          switch error {
          case .denied(let path, let reason):
            return emit(.error(MotionError(.denied, "cannot read \(path): \(reason)")), sink)
          case .gone:
            gone.insert(kind)
            emit(
              .error(
                MotionError(
                  .unknown,
                  "\(sensor.device) (\(kind.rawValue)) went away; its readings resume when it is back")), sink)
          case .notANumber(let path, let text):
            if reported[kind] != error {
              emit(
                .error(
                  MotionError(
                    .unknown,
                    "\(path): '\(text.prefix(40))' is not a number; \(kind.rawValue) readings resume with the next one")
                ), sink)
            }
          case .failed(let path, let reason):
            if reported[kind] != error {
              emit(.error(MotionError(.unknown, "cannot read \(path): \(reason); retrying")), sink)
            }
          }
          reported[kind] = error
        }
      }
      let now = SystemClock.monotonic()
      if !gone.isEmpty && now - lastSearch >= 1 {
        lastSearch = now
        let again = Self.discover(root: root)
        for kind in gone.sorted() {
          guard let sensor = again.best(kind) else { continue }
          chosen[kind] = sensor
          gone.remove(kind)
          reported[kind] = nil
          if let change = Self.raiseSamplingFrequency(sensor, to: 1 / interval) { raised.append(change) }
        }
      }
      next += interval
      if next < now { next = now }
      if !stop.sleep(next - now) { return }
    }
  }

  /// A sampling frequency this source raised: what to put back.
  struct RaisedFrequency {
    var file: String
    var original: String
    var written: String

    /// Writes the original rate back, unless the file no longer holds what was written
    /// (another program set its own rate meanwhile: that one stays).
    func restore() {
      guard let now = try? SysfsAttribute.read(file), Double(now) == Double(written) else { return }
      try? SysfsAttribute.write(file, original)
    }
  }

  /// Raises the sensor's sampling frequency to `rate` (or the nearest available above it)
  /// when it is lower and its file is writable; what it changed, to put back.
  static func raiseSamplingFrequency(_ sensor: IIOSensor, to rate: Double) -> RaisedFrequency? {
    guard let file = sensor.samplingFrequencyFile, SysfsAttribute.isWritable(file),
      let original = try? SysfsAttribute.read(file), let current = Double(original), current < rate
    else { return nil }
    let available = sensor.availableFrequencies.sorted()
    let target = available.first { $0 >= rate } ?? available.last ?? rate
    guard target > current else { return nil }
    let text = target == target.rounded() ? String(Int(target)) : String(target)
    guard (try? SysfsAttribute.write(file, text)) != nil else { return nil }
    return RaisedFrequency(file: file, original: original, written: text)
  }
}

/// What a motion source tells its manager.
public enum MotionSourceEvent: Sendable {
  /// A reading in the platform's units (g, rad/s, µT, a unit quaternion).
  case reading(SensorReading)
  /// A reading whose unit the source does not know (gpsd passes its receivers'
  /// acceleration, rotation and field through as the device sent them, and documents no
  /// unit): never scaled by a guess, and kept out of what needs g (gravity, shakes).
  case deviceUnits(SensorReading)
  /// An attitude a receiver reported in degrees (gpsd ATT: heading from true north,
  /// pitch, roll).
  case reportedAttitude(ReportedAttitude)
  /// Something went wrong; ``MotionError/isFinal`` errors end the source.
  case error(MotionError)
}

/// Heading, pitch and roll as a receiver reported them, degrees; `nil` for what it did
/// not send.
public struct ReportedAttitude: Sendable, Equatable {
  /// When it was reported, seconds: for gpsd, when the report arrived (since the Unix
  /// epoch); in a log, its time column.
  public var time: Double
  /// Degrees clockwise from true north.
  public var heading: Double?
  /// Degrees, bow (top) up positive.
  public var pitch: Double?
  /// Degrees, starboard (right side) down positive.
  public var roll: Double?
  /// The magnetic field's dip below the horizontal, degrees.
  public var dip: Double?
  /// The device, for a source with several.
  public var device: String?

  /// An attitude reported at `time` (seconds); the angles are degrees, `nil` for what the
  /// receiver did not send.
  public init(
    time: Double, heading: Double? = nil, pitch: Double? = nil, roll: Double? = nil, dip: Double? = nil,
    device: String? = nil
  ) {
    self.time = time
    self.heading = heading
    self.pitch = pitch
    self.roll = roll
    self.dip = dip
    self.device = device
  }
}

/// Where motion readings come from: the kernel's IIO sensors, gpsd, a recorded log.
///
/// A source reads on a thread of its own and reports through the sink it is started
/// with, in time order.
public protocol MotionSource: AnyObject, Sendable {
  /// A short description for messages (`iio:/sys/bus/iio/devices`, `shake.csv`).
  var name: String { get }
  /// Starts reading the `sensors` asked for, about every `interval` seconds where the
  /// source can choose (a live sensor; a log keeps its own pace). Asking for a kind the
  /// source lacks is reported as ``MotionError/Code/sensorUnavailable``.
  func start(sensors: Set<SensorKind>, interval: Double, _ sink: @escaping @Sendable (MotionSourceEvent) -> Void)
  /// Stops reading and releases files and sockets. When it returns the reading thread
  /// has ended and `sink` is not called again; it may be called from within the sink,
  /// and then the next call from elsewhere waits for the thread's end. Calling it again,
  /// or on a source that is not running, does no harm.
  func stop()
  /// Whether the source gives everything it has whatever it is asked for (a log, gpsd),
  /// so that the manager need not restart it (and a log start over) when another kind
  /// of update starts.
  var readsEverything: Bool { get }
}

extension MotionSource {
  public var readsEverything: Bool { false }
}

/// The kinds of sensor a motion source reads.
public enum SensorKind: String, Sendable, Hashable, CaseIterable, Comparable {
  /// Acceleration including gravity, g (1 g = 9.80665 m/s²).
  case accelerometer
  /// Rotation rate, rad/s, right-handed about each device axis.
  case gyroscope
  /// Magnetic field, µT.
  case magnetometer
  /// The device's attitude as a quaternion (x, y, z, w) from a fusion sensor (the
  /// kernel's `in_rot_quaternion`, a sensor hub's "device orientation").
  case attitude

  public static func < (a: SensorKind, b: SensorKind) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }

  /// The unit of its x, y, z, as printed.
  public var unit: String {
    switch self {
    case .accelerometer: "g"
    case .gyroscope: "rad/s"
    case .magnetometer: "µT"
    case .attitude: ""
    }
  }
}

/// One reading of one sensor, in the platform's units (see ``SensorKind``), along the
/// device's axes (the kernel's mount matrix applied).
public struct SensorReading: Sendable, Equatable {
  /// Seconds: since the Unix epoch for live sensors and logs that record it, or from any
  /// origin a log chose; only differences matter to pacing and filters.
  public var time: Double
  /// The sensor it comes from, which sets the unit of ``vector``.
  public var sensor: SensorKind
  /// The value along the device's axes: g, rad/s or µT by ``sensor``, or for
  /// ``SensorKind/attitude`` the quaternion's vector part, with the scalar part in ``w``.
  /// In a ``MotionSourceEvent/deviceUnits(_:)`` reading it is in the source's own unit,
  /// NaN for an axis the source did not send.
  public var vector: MotionVector
  /// The quaternion's scalar part, for ``SensorKind/attitude``.
  public var w: Double?
  /// The device it came from (`iio:device0`, `/dev/ttyUSB0` for gpsd), when a source has
  /// several.
  public var device: String?

  /// A reading of `sensor` at `time` (seconds); `w` is the quaternion's scalar part, for
  /// an attitude reading only, and `device` the device, for a source with several.
  public init(time: Double, sensor: SensorKind, vector: MotionVector, w: Double? = nil, device: String? = nil) {
    self.time = time
    self.sensor = sensor
    self.vector = vector
    self.w = w
    self.device = device
  }

  /// The reading's quaternion, for an attitude reading with a non-zero one.
  public var quaternion: Quaternion? {
    guard sensor == .attitude, let w else { return nil }
    return Quaternion(x: vector.x, y: vector.y, z: vector.z, w: w).normalized
  }
}

/// Standard gravity, m/s² per g: what Core Motion's g is.
public let standardGravity = 9.80665

/// The accelerometer's latest reading.
public struct AccelerometerData: Sendable, Equatable {
  /// When it was read, seconds (see ``SensorReading/time``).
  public var timestamp: Double
  /// g, gravity included: a device at rest reads 1 g towards the ground (lying face up,
  /// z ≈ −1 g), as Core Motion does and as Linux drivers with a correct mount matrix do
  /// (see the README's axis conventions).
  public var acceleration: MotionVector
}

/// The gyroscope's latest reading.
public struct GyroData: Sendable, Equatable {
  /// When it was read, seconds (see ``SensorReading/time``).
  public var timestamp: Double
  /// rad/s about the device's x, y and z axes, right-handed.
  public var rotationRate: MotionVector
}

/// The magnetometer's latest reading.
public struct MagnetometerData: Sendable, Equatable {
  /// When it was read, seconds (see ``SensorReading/time``).
  public var timestamp: Double
  /// µT, uncalibrated: as the sensor reports it, hard-iron offsets included.
  public var magneticField: MotionVector
}

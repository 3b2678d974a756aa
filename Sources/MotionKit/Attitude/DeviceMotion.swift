/// The device's attitude with gravity and the user's acceleration apart, as Core Motion's
/// `CMDeviceMotion`.
public struct DeviceMotion: Sendable, Equatable {
  /// The time of the reading that completed it, seconds (see ``SensorReading/time``); for
  /// gpsd's ATT, when the report arrived.
  public var timestamp: Double
  /// How the device is turned relative to the East-North-Up reference frame, whose
  /// ``MotionAttitude/referenceFrame`` says whether north is magnetic, true or arbitrary.
  public var attitude: MotionAttitude
  /// rad/s, from the gyroscope; `nil` without one.
  public var rotationRate: MotionVector?
  /// g along the device's axes: where gravity pulls (a device lying face up reads
  /// (0, 0, −1)).
  public var gravity: MotionVector
  /// g: acceleration the user gives the device, gravity removed; `nil` when the attitude
  /// came without an accelerometer in g (gpsd's ATT).
  public var userAcceleration: MotionVector?
  /// µT, when a magnetometer reports.
  public var magneticField: MotionVector?
  /// How the attitude was found.
  public var attitudeSource: AttitudeSource

  /// Degrees clockwise from the frame's north ([0, 360)), for a frame that has one.
  public var heading: Double? { attitude.heading }
}

/// Where a device motion's attitude comes from.
public enum AttitudeSource: String, Sendable, Equatable {
  /// A fusion sensor's quaternion (the kernel's `in_rot_quaternion`).
  case quaternionSensor = "quaternion"
  /// Gravity and the magnetic field (tilt-compensated compass), smoothed by the gyroscope
  /// when there is one.
  case accelerometerAndMagnetometer = "accelerometer+magnetometer"
  /// The gyroscope's rotation integrated, kept level by gravity: yaw from the gyroscope,
  /// from an arbitrary north.
  case accelerometerAndGyroscope = "accelerometer+gyroscope"
  /// Gravity alone, without a gyroscope: roll and pitch, and a yaw that stays where it
  /// was (an arbitrary north).
  case accelerometer = "accelerometer"
  /// Roll, pitch and heading a receiver reported (gpsd ATT).
  case reported = "reported"
}

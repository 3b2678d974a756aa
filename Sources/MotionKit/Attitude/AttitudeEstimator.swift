#if canImport(Glibc)
  import Glibc
#endif

/// Turns a stream of sensor readings into ``DeviceMotion``: the attitude, and gravity
/// apart from the user's acceleration.
///
/// - With a quaternion sensor, its attitude is used as it comes, and gravity is the
///   reference frame's down seen in the device's axes.
/// - Otherwise gravity is the accelerometer's reading through a first-order low-pass
///   filter of time constant ``gravityTimeConstant`` (0.5 s by default, so a 2 Hz shake
///   passes through at 16 %, a 4 Hz one at 8 %, and a tilt settles in 1.5 s), and the attitude is the
///   one that puts gravity straight down and, with a magnetometer, the field's horizontal
///   part at north (a tilt-compensated compass: TRIAD on gravity and field).
/// - With a gyroscope as well, the attitude follows the integrated rotation rate and is
///   pulled towards the accelerometer's vertical (and the magnetometer's north) with the
///   same time constant: a complementary filter, so gravity follows a fast turn without
///   lag and the gyroscope's drift is bounded. Gravity is then the attitude's down.
///
/// Readings must come in time order; a reading more than ``maximumGap`` after the one
/// before restarts the filters, as nothing is known of what happened between.
public struct AttitudeEstimator: Sendable {
  /// The low-pass (and complementary filter) time constant, seconds.
  public var gravityTimeConstant: Double
  /// Seconds without readings after which the estimate starts afresh.
  public var maximumGap: Double

  private var attitude: Quaternion?
  private var frame = ReferenceFrame.arbitrary
  private var gravity: MotionVector?
  private var lastAccelerationTime: Double?
  private var rotationRate: MotionVector?
  private var lastGyroTime: Double?
  private var magneticField: MotionVector?
  private var lastMagnetometerTime: Double?
  private var sensorAttitude: Quaternion?
  private var lastSensorAttitudeTime: Double?
  private var sawAccelerometer = false

  /// An estimator that knows nothing yet: its first accelerometer (or quaternion) reading
  /// starts the estimate. Both arguments are seconds (see ``gravityTimeConstant`` and
  /// ``maximumGap``).
  public init(gravityTimeConstant: Double = 0.5, maximumGap: Double = 1) {
    self.gravityTimeConstant = gravityTimeConstant
    self.maximumGap = maximumGap
  }

  /// Takes one reading; returns the device motion it completes: one per accelerometer
  /// reading, or per quaternion reading from a source without an accelerometer.
  public mutating func add(_ reading: SensorReading) -> DeviceMotion? {
    // A length that overflows is no measurement, finite components or not (1e308 g on
    // each axis): taken into the low-pass gravity, it would leave it unusable for
    // minutes (its length infinite, every attitude after it undefined).
    guard reading.vector.isFinite, reading.vector.magnitude.isFinite else { return nil }
    let time = reading.time
    switch reading.sensor {
    case .gyroscope:
      if let last = lastGyroTime, let attitude, sensorAttitude == nil || !isRecent(lastSensorAttitudeTime, time) {
        let step = time - last
        if step > 0 && step <= maximumGap {
          // dq/dt = ½ q ⊗ (0, ω): the rate is about the device's own axes.
          let rate = rotationRate ?? reading.vector
          let mean = (rate + reading.vector) * 0.5
          self.attitude = (attitude * Quaternion(axis: mean, angle: mean.magnitude * step)).normalized
        }
      }
      rotationRate = reading.vector
      lastGyroTime = time
      return nil
    case .magnetometer:
      magneticField = reading.vector
      lastMagnetometerTime = time
      return nil
    case .attitude:
      guard let quaternion = reading.quaternion else { return nil }
      sensorAttitude = quaternion
      lastSensorAttitudeTime = time
      attitude = quaternion
      frame = .magneticNorth
      if sawAccelerometer && isRecent(lastAccelerationTime, time) { return nil }
      let down = quaternion.conjugate.rotate(MotionVector(x: 0, y: 0, z: -1))
      // No accelerometer: gravity is known, the user's acceleration is not.
      return motion(time, gravity: down, user: nil, source: .quaternionSensor)
    case .accelerometer:
      sawAccelerometer = true
      return addAcceleration(reading.vector, time)
    }
  }

  private func isRecent(_ last: Double?, _ now: Double) -> Bool {
    guard let last else { return false }
    return now - last <= maximumGap && now >= last
  }

  private mutating func addAcceleration(_ acceleration: MotionVector, _ time: Double) -> DeviceMotion? {
    let step = lastAccelerationTime.map { time - $0 } ?? 0
    let restart = lastAccelerationTime == nil || step < 0 || step > maximumGap
    lastAccelerationTime = time
    let field = isRecent(lastMagnetometerTime, time) ? magneticField : nil
    if let quaternion = sensorAttitude, isRecent(lastSensorAttitudeTime, time) {
      let down = quaternion.conjugate.rotate(MotionVector(x: 0, y: 0, z: -1))
      return motion(time, gravity: down, user: acceleration - down, source: .quaternionSensor)
    }
    let gain = restart ? 1 : step / (gravityTimeConstant + step)
    let hasGyro = isRecent(lastGyroTime, time)
    if hasGyro, !restart, var attitude {
      attitude = Self.pullTowardsVertical(attitude, measuredDown: acceleration, gain: gain)
      if let field { attitude = Self.pullTowardsNorth(attitude, field: field, gain: gain) }
      self.attitude = attitude
      let down = attitude.conjugate.rotate(MotionVector(x: 0, y: 0, z: -1))
      gravity = down * (gravity?.magnitude ?? acceleration.magnitude)
      frame = field != nil || frame == .magneticNorth && field != nil ? .magneticNorth : frame
      return motion(
        time, gravity: down, user: acceleration - down,
        source: field != nil ? .accelerometerAndMagnetometer : .accelerometerAndGyroscope)
    }
    // Low-pass gravity; the attitude is what puts it down.
    let smoothed =
      restart ? acceleration : (gravity ?? acceleration) + (acceleration - (gravity ?? acceleration)) * gain
    gravity = smoothed
    guard let down = smoothed.normalized else { return nil }
    if let field, let fromCompass = Self.attitude(down: down, field: field) {
      attitude = fromCompass
      frame = .magneticNorth
    } else {
      attitude = Self.attitude(down: down, keepingYawOf: attitude)
      frame = .arbitrary
    }
    return motion(
      time, gravity: down, user: acceleration - down,
      source: field != nil && frame == .magneticNorth ? .accelerometerAndMagnetometer : .accelerometer)
  }

  private func motion(_ time: Double, gravity: MotionVector, user: MotionVector?, source: AttitudeSource)
    -> DeviceMotion?
  {
    guard let attitude else { return nil }
    return DeviceMotion(
      timestamp: time, attitude: MotionAttitude(quaternion: attitude, referenceFrame: frame),
      rotationRate: isRecent(lastGyroTime, time) ? rotationRate : nil, gravity: gravity, userAcceleration: user,
      magneticField: isRecent(lastMagnetometerTime, time) ? magneticField : nil, attitudeSource: source)
  }

  // MARK: The attitude from vectors

  /// The attitude that puts `down` (device axes, unit) straight down and the horizontal
  /// part of `field` at north (TRIAD): rows east, north, up, each in device axes. `nil`
  /// when the field is (nearly) vertical, which leaves north undefined.
  public static func attitude(down: MotionVector, field: MotionVector) -> Quaternion? {
    let up = -down
    guard let east = field.cross(up).normalized, field.cross(up).magnitude > 1e-3 * field.magnitude else {
      return nil
    }
    let north = up.cross(east)
    return Quaternion(RotationMatrix(rows: east, north, up))
  }

  /// The attitude that puts `down` straight down, turned about the vertical as `previous`
  /// was (or, without one, with the device's top, or its back when the top is vertical,
  /// at the frame's north).
  static func attitude(down: MotionVector, keepingYawOf previous: Quaternion?) -> Quaternion {
    let up = -down
    if let previous {
      // The previous attitude's vertical, corrected to the measured one by the shortest
      // rotation: yaw does not change.
      return pullTowardsVertical(previous, measuredDown: down, gain: 1)
    }
    var forward = MotionVector(x: 0, y: 1, z: 0)
    if abs(forward.dot(up)) > 0.9 { forward = MotionVector(x: 0, y: 0, z: -1) }
    let east = (forward.cross(up)).normalized ?? MotionVector(x: 1, y: 0, z: 0)
    let north = up.cross(east)
    return Quaternion(RotationMatrix(rows: east, north, up))
  }

  /// `attitude` turned by `gain` of the rotation that brings its down onto the measured
  /// one (device axes): q ⊗ r, where r rotates the measured down onto the predicted one.
  static func pullTowardsVertical(_ attitude: Quaternion, measuredDown: MotionVector, gain: Double) -> Quaternion {
    guard let measured = measuredDown.normalized else { return attitude }
    let predicted = attitude.conjugate.rotate(MotionVector(x: 0, y: 0, z: -1))
    let axis = measured.cross(predicted)
    let angle = atan2(axis.magnitude, measured.dot(predicted))
    guard axis.magnitude > 1e-12 else { return attitude }
    return (attitude * Quaternion(axis: axis, angle: angle * gain)).normalized ?? attitude
  }

  /// `attitude` turned about the vertical by `gain` of the angle that puts the field's
  /// horizontal part at north.
  static func pullTowardsNorth(_ attitude: Quaternion, field: MotionVector, gain: Double) -> Quaternion {
    let inReference = attitude.rotate(field)
    guard (inReference.x * inReference.x + inReference.y * inReference.y) > 1e-12 else { return attitude }
    // Clockwise from north; a turn about up by +φ takes it back to north.
    let azimuth = atan2(inReference.x, inReference.y)
    return (Quaternion(axis: MotionVector(x: 0, y: 0, z: 1), angle: azimuth * gain) * attitude).normalized ?? attitude
  }
}

import Foundation
import MotionKit
import TestSupport
import Testing

/// Gravity apart from user acceleration, and the attitude's tracking, on generated motion.
@Suite struct AttitudeEstimatorTests {
  /// A device turning about a tilted axis while the user moves it to and fro: readings at
  /// `rate` Hz, with or without a gyroscope and magnetometer.
  static func run(
    rate: Double, gyroscope: Bool, magnetometer: Bool, turn: Double, seconds: Double, userScale: Double = 1
  ) -> (
    gravityError: Double, userError: Double, headingError: Double?
  ) {
    var estimator = AttitudeEstimator()
    var truth = MotionAttitude(heading: 40, pitch: 20, roll: -15, referenceFrame: .magneticNorth).quaternion
    let axis = MotionVector(x: 0.2, y: -0.3, z: 1)
    let rotation = axis.normalized! * turn
    let field = MotionVector(x: 0, y: 20, z: -44)
    var worst = (gravity: 0.0, user: 0.0, heading: 0.0)
    let step = 1 / rate
    for index in 0..<Int(seconds * rate) {
      let t = Double(index) * step
      truth = (truth * Quaternion(axis: rotation, angle: rotation.magnitude * step)).normalized!
      let gravity = truth.conjugate.rotate(MotionVector(x: 0, y: 0, z: -1))
      let user =
        MotionVector(x: 0.3 * sin(2 * Double.pi * 1.5 * t), y: 0.1 * cos(2 * Double.pi * 0.7 * t), z: 0)
        * userScale
      if gyroscope { _ = estimator.add(SensorReading(time: t, sensor: .gyroscope, vector: rotation)) }
      if magnetometer {
        _ = estimator.add(SensorReading(time: t, sensor: .magnetometer, vector: truth.conjugate.rotate(field)))
      }
      guard let motion = estimator.add(SensorReading(time: t, sensor: .accelerometer, vector: gravity + user)) else {
        continue
      }
      guard t > 3 else { continue }  // settled
      worst.gravity = max(worst.gravity, (motion.gravity - gravity).magnitude)
      worst.user = max(worst.user, (motion.userAcceleration! - user).magnitude)
      if let heading = motion.heading {
        let expected = MotionAttitude(quaternion: truth, referenceFrame: .magneticNorth).heading!
        worst.heading = max(worst.heading, angleDifference(heading, expected))
      }
    }
    return (worst.gravity, worst.user, magnetometer ? worst.heading : nil)
  }

  /// What of the user's motion leaks into gravity through the filter (time constant τ):
  /// each component's amplitude times the first-order low-pass gain at its frequency.
  static let leak =
    0.3 / (1 + pow(2 * Double.pi * 1.5 * 0.5, 2)).squareRoot() + 0.1
    / (1 + pow(2 * Double.pi * 0.7 * 0.5, 2)).squareRoot()
  /// A tilt error of `gravity` g turns into a heading error of up to its angle times
  /// tan(dip) (here 20 µT horizontal, 44 µT down).
  static func headingBound(_ gravity: Double) -> Double { asin(min(1, gravity)) * 44 / 20 * 180 / Double.pi + 1 }

  /// One absurd reading among sensible ones (a log's 1e308 g on each axis: finite numbers
  /// whose length overflows) costs that reading: every reading after it still gives its
  /// attitude. The low-pass gravity had taken it in, and no attitude came for the rest of
  /// the log.
  @Test func anAbsurdReadingCostsItselfOnly() {
    var estimator = AttitudeEstimator()
    var motions = 0
    for index in 0..<100 {
      let absurd = index == 10
      let vector = absurd ? MotionVector(x: 1e308, y: 1e308, z: 1e308) : MotionVector(x: 0, y: 0, z: -1)
      let motion = estimator.add(SensorReading(time: Double(index) * 0.02, sensor: .accelerometer, vector: vector))
      if absurd {
        #expect(motion == nil)
      } else if let motion {
        motions += 1
        #expect(abs(motion.attitude.pitch) < 1e-9 && abs(motion.attitude.roll) < 1e-9, "\(index): \(motion.attitude)")
      }
    }
    #expect(motions == 99)
  }

  @Test(arguments: [25.0, 50, 100, 200])
  func aGyroscopeKeepsGravityThroughAFastTurn(rate: Double) {
    // 90°/s and no user motion: the gyroscope carries gravity round exactly.
    let turning = Self.run(
      rate: rate, gyroscope: true, magnetometer: true, turn: Double.pi / 2, seconds: 10, userScale: 0)
    #expect(turning.gravityError < 0.005, "\(turning)")
    #expect(turning.headingError! < 0.5, "\(turning)")
    // Without one, the low-pass filter lags the turn by tens of degrees.
    let lagging = Self.run(
      rate: rate, gyroscope: false, magnetometer: true, turn: Double.pi / 2, seconds: 10, userScale: 0)
    #expect(lagging.gravityError > 0.1, "\(lagging)")
    // The user's to-and-fro on top: within the filter's leak, as the method states.
    let moving = Self.run(rate: rate, gyroscope: true, magnetometer: true, turn: Double.pi / 2, seconds: 10)
    #expect(moving.gravityError < 1.1 * Self.leak, "\(moving), leak \(Self.leak)")
    #expect(moving.userError < 1.1 * Self.leak, "\(moving)")
    #expect(moving.headingError! < Self.headingBound(moving.gravityError), "\(moving)")
  }

  @Test(arguments: [25.0, 50, 100, 200])
  func withoutAGyroscopeTheLowPassSeparatesSlowMotion(rate: Double) {
    let still = Self.run(rate: rate, gyroscope: false, magnetometer: true, turn: 0, seconds: 10)
    #expect(still.gravityError < 1.1 * Self.leak, "\(still), leak \(Self.leak)")
    #expect(still.headingError! < Self.headingBound(still.gravityError), "\(still)")
    let quiet = Self.run(rate: rate, gyroscope: false, magnetometer: true, turn: 0, seconds: 10, userScale: 0)
    #expect(quiet.gravityError < 1e-9 && quiet.headingError! < 1e-6, "\(quiet)")
  }

  /// The attitude says what made it: with a gyroscope and no magnetometer its yaw is the
  /// gyroscope's integral, not the accelerometer's (which gives none).
  @Test func theAttitudeSourceNamesTheGyroscopeWhenItTurnsTheYaw() {
    let down = MotionVector(x: 0, y: 0, z: -1)
    var withGyro = AttitudeEstimator()
    var alone = AttitudeEstimator()
    var sources: (gyro: AttitudeSource?, alone: AttitudeSource?) = (nil, nil)
    for step in 0..<50 {
      let t = Double(step) * 0.01
      _ = withGyro.add(SensorReading(time: t, sensor: .gyroscope, vector: MotionVector(x: 0, y: 0, z: 0.5)))
      sources.gyro = withGyro.add(SensorReading(time: t, sensor: .accelerometer, vector: down))?.attitudeSource
      sources.alone = alone.add(SensorReading(time: t, sensor: .accelerometer, vector: down))?.attitudeSource
    }
    #expect(sources.gyro == .accelerometerAndGyroscope)
    #expect(sources.alone == .accelerometer)
  }

  @Test func aQuaternionSensorIsUsedAsItComes() {
    var estimator = AttitudeEstimator()
    let attitude = MotionAttitude(heading: 123, pitch: 4, roll: -7, referenceFrame: .magneticNorth).quaternion
    let q = attitude
    _ = estimator.add(
      SensorReading(time: 0, sensor: .attitude, vector: MotionVector(x: q.x, y: q.y, z: q.z), w: q.w))
    let gravity = q.conjugate.rotate(MotionVector(x: 0, y: 0, z: -1))
    let motion = estimator.add(
      SensorReading(time: 0.01, sensor: .accelerometer, vector: gravity + MotionVector(x: 0.5, y: 0, z: 0)))!
    #expect(motion.attitudeSource == .quaternionSensor)
    #expect(angleDifference(motion.heading!, 123) < 1e-9)
    #expect((motion.userAcceleration! - MotionVector(x: 0.5, y: 0, z: 0)).magnitude < 1e-9)
  }
}

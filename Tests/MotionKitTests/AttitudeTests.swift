import Foundation
import MotionKit
import TestSupport
import Testing

/// Quaternions, rotation matrices, the attitude's angles and headings, against values
/// computed by hand and against each other over random attitudes.
@Suite struct AttitudeTests {
  static let degrees = 180 / Double.pi

  @Test func yawFollowsTheIssuesFormulaAndGivesTheHeading() {
    // A quarter turn counterclockwise about up: the device's x axis points north, its top
    // west. atan2(2(wz + xy), 1 − 2(y² + z²)) = atan2(2 · 0.7071², 1 − 2 · 0.5) = 90°.
    let q = Quaternion(x: 0, y: 0, z: 0.5.squareRoot(), w: 0.5.squareRoot())
    #expect(abs(q.yaw * Self.degrees - 90) < 1e-9)
    let attitude = MotionAttitude(quaternion: q, referenceFrame: .magneticNorth)
    #expect(abs(attitude.heading! - 270) < 1e-9)
    // Level, the heading is −yaw.
    var random = SeededRandom(seed: 3)
    for _ in 0..<200 {
      let heading = random.uniform(0...359.999)
      let level = MotionAttitude(heading: heading, pitch: 0, roll: 0, referenceFrame: .magneticNorth)
      let fromYaw = (-level.yaw * Self.degrees).truncatingRemainder(dividingBy: 360) + 360
      #expect(angleDifference(level.heading!, fromYaw) < 1e-9)
      #expect(angleDifference(level.heading!, heading) < 1e-9)
    }
  }

  @Test func eulerAnglesRoundTrip() {
    var random = SeededRandom(seed: 4)
    for _ in 0..<500 {
      let (heading, pitch, roll) = (random.uniform(0...359.9), random.uniform(-55...55), random.uniform(-80...80))
      let attitude = MotionAttitude(heading: heading, pitch: pitch, roll: roll, referenceFrame: .magneticNorth)
      #expect(abs(attitude.pitch * Self.degrees - pitch) < 1e-9)
      #expect(abs(attitude.roll * Self.degrees - roll) < 1e-9)
      #expect(angleDifference(attitude.heading!, heading) < 1e-9)
      #expect(attitude.rotationMatrix.isRotation(tolerance: 1e-12))
      // Matrix → quaternion → matrix.
      let back = Quaternion(attitude.rotationMatrix)
      #expect(back.angle(to: attitude.quaternion) < 1e-9)
    }
  }

  @Test func aDeviceHeldUpLikeACameraHasTheHeadingOfItsBack() {
    // Top up (pitch 90°), the back (−z) faces the heading.
    let attitude = MotionAttitude(heading: 30, pitch: 89, roll: 0, referenceFrame: .magneticNorth)
    #expect(angleDifference(attitude.heading!, 30) < 1e-6)
    #expect(MotionAttitude(heading: 30, pitch: 0, roll: 0, referenceFrame: .arbitrary).heading == nil)
  }

  @Test func tiltCompensatedCompassAgreesWithTheAttitudeEverywhere() {
    // Random attitudes and fields of every inclination the Earth has (dip −80° ... 80°):
    // gravity and field seen in the device's axes give the attitude back exactly.
    var random = SeededRandom(seed: 5)
    var worst = 0.0
    for _ in 0..<2000 {
      let truth = MotionAttitude(
        heading: random.uniform(0...359.9), pitch: random.uniform(-60...60), roll: random.uniform(-60...60),
        referenceFrame: .magneticNorth)
      let dip = random.uniform(-80...80) / Self.degrees
      let strength = random.uniform(22...66)
      let field = MotionVector(x: 0, y: strength * cos(dip), z: -strength * sin(dip))
      let down = truth.quaternion.conjugate.rotate(MotionVector(x: 0, y: 0, z: -1))
      let measured = truth.quaternion.conjugate.rotate(field)
      let estimate = AttitudeEstimator.attitude(down: down, field: measured)!
      worst = max(worst, estimate.angle(to: truth.quaternion))
    }
    #expect(worst < 1e-9)
  }

  @Test func mountMatricesAreParsedAsTheKernelWritesThem() {
    let matrix = IIOSensor.parseMountMatrix("0, 1, 0; -1, 0, 0; 0, 0, 1")!
    #expect(matrix * MotionVector(x: 1, y: 2, z: 3) == MotionVector(x: 2, y: -1, z: 3))
    #expect(IIOSensor.parseMountMatrix("1, 0, 0; 0, 1, 0; 0, 0, -1") != nil, "a mirrored axis")
    #expect(IIOSensor.parseMountMatrix("1, 0, 0; 0, 1, 0") == nil)
    #expect(IIOSensor.parseMountMatrix("1, 0, 0; 0, 1, 0; 0, 0, x") == nil)
    #expect(IIOSensor.parseMountMatrix("2, 0, 0; 0, 1, 0; 0, 0, 1") == nil)
  }
}

/// The smaller angle between two headings, degrees.
func angleDifference(_ a: Double, _ b: Double) -> Double {
  let d = abs(a - b).truncatingRemainder(dividingBy: 360)
  return min(d, 360 - d)
}

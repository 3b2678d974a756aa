#if canImport(Glibc)
  import Glibc
#endif

/// How the device is turned, relative to a reference frame, as Core Motion's `CMAttitude`.
///
/// The reference frame is East-North-Up: x east, y north (magnetic, unless the frame says
/// arbitrary), z up. The attitude rotates device axes into it. Angles are radians:
/// ``pitch`` is the device's top above the horizontal and ``roll`` its right side below
/// it (the z-x-y angles ``init(heading:pitch:roll:referenceFrame:)`` takes), ``yaw`` the
/// z-y-x yaw `atan2(2(wz + xy), 1 − 2(y² + z²))` about the vertical, counterclockwise
/// seen from above. Yaw and the heading agree (heading = −yaw) with the device level;
/// tilted about both axes, yaw is the z-y-x angle and differs from the heading, which is
/// where the top points.
public struct MotionAttitude: Sendable, Equatable {
  /// Device → reference rotation.
  public var quaternion: Quaternion
  /// What the reference frame's y axis points at.
  public var referenceFrame: ReferenceFrame

  /// The attitude `quaternion` (device → reference, expected to be a unit quaternion; it
  /// is stored as given) describes in `referenceFrame`.
  public init(quaternion: Quaternion, referenceFrame: ReferenceFrame) {
    self.quaternion = quaternion
    self.referenceFrame = referenceFrame
  }

  /// The attitude of a heading (degrees clockwise from north), pitch (degrees, top up)
  /// and roll (degrees, right side down), applied in that order: yaw, then pitch about the
  /// turned x axis, then roll about the pitched y axis.
  public init(heading: Double, pitch: Double, roll: Double, referenceFrame: ReferenceFrame) {
    let radians = Double.pi / 180
    let turn = Quaternion(axis: MotionVector(x: 0, y: 0, z: 1), angle: -heading * radians)
    let tilt = Quaternion(axis: MotionVector(x: 1, y: 0, z: 0), angle: pitch * radians)
    let bank = Quaternion(axis: MotionVector(x: 0, y: 1, z: 0), angle: roll * radians)
    self.init(quaternion: (turn * tilt * bank).normalized ?? .identity, referenceFrame: referenceFrame)
  }

  /// The same rotation as a matrix: reference = M · device; column 2 (m12, m22, m32) is
  /// where the device's top points.
  public var rotationMatrix: RotationMatrix { quaternion.rotationMatrix }

  /// atan2(2(wz + xy), 1 − 2(y² + z²)): the angle of the device's x axis from east,
  /// counterclockwise. With the device level, the top points −yaw clockwise from north.
  public var yaw: Double { quaternion.yaw }

  /// The device's x axis (right side) above the horizontal is −roll; radians, −π ... π.
  public var roll: Double {
    let m = rotationMatrix
    return atan2(-m.m31, m.m33)
  }

  /// The device's top above the horizontal, radians, −π/2 ... π/2.
  public var pitch: Double {
    let m = rotationMatrix
    return asin(max(-1, min(1, m.m32)))
  }

  /// Where the device points, degrees clockwise from the frame's north in [0, 360): its
  /// top when the top is within 60° of level, else its back (where a rear camera looks),
  /// so that a device held up like a camera still has a heading; `nil` when the frame is
  /// arbitrary.
  public var heading: Double? {
    guard referenceFrame != .arbitrary else { return nil }
    let m = rotationMatrix
    var east = m.m12
    var north = m.m22
    if abs(m.m32) > sin(60 * Double.pi / 180) {
      // −z, the back of the device.
      east = -m.m13
      north = -m.m23
    }
    guard east != 0 || north != 0 else { return nil }
    return Self.degrees360(atan2(east, north))
  }

  /// `radians` as degrees in [0, 360).
  static func degrees360(_ radians: Double) -> Double {
    var degrees = radians * 180 / Double.pi
    degrees = degrees.truncatingRemainder(dividingBy: 360)
    if degrees < 0 { degrees += 360 }
    return degrees >= 360 ? 0 : degrees
  }
}

/// What the reference frame's north is.
public enum ReferenceFrame: String, Sendable, Equatable {
  /// Magnetic north, from a magnetometer or a fusion sensor.
  case magneticNorth
  /// True north: a heading a receiver reported as true (gpsd ATT).
  case trueNorth
  /// The vertical is known, north is not: yaw starts where the device first pointed and
  /// follows the gyroscope (Core Motion's `xArbitraryZVertical`).
  case arbitrary
}

#if canImport(Glibc)
  import Glibc
#endif

/// A rotation as a unit quaternion, x, y, z the vector part and w the scalar part (the
/// order the kernel's `in_rot_quaternion_raw` and Core Motion's `CMQuaternion` use).
///
/// An attitude quaternion rotates vectors given in the device's axes into the reference
/// frame's: `q.rotate(v)` is q·v·q*.
public struct Quaternion: Sendable, Equatable, Hashable {
  /// The vector part's x component: for a unit quaternion, the rotation axis's x times
  /// sin(angle / 2).
  public var x: Double
  /// The vector part's y component: the rotation axis's y times sin(angle / 2).
  public var y: Double
  /// The vector part's z component: the rotation axis's z times sin(angle / 2).
  public var z: Double
  /// The scalar part: cos(angle / 2) for a unit quaternion.
  public var w: Double

  /// A quaternion of the given parts, as given: not normalized (see ``normalized``).
  public init(x: Double, y: Double, z: Double, w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  /// No rotation.
  public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

  /// The rotation by `angle` radians about `axis` (right-handed; any length but zero).
  public init(axis: MotionVector, angle: Double) {
    guard let unit = axis.normalized else {
      self = .identity
      return
    }
    let half = angle / 2
    let s = sin(half)
    self.init(x: unit.x * s, y: unit.y * s, z: unit.z * s, w: cos(half))
  }

  /// The rotation a rotation matrix describes (Shepperd's method, stable for every angle).
  public init(_ m: RotationMatrix) {
    let trace = m.m11 + m.m22 + m.m33
    if trace > 0 {
      let s = (trace + 1).squareRoot() * 2
      self.init(x: (m.m32 - m.m23) / s, y: (m.m13 - m.m31) / s, z: (m.m21 - m.m12) / s, w: s / 4)
    } else if m.m11 > m.m22 && m.m11 > m.m33 {
      let s = (1 + m.m11 - m.m22 - m.m33).squareRoot() * 2
      self.init(x: s / 4, y: (m.m12 + m.m21) / s, z: (m.m13 + m.m31) / s, w: (m.m32 - m.m23) / s)
    } else if m.m22 > m.m33 {
      let s = (1 + m.m22 - m.m11 - m.m33).squareRoot() * 2
      self.init(x: (m.m12 + m.m21) / s, y: s / 4, z: (m.m23 + m.m32) / s, w: (m.m13 - m.m31) / s)
    } else {
      let s = (1 + m.m33 - m.m11 - m.m22).squareRoot() * 2
      self.init(x: (m.m13 + m.m31) / s, y: (m.m23 + m.m32) / s, z: s / 4, w: (m.m21 - m.m12) / s)
    }
    self = normalized ?? .identity
  }

  /// The length √(x² + y² + z² + w²): 1 for a rotation.
  public var norm: Double { (x * x + y * y + z * z + w * w).squareRoot() }

  /// The quaternion scaled to norm 1, with w ≥ 0 (q and −q are the same rotation);
  /// `nil` for a zero or non-finite one.
  public var normalized: Quaternion? {
    let n = norm
    guard n > 0, n.isFinite else { return nil }
    let sign: Double = w < 0 ? -1 : 1
    return Quaternion(x: sign * x / n, y: sign * y / n, z: sign * z / n, w: sign * w / n)
  }

  /// The inverse rotation.
  public var conjugate: Quaternion { Quaternion(x: -x, y: -y, z: -z, w: w) }

  /// The Hamilton product: `a * b` rotates by b, then by a.
  public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
    Quaternion(
      x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
      y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
      z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
      w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
  }

  /// `v` rotated by this (unit) quaternion.
  public func rotate(_ v: MotionVector) -> MotionVector { rotationMatrix * v }

  /// The same rotation as a matrix.
  public var rotationMatrix: RotationMatrix {
    let (xx, yy, zz) = (x * x, y * y, z * z)
    let (xy, xz, yz) = (x * y, x * z, y * z)
    let (wx, wy, wz) = (w * x, w * y, w * z)
    return RotationMatrix(
      m11: 1 - 2 * (yy + zz), m12: 2 * (xy - wz), m13: 2 * (xz + wy),
      m21: 2 * (xy + wz), m22: 1 - 2 * (xx + zz), m23: 2 * (yz - wx),
      m31: 2 * (xz - wy), m32: 2 * (yz + wx), m33: 1 - 2 * (xx + yy))
  }

  /// The rotation about the reference frame's vertical (z) axis, radians counterclockwise
  /// seen from above: atan2(2(wz + xy), 1 − 2(y² + z²)), the first of the z-y-x (yaw,
  /// pitch, roll) Tait–Bryan angles.
  public var yaw: Double { atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)) }

  /// The angle in radians between this rotation and `other` (0 ... π).
  public func angle(to other: Quaternion) -> Double {
    // From the difference rotation's parts: atan2 keeps small angles exact, where
    // acos of a dot product near 1 loses half the digits.
    let d = self.conjugate * other
    let vector = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
    return 2 * atan2(vector, abs(d.w))
  }
}

/// A 3×3 rotation matrix, rows first (m12 is row 1, column 2), as Core Motion's
/// `CMRotationMatrix`. An attitude's matrix takes device axes to reference axes:
/// reference = M · device; its columns are the device's axes seen in the reference frame.
public struct RotationMatrix: Sendable, Equatable, Hashable {
  /// Row 1, column 1: in an attitude's matrix, the east component of the device's x axis.
  public var m11: Double
  /// Row 1, column 2: in an attitude's matrix, the east component of the device's y axis.
  public var m12: Double
  /// Row 1, column 3: in an attitude's matrix, the east component of the device's z axis.
  public var m13: Double
  /// Row 2, column 1: in an attitude's matrix, the north component of the device's x axis.
  public var m21: Double
  /// Row 2, column 2: in an attitude's matrix, the north component of the device's y axis.
  public var m22: Double
  /// Row 2, column 3: in an attitude's matrix, the north component of the device's z axis.
  public var m23: Double
  /// Row 3, column 1: in an attitude's matrix, the up component of the device's x axis.
  public var m31: Double
  /// Row 3, column 2: in an attitude's matrix, the up component of the device's y axis.
  public var m32: Double
  /// Row 3, column 3: in an attitude's matrix, the up component of the device's z axis.
  public var m33: Double

  /// The matrix of the given entries, rows first; not checked to be a rotation (see
  /// ``isRotation(tolerance:)``).
  public init(
    m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double, m31: Double, m32: Double,
    m33: Double
  ) {
    (self.m11, self.m12, self.m13) = (m11, m12, m13)
    (self.m21, self.m22, self.m23) = (m21, m22, m23)
    (self.m31, self.m32, self.m33) = (m31, m32, m33)
  }

  /// The matrix whose rows are `a`, `b` and `c`.
  public init(rows a: MotionVector, _ b: MotionVector, _ c: MotionVector) {
    self.init(m11: a.x, m12: a.y, m13: a.z, m21: b.x, m22: b.y, m23: b.z, m31: c.x, m32: c.y, m33: c.z)
  }

  /// The identity matrix: no rotation.
  public static let identity = RotationMatrix(
    rows: .init(x: 1, y: 0, z: 0), .init(x: 0, y: 1, z: 0), .init(x: 0, y: 0, z: 1))

  /// The product M · v: for an attitude's matrix, the device-axes vector `v` in reference
  /// axes.
  public static func * (m: RotationMatrix, v: MotionVector) -> MotionVector {
    MotionVector(
      x: m.m11 * v.x + m.m12 * v.y + m.m13 * v.z,
      y: m.m21 * v.x + m.m22 * v.y + m.m23 * v.z,
      z: m.m31 * v.x + m.m32 * v.y + m.m33 * v.z)
  }

  /// The matrix with rows and columns swapped: for a rotation, its inverse (reference axes
  /// back to device axes).
  public var transposed: RotationMatrix {
    RotationMatrix(m11: m11, m12: m21, m13: m31, m21: m12, m22: m22, m23: m32, m31: m13, m32: m23, m33: m33)
  }

  /// Whether the matrix is a rotation within `tolerance`: orthonormal rows, determinant +1.
  public func isRotation(tolerance: Double = 1e-3) -> Bool {
    isOrthonormal(tolerance: tolerance) && abs(determinant - 1) <= tolerance
  }

  /// Whether the rows are unit vectors at right angles to each other (within
  /// `tolerance`): a rotation, or a rotation with a mirror (determinant −1); lengths and
  /// angles are kept either way.
  public func isOrthonormal(tolerance: Double = 1e-3) -> Bool {
    let rows = [
      MotionVector(x: m11, y: m12, z: m13), MotionVector(x: m21, y: m22, z: m23), MotionVector(x: m31, y: m32, z: m33),
    ]
    for i in 0..<3 {
      guard abs(rows[i].magnitude - 1) <= tolerance else { return false }
      for j in (i + 1)..<3 where abs(rows[i].dot(rows[j])) > tolerance { return false }
    }
    return true
  }

  /// The determinant: +1 for a rotation, −1 for a mirror.
  public var determinant: Double {
    MotionVector(x: m11, y: m12, z: m13).cross(MotionVector(x: m21, y: m22, z: m23))
      .dot(MotionVector(x: m31, y: m32, z: m33))
  }
}

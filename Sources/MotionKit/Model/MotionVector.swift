/// Three components along the device's axes, in the unit of what they measure (g, rad/s,
/// µT).
///
/// The axes are the device's, as Core Motion and the kernel's mount matrix define them:
/// with the device in its natural orientation in front of you, x points right, y points
/// up (to the top of the screen) and z out of the screen, towards you.
public struct MotionVector: Sendable, Equatable, Hashable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public var z: Double

  public init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  public static let zero = MotionVector(x: 0, y: 0, z: 0)

  /// The Euclidean length.
  public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }

  /// The largest absolute component: what a per-axis threshold compares.
  public var largestComponent: Double { max(abs(x), abs(y), abs(z)) }

  /// The vector scaled to length 1; `nil` for a zero (or non-finite) vector.
  public var normalized: MotionVector? {
    let length = magnitude
    guard length > 0, length.isFinite else { return nil }
    return self * (1 / length)
  }

  public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

  public static func + (a: MotionVector, b: MotionVector) -> MotionVector {
    MotionVector(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z)
  }
  public static func - (a: MotionVector, b: MotionVector) -> MotionVector {
    MotionVector(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z)
  }
  public static func * (a: MotionVector, factor: Double) -> MotionVector {
    MotionVector(x: a.x * factor, y: a.y * factor, z: a.z * factor)
  }
  public static prefix func - (a: MotionVector) -> MotionVector { MotionVector(x: -a.x, y: -a.y, z: -a.z) }

  /// The dot product.
  public func dot(_ other: MotionVector) -> Double { x * other.x + y * other.y + z * other.z }

  /// The cross product, self × other (right-handed).
  public func cross(_ other: MotionVector) -> MotionVector {
    MotionVector(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
  }

  public var description: String { "(\(x), \(y), \(z))" }
}

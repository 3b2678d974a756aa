/// Three components along the device's axes, in the unit of what they measure (g, rad/s,
/// µT).
///
/// The axes are the device's, as Core Motion and the kernel's mount matrix define them:
/// with the device in its natural orientation in front of you, x points right, y points
/// up (to the top of the screen) and z out of the screen, towards you.
public struct MotionVector: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// The component along the device's x axis, towards its right side.
  public var x: Double
  /// The component along the device's y axis, towards its top.
  public var y: Double
  /// The component along the device's z axis, out of the screen towards you.
  public var z: Double

  /// A vector of the given components, in the unit of what it measures.
  public init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// The zero vector: no acceleration, rotation or field.
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

  /// Whether every component is finite: no NaN (a missing axis) and no infinity.
  public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

  /// The component-wise sum.
  public static func + (a: MotionVector, b: MotionVector) -> MotionVector {
    MotionVector(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z)
  }
  /// The component-wise difference, `a` minus `b`.
  public static func - (a: MotionVector, b: MotionVector) -> MotionVector {
    MotionVector(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z)
  }
  /// `a` with each component multiplied by `factor`.
  public static func * (a: MotionVector, factor: Double) -> MotionVector {
    MotionVector(x: a.x * factor, y: a.y * factor, z: a.z * factor)
  }
  /// The vector of the same length pointing the opposite way.
  public static prefix func - (a: MotionVector) -> MotionVector { MotionVector(x: -a.x, y: -a.y, z: -a.z) }

  /// The dot product.
  public func dot(_ other: MotionVector) -> Double { x * other.x + y * other.y + z * other.z }

  /// The cross product, self × other (right-handed).
  public func cross(_ other: MotionVector) -> MotionVector {
    MotionVector(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
  }

  public var description: String { "(\(x), \(y), \(z))" }
}

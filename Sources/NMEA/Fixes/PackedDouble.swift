/// A `Double?` in the eight bytes of a `Double`: NaN stands for absent.
///
/// `Double?` takes nine bytes, sixteen in a struct. Fixes and locations carry two dozen
/// optional measurements and are copied at every stage from the decoder to the printed
/// line, so their size is much of what a fix costs. No measurement is NaN: a NaN given
/// is absent.
@propertyWrapper
public struct PackedDouble: Sendable, Equatable {
  @usableFromInline var bits: Double

  /// Absent.
  @inlinable public init() { bits = .nan }

  /// `value`, or absent for `nil` (and NaN).
  @inlinable public init(wrappedValue value: Double?) { bits = value ?? .nan }

  /// The value; `nil` when absent.
  @inlinable public var wrappedValue: Double? {
    get { bits.isNaN ? nil : bits }
    set { bits = newValue ?? .nan }
  }

  /// Equal values, or both absent.
  @inlinable public static func == (a: PackedDouble, b: PackedDouble) -> Bool {
    a.bits == b.bits || (a.bits.isNaN && b.bits.isNaN)
  }
}

/// A `Double?` in the eight bytes of a `Double`: NaN stands for absent.
///
/// `Double?` takes nine bytes, sixteen in a struct. Fixes and locations carry two dozen
/// optional measurements and are copied at every stage from the decoder to the printed
/// line, so their size is much of what a fix costs. No measurement is NaN: a NaN given
/// is absent.
@propertyWrapper
public struct PackedDouble: Sendable, Equatable, CustomStringConvertible {
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

  /// The value as its optional prints (`nil` when absent), so that a fix prints its
  /// values, not their packing.
  public var description: String { wrappedValue.map { "\($0)" } ?? "nil" }
}

/// An `Int?` in the eight bytes of an `Int`: `Int.min` stands for absent.
///
/// As ``PackedDouble``: `Int?` takes nine bytes, sixteen in a struct. No count or ID a
/// receiver gives is `Int.min`: that value given is absent.
@propertyWrapper
public struct PackedInt: Sendable, Equatable, CustomStringConvertible {
  @usableFromInline var bits: Int

  /// Absent.
  @inlinable public init() { bits = .min }

  /// `value`, or absent for `nil` (and `Int.min`).
  @inlinable public init(wrappedValue value: Int?) { bits = value ?? .min }

  /// The value; `nil` when absent.
  @inlinable public var wrappedValue: Int? {
    get { bits == .min ? nil : bits }
    set { bits = newValue ?? .min }
  }

  /// The value as its optional prints (`nil` when absent), so that a fix prints its
  /// values, not their packing.
  public var description: String { wrappedValue.map { "\($0)" } ?? "nil" }
}

/// A `Timestamp?` in the eight bytes of a `Timestamp`: `Int64.min` microseconds (some
/// 292,000 years before the epoch, no date a log can state) stands for absent.
@propertyWrapper
public struct PackedTimestamp: Sendable, Equatable, CustomStringConvertible {
  @usableFromInline var microseconds: Int64

  /// Absent.
  @inlinable public init() { microseconds = .min }

  /// `value`, or absent for `nil`.
  @inlinable public init(wrappedValue value: Timestamp?) { microseconds = value?.microsecondsSinceEpoch ?? .min }

  /// The value; `nil` when absent.
  @inlinable public var wrappedValue: Timestamp? {
    get { microseconds == .min ? nil : Timestamp(microsecondsSinceEpoch: microseconds) }
    set { microseconds = newValue?.microsecondsSinceEpoch ?? .min }
  }

  /// The value as its optional prints (`nil` when absent), so that a fix prints its
  /// values, not their packing.
  public var description: String { wrappedValue.map { "\($0)" } ?? "nil" }
}

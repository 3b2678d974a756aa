/// Why a sentence's fields could not be believed: which field, and what was wrong with it.
///
/// Decoders stop at the first bad field, so a sentence is either fully decoded or
/// rejected with one precise reason; it is never half believed.
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong with the field.
  public enum Problem: Sendable, Equatable {
    /// The sentence ended before this required field.
    case missing
    /// The characters are not of the field's format (a letter in a number, say).
    case invalidFormat
    /// The value is well formed but impossible (latitude over 90, hour 25, ...).
    case outOfRange
    /// One of a pair of fields (value and hemisphere, value and unit) is empty.
    case incompletePair
  }

  /// The 0-based index of the field after the address.
  public var index: Int
  /// The field's name in the sentence's definition.
  public var name: String
  /// What was wrong.
  public var problem: Problem

  /// Creates an error for field `index` named `name`.
  public init(index: Int, name: String, problem: Problem) {
    self.index = index
    self.name = name
    self.problem = problem
  }

  public var description: String {
    let what =
      switch problem {
      case .missing: "missing"
      case .invalidFormat: "invalid format"
      case .outOfRange: "out of range"
      case .incompletePair: "incomplete (its companion field is empty)"
      }
    return "field \(index + 1) (\(name)): \(what)"
  }
}

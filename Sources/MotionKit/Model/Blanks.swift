extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and carriage returns (a CSV line
  /// from Windows, a sysfs value's padding).
  public var trimmedBlanks: String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
    return String(self[first...last])
  }
}

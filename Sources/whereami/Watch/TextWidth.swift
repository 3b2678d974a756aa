/// Display widths of text on a terminal, for laying out the watch screen.
///
/// The screen's own glyphs (braille, box drawing, block elements, `°`, `±`, `·`, `✓`)
/// are one column wide on terminals with Western defaults. Text from outside (a source
/// name, an error message, a time zone abbreviation) may hold anything, so it is first
/// ``sanitized(_:)`` and then measured: East Asian wide characters count two columns,
/// combining marks none. `ESC [ ... letter` sequences (SGR colours) take no column.
enum TextWidth {
  /// Text with control characters replaced by `?`, so that a file name cannot move the
  /// cursor or change colours.
  static func sanitized(_ text: String) -> String {
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      let value = scalar.value
      result.unicodeScalars.append(value < 0x20 || (0x7F...0x9F).contains(value) ? "?" : scalar)
    }
    return result
  }

  /// The columns `scalar` takes: 0, 1 or 2.
  static func width(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 { return 1 }
    for range in zeroWidth where range.contains(value) { return 0 }
    for range in doubleWidth where range.contains(value) { return 2 }
    return 1
  }

  /// The columns `text` takes, not counting escape sequences.
  static func width(_ text: String) -> Int {
    var columns = 0
    var inEscape = false
    for scalar in text.unicodeScalars {
      if inEscape {
        if isFinal(scalar) { inEscape = false }
      } else if scalar == "\u{1B}" {
        inEscape = true
      } else {
        columns += width(of: scalar)
      }
    }
    return columns
  }

  /// `text` cut to at most `columns` columns, with `…` marking a cut; escape sequences
  /// are kept, and a reset is added when the cut may have left a colour open.
  static func fit(_ text: String, _ columns: Int) -> String {
    guard columns > 0 else { return "" }
    if width(text) <= columns { return text }
    var result = ""
    var used = 0
    var inEscape = false
    var sawEscape = false
    for scalar in text.unicodeScalars {
      if inEscape {
        result.unicodeScalars.append(scalar)
        if isFinal(scalar) { inEscape = false }
        continue
      }
      if scalar == "\u{1B}" {
        inEscape = true
        sawEscape = true
        result.unicodeScalars.append(scalar)
        continue
      }
      let scalarWidth = width(of: scalar)
      if used + scalarWidth > columns - 1 { break }
      result.unicodeScalars.append(scalar)
      used += scalarWidth
    }
    result += "…"
    return sawEscape ? result + "\u{1B}[0m" : result
  }

  /// `text` cut or padded with spaces to exactly `columns` columns.
  static func pad(_ text: String, _ columns: Int) -> String {
    let fitted = fit(text, columns)
    let missing = columns - width(fitted)
    return missing > 0 ? fitted + String(repeating: " ", count: missing) : fitted
  }

  /// `left` and `right` on one line of `columns` columns, `right` flush right; the left
  /// part is cut first when both do not fit.
  static func spread(_ left: String, _ right: String, _ columns: Int) -> String {
    let rightWidth = width(right)
    guard rightWidth + 1 < columns else { return fit(left, columns) }
    return pad(left, columns - rightWidth - 1) + " " + right
  }

  /// Whether `scalar` ends a CSI escape sequence (`ESC [` parameters, then a letter).
  private static func isFinal(_ scalar: Unicode.Scalar) -> Bool {
    (0x40...0x7E).contains(scalar.value) && scalar != "["
  }

  /// Combining marks, zero-width spaces and joiners, variation selectors.
  private static let zeroWidth: [ClosedRange<UInt32>] = [
    0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A, 0x064B...0x065F, 0x0E31...0x0E3A,
    0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x20D0...0x20FF,
    0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFEFF...0xFEFF, 0xE0100...0xE01EF,
  ]

  /// East Asian wide and fullwidth blocks, and the emoji blocks terminals draw wide.
  private static let doubleWidth: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
    0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}

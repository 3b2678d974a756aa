/// Turns successive frames of the watch screen into the bytes that change the terminal
/// from one to the next: only the lines that changed are written, and of a line of plain
/// one-column characters only the changed columns, so that a refresh costs a few dozen
/// bytes over ssh when only the clock moved.
///
/// Lines are written with cursor addressing, never newlines, so nothing scrolls. A line
/// that got shorter is cleared to its end with `ESC [ K`, except when it fills the width:
/// then the cursor sits on the last column and `ESC [ K` would erase that character.
struct FrameWriter {
  private var previous: [String] = []
  private var width = 0

  /// Creates a writer for a terminal whose contents are unknown: the first frame is drawn
  /// whole.
  init() {}

  /// Forgets what the terminal shows, so that the next frame is drawn whole (after a
  /// resize, a resume from Ctrl-Z, or Ctrl-L).
  mutating func invalidate() {
    previous = []
  }

  /// The bytes that turn the previous frame into `lines` on a terminal `width` columns
  /// wide; empty when nothing changed. Wrapped in synchronized-output mode (2026) so that
  /// terminals that know it show the frame at once, and others ignore it.
  mutating func update(_ lines: [String], width: Int) -> String {
    let whole = previous.count != lines.count || width != self.width
    var output = ""
    for (index, line) in lines.enumerated() {
      if whole {
        if !line.isEmpty { output += Self.cursor(row: index + 1, column: 1) + line }
      } else if previous[index] != line {
        output += Self.change(from: previous[index], to: line, row: index + 1, width: width)
      }
    }
    previous = lines
    self.width = width
    if whole { output = "\u{1B}[0m\u{1B}[H\u{1B}[2J" + output }
    return output.isEmpty ? "" : "\u{1B}[?2026h" + output + "\u{1B}[?2026l"
  }

  /// The bytes that change one line on the screen from `old` to `new`.
  private static func change(from old: String, to new: String, row: Int, width: Int) -> String {
    guard let before = plainCells(old), let after = plainCells(new) else {
      let clear = TextWidth.width(new) < width ? "\u{1B}[K" : ""
      return cursor(row: row, column: 1) + new + clear
    }
    var prefix = 0
    while prefix < before.count && prefix < after.count && before[prefix] == after[prefix] { prefix += 1 }
    if before.count == after.count {
      var suffix = 0
      while suffix < after.count - prefix && before[before.count - 1 - suffix] == after[after.count - 1 - suffix] {
        suffix += 1
      }
      return cursor(row: row, column: prefix + 1) + text(after[prefix..<(after.count - suffix)])
    }
    let clear = after.count < before.count && after.count < width ? "\u{1B}[K" : ""
    return cursor(row: row, column: prefix + 1) + text(after[prefix...]) + clear
  }

  /// The characters of `line` when each is one column wide and none is an escape, so that
  /// an index is a column; `nil` otherwise.
  private static func plainCells(_ line: String) -> [Unicode.Scalar]? {
    var cells: [Unicode.Scalar] = []
    cells.reserveCapacity(line.utf8.count)
    for scalar in line.unicodeScalars {
      guard scalar != "\u{1B}", TextWidth.width(of: scalar) == 1 else { return nil }
      cells.append(scalar)
    }
    return cells
  }

  private static func text(_ cells: ArraySlice<Unicode.Scalar>) -> String {
    var text = ""
    text.unicodeScalars.append(contentsOf: cells)
    return text
  }

  /// `ESC [ row ; column H`, both from 1.
  static func cursor(row: Int, column: Int) -> String {
    "\u{1B}[\(row);\(column)H"
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// A drawing surface of Unicode braille characters: each terminal cell holds 2 × 4 dots,
/// so a 40 × 20 cell map has 80 × 80 dots.
///
/// Dot coordinates start at the top left; x grows to the right, y downwards. Drawing
/// outside the canvas is clipped, never an error.
struct BrailleCanvas {
  let columns: Int
  let rows: Int
  /// The dots of each cell, as the low byte of its braille code point (U+2800 + bits).
  private var cells: [UInt8]

  /// A blank canvas of `columns` × `rows` cells.
  init(columns: Int, rows: Int) {
    self.columns = max(0, columns)
    self.rows = max(0, rows)
    cells = Array(repeating: 0, count: self.columns * self.rows)
  }

  /// Dots across.
  var width: Int { columns * 2 }
  /// Dots down.
  var height: Int { rows * 4 }

  /// The bit of each dot in a cell, by [row][column]: braille numbers its dots 1-2-3-7
  /// down the left side and 4-5-6-8 down the right.
  private static let bits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]

  /// Sets the dot at (x, y).
  mutating func set(_ x: Int, _ y: Int) {
    guard x >= 0, y >= 0, x < width, y < height else { return }
    cells[(y / 4) * columns + x / 2] |= Self.bits[y % 4][x % 2]
  }

  /// Whether the dot at (x, y) is set.
  func isSet(_ x: Int, _ y: Int) -> Bool {
    guard x >= 0, y >= 0, x < width, y < height else { return false }
    return cells[(y / 4) * columns + x / 2] & Self.bits[y % 4][x % 2] != 0
  }

  /// Draws a straight line of dots from one point to another (Bresenham), both ends
  /// included; a line partly outside the canvas is drawn where it crosses it.
  mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int)) {
    guard let (start, end) = clipped(start, end) else { return }
    var x = start.x
    var y = start.y
    let dx = abs(end.x - x)
    let dy = -abs(end.y - y)
    let stepX = x < end.x ? 1 : -1
    let stepY = y < end.y ? 1 : -1
    var error = dx + dy
    while true {
      set(x, y)
      if x == end.x && y == end.y { return }
      let doubled = 2 * error
      if doubled >= dy {
        error += dy
        x += stepX
      }
      if doubled <= dx {
        error += dx
        y += stepY
      }
    }
  }

  /// The part of a segment inside the canvas (Liang-Barsky), so that a far-away point
  /// never costs a walk across empty space; `nil` when the segment misses the canvas.
  private func clipped(_ start: (x: Int, y: Int), _ end: (x: Int, y: Int)) -> ((x: Int, y: Int), (x: Int, y: Int))? {
    guard width > 0, height > 0 else { return nil }
    let dx = Double(end.x - start.x)
    let dy = Double(end.y - start.y)
    var enter = 0.0
    var leave = 1.0
    // Each edge as (p, q): the segment is inside where p·t <= q.
    let edges = [
      (-dx, Double(start.x)), (dx, Double(width - 1 - start.x)),
      (-dy, Double(start.y)), (dy, Double(height - 1 - start.y)),
    ]
    for (p, q) in edges {
      if p == 0 {
        if q < 0 { return nil }
        continue
      }
      let t = q / p
      if p < 0 { enter = max(enter, t) } else { leave = min(leave, t) }
      if enter > leave { return nil }
    }
    func point(_ t: Double) -> (x: Int, y: Int) {
      (start.x + Int((t * dx).rounded()), start.y + Int((t * dy).rounded()))
    }
    return (point(enter), point(leave))
  }

  /// Draws a circle of `radius` dots around (x, y), dense enough to look closed.
  mutating func circle(center: (x: Int, y: Int), radius: Double) {
    // A circle far larger than the canvas cannot cross it in a way worth thousands of dots.
    guard radius >= 0.5, radius < Double(4 * (width + height)) else { return }
    let steps = max(16, Int((2 * Double.pi * radius * 1.5).rounded(.up)))
    for step in 0..<steps {
      let angle = 2 * Double.pi * Double(step) / Double(steps)
      set(center.x + Int((radius * cos(angle)).rounded()), center.y + Int((radius * sin(angle)).rounded()))
    }
  }

  /// The character of the cell at (column, row): a space when it has no dot, which keeps
  /// frames small and easy to compare.
  func character(column: Int, row: Int) -> Character {
    let bits = cells[row * columns + column]
    return bits == 0 ? " " : Character(Unicode.Scalar(0x2800 + UInt32(bits))!)
  }

  /// The canvas as `rows` lines of `columns` characters.
  func lines() -> [String] {
    (0..<rows).map { row in String((0..<columns).map { character(column: $0, row: row) }) }
  }
}

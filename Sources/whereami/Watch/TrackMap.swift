import Geodesy
import LocationKit
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// The map of the watch screen: the recent track around the current position, drawn in
/// braille dots, north up, with the accuracy circle and a scale bar.
///
/// The map follows the position: the current fix is always the centre cell (marked `●`).
/// The scale is chosen so that the whole recent track and the accuracy circle fit, with a
/// scale bar of a round length in the display units (1-2-5 × 10ⁿ m, or feet then miles, or
/// feet then nautical miles) that is a whole number of cells long, so it is exact.
/// A cell is taken to be twice as tall as it is wide, which makes braille dots square.
enum TrackMap {
  /// A scale bar length: metres, and how it reads.
  struct ScaleLength: Equatable {
    var metres: Double
    var label: String
  }

  /// The map for a track (oldest point first) whose last point is `location`, as `rows`
  /// lines of `columns` cells: the drawing, then the scale bar on the last line.
  ///
  /// With a `circle` (an anchor's swing circle: degrees and metres), the map also takes in
  /// the circle, drawn with its centre marked `×`.
  static func render(
    track: [TrackPoint], location: Location?, columns: Int, rows: Int, units: UnitSystem,
    circle: (latitude: Double, longitude: Double, radius: Double)? = nil
  ) -> [String] {
    guard columns > 0, rows > 0 else { return Array(repeating: "", count: max(0, rows)) }
    let canvasRows = rows >= 3 ? rows - 1 : rows
    guard let location else { return blank(columns: columns, rows: rows, message: "waiting for a fix") }
    guard columns >= 2 else { return Array(repeating: "", count: rows) }
    var canvas = BrailleCanvas(columns: columns, rows: canvasRows)
    let centre = (x: (columns / 2) * 2, y: (canvasRows / 2) * 4 + 2)
    let span = (
      horizontal: Double(max(1, min(centre.x, canvas.width - 1 - centre.x))),
      vertical: Double(max(1, min(centre.y, canvas.height - 1 - centre.y)))
    )
    let projection = LocalProjection(latitude: location.latitude, longitude: location.longitude)
    let projected = track.map { projection.project(latitude: $0.latitude, longitude: $0.longitude) }
    var east = 0.0
    var north = 0.0
    for point in projected {
      east = max(east, abs(point.east))
      north = max(north, abs(point.north))
    }
    let ring = circle.map { circle in
      (centre: projection.project(latitude: circle.latitude, longitude: circle.longitude), radius: circle.radius)
    }
    if let ring {
      east = max(east, abs(ring.centre.east) + ring.radius)
      north = max(north, abs(ring.centre.north) + ring.radius)
    }
    let accuracy = location.horizontalAccuracy.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
    let neededPerDot = max(
      east / span.horizontal, north / span.vertical, accuracy / min(span.horizontal, span.vertical))
    let scale = chooseScale(
      metresPerCell: 2 * neededPerDot, maximumBarCells: max(2, min(10, columns / 4)), units: units)
    let metresPerDot = scale.metresPerCell / 2

    func dot(_ point: (east: Double, north: Double)) -> (x: Int, y: Int) {
      // Clamped, so that no value can overflow an Int; the canvas clips the rest.
      func dots(_ metres: Double) -> Int { Int(max(-1e9, min(1e9, (metres / metresPerDot).rounded()))) }
      return (centre.x + dots(point.east), centre.y - dots(point.north))
    }
    var previous: (x: Int, y: Int)?
    for point in projected {
      let here = dot(point)
      if let previous { canvas.line(from: previous, to: here) } else { canvas.set(here.x, here.y) }
      previous = here
    }
    canvas.circle(center: centre, radius: accuracy / metresPerDot)
    var ringCell: (column: Int, row: Int)?
    if let ring {
      let middle = dot(ring.centre)
      canvas.circle(center: middle, radius: ring.radius / metresPerDot)
      ringCell = (middle.x / 2, middle.y / 4)
    }

    var lines = canvas.lines()
    if let ringCell, (0..<columns).contains(ringCell.column), (0..<canvasRows).contains(ringCell.row),
      ringCell != (columns / 2, canvasRows / 2)
    {
      var marked = Array(lines[ringCell.row])
      marked[ringCell.column] = "×"
      lines[ringCell.row] = String(marked)
    }
    var marked = Array(lines[canvasRows / 2])
    marked[columns / 2] = "●"
    lines[canvasRows / 2] = String(marked)
    if canvasRows < rows {
      let bar = "├" + String(repeating: "─", count: scale.cells - 2) + "┤ " + scale.length.label
      lines.append(TextWidth.fit(bar, columns))
    }
    return lines
  }

  /// A map scale: a round length that a bar of whole cells shows.
  struct Scale: Equatable {
    var length: ScaleLength
    var cells: Int
    var metresPerCell: Double { length.metres / Double(cells) }
  }

  /// The finest scale of at least `metresPerCell`: a round length shown by a bar of 4, 5,
  /// 8 or 10 cells (at most `maximumBarCells`), which makes steps of at most 1.6 times
  /// between successive scales while every bar stays exact.
  static func chooseScale(metresPerCell: Double, maximumBarCells: Int, units: UnitSystem) -> Scale {
    let counts = [4, 5, 8, 10].filter { $0 <= maximumBarCells }
    let cellCounts = counts.isEmpty ? [max(2, maximumBarCells)] : counts
    var best: Scale?
    for length in scaleLengths(units) {
      for cells in cellCounts {
        let scale = Scale(length: length, cells: cells)
        guard scale.metresPerCell >= metresPerCell else { continue }
        // Finer wins; of equal scales, the longer bar reads better.
        if let current = best,
          scale.metresPerCell > current.metresPerCell
            || (scale.metresPerCell == current.metresPerCell && scale.cells <= current.cells)
        {
          continue
        }
        best = scale
      }
    }
    return best ?? Scale(length: scaleLengths(units).last!, cells: cellCounts.last!)
  }

  /// The scale bar lengths in `units`, shortest first.
  static func scaleLengths(_ units: UnitSystem) -> [ScaleLength] {
    var lengths: [ScaleLength] = []
    switch units {
    case .metric:
      for metres in RoundLength.metres(exponents: -1...6) {
        let label = metres < 1000 ? number(metres) + " m" : number(metres / 1000) + " km"
        lengths.append(ScaleLength(metres: metres, label: label))
      }
    case .imperial, .nautical:
      // Feet up to about a thousand, then miles or nautical miles from their first
      // round fraction that is longer than the last length in feet.
      let (bigUnit, bigName, fractions): (Double, String, [Double]) =
        units == .imperial ? (1609.344, "mi", [0.5]) : (1852, "NM", [0.2, 0.5])
      for feet in [1.0, 2, 5, 10, 20, 50, 100, 200, 500, 1000] + (units == .imperial ? [2000] : []) {
        lengths.append(ScaleLength(metres: feet * 0.3048, label: number(feet) + " ft"))
      }
      for value in fractions + RoundLength.metres(exponents: 0...3) {
        lengths.append(ScaleLength(metres: value * bigUnit, label: number(value) + " " + bigName))
      }
    }
    return lengths
  }

  /// `5`, `0.5`: whole numbers without decimals.
  private static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : fixed(value, 1)
  }

  private static func blank(columns: Int, rows: Int, message: String) -> [String] {
    var lines = Array(repeating: "", count: rows)
    let text = TextWidth.fit(message, columns)
    let indent = max(0, (columns - TextWidth.width(text)) / 2)
    lines[rows / 2] = String(repeating: " ", count: indent) + text
    return lines
  }
}

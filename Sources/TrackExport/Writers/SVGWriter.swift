import Geodesy
import LocationKit
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// An SVG picture of the track that any browser opens without network access: no
/// scripts, no external images or fonts (generic font families only).
///
/// The map is a local equirectangular projection about the track's centre (metres east
/// and north on the WGS84 ellipsoid's radii of curvature there: true to a fraction of a
/// percent over a city, north up), with a scale bar of a round length (1, 2 or 5 × 10ⁿ m),
/// a north arrow, a green start and a red end marker, and the line coloured by speed
/// (the receiver's, or the step's when it gives none) with a legend of the colour ramp
/// from the lowest to the highest speed. Fix gaps (longer than `--gap`) are left open.
/// The title gives the date, the distance travelled (jitter-proof, as `print` counts it)
/// and the duration. The track is held decimated (``SVGTrack``), so memory stays bounded.
/// Several gpsd devices give a map each, one below the other, named after the device.
public final class SVGWriter: ExportWriter {
  private let header: ExportHeader
  private var track = SVGTrack()
  /// Further devices' tracks, drawn below this one's.
  private var others: [SVGWriter] = []

  /// A writer for one SVG document, titled from `header`.
  public init(_ header: ExportHeader) { self.header = header }

  public func begin(into output: inout ByteBuffer) {}

  public func add(_ fix: ExportFix, into output: inout ByteBuffer) { track.add(fix) }

  public func include(_ other: any ExportWriter) {
    if let other = other as? SVGWriter { others.append(other) }
  }

  public func endTracks(into output: inout ByteBuffer, flush: ExportFlush) {}

  public func endDocument(into output: inout ByteBuffer, flush: ExportFlush) {
    guard !others.isEmpty else {
      SVGMap(track: track, header: header).render(into: &output)
      return
    }
    let maps = [self] + others
    let width = Int(SVGMap.width)
    let height = Int(SVGMap.height) * maps.count
    output.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
    output.append(integer: width)
    output.append("\" height=\"")
    output.append(integer: height)
    output.append("\" viewBox=\"0 0 ")
    output.append(integer: width)
    output.append(" ")
    output.append(integer: height)
    output.append("\">\n")
    for (index, writer) in maps.enumerated() {
      var named = writer.header
      if let device = writer.track.first?.location.device { named.name += " (\(device))" }
      SVGMap(track: writer.track, header: named).render(into: &output, top: Int(SVGMap.height) * index)
    }
    output.append("</svg>\n")
  }
}

/// Draws the map of an ``SVGTrack``.
public struct SVGMap {
  /// The track drawn.
  public let track: SVGTrack
  /// The title and source shown above the map.
  public let header: ExportHeader

  /// The drawing's width, pixels.
  public static let width = 1000.0
  /// The height of one device's map, pixels (several devices' maps stack).
  public static let height = 760.0
  /// The map's frame.
  public static let frame = (x: 20.0, y: 84.0, width: 960.0, height: 576.0)
  /// The smallest extent shown, metres: a standing receiver's track is not blown up to
  /// fill the map.
  public static let minimumExtent = 50.0
  /// The speed colour ramp, slowest first: dark blue, purple, pink, orange, dark yellow
  /// (after matplotlib's plasma, stopped short of its pale yellow, which a light map would
  /// swallow). No green or red, which are the markers' colours.
  public static let ramp: [(red: Double, green: Double, blue: Double)] = [
    (13, 8, 135), (126, 3, 168), (204, 71, 120), (248, 149, 64), (222, 180, 0),
  ]
  /// The number of colours the line uses: neighbouring points of one colour share a
  /// polyline, which keeps the file small.
  public static let colourSteps = 24
  /// The colour of the line where the receiver measured no speed.
  public static let noSpeedColour = "#8a8a8a"

  /// A point of the line in pixels.
  public struct Pixel {
    var x: Double
    var y: Double
    var speed: Double?
    var startsSegment: Bool
  }

  /// Writes the map as an SVG document, or with `top` as a nested `svg` element that far
  /// down in a document of several maps.
  public func render(into output: inout ByteBuffer, top: Int? = nil) {
    if let top {
      output.append("<svg x=\"0\" y=\"")
      output.append(integer: top)
      output.append("\" ")
    } else {
      output.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
      output.append("<svg xmlns=\"http://www.w3.org/2000/svg\" ")
    }
    output.append(
      """
      width="1000" height="760" viewBox="0 0 1000 760" \
      font-family="DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif">

      """)
    let title = titleText()
    output.append("<title>")
    output.append(xmlText: header.name + ": " + title)
    output.append("</title>\n")
    output.append("<rect width=\"1000\" height=\"760\" fill=\"#ffffff\"/>\n")
    output.append("<text x=\"20\" y=\"38\" font-size=\"22\" font-weight=\"bold\" fill=\"#111111\">")
    output.append(xmlText: title)
    output.append("</text>\n<text x=\"20\" y=\"64\" font-size=\"13\" fill=\"#555555\">")
    output.append(xmlText: subtitleText())
    output.append("</text>\n")
    output.append(
      """
      <rect x="20" y="84" width="960" height="576" fill="#eef1ec" stroke="#b8bdb5"/>

      """)
    guard let first = track.first, let last = track.last else {
      output.append(
        """
        <text x="500" y="372" font-size="18" fill="#555555" text-anchor="middle">No fixes</text>
        </svg>

        """)
      return
    }
    // The line ends at the last fix, which may have been merged into the point before it.
    var points = track.points
    if let kept = points.last {
      let end = SVGTrack.Point(
        latitude: last.location.latitude, longitude: last.location.longitude, speedSum: kept.speed ?? 0,
        speedCount: kept.speed == nil ? 0 : 1, startsSegment: false)
      if SVGTrack.metres(kept, end) > 0 { points.append(end) }
    }

    // An azimuthal equidistant projection about the track's middle (its points' mean
    // direction): no seam, so a track across the antimeridian or over a pole stays one
    // line, where an equirectangular map broke it across the whole width. The frame fits
    // the projected points.
    let projection =
      AzimuthalProjection(centreOf: points.lazy.map { ($0.latitude, $0.longitude) })
      ?? AzimuthalProjection(latitude: points[0].latitude, longitude: points[0].longitude)
    var west = Double.infinity
    var east = -Double.infinity
    var south = Double.infinity
    var north = -Double.infinity
    for point in points {
      let metres = projection.project(latitude: point.latitude, longitude: point.longitude)
      west = min(west, metres.east)
      east = max(east, metres.east)
      south = min(south, metres.north)
      north = max(north, metres.north)
    }
    let extentX = max(east - west, Self.minimumExtent)
    let extentY = max(north - south, Self.minimumExtent)
    let frame = Self.frame
    let scale = min(frame.width * 0.9 / extentX, frame.height * 0.9 / extentY)
    let centreX = frame.x + frame.width / 2 - (west + east) / 2 * scale
    let centreY = frame.y + frame.height / 2 + (south + north) / 2 * scale
    func pixel(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double) {
      let metres = projection.project(latitude: latitude, longitude: longitude)
      return (centreX + metres.east * scale, centreY - metres.north * scale)
    }

    // Points closer than half a pixel add nothing to the drawing: merged.
    var pixels: [Pixel] = []
    var merged = points[0]
    for point in points.dropFirst() {
      let a = pixel(merged.latitude, merged.longitude)
      let b = pixel(point.latitude, point.longitude)
      let close = (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) < 0.25
      if close && !point.startsSegment {
        merged.merge(point)
        continue
      }
      pixels.append(Pixel(x: a.x, y: a.y, speed: merged.speed, startsSegment: merged.startsSegment))
      merged = point
    }
    let lastPixel = pixel(merged.latitude, merged.longitude)
    pixels.append(Pixel(x: lastPixel.x, y: lastPixel.y, speed: merged.speed, startsSegment: merged.startsSegment))

    let speeds = pixels.compactMap(\.speed)
    let slowest = speeds.min()
    let fastest = speeds.max()
    func colour(_ speed: Double?) -> String {
      guard let speed, let slowest, let fastest else { return Self.noSpeedColour }
      let range = fastest - slowest
      let fraction = range < 0.05 ? 0.5 : (speed - slowest) / range
      let step = min(Int(fraction * Double(Self.colourSteps)), Self.colourSteps - 1)
      return Self.rampColour((Double(step) + 0.5) / Double(Self.colourSteps))
    }

    // The segments: a halo under each, then the coloured runs on top.
    var paths: [ArraySlice<Pixel>] = []
    var start = 0
    for index in 1..<max(pixels.count, 1) where pixels[index].startsSegment {
      paths.append(pixels[start..<index])
      start = index
    }
    paths.append(pixels[start...])
    output.append(
      """
      <g fill="none" stroke-linecap="round" stroke-linejoin="round">

      """)
    for path in paths where path.count > 1 {
      output.append("<polyline stroke=\"#ffffff\" stroke-width=\"7\" points=\"")
      Self.appendPoints(path, into: &output)
      output.append("\"/>\n")
    }
    for path in paths {
      guard path.count > 1 else {
        let dot = path[path.startIndex]
        output.append("<circle r=\"3\" stroke=\"none\" fill=\"")
        output.append(string: colour(dot.speed))
        output.append("\"")
        Self.appendCentre(dot.x, dot.y, into: &output)
        continue
      }
      var runStart = path.startIndex
      var runColour = colour(path[path.startIndex + 1].speed)
      for index in (path.startIndex + 1)..<path.endIndex {
        let current = colour(path[index].speed)
        if current != runColour {
          Self.appendRun(path[runStart...(index - 1)], colour: runColour, into: &output)
          runStart = index - 1
          runColour = current
        }
      }
      Self.appendRun(path[runStart..<path.endIndex], colour: runColour, into: &output)
    }
    output.append("</g>\n")

    let startPixel = pixel(first.location.latitude, first.location.longitude)
    let endPixel = pixel(last.location.latitude, last.location.longitude)
    output.append("<circle r=\"8\" fill=\"#00a03c\" stroke=\"#ffffff\" stroke-width=\"2.5\"")
    Self.appendCentre(startPixel.x, startPixel.y, into: &output)
    output.append("<circle r=\"8\" fill=\"#e00000\" stroke=\"#ffffff\" stroke-width=\"2.5\"")
    Self.appendCentre(endPixel.x, endPixel.y, into: &output)

    appendNorthArrow(into: &output)
    appendScaleBar(metresPerPixel: 1 / scale, into: &output)
    appendLegend(slowest: slowest, fastest: fastest, hasUnknownSpeed: speeds.count < pixels.count, into: &output)
    output.append("<text x=\"20\" y=\"748\" font-size=\"11\" fill=\"#777777\">")
    var note = "Fix gaps over \(fixed(header.gap, header.gap.rounded() == header.gap ? 0 : 1)) s are left open. "
    if header.gap <= 0 { note = "" }
    let latitude = "\(fixed(abs(projection.latitude), 4))° \(projection.latitude < 0 ? "S" : "N")"
    let centre = LocalProjection.wrap(projection.longitude)
    let longitude = "\(fixed(abs(centre), 4))° \(centre < 0 ? "W" : "E")"
    note +=
      "Azimuthal equidistant projection about \(latitude), \(longitude); north up at the centre. Made by whereami."
    output.append(xmlText: note)
    output.append("</text>\n</svg>\n")
  }

  /// `<date> — <distance> km — <duration>`.
  public func titleText() -> String {
    guard let first = track.first, let last = track.last else { return "No fixes" }
    var duration = last.seconds - first.seconds
    if first.location.timestamp == nil && duration < 0 { duration += 86_400 }
    return ExportText.dates(first.location.timestamp, last.location.timestamp) + " — "
      + ExportText.kilometres(last.odometer.distance) + " — " + ExportText.duration(duration)
  }

  /// The track's name, its times of day, and how many fixes and segments it has.
  public func subtitleText() -> String {
    guard let first = track.first, let last = track.last else { return header.name }
    let span = ExportText.clock(first.location.timeOfDay) + "–" + ExportText.clock(last.location.timeOfDay) + " UTC"
    let segments = track.segments == 1 ? "1 segment" : "\(track.segments) segments"
    return "\(header.name) · \(span) · \(track.fixes) fixes · \(segments)"
  }

  private func appendNorthArrow(into output: inout ByteBuffer) {
    let x = Self.frame.x + Self.frame.width - 34
    let y = Self.frame.y + 14
    output.append("<g fill=\"#222222\"><path d=\"M")
    Self.appendPair(x, y, into: &output)
    output.append(" L")
    Self.appendPair(x + 10, y + 28, into: &output)
    output.append(" L")
    Self.appendPair(x, y + 21, into: &output)
    output.append(" L")
    Self.appendPair(x - 10, y + 28, into: &output)
    output.append(" Z\"/><text font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\" x=\"")
    output.append(x, decimals: 1)
    output.append("\" y=\"")
    output.append(y + 46, decimals: 1)
    output.append("\">N</text></g>\n")
  }

  /// A bar of a round length (1, 2 or 5 × 10ⁿ metres) no longer than a quarter of the map.
  private func appendScaleBar(metresPerPixel: Double, into output: inout ByteBuffer) {
    let metres = RoundLength.metres(atMost: Self.frame.width / 4 * metresPerPixel)
    let length = metres / metresPerPixel
    let x = Self.frame.x + 16
    let y = Self.frame.y + Self.frame.height - 26
    let label =
      metres >= 1000
      ? "\(fixed(metres / 1000, metres >= 10_000 || metres.truncatingRemainder(dividingBy: 1000) == 0 ? 0 : 1)) km"
      : "\(fixed(metres, metres < 1 ? 1 : 0)) m"
    output.append("<rect fill=\"#ffffff\" fill-opacity=\"0.75\" x=\"")
    output.append(x - 8, decimals: 1)
    output.append("\" y=\"")
    output.append(y - 10, decimals: 1)
    output.append("\" width=\"")
    output.append(length + 90, decimals: 1)
    output.append("\" height=\"26\"/>\n<rect fill=\"#222222\" stroke=\"#222222\" x=\"")
    output.append(x, decimals: 1)
    output.append("\" y=\"")
    output.append(y, decimals: 1)
    output.append("\" width=\"")
    output.append(length / 2, decimals: 1)
    output.append("\" height=\"6\"/>\n<rect fill=\"#ffffff\" stroke=\"#222222\" x=\"")
    output.append(x + length / 2, decimals: 1)
    output.append("\" y=\"")
    output.append(y, decimals: 1)
    output.append("\" width=\"")
    output.append(length / 2, decimals: 1)
    output.append("\" height=\"6\"/>\n<text font-size=\"13\" fill=\"#222222\" x=\"")
    output.append(x + length + 8, decimals: 1)
    output.append("\" y=\"")
    output.append(y + 7, decimals: 1)
    output.append("\">")
    output.append(string: label)
    output.append("</text>\n")
  }

  /// The speed ramp from the slowest to the fastest speed, and the markers' meaning.
  private func appendLegend(slowest: Double?, fastest: Double?, hasUnknownSpeed: Bool, into output: inout ByteBuffer) {
    output.append("<defs><linearGradient id=\"speed\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">")
    for (index, _) in Self.ramp.enumerated() {
      let offset = Double(index) / Double(Self.ramp.count - 1)
      output.append("<stop offset=\"")
      output.append(offset, decimals: 2)
      output.append("\" stop-color=\"")
      output.append(string: Self.rampColour(offset))
      output.append("\"/>")
    }
    output.append("</linearGradient></defs>\n")
    output.append("<text x=\"20\" y=\"695\" font-size=\"13\" fill=\"#222222\">Speed</text>\n")
    if let slowest, let fastest {
      output.append("<rect x=\"74\" y=\"684\" width=\"260\" height=\"12\" fill=\"url(#speed)\" stroke=\"#999999\"/>\n")
      let decimals = fastest * 3.6 < 10 ? 1 : 0
      output.append("<text x=\"74\" y=\"714\" font-size=\"12\" fill=\"#222222\">")
      output.append(string: "\(fixed(slowest * 3.6, decimals)) km/h")
      output.append("</text>\n<text x=\"334\" y=\"714\" font-size=\"12\" fill=\"#222222\" text-anchor=\"end\">")
      output.append(string: "\(fixed(fastest * 3.6, decimals)) km/h")
      output.append("</text>\n")
    } else {
      output.append("<text x=\"74\" y=\"695\" font-size=\"12\" fill=\"#555555\">not known</text>\n")
    }
    var x = 380.0
    if hasUnknownSpeed && slowest != nil {
      output.append("<rect x=\"380\" y=\"684\" width=\"24\" height=\"12\" fill=\"")
      output.append(string: Self.noSpeedColour)
      output.append("\"/>\n<text x=\"410\" y=\"695\" font-size=\"12\" fill=\"#222222\">speed not known</text>\n")
      x += 140
    }
    output.append("<circle r=\"7\" fill=\"#00a03c\" stroke=\"#ffffff\" stroke-width=\"2\"")
    Self.appendCentre(x + 7, 690, into: &output)
    output.append("<text font-size=\"12\" fill=\"#222222\" y=\"695\" x=\"")
    output.append(x + 20, decimals: 1)
    output.append("\">Start</text>\n<circle r=\"7\" fill=\"#e00000\" stroke=\"#ffffff\" stroke-width=\"2\"")
    Self.appendCentre(x + 77, 690, into: &output)
    output.append("<text font-size=\"12\" fill=\"#222222\" y=\"695\" x=\"")
    output.append(x + 90, decimals: 1)
    output.append("\">End</text>\n")
  }

  /// The ramp's colour at `fraction` (0 slowest, 1 fastest), as `#rrggbb`.
  public static func rampColour(_ fraction: Double) -> String {
    let position = max(0, min(1, fraction)) * Double(ramp.count - 1)
    let index = min(Int(position), ramp.count - 2)
    let t = position - Double(index)
    let a = ramp[index]
    let b = ramp[index + 1]
    func hex(_ value: Double) -> String {
      let byte = Int((value).rounded())
      let digits = String(max(0, min(255, byte)), radix: 16)
      return digits.count == 1 ? "0" + digits : digits
    }
    return "#" + hex(a.red + (b.red - a.red) * t) + hex(a.green + (b.green - a.green) * t)
      + hex(a.blue + (b.blue - a.blue) * t)
  }

  private static func appendRun(_ run: ArraySlice<Pixel>, colour: String, into output: inout ByteBuffer) {
    output.append("<polyline stroke-width=\"3.5\" stroke=\"")
    output.append(string: colour)
    output.append("\" points=\"")
    appendPoints(run, into: &output)
    output.append("\"/>\n")
  }

  private static func appendPoints(_ points: ArraySlice<Pixel>, into output: inout ByteBuffer) {
    var separator = false
    for point in points {
      if separator { output.append(UInt8(ascii: " ")) }
      separator = true
      appendPair(point.x, point.y, into: &output)
    }
  }

  private static func appendPair(_ x: Double, _ y: Double, into output: inout ByteBuffer) {
    output.append(x, decimals: 1)
    output.append(UInt8(ascii: ","))
    output.append(y, decimals: 1)
  }

  /// ` cx="…" cy="…"/>` closing a circle.
  private static func appendCentre(_ x: Double, _ y: Double, into output: inout ByteBuffer) {
    output.append(" cx=\"")
    output.append(x, decimals: 1)
    output.append("\" cy=\"")
    output.append(y, decimals: 1)
    output.append("\"/>\n")
  }
}

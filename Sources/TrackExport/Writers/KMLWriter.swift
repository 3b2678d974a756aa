import LocationKit
import NMEA

/// KML 2.2 (OGC 07-147r2): a `Document` with a `Folder` of the fixes, each a `Placemark`
/// with its `TimeStamp` and a `Point`, then the track: a `Placemark` whose `MultiGeometry`
/// holds one `LineString` per segment (a continuous span of fixes), with the track's
/// `TimeSpan` and a description of its distance and duration.
///
/// KML wants a placemark's time before its geometry and offers no timestamps inside a
/// `LineString`, so the fixes are written as they come and the track's coordinates wait
/// in a ``SpillFile`` until the end: memory stays constant. The fixes' folder starts hidden
/// (`visibility` 0) so that Google Earth first shows the line, not thousands of pins. A
/// segment of a single fix has no line (a `LineString` needs two coordinates); the fix is
/// still in the folder. Altitudes are metres above mean sea level, as KML defines them.
/// Several gpsd devices give a folder of fixes and a track placemark each, named after the
/// device.
public final class KMLWriter: ExportWriter {
  private let header: ExportHeader
  private let spill: SpillFile
  /// The segment's first fix, held until a second one shows it is a line.
  private var held: ExportFix?
  private var lineOpen = false
  private var lines = 0
  private var first: ExportFix?
  private var last: ExportFix?
  private var fixes = 0
  private var segments = 0

  /// A writer for one KML document, named and described by `header`; throws when the
  /// temporary file that holds the track's coordinates until its end cannot be made.
  public init(_ header: ExportHeader) throws(ExportError) {
    self.header = header
    spill = try SpillFile()
  }

  public func begin(into output: inout ByteBuffer) {
    if let device = header.continuedDevice {
      // A further device's part of the document: its own folder of fixes.
      output.append("<Folder>\n<name>Fixes of ")
      output.append(xmlText: device)
      output.append("</name>\n<visibility>0</visibility>\n")
      return
    }
    output.append(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">\n<Document>\n<name>")
    output.append(xmlText: header.name)
    output.append("</name>\n<description>Recorded from ")
    output.append(xmlText: header.source)
    output.append(
      """
       by whereami</description>
      <Style id="track"><LineStyle><color>ffe6641e</color><width>4</width></LineStyle></Style>
      <Style id="fix"><IconStyle><scale>0.5</scale></IconStyle><LabelStyle><scale>0</scale></LabelStyle></Style>
      <Folder>
      <name>Fixes</name>
      <visibility>0</visibility>

      """)
  }

  public func add(_ fix: ExportFix, into output: inout ByteBuffer) throws(ExportError) {
    let location = fix.location
    output.append("<Placemark>")
    if let time = location.timestamp {
      output.append("<TimeStamp><when>")
      output.append(time)
      output.append("</when></TimeStamp>")
    }
    output.append("<styleUrl>#fix</styleUrl><ExtendedData>")
    Self.appendData("<Data name=\"segment\"><value>", Double(fix.segment), 0, into: &output)
    Self.appendData("<Data name=\"speed\"><value>", location.speed, 3, into: &output)
    Self.appendData("<Data name=\"course\"><value>", location.course, 2, into: &output)
    Self.appendData("<Data name=\"accuracy\"><value>", location.horizontalAccuracy, 2, into: &output)
    Self.appendData("<Data name=\"satellites\"><value>", location.satellitesUsed.map(Double.init), 0, into: &output)
    output.append("</ExtendedData><Point><coordinates>")
    Self.appendCoordinates(location, into: &output)
    output.append("</coordinates></Point></Placemark>\n")

    if fix.startsSegment {
      try closeLine()
      held = fix
      segments += 1
    } else if let start = held {
      held = nil
      lineOpen = true
      lines += 1
      try spill.write { text in
        text.append("<LineString><tessellate>1</tessellate><coordinates>\n")
        Self.appendCoordinates(start.location, into: &text)
        text.append(UInt8(ascii: "\n"))
        Self.appendCoordinates(location, into: &text)
        text.append(UInt8(ascii: "\n"))
      }
    } else {
      try spill.write { text in
        Self.appendCoordinates(location, into: &text)
        text.append(UInt8(ascii: "\n"))
      }
    }
    if first == nil { first = fix }
    last = fix
    fixes += 1
  }

  public func endTracks(into output: inout ByteBuffer, flush: ExportFlush) throws(ExportError) {
    try closeLine()
    output.append("</Folder>\n")
    if lines > 0, let first, let last {
      output.append("<Placemark>\n<name>")
      output.append(xmlText: header.name)
      if let device = first.location.device {
        output.append(" (")
        output.append(xmlText: device)
        output.append(")")
      }
      output.append("</name>\n<description>")
      output.append(string: Self.description(first: first, last: last, fixes: fixes, segments: segments))
      output.append("</description>\n")
      if let begin = first.location.timestamp, let end = last.location.timestamp {
        output.append("<TimeSpan><begin>")
        output.append(begin)
        output.append("</begin><end>")
        output.append(end)
        output.append("</end></TimeSpan>\n")
      }
      output.append("<styleUrl>#track</styleUrl>\n<MultiGeometry>\n")
      try spill.copy(into: &output, flush: flush)
      output.append("</MultiGeometry>\n</Placemark>\n")
    }
  }

  public func endDocument(into output: inout ByteBuffer, flush: ExportFlush) {
    output.append("</Document>\n</kml>\n")
  }

  private func closeLine() throws(ExportError) {
    held = nil
    guard lineOpen else { return }
    lineOpen = false
    try spill.write { $0.append("</coordinates></LineString>\n") }
  }

  /// "Distance 1.62 km (path 1.65 km) in 19 min 19 s; 1160 fixes in 1 segment."
  public static func description(first: ExportFix, last: ExportFix, fixes: Int, segments: Int) -> String {
    var text =
      "Distance \(fixed(last.odometer.distance / 1000, 3)) km (path \(fixed(last.odometer.pathLength / 1000, 3)) km)"
    if first.location.timestamp != nil && last.location.timestamp != nil {
      text += " in " + ExportText.duration(last.seconds - first.seconds)
    }
    return text + "; \(fixes) fixes in \(segments) segment\(segments == 1 ? "" : "s")."
  }

  /// `lon,lat[,alt]`: KML's order, the altitude above mean sea level when known.
  public static func appendCoordinates(_ location: Location, into output: inout ByteBuffer) {
    output.append(location.longitude, decimals: 9)
    output.append(UInt8(ascii: ","))
    output.append(location.latitude, decimals: 9)
    if let altitude = location.altitude, altitude.isFinite {
      output.append(UInt8(ascii: ","))
      output.append(altitude, decimals: 3)
    }
  }

  private static func appendData(_ open: StaticString, _ value: Double?, _ decimals: Int, into output: inout ByteBuffer)
  {
    guard let value, value.isFinite else { return }
    output.append(open)
    output.append(value, decimals: decimals)
    output.append("</value></Data>")
  }
}

import LocationKit
import NMEA

/// GPX 1.1 (topografix.com/GPX/1/1): one `trk` whose `trkseg`s are the continuous spans of
/// the track, as the schema asks ("start a new Track Segment for each continuous span of
/// track data") and as gpsd's gpxlogger writes them; with `--split trips`, one `trk` per
/// trip, named "NAME, trip N". A track from a gpsd device names the device in its `src`;
/// several devices give a track (or a track per trip) each.
///
/// Each `trkpt` carries what GPX 1.1 has a place for, in the schema's order: `ele` (metres
/// above mean sea level), `time`, `magvar`, `geoidheight`, `fix`, `sat`, `hdop`, `vdop`,
/// `pdop`, `ageofdgpsdata`, `dgpsid`. Speed and course, which GPX 1.1 dropped, go into
/// Garmin's TrackPointExtension v2 (`gpxtpx:speed`, `gpxtpx:course`), which Garmin
/// devices, Strava and GPSBabel read, and a compass's true heading into its
/// `gpxtpx:bearing` (degrees true, where the vehicle points). Unknown values are left out.
public final class GPXWriter: ExportWriter {
  private let header: ExportHeader
  private var trackOpen = false
  private var segmentOpen = false

  /// A writer for one GPX document, named and described by `header`.
  public init(_ header: ExportHeader) { self.header = header }

  public func begin(into output: inout ByteBuffer) {
    // A further device's tracks follow the first's: no header of their own.
    guard header.continuedDevice == nil else { return }
    output.append(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="whereami" xmlns="http://www.topografix.com/GPX/1/1" \
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
      xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
      xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
      http://www.garmin.com/xmlschemas/TrackPointExtension/v2 \
      https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">
       <metadata>
        <name>
      """)
    output.append(xmlText: header.name)
    output.append("</name>\n  <desc>Recorded from ")
    output.append(xmlText: header.source)
    output.append(" by whereami</desc>\n </metadata>\n")
  }

  public func add(_ fix: ExportFix, into output: inout ByteBuffer) {
    if header.segmentsAreTrips, fix.startsSegment, trackOpen {
      // A track per trip (`--split trips`).
      if segmentOpen { output.append("  </trkseg>\n") }
      output.append(" </trk>\n")
      segmentOpen = false
      trackOpen = false
    }
    if !trackOpen {
      trackOpen = true
      output.append(" <trk>\n  <name>")
      output.append(xmlText: header.name)
      if header.segmentsAreTrips {
        output.append(", trip ")
        output.append(integer: fix.segment + 1)
      }
      output.append("</name>\n")
      if let device = fix.location.device {
        output.append("  <src>")
        output.append(xmlText: device)
        output.append("</src>\n")
      }
    }
    if fix.startsSegment {
      if segmentOpen { output.append("  </trkseg>\n") }
      output.append("  <trkseg>\n")
      segmentOpen = true
    }
    let location = fix.location
    output.append("   <trkpt lat=\"")
    output.append(location.latitude, decimals: 9)
    output.append("\" lon=\"")
    output.append(location.longitude, decimals: 9)
    output.append("\">")
    output.appendElement("<ele>", location.altitude, 4, "</ele>")
    if let time = location.timestamp {
      output.append("<time>")
      output.append(time)
      output.append("</time>")
    }
    if let variation = location.magneticVariation, variation.isFinite {
      // GPX degrees run from 0 up to (not including) 360; ours are east-positive from -180.
      output.appendElement("<magvar>", Self.degrees(variation, decimals: 1), 1, "</magvar>")
    }
    output.appendElement("<geoidheight>", location.geoidSeparation, 3, "</geoidheight>")
    output.append("<fix>")
    output.append(Self.fixType(location))
    output.append("</fix>")
    if let used = location.satellitesUsed {
      output.append("<sat>")
      output.append(integer: used)
      output.append("</sat>")
    }
    output.appendElement("<hdop>", location.dop.horizontal, 2, "</hdop>")
    output.appendElement("<vdop>", location.dop.vertical, 2, "</vdop>")
    output.appendElement("<pdop>", location.dop.position, 2, "</pdop>")
    output.appendElement("<ageofdgpsdata>", location.differentialAge, 1, "</ageofdgpsdata>")
    if let station = location.differentialStation, (0...1023).contains(station) {
      output.append("<dgpsid>")
      output.append(integer: station)
      output.append("</dgpsid>")
    }
    let speed = location.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    let course = location.course.flatMap { $0.isFinite ? Self.degrees($0, decimals: 2) : nil }
    let bearing = location.heading.flatMap { $0.isFinite ? Self.degrees($0, decimals: 2) : nil }
    if speed != nil || course != nil || bearing != nil {
      output.append("<extensions><gpxtpx:TrackPointExtension>")
      output.appendElement("<gpxtpx:speed>", speed, 3, "</gpxtpx:speed>")
      output.appendElement("<gpxtpx:course>", course, 2, "</gpxtpx:course>")
      output.appendElement("<gpxtpx:bearing>", bearing, 2, "</gpxtpx:bearing>")
      output.append("</gpxtpx:TrackPointExtension></extensions>")
    }
    output.append("</trkpt>\n")
  }

  public func endTracks(into output: inout ByteBuffer, flush: ExportFlush) {
    if segmentOpen { output.append("  </trkseg>\n") }
    if trackOpen { output.append(" </trk>\n") }
    segmentOpen = false
    trackOpen = false
  }

  public func endDocument(into output: inout ByteBuffer, flush: ExportFlush) {
    output.append("</gpx>\n")
  }

  /// An angle in [0, 360) as it will be written with `decimals` places (359.999 would
  /// print as 360.00, which the schemas' degree types exclude).
  public static func degrees(_ angle: Double, decimals: Int) -> Double {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    var value = angle.truncatingRemainder(dividingBy: 360)
    if value < 0 { value += 360 }
    value = (value * scale).rounded() / scale
    return value >= 360 ? 0 : value
  }

  /// GPX's `fix` value: `dgps` for corrected fixes (DGPS, SBAS, RTK), `pps` for
  /// PPS-disciplined ones, otherwise the fix mode, as gpxlogger reports it.
  public static func fixType(_ location: Location) -> StaticString {
    switch location.quality {
    case .differential, .rtkFixed, .rtkFloat: return "dgps"
    case .pps: return "pps"
    default: return location.mode == .threeD ? "3d" : "2d"
    }
  }
}

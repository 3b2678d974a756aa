import LocationKit
import NMEA

/// One exported fix, with what the writers need besides the location itself.
struct ExportFix {
  /// The fix as the location manager delivered it.
  var location: Location
  /// The distance figures up to and including this fix, as `print` reports them.
  var odometer: TrackOdometer
  /// The track segment the fix belongs to, from 0: a new segment starts after a fix gap.
  var segment: Int
  /// Whether this is the first fix of its segment.
  var startsSegment: Bool

  /// The fix's time in seconds: since the Unix epoch, or since midnight for logs without a
  /// date.
  var seconds: Double { location.timestamp?.secondsSinceEpoch ?? location.timeOfDay.seconds }
}

/// What every writer knows before the first fix.
struct ExportHeader {
  /// The track's name (`--name`, or the source's file name).
  var name: String
  /// The SOURCE, as the user named it.
  var source: String
  /// Fixes further apart than this many seconds start a new segment; 0 never splits.
  var gap: Double
  /// Whether each segment is a trip (`--split trips`): GPX then writes a track per trip.
  var segmentsAreTrips = false
}

/// Writes the bytes gathered in a buffer out to the export's destination and empties it.
typealias ExportFlush = (inout ByteBuffer) throws(CommandError) -> Void

/// Writes one export format as the fixes come, into a byte buffer that the caller flushes,
/// so that memory does not grow with the length of the track.
///
/// The caller calls ``begin(into:)`` once, ``add(_:into:)`` per fix, and
/// ``end(into:flush:)`` once after the last fix; the document is complete only after
/// ``end(into:flush:)``.
protocol ExportWriter: AnyObject {
  /// Writes what comes before the first fix (a document header, a CSV header row).
  func begin(into output: inout ByteBuffer) throws(CommandError)
  /// Writes one fix, or takes note of it for the end.
  func add(_ fix: ExportFix, into output: inout ByteBuffer) throws(CommandError)
  /// Writes what comes after the last fix and closes the document; `flush` empties the
  /// buffer into the destination, for writers with much to write at the end.
  func end(into output: inout ByteBuffer, flush: ExportFlush) throws(CommandError)
}

/// The export formats, by the name `--format` takes.
enum ExportFormat: String, CaseIterable {
  case gpx
  case geojson
  case kml
  case csv
  case jsonl
  case svg

  /// The format a file name's extension implies, for `-o FILE` without `--format`.
  init?(fileName: String) {
    guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
    switch fileName[fileName.index(after: dot)...].lowercased() {
    case "gpx": self = .gpx
    case "geojson": self = .geojson
    case "kml": self = .kml
    case "csv": self = .csv
    case "jsonl", "ndjson": self = .jsonl
    case "svg": self = .svg
    default: return nil
    }
  }

  /// A writer for this format.
  func makeWriter(_ header: ExportHeader, points: Bool) throws(CommandError) -> any ExportWriter {
    switch self {
    case .gpx: GPXWriter(header)
    case .geojson: points ? GeoJSONPointsWriter(header) : GeoJSONTrackWriter(header)
    case .kml: try KMLWriter(header)
    case .csv: CSVWriter(header)
    case .jsonl: JSONLinesWriter()
    case .svg: SVGWriter(header)
    }
  }
}

/// `print --json`'s lines: one gpsd TPV-style JSON object per fix.
final class JSONLinesWriter: ExportWriter {
  func begin(into output: inout ByteBuffer) {}

  func add(_ fix: ExportFix, into output: inout ByteBuffer) {
    LocationRenderer.json(fix.location, fix.odometer, into: &output)
  }

  func end(into output: inout ByteBuffer, flush: ExportFlush) {}
}

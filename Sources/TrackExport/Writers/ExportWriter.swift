import LocationKit
import NMEA

/// One exported fix, with what the writers need besides the location itself.
public struct ExportFix {
  /// The fix as the location manager delivered it.
  public var location: Location
  /// The distance figures up to and including this fix, as `print` reports them.
  public var odometer: TrackDistances
  /// The track segment the fix belongs to, from 0: a new segment starts after a fix gap.
  public var segment: Int
  /// Whether this is the first fix of its segment.
  public var startsSegment: Bool

  /// A fix with its distance figures and its place among the segments.
  public init(location: Location, odometer: TrackOdometer, segment: Int, startsSegment: Bool) {
    self.location = location
    self.odometer = TrackDistances(odometer)
    self.segment = segment
    self.startsSegment = startsSegment
  }

  /// The fix's time in seconds: since the Unix epoch, or since midnight for logs without a
  /// date.
  public var seconds: Double { location.timestamp?.secondsSinceEpoch ?? location.timeOfDay.seconds }
}

/// An odometer's figures at one fix: what writers print of it. The figures alone, not
/// the odometer, whose state of several hundred bytes every fix would copy.
public struct TrackDistances: Sendable {
  /// Jitter-proof distance travelled, metres (``/LocationKit/TrackOdometer/distance``).
  public var distance: Double
  /// Its 1-sigma uncertainty, metres (``/LocationKit/TrackOdometer/distanceError``).
  public var distanceError: Double
  /// Raw path length, metres.
  public var pathLength: Double
  /// Straight distance from the first fix, metres.
  public var displacement: Double
  /// Seconds moving so far, as the odometer decides (``/LocationKit/TrackOdometer/movingTime``).
  public var movingTime: Double
  /// Seconds standing still so far (``/LocationKit/TrackOdometer/stoppedTime``).
  public var stoppedTime: Double

  /// The figures of `odometer` now.
  public init(_ odometer: borrowing TrackOdometer) {
    distance = odometer.distance
    distanceError = odometer.distanceError
    pathLength = odometer.pathLength
    displacement = odometer.displacement
    movingTime = odometer.movingTime
    stoppedTime = odometer.stoppedTime
  }
}

/// What every writer knows before the first fix.
public struct ExportHeader {
  /// The track's name (`--name`, or the source's file name).
  public var name: String
  /// The SOURCE, as the user named it.
  public var source: String
  /// Fixes further apart than this many seconds start a new segment; 0 never splits.
  public var gap: Double
  /// Whether each segment is a trip (`--split trips`): GPX then writes a track per trip.
  public var segmentsAreTrips = false
  /// For a further gpsd device's track (see ``ExportWriter``), that device: the writer
  /// then writes a part of the first writer's document, not a document of its own.
  public var continuedDevice: String?

  /// What the writers of a track named `name`, from `source`, cut at fix gaps longer
  /// than `gap` seconds, need to know.
  public init(name: String, source: String, gap: Double) {
    self.name = name
    self.source = source
    self.gap = gap
  }
}

/// Writes the bytes gathered in a buffer out to the export's destination and empties it.
public typealias ExportFlush = (inout ByteBuffer) throws(ExportError) -> Void

/// Writes one export format as the fixes come, into a byte buffer that the caller flushes,
/// so that memory does not grow with the length of the track.
///
/// The caller calls ``begin(into:)`` once, ``add(_:into:)`` per fix, then
/// ``endTracks(into:flush:)`` and ``endDocument(into:flush:)`` once each after the last
/// fix; the document is complete only after ``endDocument(into:flush:)``.
///
/// A source with several gpsd devices gives one track per device. A format whose records
/// each name their device (``interleavesDevices``: CSV, JSON lines) takes them all through
/// one writer, as they come. The others give each further device a writer of its own,
/// made with ``ExportHeader/continuedDevice`` set, whose part of the document waits in a
/// ``SpillFile``: its ``begin(into:)`` opens that part (no document header), its
/// ``endTracks(into:flush:)`` closes it, and the first writer places it after its own
/// tracks, takes in its figures with ``include(_:)``, and ends the document.
public protocol ExportWriter: AnyObject {
  /// Writes what comes before the first fix (a document header, a CSV header row).
  func begin(into output: inout ByteBuffer) throws(ExportError)
  /// Writes one fix, or takes note of it for the end.
  func add(_ fix: ExportFix, into output: inout ByteBuffer) throws(ExportError)
  /// Writes what closes this writer's tracks; `flush` empties the buffer into the
  /// destination, for writers with much to write at the end.
  func endTracks(into output: inout ByteBuffer, flush: ExportFlush) throws(ExportError)
  /// Writes what comes after the last track and closes the document.
  func endDocument(into output: inout ByteBuffer, flush: ExportFlush) throws(ExportError)
  /// Whether the fixes of several devices go through this one writer as they come.
  var interleavesDevices: Bool { get }
  /// Takes in the figures of a further device's writer whose tracks this document holds.
  func include(_ other: any ExportWriter)
  /// Whether the format has heading reports too (JSON lines: `print --json`'s ATT).
  var exportsHeadings: Bool { get }
  /// Writes one heading report, where ``exportsHeadings``.
  func add(heading: Heading, into output: inout ByteBuffer)
}

extension ExportWriter {
  public var interleavesDevices: Bool { false }
  public func include(_ other: any ExportWriter) {}
  public var exportsHeadings: Bool { false }
  public func add(heading: Heading, into output: inout ByteBuffer) {}

  /// Ends the tracks and the document.
  public func end(into output: inout ByteBuffer, flush: ExportFlush) throws(ExportError) {
    try endTracks(into: &output, flush: flush)
    try endDocument(into: &output, flush: flush)
  }
}

/// The export formats, by the name `--format` takes.
public enum ExportFormat: String, CaseIterable {
  /// GPX 1.1: a track whose segments are the continuous spans of fixes (``GPXWriter``).
  case gpx
  /// GeoJSON (RFC 7946): a `LineString` feature per segment (``GeoJSONTrackWriter``), or a
  /// `Point` per fix (``GeoJSONPointsWriter``).
  case geojson
  /// KML 2.2: a placemark per fix, then the track as a line per segment (``KMLWriter``).
  case kml
  /// CSV with a header row: one row per fix, the columns of ``ExportField/all``.
  case csv
  /// JSON lines: one TPV object per fix, as `print --json` writes them.
  case jsonl
  /// An SVG map of the track, its line coloured by speed (``SVGWriter``).
  case svg

  /// The format a file name's extension implies, for `-o FILE` without `--format`.
  public init?(fileName: String) {
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
  public func makeWriter(_ header: ExportHeader, points: Bool) throws(ExportError) -> any ExportWriter {
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

/// `print --json`'s lines: one gpsd TPV-style JSON object per fix, and an ATT object per
/// heading report, in the order they came.
public final class JSONLinesWriter: ExportWriter {
  public var interleavesDevices: Bool { true }
  public var exportsHeadings: Bool { true }

  public func add(heading: Heading, into output: inout ByteBuffer) {
    LocationRenderer.attitude(heading, into: &output)
  }

  public func begin(into output: inout ByteBuffer) {}

  public func add(_ fix: ExportFix, into output: inout ByteBuffer) {
    LocationRenderer.json(fix.location, fix.odometer, into: &output)
  }

  public func endTracks(into output: inout ByteBuffer, flush: ExportFlush) {}
  public func endDocument(into output: inout ByteBuffer, flush: ExportFlush) {}
}

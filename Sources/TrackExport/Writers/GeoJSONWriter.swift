import LocationKit
import NMEA

/// GeoJSON (RFC 7946) of the track: a `FeatureCollection` with one `LineString` feature per
/// segment (a continuous span of fixes; a fix gap starts the next), in order.
///
/// The structure is what streaming allows with constant memory: a feature's coordinates are
/// written as the fixes come, and its `properties` after its `geometry` (JSON member order
/// is free), when the segment's end is known: `segment` (its index from 0), `start` and
/// `end` (ISO 8601 UTC, omitted for logs without a date), `fixes`, `distance` (jitter-proof,
/// metres) and `pathLength` (every step summed), both counted within the segment. A segment
/// of a single fix is a `Point` feature with the same properties, since a `LineString`
/// needs two positions. The whole track's figures follow the `features` array as foreign
/// members of the collection (RFC 7946 section 6.1): `name`, `start`, `end`, `fixes`,
/// `segments`, and `distance`, `pathLength` and `displacement` as `print` counts them
/// (across gaps too). With several gpsd devices, each segment's properties name its
/// `device`, the features come a device at a time, and the collection's figures add up
/// the devices' (`tracks` says how many; `displacement`, which has no meaning across
/// receivers, is then left out).
///
/// A segment that crosses the antimeridian is cut there (RFC 7946 section 3.1.9), so that
/// no line's coordinates jump from +180 to −180 (which readers draw across the whole
/// map): each part is a feature of its own, ending and starting at ±180° at the latitude
/// (and height) of the straight step between the two fixes, with the segment's index and
/// a `part` (0, 1, ...) in its properties; a part's `start`, `distance` and `pathLength`
/// count from the fix before the cut, so that the parts add up to the segment. Streaming rules out one
/// `MultiLineString`, whose nesting would have to be known before the first position.
///
/// Positions are longitude, latitude and, when known, the height above the WGS84
/// ellipsoid (RFC 7946 section 3.1.1: not the altitude above mean sea level), with nine
/// decimals for the coordinates. There is no `crs` member: RFC 7946 coordinates are WGS84.
public final class GeoJSONTrackWriter: ExportWriter {
  private let header: ExportHeader
  fileprivate private(set) var summary = GeoJSONSummary()
  private var features = 0
  /// The segment's first fix, held until a second one shows it is a line.
  private var held: ExportFix?
  private var lineOpen = false
  private var segmentFirst: ExportFix?
  private var segmentLast: ExportFix?
  private var segmentFixes = 0
  /// Within a segment cut at the antimeridian: the part under way (0 before any cut),
  /// the fix its figures count from, and its fixes.
  private var part = 0
  private var partBase: ExportFix?
  private var partFixes = 0

  /// A writer for one document of lines, named and described by `header`.
  public init(_ header: ExportHeader) {
    self.header = header
    // A further device's features follow the first device's.
    if header.continuedDevice != nil { features = 1 }
  }

  public func begin(into output: inout ByteBuffer) {
    guard header.continuedDevice == nil else { return }
    output.append("{\"type\":\"FeatureCollection\",\"features\":[\n")
  }

  public func include(_ other: any ExportWriter) {
    if let other = other as? GeoJSONTrackWriter { summary.include(other.summary) }
  }

  public func add(_ fix: ExportFix, into output: inout ByteBuffer) {
    if !fix.startsSegment, let previous = segmentLast,
      abs(fix.location.longitude - previous.location.longitude) > 180
    {
      cut(from: previous, to: fix, into: &output)
    } else if fix.startsSegment {
      closeSegment(into: &output)
      segmentFirst = fix
      segmentFixes = 0
      part = 0
      partBase = fix
      partFixes = 0
      held = fix
    } else if let first = held {
      startFeature(into: &output)
      output.append("\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\n")
      GeoJSONSummary.appendPosition(first.location, into: &output)
      output.append(",\n")
      GeoJSONSummary.appendPosition(fix.location, into: &output)
      held = nil
      lineOpen = true
    } else {
      output.append(",\n")
      GeoJSONSummary.appendPosition(fix.location, into: &output)
    }
    segmentLast = fix
    segmentFixes += 1
    partFixes += 1
    summary.add(fix)
  }

  /// Ends the part under way at the antimeridian, between `previous` and `fix`, and starts
  /// the next one from the other side, with `fix` in it.
  private func cut(from previous: ExportFix, to fix: ExportFix, into output: inout ByteBuffer) {
    let (from, to) = (previous.location, fix.location)
    // The step the short way round, unwrapped, and where it meets ±180°.
    let east = to.longitude < from.longitude
    let unwrapped = to.longitude + (east ? 360 : -360)
    let edge = east ? 180.0 : -180.0
    let share = (edge - from.longitude) / (unwrapped - from.longitude)
    func crossing(at longitude: Double) -> Location {
      var point = Location(latitude: from.latitude + share * (to.latitude - from.latitude), longitude: longitude)
      if let a = from.ellipsoidalAltitude, let b = to.ellipsoidalAltitude {
        point.ellipsoidalAltitude = a + share * (b - a)
      }
      return point
    }
    if let first = held {
      startFeature(into: &output)
      output.append("\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\n")
      GeoJSONSummary.appendPosition(first.location, into: &output)
      held = nil
    }
    output.append(",\n")
    GeoJSONSummary.appendPosition(crossing(at: edge), into: &output)
    output.append("\n]},")
    appendProperties(last: previous, isPart: true, into: &output)
    // The next part: from the other side of the line to this fix.
    part += 1
    partBase = previous
    partFixes = 0
    startFeature(into: &output)
    output.append("\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\n")
    GeoJSONSummary.appendPosition(crossing(at: -edge), into: &output)
    output.append(",\n")
    GeoJSONSummary.appendPosition(to, into: &output)
    lineOpen = true
  }

  public func endTracks(into output: inout ByteBuffer, flush: ExportFlush) {
    closeSegment(into: &output)
  }

  public func endDocument(into output: inout ByteBuffer, flush: ExportFlush) {
    output.append("\n]")
    summary.appendMembers(name: header.name, into: &output)
    output.append("}\n")
  }

  private func startFeature(into output: inout ByteBuffer) {
    if features > 0 { output.append(",\n") }
    features += 1
    output.append("{\"type\":\"Feature\",")
  }

  /// Ends the current segment's feature: its properties now that its end is known.
  private func closeSegment(into output: inout ByteBuffer) {
    guard segmentFirst != nil, let last = segmentLast else { return }
    if let single = held {
      startFeature(into: &output)
      output.append("\"geometry\":{\"type\":\"Point\",\"coordinates\":")
      GeoJSONSummary.appendPosition(single.location, into: &output)
      output.append("},")
      held = nil
    } else if lineOpen {
      output.append("\n]},")
      lineOpen = false
    }
    appendProperties(last: last, isPart: part > 0, into: &output)
    segmentFirst = nil
    segmentLast = nil
  }

  /// The properties of the segment, or (`isPart`) of its part under way, ending at `last`,
  /// and the feature's end.
  private func appendProperties(last: ExportFix, isPart: Bool, into output: inout ByteBuffer) {
    guard let first = segmentFirst, let base = partBase else { return }
    output.append("\"properties\":{")
    if let device = first.location.device {
      output.append("\"device\":")
      output.append(jsonString: device)
      output.append(",")
    }
    output.append("\"segment\":")
    output.append(integer: first.segment)
    // A part after a cut counts from the fix before it.
    let start = part == 0 ? first : base
    if isPart {
      output.append(",\"part\":")
      output.append(integer: part)
    }
    GeoJSONSummary.appendTime(",\"start\":", start.location.timestamp, into: &output)
    GeoJSONSummary.appendTime(",\"end\":", last.location.timestamp, into: &output)
    output.append(",\"fixes\":")
    output.append(integer: partFixes)
    output.append(",\"distance\":")
    output.append(last.odometer.distance - base.odometer.distance, decimals: 3)
    output.append(",\"pathLength\":")
    output.append(last.odometer.pathLength - base.odometer.pathLength, decimals: 3)
    output.append("}}")
  }
}

/// GeoJSON with `--points`: a `FeatureCollection` of one `Point` feature per fix, whose
/// properties are every field of the fix (``ExportField/all`` but the coordinates, which
/// are the geometry); unknown values are omitted. The track's figures follow the
/// `features` array as in ``GeoJSONTrackWriter``, devices too.
public final class GeoJSONPointsWriter: ExportWriter {
  private let header: ExportHeader
  private let fields = ExportField.all.filter { $0.name.description != "lat" && $0.name.description != "lon" }
  fileprivate private(set) var summary = GeoJSONSummary()

  /// A writer for one document of points, named and described by `header`.
  public init(_ header: ExportHeader) { self.header = header }

  public func begin(into output: inout ByteBuffer) {
    guard header.continuedDevice == nil else { return }
    output.append("{\"type\":\"FeatureCollection\",\"features\":[\n")
  }

  public func include(_ other: any ExportWriter) {
    if let other = other as? GeoJSONPointsWriter { summary.include(other.summary) }
  }

  public func add(_ fix: ExportFix, into output: inout ByteBuffer) {
    // A further device's features follow the first device's.
    if summary.fixes > 0 || header.continuedDevice != nil { output.append(",\n") }
    output.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":")
    GeoJSONSummary.appendPosition(fix.location, into: &output)
    output.append("},\"properties\":{")
    var first = true
    for field in fields {
      let value = field.value(fix)
      if case .missing = value { continue }
      output.append(first ? "\"" : ",\"")
      first = false
      output.append(field.name)
      output.append("\":")
      output.append(json: value)
    }
    output.append("}}")
    summary.add(fix)
  }

  public func endTracks(into output: inout ByteBuffer, flush: ExportFlush) {}

  public func endDocument(into output: inout ByteBuffer, flush: ExportFlush) {
    output.append("\n]")
    summary.appendMembers(name: header.name, into: &output)
    output.append("}\n")
  }
}

/// The whole track's figures, written as foreign members after the `features` array.
public struct GeoJSONSummary {
  private(set) var fixes = 0
  private var segments = 0
  private var start: Timestamp?
  private var end: Timestamp?
  private var distance = 0.0
  private var pathLength = 0.0
  private var displacement = 0.0
  /// The devices' tracks summed up (one but for several gpsd devices).
  private var tracks = 1

  /// Counts one exported fix: its segment, its time and the distance so far.
  public mutating func add(_ fix: ExportFix) {
    if fixes == 0 { start = fix.location.timestamp }
    fixes += 1
    if fix.startsSegment { segments += 1 }
    end = fix.location.timestamp
    distance = fix.odometer.distance
    pathLength = fix.odometer.pathLength
    displacement = fix.odometer.displacement
  }

  /// Adds another device's track: counts and lengths add up, times span both.
  public mutating func include(_ other: GeoJSONSummary) {
    guard other.fixes > 0 else { return }
    fixes += other.fixes
    segments += other.segments
    distance += other.distance
    pathLength += other.pathLength
    tracks += other.tracks
    start = [start, other.start].compactMap { $0 }.min()
    end = [end, other.end].compactMap { $0 }.max()
  }

  /// `,"name":...,"start":...` up to `displacement`, ready to follow the `features` array.
  public func appendMembers(name: String, into output: inout ByteBuffer) {
    output.append(",\"name\":")
    output.append(jsonString: name)
    Self.appendTime(",\"start\":", start, into: &output)
    Self.appendTime(",\"end\":", end, into: &output)
    output.append(",\"fixes\":")
    output.append(integer: fixes)
    output.append(",\"segments\":")
    output.append(integer: segments)
    output.append(",\"distance\":")
    output.append(distance, decimals: 3)
    output.append(",\"pathLength\":")
    output.append(pathLength, decimals: 3)
    if tracks > 1 {
      output.append(",\"tracks\":")
      output.append(integer: tracks)
    } else {
      output.append(",\"displacement\":")
      output.append(displacement, decimals: 3)
    }
  }

  /// A position: `[lon,lat]`, or `[lon,lat,height]` with the ellipsoidal height when known.
  public static func appendPosition(_ location: Location, into output: inout ByteBuffer) {
    output.append(UInt8(ascii: "["))
    output.append(location.longitude, decimals: 9)
    output.append(UInt8(ascii: ","))
    output.append(location.latitude, decimals: 9)
    if let height = location.ellipsoidalAltitude, height.isFinite {
      output.append(UInt8(ascii: ","))
      output.append(height, decimals: 4)
    }
    output.append(UInt8(ascii: "]"))
  }

  /// `key"time"` when the time is known.
  public static func appendTime(_ key: StaticString, _ time: Timestamp?, into output: inout ByteBuffer) {
    guard let time else { return }
    output.append(key)
    output.append(UInt8(ascii: "\""))
    output.append(time)
    output.append(UInt8(ascii: "\""))
  }
}

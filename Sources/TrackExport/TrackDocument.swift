import LocationKit

/// One export document built from the fixes a location manager delivers: the fixes cut
/// into segments at fix gaps (or into trips), filtered as the manager would filter them,
/// and each gpsd device kept as a track of its own, written by a format's ``ExportWriter``.
///
/// The manager must deliver every fix (no filters of its own): a gap is a stretch without
/// fixes from the receiver, and fixes left out by ``/LocationKit/LocationFilter`` must not look like one
/// (a walker standing still for a minute under a 5 m distance filter has not lost the
/// fix). Each track's odometer counts its exported fixes only, as `print`'s does, so
/// distances match `print --json` exactly; with trips it counts the trips' fixes only, and
/// segments are trips (the gap does not apply).
///
/// Several devices: a format that ``ExportWriter/interleavesDevices`` takes every device's
/// fixes through the one writer; otherwise each further device gets a writer of its own
/// (made by `furtherWriter`), whose part of the document waits in a ``SpillFile`` and
/// follows the first device's tracks. Memory stays flat either way.
public final class TrackDocument {
  private let writer: any ExportWriter
  private let furtherWriter: (String) throws(ExportError) -> any ExportWriter
  private let gap: Double
  private let splitTrips: Bool
  private let filter: LocationFilter
  private let interval: IntervalFilter?
  /// A track per gpsd device, in the order they first reported (one for other sources).
  private var tracks: [DeviceTrack] = []
  /// The track of the latest fix: consecutive fixes are nearly always one device's.
  private var current: DeviceTrack?

  /// A document that `writer` writes. `gap` is in seconds (0: never cut); `splitTrips`
  /// makes a segment of each trip and leaves the stops out; `filter` is the manager's
  /// filters; `interval` writes one fix per so many seconds (the odometers still count
  /// every fix the filters admit, as `print --interval` does); `furtherWriter` makes the
  /// writer of a further gpsd device's part.
  public init(
    writer: any ExportWriter, gap: Double, splitTrips: Bool = false, filter: LocationFilter = LocationFilter(),
    interval: IntervalFilter? = nil, furtherWriter: @escaping (String) throws(ExportError) -> any ExportWriter
  ) {
    self.interval = interval
    self.writer = writer
    self.gap = gap
    self.splitTrips = splitTrips
    self.filter = filter
    self.furtherWriter = furtherWriter
  }

  /// The number of fixes written.
  public var fixes: Int { tracks.reduce(0) { $0 + $1.fixes } }

  /// Each device's distance travelled (`nil` device: a source that is one receiver).
  public var distances: [(device: String?, distance: Double, error: Double)] {
    tracks.map { ($0.device, $0.odometer.distance, $0.odometer.distanceError) }
  }

  /// Whether the format has heading reports too (``ExportWriter/exportsHeadings``).
  public var exportsHeadings: Bool { writer.exportsHeadings }

  /// The heading reports written.
  public private(set) var headings = 0

  /// Takes a heading report, written where the format has them, as it comes.
  public func add(heading: Heading, into output: inout ByteBuffer) {
    guard writer.exportsHeadings else { return }
    writer.add(heading: heading, into: &output)
    headings += 1
  }

  /// Writes the document's beginning.
  public func begin(into output: inout ByteBuffer) throws(ExportError) {
    try writer.begin(into: &output)
  }

  /// Fixes left out because they had no time (``/LocationKit/Location/hasTime``): a track
  /// point says when, and gaps and trips are measured in time.
  public private(set) var untimedFixes = 0

  /// Fixes with a time of day but no date (a log of GGA alone, without `--date`): the
  /// formats write no time for them, as `print --json` does not.
  public private(set) var undatedFixes = 0

  /// Takes a fix from the receiver; whatever it lets out is written into `output`. A fix
  /// without a time is counted in ``untimedFixes`` and left out.
  public func add(_ location: Location, into output: inout ByteBuffer) throws(ExportError) {
    guard location.hasTime else {
      untimedFixes += 1
      return
    }
    if location.timestamp == nil { undatedFixes += 1 }
    let track = try track(for: location.device)
    if track.trips != nil {
      for (fix, startsTrip) in track.trips!.add(location) {
        if startsTrip { track.breakPending = true }
        try export(fix, in: track, into: &output)
      }
      return
    }
    // A gap is measured between the receiver's fixes, before the filters.
    // (Between dated fixes by their timestamps, otherwise by time of day the shorter way
    // round the clock: a log crossing midnight.)
    if gap > 0, let last = track.lastReceiverFix, abs(Trip.elapsed(from: last, to: location)) > gap {
      track.breakPending = true
    }
    track.lastReceiverFix = location
    try export(location, in: track, into: &output)
  }

  /// Ends the trips under way (the recording, or the log, ends there) and writes what they
  /// still held.
  public func finishTrips(into output: inout ByteBuffer) throws(ExportError) {
    for track in tracks where track.trips != nil {
      for (fix, startsTrip) in track.trips!.finish() {
        if startsTrip { track.breakPending = true }
        try export(fix, in: track, into: &output)
      }
    }
  }

  /// Writes the end of every track and of the document; `flush` empties `output` into the
  /// destination between the parts.
  public func end(into output: inout ByteBuffer, flush: ExportFlush) throws(ExportError) {
    try writer.endTracks(into: &output, flush: flush)
    // Further devices' tracks, in the order the devices first reported.
    for track in tracks {
      guard let spill = track.spill else { continue }
      try spill.write { (buffer, flush) throws(ExportError) in
        try track.writer.endTracks(into: &buffer, flush: flush)
      }
      try spill.copy(into: &output, flush: flush)
      writer.include(track.writer)
    }
    try writer.endDocument(into: &output, flush: flush)
  }

  /// The track of `device`, made when it first reports.
  private func track(for device: String?) throws(ExportError) -> DeviceTrack {
    if let current, current.device == device { return current }
    if let known = tracks.first(where: { $0.device == device }) {
      current = known
      return known
    }
    let made: DeviceTrack
    if tracks.isEmpty || writer.interleavesDevices {
      made = DeviceTrack(device: device, writer: writer, spill: nil, splitTrips: splitTrips, filter: filter)
      made.interval = interval
    } else {
      let further = try furtherWriter(device ?? "")
      let spill = try SpillFile()
      try spill.write { (buffer, _) throws(ExportError) in try further.begin(into: &buffer) }
      made = DeviceTrack(device: device, writer: further, spill: spill, splitTrips: splitTrips, filter: filter)
      made.interval = interval
    }
    tracks.append(made)
    current = made
    return made
  }

  /// Writes a fix that passes the filters, in a new segment of its track when one is due.
  private func export(_ location: Location, in track: DeviceTrack, into output: inout ByteBuffer) throws(ExportError) {
    guard track.filter.admit(location) else { return }
    track.odometer.add(location)
    if track.interval != nil, !track.interval!.admits(location) { return }
    let startsSegment = track.fixes == 0 || track.breakPending
    if startsSegment { track.segment += 1 }
    track.breakPending = false
    track.fixes += 1
    let fix = ExportFix(
      location: location, odometer: track.odometer, segment: track.segment, startsSegment: startsSegment)
    if let spill = track.spill {
      try spill.write { (buffer, _) throws(ExportError) in try track.writer.add(fix, into: &buffer) }
    } else {
      try track.writer.add(fix, into: &output)
    }
  }
}

/// One device's track in a document: its writer and where its fixes stand. A source
/// without devices (anything but gpsd) has one, with no device.
private final class DeviceTrack {
  let device: String?
  let writer: any ExportWriter
  /// Where a further device's part of the document waits until the first device's tracks
  /// are complete; `nil` for the first device and for formats that interleave devices.
  let spill: SpillFile?
  // Unchecked: a track is reached only through its document, which one thread drives
  // (TrackDocument is not Sendable), and no call holds one of these while another begins;
  // the runtime's exclusivity check of every fix's two mutations cost more than the
  // filter itself.
  @exclusivity(unchecked) var filter: LocationFilter
  var fixes = 0
  @exclusivity(unchecked) var odometer = TrackOdometer()
  var segment = -1
  var breakPending = false
  var lastReceiverFix: Location?
  /// With an interval: when this device's next fix is due.
  var interval: IntervalFilter?
  /// With trips: the trips, and the fixes not yet known to be in one.
  var trips: TripSplitter?

  init(device: String?, writer: any ExportWriter, spill: SpillFile?, splitTrips: Bool, filter: LocationFilter) {
    self.device = device
    self.writer = writer
    self.spill = spill
    self.filter = filter
    trips = splitTrips ? TripSplitter() : nil
  }
}

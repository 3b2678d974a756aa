import Dispatch
import LocationKit
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a location manager over the SOURCE of an export and hands each fix to a writer,
/// with the track cut into segments at fix gaps.
///
/// `--accuracy` and `--distance-filter` mean what they mean for `print` (the same options,
/// parsed by ``LocationSession/makeManager``), but they are applied here rather than by the
/// manager: a gap is a stretch without fixes from the receiver, and fixes left out by the
/// filters must not look like one (a walker standing still for a minute under
/// `--distance-filter 5` has not lost the fix). The odometer counts the exported fixes
/// only, as `print`'s does, so distances match `print --json` exactly; with
/// `--split trips` it counts the trips' fixes only, and segments are trips (`--gap` does
/// not apply). Several gpsd devices give a track each, with its own segments, odometer and
/// trips (see ``ExportWriter`` for how each format holds them).
///
/// Ctrl-C or SIGTERM on a live source (gpsd, a serial receiver, a TCP stream, a pipe) ends
/// the recording and the export is completed, as gpxlogger does; a second one gives up. On
/// a log file (or a file on standard input), which ends by itself, the export is
/// interrupted at once: the partial file is removed and the process ends with 128 plus the
/// signal's number. The signals are handled on a queue of their own, so that they work
/// while the export waits for an output that does not take its bytes.
final class ExportSession: LocationManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable: after init, every mutable property but `signalsSeen` (and every
  // `DeviceTrack`, which only these properties reach) is touched only on `queue`, the manager's serial callback queue (`run` and `recorded` reach them
  // through `queue.sync`); `signalsSeen` is touched only on `signalQueue`, a serial queue.

  /// How an export ended.
  enum Outcome {
    /// The source ended; the document is complete.
    case ended
    /// Ctrl-C or SIGTERM ended a live source's recording; the document is complete.
    case recordingStopped
    /// Standard output was closed by its reader: nothing more to write, not an error.
    case outputClosed
    /// A final error of the source, or a write failure (already reported when the message
    /// is `nil`).
    case failed(CommandError)
  }

  /// The source's name for messages.
  let sourceName: String
  /// Whether the source goes on until stopped (gpsd, serial, TCP, a pipe).
  let isLive: Bool
  /// The `-o FILE` export's partial file, for the signal handlers.
  let partialFile = PartialFile()
  private let queue = DispatchQueue(label: "whereami.export")
  private let signalQueue = DispatchQueue(label: "whereami.export.signals")
  private var signalsSeen = 0
  private let manager: LocationManager
  private let desiredAccuracy: Double
  private let distanceFilter: Double
  private let gap: Double
  private let finished = DispatchSemaphore(value: 0)

  private var writer: (any ExportWriter)?
  private var furtherWriter: ((String) throws(CommandError) -> any ExportWriter)?
  private var output: ExportOutput?
  private var outcome = Outcome.ended
  private var stopped = false
  private let splitTrips: Bool
  /// A track per gpsd device, in the order they first reported (one for other sources).
  private var tracks: [DeviceTrack] = []
  /// The track of the latest fix: consecutive fixes are nearly always one device's.
  private var current: DeviceTrack?
  private var messages = RepeatedMessages()

  /// Prepares the manager for the SOURCE in `arguments`; starts nothing.
  init(_ arguments: ParsedArguments, command: String, gap: Double, splitTrips: Bool = false) throws(CommandError) {
    let (configured, name) = try LocationSession.makeManager(
      arguments, command: command, replaySpeed: nil, defaultSource: "-", queue: queue)
    // The filters are applied here (see above): the manager delivers every fix.
    desiredAccuracy = configured.desiredAccuracy
    distanceFilter = configured.distanceFilter
    configured.desiredAccuracy = LocationAccuracy.best
    configured.distanceFilter = LocationDistance.none
    manager = configured
    sourceName = name
    isLive = (try? SourceAddress(arguments.positionals.first ?? "-"))?.isLive ?? true
    self.gap = gap
    self.splitTrips = splitTrips
    manager.delegate = self
    // From before the output is opened, so that no signal can leave its partial file.
    let output = arguments.value("output")
    Interrupts.handle(on: signalQueue) { [self] signalNumber in
      signalsSeen += 1
      if isLive && signalsSeen == 1 {
        queue.async { [self] in
          // The trip under way ends where the recording does.
          flushTrips()
          finish(.recordingStopped)
        }
      } else {
        Self.abandon(partialFile, output: output, signal: signalNumber)
      }
    }
  }

  /// Runs until the source ends, a final error, a write failure or (for a live source) a
  /// signal, writing the document's beginning, every fix and, unless failed, its end.
  /// `furtherWriter` makes the writer of a further gpsd device's part of the document
  /// (``ExportWriter``), for formats that do not interleave devices.
  func run(
    writer: any ExportWriter, furtherWriter: @escaping (String) throws(CommandError) -> any ExportWriter,
    output: ExportOutput
  ) -> Outcome {
    let started = queue.sync { () -> Bool in
      self.writer = writer
      self.furtherWriter = furtherWriter
      self.output = output
      if isLive { output.flushesEachFix = true }
      do throws(CommandError) {
        try writer.begin(into: &output.buffer)
      } catch {
        outcome = .failed(error)
        return false
      }
      output.fixWritten()
      return true
    }
    guard started else { return queue.sync { outcome } }
    manager.startUpdatingLocation()
    finished.wait()
    manager.stopUpdatingLocation()
    return queue.sync {
      switch outcome {
      case .ended, .recordingStopped:
        do throws(CommandError) {
          try writer.endTracks(into: &output.buffer, flush: output.write)
          // Further devices' tracks, in the order the devices first reported.
          for track in tracks {
            guard let spill = track.spill else { continue }
            try spill.write { (buffer, flush) throws(CommandError) in
              try track.writer.endTracks(into: &buffer, flush: flush)
            }
            try spill.copy(into: &output.buffer, flush: output.write)
            writer.include(track.writer)
          }
          try writer.endDocument(into: &output.buffer, flush: output.write)
        } catch {
          outcome = .failed(error)
        }
      case .outputClosed, .failed:
        break
      }
      return outcome
    }
  }

  /// The number of fixes exported and each device's distance travelled, for the closing
  /// message.
  var recorded: (fixes: Int, distances: [(device: String?, distance: Double)]) {
    queue.sync { (tracks.reduce(0) { $0 + $1.fixes }, tracks.map { ($0.device, $0.odometer.distance) }) }
  }

  /// Ends the session (on `queue`) with `outcome`, once.
  private func finish(_ outcome: Outcome) {
    guard !stopped else { return }
    stopped = true
    self.outcome = outcome
    manager.stopUpdatingLocation()
    finished.signal()
  }

  /// Ends the process for an interruption, from the signal queue, without waiting for the
  /// export (whose output may be stuck): the partial file goes, unless the export has just
  /// been completed, in which case the signal came too late to matter.
  private static func abandon(_ partialFile: PartialFile, output: String?, signal signalNumber: Int32) {
    switch partialFile.removeUnlessCompleted(signal: signalNumber) {
    case .completed: return
    case .removed: printError("whereami: interrupted; '\(output ?? "")' not written")
    case .none: if let output, output != "-" { printError("whereami: interrupted; '\(output)' is incomplete") }
    }
    // The shell's convention for a program ended by a signal: 128 + its number.
    _exit(128 + signalNumber)
  }

  func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
    guard !stopped, let track = track(for: location.device) else { return }
    if track.trips != nil {
      let ready = track.trips!.add(location)
      for (fix, startsTrip) in ready {
        if startsTrip { track.breakPending = true }
        export(fix, in: track)
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
    export(location, in: track)
  }

  /// The track of `device`, made when it first reports; `nil` when its writer cannot be
  /// made (the export has then failed).
  private func track(for device: String?) -> DeviceTrack? {
    if let current, current.device == device { return current }
    if let known = tracks.first(where: { $0.device == device }) {
      current = known
      return known
    }
    guard let writer, let furtherWriter else { return nil }
    let made: DeviceTrack
    if tracks.isEmpty || writer.interleavesDevices {
      made = DeviceTrack(device: device, writer: writer, spill: nil, splitTrips: splitTrips)
    } else {
      do throws(CommandError) {
        let further = try furtherWriter(device ?? "")
        let spill = try SpillFile()
        try spill.write { (buffer, _) throws(CommandError) in try further.begin(into: &buffer) }
        made = DeviceTrack(device: device, writer: further, spill: spill, splitTrips: splitTrips)
      } catch {
        finish(.failed(error))
        return nil
      }
    }
    tracks.append(made)
    current = made
    return made
  }

  /// Writes a fix that passes the filters, in a new segment of its track when one is due.
  private func export(_ location: Location, in track: DeviceTrack) {
    guard !stopped, let output else { return }
    // The filters of `print` (LocationManager's desiredAccuracy and distanceFilter).
    if desiredAccuracy > 0 {
      guard let accuracy = location.horizontalAccuracy, accuracy <= desiredAccuracy else { return }
    }
    if distanceFilter > 0, let last = track.lastExported, location.distance(from: last) < distanceFilter { return }
    track.lastExported = location
    track.odometer.add(location)
    let startsSegment = track.fixes == 0 || track.breakPending
    if startsSegment { track.segment += 1 }
    track.breakPending = false
    track.fixes += 1
    let fix = ExportFix(
      location: location, odometer: track.odometer, segment: track.segment, startsSegment: startsSegment)
    do throws(CommandError) {
      if let spill = track.spill {
        try spill.write { (buffer, _) throws(CommandError) in try track.writer.add(fix, into: &buffer) }
        return
      }
      try track.writer.add(fix, into: &output.buffer)
    } catch {
      finish(.failed(error))
      return
    }
    output.fixWritten()
    if let failure = output.failure {
      finish(.failed(failure))
    } else if output.isClosed {
      finish(.outputClosed)
    }
  }

  /// With `--split trips`: ends the trips under way and writes what they still held.
  private func flushTrips() {
    for track in tracks where track.trips != nil {
      guard !stopped else { return }
      for (fix, startsTrip) in track.trips!.finish() {
        if startsTrip { track.breakPending = true }
        export(fix, in: track)
      }
    }
  }

  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    guard !stopped else { return }
    if error.code == .sourceEnded {
      // A trip under way ends with the log.
      flushTrips()
      finish(.ended)
      return
    }
    if error.isFinal || messages.shouldSay("\(error)") { printError("whereami: \(error)") }
    guard error.isFinal else { return }
    finish(.failed(CommandError(message: nil, code: LocationSession.exitCode(for: error))))
  }
}

/// One device's track in an export: its writer and where its fixes stand. A source
/// without devices (anything but gpsd) has one, with no device.
private final class DeviceTrack {
  let device: String?
  let writer: any ExportWriter
  /// Where a further device's part of the document waits until the first device's tracks
  /// are complete; `nil` for the first device and for formats that interleave devices.
  let spill: SpillFile?
  var fixes = 0
  var odometer = TrackOdometer()
  var segment = -1
  var breakPending = false
  var lastReceiverFix: Location?
  var lastExported: Location?
  /// With `--split trips`: the trips, and the fixes not yet known to be in one.
  var trips: TripSplitter?

  init(device: String?, writer: any ExportWriter, spill: SpillFile?, splitTrips: Bool) {
    self.device = device
    self.writer = writer
    self.spill = spill
    trips = splitTrips ? TripSplitter() : nil
  }
}

/// Cuts a track into its trips for `export --split trips`: a fix comes out once it is
/// known to belong to a trip that reached the recogniser's minimum distance, and the fixes
/// of stops (the standing at either end, the noise of a cancelled start) never do. Memory
/// stays bounded: what waits is at most the stop duration's fixes, plus the start of a
/// trip until it has gone its minimum distance (both capped at `limit` fixes, beyond
/// which the oldest are let through or dropped).
struct TripSplitter {
  private var recognizer = MovementRecognizer()
  /// Recent fixes outside any trip, for the start of the next.
  private var before: [Location] = []
  /// Fixes of a trip that has not yet gone its minimum distance.
  private var unconfirmed: [Location] = []
  /// Fixes of a trip standing still, which either resumes (they are part of it) or ends.
  private var standing: [Location] = []
  private var confirmed = false
  private var startsTrip = false
  let limit = 4096

  /// Adds a fix; returns the fixes now known to be in a trip, with whether each starts one.
  mutating func add(_ location: Location) -> [(Location, Bool)] {
    let event = recognizer.add(location)
    guard let event else {
      if recognizer.trip == nil {
        before.append(location)
        if before.count > limit { before.removeFirst(before.count - limit / 2) }
        return []
      }
      // In a trip, standing (no event): held until the trip goes on or ends.
      standing.append(location)
      if standing.count > limit { return release(Array(standing.prefix(limit / 2)), dropping: limit / 2) }
      return []
    }
    switch event.state {
    case .began:
      let start = event.trip.start
      unconfirmed = before.filter { Trip.elapsed(from: start, to: $0) >= 0 } + [location]
      before = []
      standing = []
      confirmed = false
      startsTrip = true
      return confirmIfFar(event.trip)
    case .changed:
      let resumed = standing + [location]
      standing = []
      if confirmed { return emit(resumed) }
      unconfirmed += resumed
      if unconfirmed.count > limit { unconfirmed.removeFirst(unconfirmed.count - limit) }
      return confirmIfFar(event.trip)
    case .ended, .cancelled:
      return end(event, after: location)
    case .possible:
      return []
    }
  }

  /// Ends a trip under way at the end of the track.
  mutating func finish() -> [(Location, Bool)] {
    guard let event = recognizer.finish() else { return [] }
    return end(event, after: nil)
  }

  private mutating func end(_ event: MovementEvent, after location: Location?) -> [(Location, Bool)] {
    // The trip ends at the first fix of its stop; the rest of the stop is not exported.
    var out: [(Location, Bool)] = []
    if event.state == .ended {
      let end = event.trip.end
      let last = standing.filter { Trip.elapsed(from: $0, to: end) >= 0 }
      if !confirmed {
        unconfirmed += last
        out = emit(unconfirmed)
      } else {
        out = emit(last)
      }
    }
    unconfirmed = []
    standing = []
    confirmed = false
    before = location.map { [$0] } ?? []
    return out
  }

  private mutating func confirmIfFar(_ trip: Trip) -> [(Location, Bool)] {
    guard !confirmed, trip.distance >= recognizer.minimumDistance else { return [] }
    confirmed = true
    let fixes = unconfirmed
    unconfirmed = []
    return emit(fixes)
  }

  private mutating func emit(_ fixes: [Location]) -> [(Location, Bool)] {
    var out: [(Location, Bool)] = []
    out.reserveCapacity(fixes.count)
    for fix in fixes {
      out.append((fix, startsTrip))
      startsTrip = false
    }
    return out
  }

  private mutating func release(_ fixes: [Location], dropping count: Int) -> [(Location, Bool)] {
    standing.removeFirst(count)
    return confirmed ? emit(fixes) : []
  }
}

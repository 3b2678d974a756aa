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
/// not apply).
///
/// Ctrl-C or SIGTERM on a live source (gpsd, a serial receiver, a TCP stream, a pipe) ends
/// the recording and the export is completed, as gpxlogger does; a second one gives up. On
/// a log file (or a file on standard input), which ends by itself, the export is
/// interrupted at once: the partial file is removed and the process ends with 128 plus the
/// signal's number. The signals are handled on a queue of their own, so that they work
/// while the export waits for an output that does not take its bytes.
final class ExportSession: LocationManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable: after init, every mutable property but `signalsSeen` is touched
  // only on `queue`, the manager's serial callback queue (`run` and `recorded` reach them
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
  private var output: ExportOutput?
  private var outcome = Outcome.ended
  private var stopped = false
  private var fixes = 0
  private var odometer = TrackOdometer()
  private var segment = -1
  private var breakPending = false
  private var lastReceiverFix: Location?
  private var lastExported: Location?
  /// With `--split trips`: the trips, and the fixes not yet known to be in one.
  private var trips: TripSplitter?
  /// With several gpsd devices: the one exported, and the others seen.
  private var exportedDevice: String?
  private var otherDevices: Set<String> = []
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
    trips = splitTrips ? TripSplitter() : nil
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
  func run(writer: any ExportWriter, output: ExportOutput) -> Outcome {
    let started = queue.sync { () -> Bool in
      self.writer = writer
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
          try writer.end(into: &output.buffer, flush: output.write)
        } catch {
          outcome = .failed(error)
        }
      case .outputClosed, .failed:
        break
      }
      return outcome
    }
  }

  /// The number of fixes exported and the distance travelled, for the closing message.
  var recorded: (fixes: Int, distance: Double) {
    queue.sync { (fixes, odometer.distance) }
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
    guard !stopped else { return }
    // A track is one receiver's: with several gpsd devices, the first that reports.
    if let device = location.device {
      if exportedDevice == nil {
        exportedDevice = device
      } else if device != exportedDevice {
        if otherDevices.insert(device).inserted {
          printError(
            "whereami: \(sourceName) has several devices; exporting \(exportedDevice!) only "
              + "(name one to export it: gpsd://HOST:PORT\(device.hasPrefix("/") ? "" : "/")\(device))")
        }
        return
      }
    }
    if trips != nil {
      let ready = trips!.add(location)
      for (fix, startsTrip) in ready {
        if startsTrip { breakPending = true }
        export(fix)
      }
      return
    }
    // A gap is measured between the receiver's fixes, before the filters.
    // (Between dated fixes by their timestamps, otherwise by time of day the shorter way
    // round the clock: a log crossing midnight.)
    if gap > 0, let last = lastReceiverFix, abs(Trip.elapsed(from: last, to: location)) > gap {
      breakPending = true
    }
    lastReceiverFix = location
    export(location)
  }

  /// Writes a fix that passes the filters, in a new segment when one is due.
  private func export(_ location: Location) {
    guard !stopped, let writer, let output else { return }
    // The filters of `print` (LocationManager's desiredAccuracy and distanceFilter).
    if desiredAccuracy > 0 {
      guard let accuracy = location.horizontalAccuracy, accuracy <= desiredAccuracy else { return }
    }
    if distanceFilter > 0, let last = lastExported, location.distance(from: last) < distanceFilter { return }
    lastExported = location
    odometer.add(location)
    let startsSegment = fixes == 0 || breakPending
    if startsSegment { segment += 1 }
    breakPending = false
    fixes += 1
    do throws(CommandError) {
      try writer.add(
        ExportFix(location: location, odometer: odometer, segment: segment, startsSegment: startsSegment),
        into: &output.buffer)
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

  /// With `--split trips`: ends the trip under way and writes what it still held.
  private func flushTrips() {
    guard !stopped, trips != nil else { return }
    for (fix, startsTrip) in trips!.finish() {
      if startsTrip { breakPending = true }
      export(fix)
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

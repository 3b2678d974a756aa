import Dispatch
import LocationKit
import NMEA
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a location manager over the SOURCE of an export and hands each fix to a
/// ``TrackDocument``, which cuts the track into segments at fix gaps (or trips), keeps
/// gpsd devices apart and writes the format.
///
/// `--accuracy` and `--distance-filter` mean what they mean for `print` (the same options,
/// parsed by ``SourceRun``), but the document applies them rather than
/// the manager, so that fixes they leave out do not look like a gap (see ``TrackDocument``).
///
/// Ctrl-C or SIGTERM on a live source (gpsd, a serial receiver, a TCP stream, a pipe) ends
/// the recording and the export is completed, as gpxlogger does. A second signal changes
/// nothing: `timeout` sends two (to the process and to its group), and a user presses
/// Ctrl-C twice. A third gives up at once, without undoing what was recorded: a partial
/// file is kept under its own name, which the message gives. On a log file (or a file on
/// standard input), which ends by itself, the export is interrupted at once: the partial
/// file is removed and the process ends with 128 plus the signal's number. The signals are
/// handled on a queue of their own, so that they work while the export waits for an output
/// that does not take its bytes.
final class ExportSession: LocationManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable: after init, every mutable property but `signalsSeen` (and the
  // document, which only these properties reach) is touched only on `queue`, the
  // manager's serial callback queue (`run` and `recorded` reach them through
  // `queue.sync`); `signalsSeen` is touched only on `signalQueue`, a serial queue.

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

    /// Whether the document was completed (and is about to be committed).
    var isWritten: Bool {
      switch self {
      case .ended, .recordingStopped: true
      case .outputClosed, .failed: false
      }
    }
  }

  /// The SOURCE and its manager.
  let source: SourceRun
  /// The source's name for messages.
  var sourceName: String { source.name }
  /// The `-o FILE` export's partial file, for the signal handlers.
  let partialFile = PartialFile()
  private var queue: DispatchQueue { source.queue }
  private var manager: LocationManager { source.manager }
  private let signalQueue = DispatchQueue(label: "whereami.export.signals")
  private var signalsSeen = 0
  /// `--accuracy` and `--distance-filter`, applied by the document (see above).
  private let filter: LocationFilter
  private let gap: Double
  private let splitTrips: Bool
  private let interval: IntervalFilter?

  private var document: TrackDocument?
  private var output: ExportOutput?
  private var outcome = Outcome.ended
  private var stopped: Bool { source.hasFinished }
  private var messages = RepeatedMessages()

  /// Takes `source`'s manager; starts nothing.
  init(_ source: SourceRun, output: String?, gap: Double, splitTrips: Bool = false, interval: IntervalFilter? = nil) {
    self.interval = interval
    self.source = source
    let manager = source.manager
    // The filters are applied by the document (see above): the manager delivers every fix.
    filter = LocationFilter(desiredAccuracy: manager.desiredAccuracy, distanceFilter: manager.distanceFilter)
    manager.desiredAccuracy = LocationAccuracy.best
    manager.distanceFilter = LocationDistance.none
    self.gap = gap
    self.splitTrips = splitTrips
    manager.delegate = self
    // From before the output is opened, so that no signal can leave its partial file.
    let isLive = source.isLive
    Interrupts.handle(on: signalQueue) { [self] signalNumber in
      signalsSeen += 1
      guard isLive else {
        Self.abandon(partialFile, output: output, signal: signalNumber)
        return
      }
      switch signalsSeen {
      case 1:
        queue.async { [self] in
          // The trip under way ends where the recording does.
          flushTrips()
          finish(.recordingStopped)
        }
      case 2:
        break
      default:
        Self.abandon(partialFile, output: output, signal: signalNumber, keeping: true)
      }
    }
  }

  /// Runs until the source ends, a final error, a write failure or (for a live source) a
  /// signal, writing the document's beginning, every fix and, unless failed, its end.
  /// `furtherWriter` makes the writer of a further gpsd device's part of the document
  /// (``ExportWriter``), for formats that do not interleave devices.
  func run(
    writer: any ExportWriter, furtherWriter: @escaping (String) throws(ExportError) -> any ExportWriter,
    output: ExportOutput
  ) -> Outcome {
    let document = TrackDocument(
      writer: writer, gap: gap, splitTrips: splitTrips, filter: filter, interval: interval,
      furtherWriter: furtherWriter)
    let started = queue.sync { () -> Bool in
      self.document = document
      self.output = output
      if source.isLive { output.flushesEachFix = true }
      do throws(ExportError) {
        try document.begin(into: &output.buffer)
      } catch {
        outcome = .failed(CommandError(error))
        return false
      }
      output.fixWritten()
      return true
    }
    guard started else { return queue.sync { outcome } }
    // Every heading report, for a format that has them (JSON lines, as print --json).
    source.headings = document.exportsHeadings
    source.run()
    return queue.sync {
      switch outcome {
      case .ended, .recordingStopped:
        do throws(ExportError) {
          try document.end(into: &output.buffer, flush: output.write)
        } catch {
          outcome = .failed(CommandError(error))
        }
      case .outputClosed, .failed:
        break
      }
      return outcome
    }
  }

  /// The number of fixes exported, each device's distance travelled, the fixes left out
  /// for want of a time, the heading reports exported and the fixes exported without a
  /// date, for the closing messages.
  var recorded:
    (
      fixes: Int, distances: [(device: String?, distance: Double, error: Double)], untimed: Int, headings: Int,
      undated: Int
    )
  {
    queue.sync {
      (
        document?.fixes ?? 0, document?.distances ?? [], document?.untimedFixes ?? 0, document?.headings ?? 0,
        document?.undatedFixes ?? 0
      )
    }
  }

  /// Ends the session (on `queue`) with `outcome`, once.
  private func finish(_ outcome: Outcome) {
    guard source.finish() else { return }
    self.outcome = outcome
    manager.stopUpdating()
  }

  /// Ends the process for an interruption, from the signal queue, without waiting for the
  /// export (whose output may be stuck): the partial file goes, or with `keeping` (a live
  /// recording given up by a third signal) stays under its own name, which the message
  /// gives; unless the export has just been completed, in which case the signal came too
  /// late to matter.
  private static func abandon(
    _ partialFile: PartialFile, output: String?, signal signalNumber: Int32, keeping: Bool = false
  ) {
    let removal =
      keeping
      ? partialFile.keepUnlessCompleted(signal: signalNumber) : partialFile.removeUnlessCompleted(signal: signalNumber)
    switch removal {
    case .completed: return
    case .removed: printError("whereami: interrupted; '\(output ?? "")' not written")
    case .kept(let path):
      printError("whereami: interrupted before '\(output ?? "")' was complete; what was recorded is in '\(path)'")
    case .none:
      if let output, output != "-" {
        printError("whereami: interrupted; '\(output)' is incomplete")
      } else if keeping {
        printError("whereami: interrupted; standard output is incomplete")
      }
    }
    // The shell's convention for a program ended by a signal: 128 + its number.
    _exit(128 + signalNumber)
  }

  func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
    source.answered()
    messages.received()
    guard !stopped, let document, let output else { return }
    written { () throws(ExportError) in try document.add(location, into: &output.buffer) }
  }

  /// With `--split trips`: ends the trips under way and writes what they still held.
  private func flushTrips() {
    guard !stopped, let document, let output else { return }
    written { () throws(ExportError) in try document.finishTrips(into: &output.buffer) }
  }

  /// Runs `write`, then flushes the output as due; a failure, or a reader that closed
  /// standard output, ends the session.
  private func written(_ write: () throws(ExportError) -> Void) {
    guard let output else { return }
    do throws(ExportError) {
      try write()
    } catch {
      finish(.failed(CommandError(error)))
      return
    }
    output.fixWritten()
    if let failure = output.failure {
      finish(.failed(failure))
    } else if output.isClosed {
      finish(.outputClosed)
    }
  }

  func locationManager(_ manager: LocationManager, didUpdateSky sky: SkyView) {
    source.answered()
  }

  func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading) {
    source.answered()
    guard !stopped, let document, let output, document.exportsHeadings else { return }
    written { () throws(ExportError) in document.add(heading: heading, into: &output.buffer) }
  }

  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    guard !stopped else { return }
    if let failure = source.unavailable(error) {
      printError("whereami: \(failure.message ?? "")")
      finish(.failed(CommandError(message: nil, code: failure.code)))
      return
    }
    if error.code == .sourceEnded {
      // A trip under way ends with the log.
      flushTrips()
      finish(.ended)
      return
    }
    if error.isFinal || messages.shouldSay(error) { printError("whereami: \(error)") }
    guard error.isFinal else { return }
    finish(.failed(CommandError(message: nil, code: SourceRun.exitCode(for: error))))
  }
}

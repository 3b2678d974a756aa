import LocationKit
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami watch` when standard output is not a terminal (or `TERM=dumb`): one line per
/// fix, written by `whereami print`'s renderer; transient errors on standard error as they
/// happen.
///
/// Each line is written at once, not buffered: the reader follows a live position. A
/// closed pipe (`| head -3`) ends the session quietly.
final class LineDisplay: WatchDisplay, @unchecked Sendable {
  // @unchecked Sendable: `output`, `messages` and `session` are touched only on the
  // session's serial queue, where the session calls every method.
  private var messages = RepeatedMessages()

  let waitsAtEnd = false
  private var output = OutputStream(descriptor: STDOUT_FILENO)
  private weak var session: WatchSession?

  /// A display on standard output.
  init() {}

  func begin(_ session: WatchSession) {
    self.session = session
  }

  func changed(_ model: WatchModel, fix location: Location?, error: LocationError?) {
    if let location {
      output.write { line in
        if model.devices.count > 1, let device = model.device {
          line.append(string: device)
          line.append(UInt8(ascii: " "))
        }
        LocationRenderer.text(location, model.odometer, into: &line)
      }
      output.flush()
      if output.isClosed { session?.finish(output.failure) }
    }
    if location != nil { messages.received() }
    // Final errors are reported once the session ends, with the exit code.
    if let error, !error.isFinal, messages.shouldSay(error) {
      printError("whereami: \(error)")
    }
  }

  /// The alarm as a line of its own among the fixes, and on standard error.
  func alarm(_ model: WatchModel, _ event: RegionEvent) {
    guard let anchor = model.anchor else { return }
    output.write { $0.append(string: anchor.alarmMessage(event) + "\n") }
    output.flush()
    printError("whereami: \(anchor.alarmMessage(event))")
  }

  func end() -> CommandError? {
    output.flush()
    return output.failure
  }

  func close() {}
}

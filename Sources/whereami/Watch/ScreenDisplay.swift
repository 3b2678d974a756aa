import Dispatch
import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// The full-screen display of `whereami watch` on a terminal.
///
/// Frames are drawn by a timer at most ``refreshInterval`` apart, and only when the model
/// changed, the terminal was resized, or a second passed (for the ages); the
/// ``FrameWriter`` then sends only what changed. Keys: `q` quits, Ctrl-L redraws. Ctrl-Z
/// puts the terminal back before stopping, and a resume takes it again.
final class ScreenDisplay: WatchDisplay, @unchecked Sendable {
  // @unchecked Sendable: every property is touched only on the session's serial queue: the
  // session calls the protocol methods there, and the timer, key, capture and signal
  // sources are all created on that queue.

  /// The shortest time between two frames, seconds: at most ten frames a second.
  static let refreshInterval = 0.1

  let waitsAtEnd = true
  private let terminal: Terminal
  private let style: ScreenStyle
  private var writer = FrameWriter()
  private weak var session: WatchSession?
  private var needsDrawing = true
  private var lastDrawn = -Double.infinity
  private var isSuspended = false
  private var sources: [any DispatchSourceProtocol] = []
  private var keySource: (any DispatchSourceRead)?
  private var capture: StandardErrorCapture?

  /// A display on `terminal`, in `style`.
  init(terminal: Terminal, style: ScreenStyle) {
    self.terminal = terminal
    self.style = style
  }

  func begin(_ session: WatchSession) {
    self.session = session
    terminal.enter()
    capture = StandardErrorCapture()
    if let capture {
      let source = DispatchSource.makeReadSource(fileDescriptor: capture.descriptor, queue: session.queue)
      source.setEventHandler {
        for line in capture.readLines() { session.note(line) }
      }
      source.setCancelHandler { capture.close() }
      source.resume()
      sources.append(source)
    }
    if let keyboard = terminal.keyboard {
      let source = DispatchSource.makeReadSource(fileDescriptor: keyboard, queue: session.queue)
      source.setEventHandler { [self] in keysArrived() }
      source.setCancelHandler { [terminal] in terminal.closeKeyboard() }
      source.resume()
      sources.append(source)
      keySource = source
    }
    let timer = DispatchSource.makeTimerSource(queue: session.queue)
    timer.schedule(deadline: .now() + Self.refreshInterval, repeating: Self.refreshInterval)
    timer.setEventHandler { [self] in tick() }
    timer.resume()
    sources.append(timer)
    // A resize is drawn by the next tick, so that a window being dragged costs at most
    // ten frames a second.
    session.onSignal(SIGWINCH) { [self] in redrawWhole() }
    session.onSignal(SIGTSTP) { [self] in suspend() }
    session.onSignal(SIGCONT) { [self] in resume() }
    session.onSignal(SIGHUP) { [weak session] in session?.finish(nil) }
    draw()
  }

  func changed(_ model: WatchModel, fix location: Location?, error: LocationError?) {
    needsDrawing = true
  }

  /// The bell at once; the screen shows the alarm, and rings again every few seconds until
  /// it is acknowledged (``tick()``).
  func alarm(_ model: WatchModel, _ event: RegionEvent) {
    ring()
  }

  /// Seconds between bells while an alarm is latched.
  static let bellInterval = 3.0
  private var lastBell = -Double.infinity

  private func ring() {
    lastBell = SystemClock.monotonic()
    _ = terminal.write("\u{7}")
  }

  func end() -> CommandError? {
    sources.forEach { $0.cancel() }
    sources = []
    terminal.leave()
    return nil
  }

  func close() {
    capture?.restore()
  }

  // MARK: Drawing

  private func tick() {
    guard !isSuspended else { return }
    if needsDrawing || SystemClock.monotonic() - lastDrawn >= 1 { draw() }
    if session?.model.anchor?.alarm != nil, SystemClock.monotonic() - lastBell >= Self.bellInterval { ring() }
  }

  private func redrawWhole() {
    writer.invalidate()
    needsDrawing = true
  }

  private func draw() {
    guard let session, terminal.isActive else { return }
    let size = terminal.size()
    let lines = WatchScreen.render(
      session.model, width: size.columns, height: size.rows, now: SystemClock.wall(), style: style)
    let update = writer.update(lines, width: size.columns)
    needsDrawing = false
    lastDrawn = SystemClock.monotonic()
    guard !update.isEmpty, let error = terminal.write(update) else { return }
    session.finish(
      CommandError(message: "cannot write to the terminal: \(String(cString: strerror(error)))", code: .ioError))
  }

  // MARK: Keys and job control

  private func keysArrived() {
    guard let keys = terminal.readKeys() else {
      // The terminal is gone (end of input): no more keys, signals still work.
      keySource?.cancel()
      keySource = nil
      return
    }
    for key in keys {
      switch key {
      case UInt8(ascii: "q"), UInt8(ascii: "Q"):
        session?.finish(nil)
        return
      case 0x0C:  // Ctrl-L
        redrawWhole()
      case UInt8(ascii: "d"), UInt8(ascii: "D"), 0x09:  // d or Tab: the next gpsd device
        session?.showNextDevice()
      case UInt8(ascii: "a"), UInt8(ascii: "A"):  // acknowledges the anchor alarm
        session?.acknowledgeAlarm()
      default:
        break
      }
    }
  }

  /// Ctrl-Z: the terminal is put back before the process stops, as the shell expects.
  private func suspend() {
    guard !isSuspended else { return }
    isSuspended = true
    terminal.leave()
    kill(getpid(), SIGSTOP)
  }

  /// Continued after a stop (by `fg`, or a SIGSTOP from elsewhere): take the terminal again
  /// and draw everything, as the shell may have used the screen meanwhile.
  private func resume() {
    isSuspended = false
    terminal.enter()
    writer.invalidate()
    draw()
  }
}

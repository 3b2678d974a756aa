import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// Replays a recorded sensor log (``MotionLog``) from a file or standard input, at the
/// pace of its own timestamps times ``speed``, or as fast as it reads (speed `nil` or 0).
///
/// A line that is not a reading (a bad number, an unknown sensor, binary garbage, a line
/// over ``maximumLineLength`` bytes, a time earlier than the line before) is reported as
/// ``MotionError/Code/readError`` with the file, the line number and the reason, and
/// skipped: the readings around it still count. After ``reportedLineErrors`` such
/// reports the rest are only counted, and the count comes with the end of the log
/// (``MotionError/Code/sourceEnded``). The log must start with its header (after any
/// comments). Memory stays bounded on any input.
public final class RecordedMotionSource: MotionSource, @unchecked Sendable {
  // @unchecked Sendable: the configuration is immutable; the reading thread's state is in
  // its own stack frame, and `reader` is itself safe.

  /// The file, or `-` for standard input.
  public let path: String
  public let name: String
  /// The replay's speed factor; `nil` or 0 reads as fast as possible.
  public let speed: Double?
  /// The longest line read, in bytes without its newline; a longer one is reported and
  /// skipped.
  public static let maximumLineLength = 1024
  /// How many bad lines are reported one by one; the ones after are only counted, in the
  /// end-of-log message.
  public static let reportedLineErrors = 20
  private let reader = SourceThread()

  /// A source replaying the log at `path` (`-`: standard input) at `speed` times its own
  /// pace (1 by default; `nil` or 0: as fast as it reads); nothing is opened until it
  /// starts.
  public init(path: String, speed: Double? = 1) {
    self.path = path
    self.speed = speed
    name = path == "-" ? "standard input" : path
  }

  public var readsEverything: Bool { true }

  public func start(sensors: Set<SensorKind>, interval: Double, _ sink: @escaping @Sendable (MotionSourceEvent) -> Void)
  {
    reader.start(name: "whereami.motion-log") { [self] stop in run(stop, sink) }
  }

  public func stop() { reader.stop() }

  private func emit(_ event: MotionSourceEvent, _ sink: @Sendable (MotionSourceEvent) -> Void) {
    reader.emit(event, sink)
  }

  private struct Progress {
    var lineNumber = 0
    var readings = 0
    var skipped = 0
    var sawHeader = false
    var lastTime: Double?
    var pacer: Pacer
  }

  private func run(_ stop: StopSignal, _ sink: @escaping @Sendable (MotionSourceEvent) -> Void) {
    let descriptor: FileDescriptor
    if path == "-" {
      descriptor = FileDescriptor(dup(STDIN_FILENO))
    } else {
      do {
        // Not blocking in open(2) on a FIFO with no writer yet; reads wait in poll below,
        // where a stop wakes them.
        descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        _ = fcntl(descriptor.rawValue, F_SETFL, fcntl(descriptor.rawValue, F_GETFL) & ~O_NONBLOCK)
      } catch {
        let code: MotionError.Code =
          error.isPermissionDenied ? .denied : error.isNotFound ? .sourceNotFound : .readError
        return emit(.error(MotionError(code, "cannot open \(path): \(error.reason)", final: true)), sink)
      }
    }
    defer { descriptor.close() }
    var progress = Progress(pacer: Pacer(speed: speed))
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    defer { buffer.deallocate() }
    var line: [UInt8] = []
    line.reserveCapacity(Self.maximumLineLength)
    var overlong = false
    while true {
      // A regular file is always readable; a pipe, FIFO or terminal waits here.
      switch stop.wait(for: descriptor.rawValue, timeout: nil) {
      case .stopped: return
      case .readable, .timedOut: break
      }
      let count: Int
      do {
        count = try descriptor.read(into: buffer)
      } catch {
        return emit(.error(MotionError(.readError, "cannot read \(name): \(error.reason)", final: true)), sink)
      }
      if count == 0 { break }
      // Whole runs up to each newline at a time; a line past the limit is only marked.
      var start = 0
      while start < count {
        let newline = buffer[start..<count].firstIndex(of: UInt8(ascii: "\n"))
        let end = newline ?? count
        if !overlong {
          if line.count + (end - start) <= Self.maximumLineLength {
            line.append(contentsOf: buffer[start..<end])
          } else {
            overlong = true
          }
        }
        start = end + 1
        guard newline != nil else { break }
        if overlong {
          progress.lineNumber += 1
          reject("longer than \(Self.maximumLineLength) bytes", &progress, sink)
        } else if !handle(line, &progress, stop, sink) {
          return
        }
        line.removeAll(keepingCapacity: true)
        overlong = false
      }
    }
    if overlong {
      progress.lineNumber += 1
      reject("longer than \(Self.maximumLineLength) bytes", &progress, sink)
    } else if !line.isEmpty, !handle(line, &progress, stop, sink) {
      return
    }
    var summary = "end of \(name) after \(progress.readings) reading\(progress.readings == 1 ? "" : "s")"
    if progress.skipped > 0 { summary += ", \(progress.skipped) line\(progress.skipped == 1 ? "" : "s") skipped" }
    if !progress.sawHeader { summary += "; it has no header (\(MotionLog.header)), so it is not a sensor log" }
    emit(.error(MotionError(.sourceEnded, summary)), sink)
  }

  /// Handles one line; `false` when stopped meanwhile.
  private func handle(
    _ bytes: [UInt8], _ progress: inout Progress, _ stop: StopSignal, _ sink: @Sendable (MotionSourceEvent) -> Void
  ) -> Bool {
    progress.lineNumber += 1
    guard let text = String(validating: bytes, as: UTF8.self) else {
      reject("not text", &progress, sink)
      return true
    }
    let trimmed = Substring(text).trimmedBlanks
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return true }
    if !progress.sawHeader {
      if MotionLog.isHeader(Substring(trimmed)) {
        progress.sawHeader = true
      } else {
        reject("before the header (\(MotionLog.header))", &progress, sink)
      }
      return true
    }
    let parsed: MotionLog.Line
    do {
      parsed = try MotionLog.parse(Substring(trimmed))
    } catch {
      reject(error.reason, &progress, sink)
      return true
    }
    let time: Double
    switch parsed {
    case .reading(let reading), .deviceUnits(let reading): time = reading.time
    case .reportedAttitude(let attitude): time = attitude.time
    }
    if let last = progress.lastTime, time < last {
      reject("its time \(time) is before the line before's (\(last))", &progress, sink)
      return true
    }
    progress.lastTime = time
    guard progress.pacer.wait(forLogTime: time, stop) else { return false }
    progress.readings += 1
    switch parsed {
    case .reading(let reading): emit(.reading(reading), sink)
    case .deviceUnits(let reading): emit(.deviceUnits(reading), sink)
    case .reportedAttitude(let attitude): emit(.reportedAttitude(attitude), sink)
    }
    return true
  }

  private func reject(_ reason: String, _ progress: inout Progress, _ sink: @Sendable (MotionSourceEvent) -> Void) {
    progress.skipped += 1
    if progress.skipped <= Self.reportedLineErrors {
      var message = "\(name):\(progress.lineNumber): \(reason); line skipped"
      if progress.skipped == Self.reportedLineErrors { message += " (further bad lines are only counted)" }
      emit(.error(MotionError(.readError, message)), sink)
    }
  }
}

import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// A source that writes every event of another to a sensor log (``MotionLog``) as it
/// passes them on: all readings, before any interval thins them, so that a replay sees
/// what the sensor gave. The file is written through a 64 KiB buffer, flushed when full,
/// with the first reading a second or more after the last flush, at a final error, and
/// when the source stops.
///
/// A regular file at `path` (or none) is not touched while recording: the readings go to
/// `PATH.partial-PID` beside it, which ``finish()`` renames to `path`, so that an
/// existing file is replaced only by a complete recording, and a process killed before
/// then leaves the partial file rather than a truncated original. Anything else at `path`
/// (a FIFO, a terminal, `/dev/stdout`) is written directly.
public final class MotionRecorder: MotionSource, @unchecked Sendable {
  // @unchecked Sendable: `wrapped`, `name` and `file` are immutable; the buffer and the
  // failure are under `state`'s lock.
  /// The source whose events are recorded and passed on; it starts and stops with the
  /// recorder.
  public let wrapped: any MotionSource
  public var name: String { wrapped.name }
  private let file: FileDescriptor
  private let path: String
  /// Where the readings go until the recording is complete, and where it then goes (the
  /// file a symbolic link at `path` names); `nil` when written directly.
  private let replacing: (partial: String, final: String)?
  private struct State {
    var buffer: [UInt8] = []
    var lastFlush = 0.0
    var failure: SystemError?
    var completed = false
  }
  private let state = Locked(State())

  /// Records `source` into a new file at `path`, which replaces a file there when the
  /// recording stops; the header is written at once. Throws when the file (or the partial
  /// file beside it) cannot be created, or when `path` is a directory.
  public init(_ source: any MotionSource, path: String) throws(SystemError) {
    wrapped = source
    self.path = path
    var info = stat()
    let exists = stat(path, &info) == 0
    let kind = info.st_mode & S_IFMT
    if exists && kind == S_IFDIR { throw SystemError(call: "open", errno: EISDIR) }
    if exists && kind != S_IFREG {
      file = try FileDescriptor.open(path, O_WRONLY)
      replacing = nil
    } else {
      // Through a symbolic link to the file it names, so that the link stays a link.
      var final = path
      if exists, let resolved = realpath(path, nil) {
        final = String(cString: resolved)
        free(resolved)
      }
      let partial = "\(final).partial-\(getpid())"
      // One left by an earlier process with this PID, killed before it could rename it.
      unlink(partial)
      file = try FileDescriptor.open(partial, O_WRONLY | O_CREAT | O_EXCL)
      if exists { _ = fchmod(file.rawValue, info.st_mode & 0o7777) }
      replacing = (partial, final)
    }
    state.withLock { state in
      state.buffer = Array("# recorded by whereami motion\n\(MotionLog.header)\n".utf8)
      flush(&state)
    }
  }

  /// Why writing (or completing the file) failed, if it did (recording stops; the readings
  /// still pass).
  public var failure: SystemError? { state.withLock { $0.failure } }

  /// The file that holds the readings: the partial file until ``finish()`` completes the
  /// recording, the file at `path` from then on (or always, when written directly).
  public var recordingPath: String {
    state.withLock { state in
      guard let replacing else { return path }
      return state.completed ? replacing.final : replacing.partial
    }
  }

  public func start(sensors: Set<SensorKind>, interval: Double, _ sink: @escaping @Sendable (MotionSourceEvent) -> Void)
  {
    wrapped.start(sensors: sensors, interval: interval) { [self] event in
      record(event)
      sink(event)
    }
  }

  /// Stops the source and writes what is buffered. (A manager stops its source before each
  /// restart, so this does not complete the recording: ``finish()`` does.)
  public func stop() {
    wrapped.stop()
    state.withLock { flush(&$0) }
  }

  /// Ends the recording: stops the source, writes what is buffered and completes the file,
  /// renaming the partial file to `path` (a failure is ``failure``, and the readings stay in
  /// ``recordingPath``). Call it once the manager has stopped; readings of a later start
  /// are still appended to the file.
  public func finish() {
    wrapped.stop()
    state.withLock { state in
      flush(&state)
      guard let replacing, !state.completed else { return }
      state.completed = rename(replacing.partial, replacing.final) == 0
      if !state.completed { state.failure = state.failure ?? SystemError(call: "rename", errno: errno) }
    }
  }

  private func record(_ event: MotionSourceEvent) {
    let line: MotionLog.Line
    switch event {
    case .reading(let reading): line = .reading(reading)
    case .deviceUnits(let reading): line = .deviceUnits(reading)
    case .reportedAttitude(let attitude): line = .reportedAttitude(attitude)
    case .error(let error):
      if error.isFinal { state.withLock { flush(&$0) } }
      return
    }
    let text = MotionLog.format(line) + "\n"
    state.withLock { state in
      guard state.failure == nil else { return }
      state.buffer.append(contentsOf: text.utf8)
      let now = SystemClock.monotonic()
      if state.buffer.count >= 64 * 1024 || now - state.lastFlush >= 1 { flush(&state) }
    }
  }

  private func flush(_ state: inout State) {
    state.lastFlush = SystemClock.monotonic()
    guard state.failure == nil, !state.buffer.isEmpty else { return }
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: state.buffer.count, alignment: 1)
    defer { bytes.deallocate() }
    bytes.copyBytes(from: state.buffer)
    do {
      try file.write(UnsafeRawBufferPointer(bytes))
    } catch {
      state.failure = error
    }
    state.buffer.removeAll(keepingCapacity: true)
  }
}

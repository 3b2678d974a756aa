import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// A source that writes every event of another to a sensor log (``MotionLog``) as it
/// passes them on: all readings, before any interval thins them, so that a replay sees
/// what the sensor gave. The file is written through a 64 KiB buffer, flushed when full,
/// with the first reading a second or more after the last flush, at a final error, and
/// when the source stops.
public final class MotionRecorder: MotionSource, @unchecked Sendable {
  // @unchecked Sendable: `wrapped`, `name` and `file` are immutable; the buffer and the
  // failure are under `state`'s lock.
  /// The source whose events are recorded and passed on; it starts and stops with the
  /// recorder.
  public let wrapped: any MotionSource
  public var name: String { wrapped.name }
  private let file: FileDescriptor
  private struct State {
    var buffer: [UInt8] = []
    var lastFlush = 0.0
    var failure: SystemError?
  }
  private let state = Locked(State())

  /// Records `source` into a new file at `path` (replaced if it exists); the header is
  /// written at once.
  public init(_ source: any MotionSource, path: String) throws(SystemError) {
    wrapped = source
    file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC)
    state.withLock { state in
      state.buffer = Array("# recorded by whereami motion\n\(MotionLog.header)\n".utf8)
      flush(&state)
    }
  }

  /// Why writing failed, if it did (recording stops; the readings still pass).
  public var failure: SystemError? { state.withLock { $0.failure } }

  public func start(sensors: Set<SensorKind>, interval: Double, _ sink: @escaping @Sendable (MotionSourceEvent) -> Void)
  {
    wrapped.start(sensors: sensors, interval: interval) { [self] event in
      record(event)
      sink(event)
    }
  }

  public func stop() {
    wrapped.stop()
    state.withLock { flush(&$0) }
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

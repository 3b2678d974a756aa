#if canImport(Glibc)
  import Glibc
#endif

/// A self-pipe that wakes a reader blocked in poll(2) when its source is stopped, so
/// that stopping never waits for the next byte from a quiet device or socket.
package final class StopSignal: Sendable {
  private let readEnd: FileDescriptor
  private let writeEnd: FileDescriptor

  package init() {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    for descriptor in fds {
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
    }
    readEnd = FileDescriptor(fds[0])
    writeEnd = FileDescriptor(fds[1])
  }

  /// The descriptor to poll alongside the data source.
  package var descriptor: Int32 { readEnd.rawValue }

  /// Wakes every poll on ``descriptor``, now and later (the byte is never drained).
  package func fire() {
    writeEnd.withOpenDescriptor { descriptor in
      var byte: UInt8 = 1
      _ = Glibc.write(descriptor, &byte, 1)
    }
  }

  /// Closes both ends now, rather than when the last reference goes: the reading thread
  /// calls this as it ends, so that a stopped source holds no descriptor.
  package func close() {
    writeEnd.close()
    readEnd.close()
  }

  /// Whether ``fire()`` was called.
  package var isFired: Bool {
    var descriptor = pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) > 0
  }

  /// Sleeps for `seconds` or until fired; returns `false` when fired.
  package func sleep(_ seconds: Double) -> Bool {
    guard seconds > 0 else { return !isFired }
    var descriptor = pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)
    let deadline = SystemClock.monotonic() + seconds
    while true {
      let remaining = deadline - SystemClock.monotonic()
      if remaining <= 0 { return true }
      let result = poll(&descriptor, 1, Int32(min(remaining * 1000, 1_000_000).rounded(.up)))
      if result > 0 { return false }
      if result < 0 && errno != EINTR { return true }
    }
  }

  /// Waits until `data` is readable, the timeout passes, or the signal fires.
  package func wait(for data: Int32, timeout seconds: Double?) -> WaitResult {
    var descriptors = [
      pollfd(fd: data, events: Int16(POLLIN), revents: 0),
      pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0),
    ]
    let milliseconds = seconds.map { Int32(max(0, min($0 * 1000, 1_000_000)).rounded(.up)) } ?? -1
    while true {
      let result = poll(&descriptors, 2, milliseconds)
      if result < 0 {
        if errno == EINTR { continue }
        return .readable
      }
      if descriptors[1].revents != 0 { return .stopped }
      if result == 0 { return .timedOut }
      return .readable
    }
  }

  package enum WaitResult {
    case readable
    case timedOut
    case stopped
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// Standard error redirected into a pipe while the watch screen is up, so that a message
/// written there (a rejected line under `--verbose`) shows on the status line instead of
/// scribbling over the screen.
///
/// ``restore()`` puts standard error back and drops what was not shown: what arrives after
/// the user quit (a log source reports the rejected lines of the rest of its buffer as it
/// stops) is not worth a flood on the shell's screen. The read end stays open until
/// ``close()``, which a dispatch source watching it may only call from its cancel handler.
///
/// Used from one serial queue only.
final class StandardErrorCapture {
  /// The descriptor to watch for captured bytes.
  let descriptor: Int32
  private let saved: Int32
  private var partial: [UInt8] = []
  private var isRestored = false

  /// Starts capturing; `nil` when standard error is not a terminal (a file or a pipe takes
  /// the messages as they are) or the pipe cannot be made.
  init?() {
    guard isatty(STDERR_FILENO) == 1 else { return nil }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    let saved = dup(STDERR_FILENO)
    guard saved >= 0 else {
      Glibc.close(ends[0])
      Glibc.close(ends[1])
      return nil
    }
    _ = fcntl(saved, F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
    // A writer must never block on a full pipe: a message more or less beats a stuck
    // reading thread.
    _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
    dup2(ends[1], STDERR_FILENO)
    Glibc.close(ends[1])
    descriptor = ends[0]
    self.saved = saved
  }

  /// The complete lines captured since the last call.
  func readLines() -> [String] {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      if count > 0 {
        partial += buffer[0..<count]
        continue
      }
      if count < 0 && errno == EINTR { continue }
      break
    }
    var lines: [String] = []
    while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(String(decoding: partial[..<newline], as: UTF8.self))
      partial.removeSubrange(...newline)
    }
    return lines
  }

  /// Puts standard error back.
  func restore() {
    guard !isRestored else { return }
    isRestored = true
    dup2(saved, STDERR_FILENO)
    Glibc.close(saved)
  }

  /// Closes the read end.
  func close() {
    Glibc.close(descriptor)
  }
}

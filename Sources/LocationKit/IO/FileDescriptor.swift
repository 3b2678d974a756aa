#if canImport(Glibc)
  import Glibc
#endif

/// An open file descriptor that closes itself: one owner, closed exactly once.
package final class FileDescriptor: @unchecked Sendable {
  // @unchecked Sendable: `rawValue` is immutable; whether it is open is under a lock,
  // so that concurrent closes (stop from one thread, end of input on the reader) close
  // once.
  package let rawValue: Int32
  private let isOpen = Locked(true)

  package init(_ rawValue: Int32) { self.rawValue = rawValue }

  /// Opens `path` with `flags` (O_CLOEXEC is added).
  package static func open(_ path: String, _ flags: Int32) throws(SystemError) -> FileDescriptor {
    FileDescriptor(try SystemIO.open(path, flags))
  }

  /// Reads up to `buffer.count` bytes; 0 at the end of the input.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try SystemIO.read(rawValue, into: buffer)
  }

  /// Writes all of `bytes`.
  package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    if let failure = SystemIO.writeAll(bytes, to: rawValue) { throw SystemError(call: "write", errno: failure) }
  }

  /// Runs `body` with the descriptor unless it has been closed; the descriptor cannot be
  /// closed (and its number reused) meanwhile.
  package func withOpenDescriptor(_ body: (Int32) -> Void) {
    isOpen.withLock { if $0 { body(rawValue) } }
  }

  package func close() {
    isOpen.withLock { open in
      if open {
        open = false
        Glibc.close(rawValue)
      }
    }
  }

  deinit { close() }
}

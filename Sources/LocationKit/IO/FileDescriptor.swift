#if canImport(Glibc)
  import Glibc
#endif

/// An open file descriptor that closes itself: one owner, closed exactly once.
final class FileDescriptor: @unchecked Sendable {
  // @unchecked Sendable: `rawValue` is immutable; `close()` is guarded by `lock` so that
  // concurrent closes (stop from one thread, end of input on the reader) close once.
  let rawValue: Int32
  private let lock = NSLockish()
  private var isOpen = true

  init(_ rawValue: Int32) { self.rawValue = rawValue }

  /// Opens `path` with `flags` (O_CLOEXEC is added).
  static func open(_ path: String, _ flags: Int32) throws(SystemError) -> FileDescriptor {
    let descriptor = try retryingInterrupts("open") { Glibc.open(path, flags | O_CLOEXEC) }
    return FileDescriptor(descriptor)
  }

  /// Reads up to `buffer.count` bytes; 0 at the end of the input.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try retryingInterrupts("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// Writes all of `bytes`.
  func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
      offset += try retryingInterrupts("write") { Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset) }
    }
  }

  /// Runs `body` with the descriptor unless it has been closed; the descriptor cannot be
  /// closed (and its number reused) meanwhile.
  func withOpenDescriptor(_ body: (Int32) -> Void) {
    lock.withLock { if isOpen { body(rawValue) } }
  }

  func close() {
    lock.withLock {
      if isOpen {
        isOpen = false
        Glibc.close(rawValue)
      }
    }
  }

  deinit { close() }
}

/// A pthread mutex without Foundation, for the few places a lock guards plain state.
final class NSLockish: @unchecked Sendable {
  // @unchecked Sendable: the mutex itself is the synchronisation; it is only used
  // through withLock, which pairs lock and unlock.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

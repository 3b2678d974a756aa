#if canImport(Glibc)
  import Glibc
#endif

/// A pthread mutex.
///
/// Used instead of the Synchronization module's `Mutex`, whose futex-based Linux
/// implementation ThreadSanitizer cannot see through: with it, `--sanitize=thread` reports
/// races on state that is in fact protected. pthread mutexes are instrumented.
final class PthreadMutex: @unchecked Sendable {
  // @unchecked Sendable: the pthread mutex is the synchronisation itself; it is only
  // used through withLock, which pairs lock and unlock.
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

/// A value only reachable under a lock.
final class Locked<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is only read or written inside `mutex.withLock`.
  private let mutex = PthreadMutex()
  private var value: Value

  init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value.
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    try mutex.withLock { try body(&value) }
  }
}

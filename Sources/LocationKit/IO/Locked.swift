#if canImport(Glibc)
  import Glibc
#endif

/// A value only reachable under a lock: the package's one kind of lock.
///
/// A pthread mutex rather than the Synchronization module's `Mutex`, whose futex-based
/// Linux implementation ThreadSanitizer cannot see through: with it, `--sanitize=thread`
/// reports races on state that is in fact protected. pthread mutexes are instrumented.
package final class Locked<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is only read or written between pthread_mutex_lock and
  // pthread_mutex_unlock in `withLock`, the only access there is.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// A lock guarding `value`.
  package init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}

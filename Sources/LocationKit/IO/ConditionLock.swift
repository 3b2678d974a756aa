#if canImport(Glibc)
  import Glibc
#endif

/// A mutex with a condition variable: threads wait, under the lock, for what another
/// thread changes under it and announces with ``broadcast()``.
package final class ConditionLock: @unchecked Sendable {
  // @unchecked Sendable: the mutex and condition are made for use from any thread, and
  // the pointers to them never change after `init`.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  /// An unlocked lock.
  package init() {
    mutex = .allocate(capacity: 1)
    condition = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Runs `body` holding the lock.
  package func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Inside ``withLock(_:)``: lets the lock go until a ``broadcast()`` (or a spurious
  /// wake-up: wait in a loop on the condition itself), then holds it again.
  package func wait() {
    pthread_cond_wait(condition, mutex)
  }

  /// Wakes every thread waiting.
  package func broadcast() {
    pthread_cond_broadcast(condition)
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// The two clocks the package reads, in seconds as `Double`.
package enum SystemClock {
  /// Seconds on the monotonic clock (since an arbitrary start): for intervals, timeouts
  /// and watchdogs, which must not jump when the system's time is set.
  package static func monotonic() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Seconds since the Unix epoch on the system's clock: for ages shown to a user and
  /// local times.
  package static func wall() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// The reading thread every source runs on, with the stop protocol of
/// ``LocationSource/stop()``: stopping wakes the thread through a ``StopSignal``, waits
/// for it to end (unless called from the thread itself), and guarantees no event is
/// emitted afterwards.
///
/// A thread that stopped itself (a source that ends on a final error stops from its own
/// event handler) is still finishing when that stop returns. The next ``stop()`` from
/// another thread, or the next ``start(name:_:)``, waits for it to be gone: a program that
/// stops its manager and exits never does so with the reading thread half-way out, still
/// holding the last event (LeakSanitizer reported that event as leaked at exit).
package final class SourceThread: @unchecked Sendable {
  // @unchecked Sendable: all its state is in `state`, under a lock.
  private struct State {
    var running = false
    /// The last thread started, until it is joined (or detached by `deinit`).
    var thread: pthread_t?
    var signal: StopSignal?
  }
  private let state = Locked(State())

  package init() {}

  deinit {
    // The last reference may go on the thread itself, which cannot join itself.
    if let thread = state.withLock({ $0.thread }) { SystemThread.detach(thread) }
  }

  /// Starts `body` on a new thread unless one is running; `body` gets the stop signal to
  /// poll on. The signal's pipe is closed when `body` returns.
  package func start(name: String, _ body: @escaping @Sendable (StopSignal) -> Void) {
    // One that stopped itself has ended or is ending: at most one thread at a time.
    joinStoppedThread()
    state.withLock { state in
      guard !state.running else { return }
      state.running = true
      let signal = StopSignal()
      state.signal = signal
      // Started under the lock, so that the thread's own `stop()` finds it recorded.
      state.thread = SystemThread.startJoinable(name: name) {
        body(signal)
        signal.close()
      }
    }
  }

  /// Stops the thread and, when called from another thread, waits for it to end, also
  /// when it had stopped itself before.
  package func stop() {
    let signal = state.withLock { state -> StopSignal? in
      guard state.running else { return nil }
      state.running = false
      defer { state.signal = nil }
      return state.signal
    }
    signal?.fire()
    joinStoppedThread()
  }

  /// Joins the last thread if it has been stopped and the caller is not that thread.
  private func joinStoppedThread() {
    let stopped = state.withLock { state -> pthread_t? in
      guard !state.running, let thread = state.thread, !SystemThread.isCurrent(thread) else { return nil }
      state.thread = nil
      return thread
    }
    if let stopped { SystemThread.join(stopped) }
  }

  /// Whether the source is running (events may be emitted).
  package var isRunning: Bool { state.withLock { $0.running } }

  /// Emits `event` unless the source was stopped meanwhile.
  package func emit<Event>(_ event: Event, _ sink: @Sendable (Event) -> Void) {
    guard isRunning else { return }
    sink(event)
  }
}

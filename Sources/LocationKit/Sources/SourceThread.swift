import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// The reading thread every source runs on, with the stop protocol of
/// ``LocationSource/stop()``: stopping wakes the thread through a ``StopSignal``, waits
/// for it to end (unless called from the thread itself), and guarantees no event is
/// emitted afterwards.
package final class SourceThread: @unchecked Sendable {
  // @unchecked Sendable: all its state is in `state`, under a lock.
  private struct State {
    var running = false
    var thread: pthread_t?
    var signal: StopSignal?
    var finished: DispatchSemaphore?
  }
  private let state = Locked(State())

  /// Starts `body` on a new thread unless one is running; `body` gets the stop signal to
  /// poll on. The signal's pipe is closed when `body` returns.
  package init() {}

  package func start(name: String, _ body: @escaping @Sendable (StopSignal) -> Void) {
    state.withLock { state in
      guard !state.running else { return }
      state.running = true
      let signal = StopSignal()
      let done = DispatchSemaphore(value: 0)
      state.signal = signal
      state.finished = done
      // Started under the lock, so that the thread's own `stop()` finds it recorded.
      state.thread = SystemThread.start(name: name) {
        body(signal)
        signal.close()
        done.signal()
      }
    }
  }

  /// Stops the thread and waits for it to end (when called from another thread).
  package func stop() {
    let stopping = state.withLock { state -> (StopSignal?, DispatchSemaphore?, Bool)? in
      guard state.running else { return nil }
      state.running = false
      defer {
        state.thread = nil
        state.signal = nil
        state.finished = nil
      }
      return (state.signal, state.finished, state.thread.map(SystemThread.isCurrent) ?? false)
    }
    guard let (signal, done, onReaderThread) = stopping else { return }
    signal?.fire()
    if !onReaderThread { done?.wait() }
  }

  /// Whether the source is running (events may be emitted).
  package var isRunning: Bool { state.withLock { $0.running } }

  /// Emits `event` unless the source was stopped meanwhile.
  package func emit<Event>(_ event: Event, _ sink: @Sendable (Event) -> Void) {
    guard isRunning else { return }
    sink(event)
  }
}

import Foundation

/// The reading thread every source runs on, with the stop protocol of
/// ``LocationSource/stop()``: stopping wakes the thread through a ``StopSignal``, waits
/// for it to end (unless called from the thread itself), and guarantees no event is
/// emitted afterwards.
package final class SourceThread: @unchecked Sendable {
  // @unchecked Sendable: all its state is in `state`, under a lock.
  private struct State {
    var running = false
    var thread: Thread?
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
      let kernelName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
      let thread = Thread {
        nameKernelThread(kernelName)
        body(signal)
        signal.close()
        done.signal()
      }
      thread.name = name
      state.thread = thread
      thread.start()
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
      return (state.signal, state.finished, Thread.current === state.thread)
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

/// Gives the calling thread `name` (at most 15 bytes) in the kernel's eyes. Foundation
/// keeps a `Thread`'s name to itself on Linux, and the kernel's copy is what `top -H`,
/// gdb and /proc show. (pthread_setname_np is not imported without _GNU_SOURCE, and
/// prctl is variadic.)
private func nameKernelThread(_ name: String) {
  let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return }
  _ = name.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
  close(descriptor)
}

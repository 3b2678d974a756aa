import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// How a manager hands its events to its delegate and to its asynchronous sequences: on
/// one serial queue, in order, with memory bounded whatever the pace of either side.
///
/// At most ``capacity`` deliveries wait for the queue; a producer (a source's thread)
/// that gets further ahead waits until the delegate catches up, and so does the queue
/// for a sequence whose buffer of ``capacity`` events is full, until its consumer takes
/// one. Every wait ends as soon as the run it delivers for is over (`isCurrent` turns
/// false: updates stopped, possibly by the delegate itself, which then cannot drain the
/// queue), so a stop never hangs. The location and motion managers share it.
package final class EventChannel<Event: Sendable>: Sendable {
  /// The serial queue callbacks run on.
  package let queue: DispatchQueue
  /// Deliveries waiting for the queue, and events a sequence holds, at most.
  package let capacity: Int
  private let queueKey = DispatchSpecificKey<Int>()
  /// Callbacks queued but not yet run.
  private let inFlight: DispatchSemaphore
  private struct State {
    var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
    var nextContinuation = 0
    var waiting = 0
  }
  private let state = Locked(State())

  /// A channel on `queue`, or on a new serial queue named `label`.
  package init(queue: DispatchQueue?, label: String, capacity: Int = 64) {
    self.queue = queue ?? DispatchQueue(label: label)
    self.capacity = capacity
    inFlight = DispatchSemaphore(value: capacity)
    self.queue.setSpecific(key: queueKey, value: 1)
  }

  /// Whether the caller runs on ``queue``.
  package var isOnQueue: Bool { DispatchQueue.getSpecific(key: queueKey) != nil }

  /// Waits for the callback running on the queue, unless called from it.
  package func drain() {
    if !isOnQueue { queue.sync {} }
  }

  /// Whether a delivery or a sequence waits for its consumer (the producer is held back
  /// meanwhile, so its silence is not the source's).
  package var isHoldingBack: Bool { state.withLock { $0.waiting > 0 } }

  /// A new sequence of the events from now on, until ``finishStreams()``.
  package func makeStream() -> AsyncStream<Event> {
    let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingOldest(capacity))
    let key = state.withLock { state in
      defer { state.nextContinuation += 1 }
      state.continuations[state.nextContinuation] = continuation
      return state.nextContinuation
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.continuations.removeValue(forKey: key) }
    }
    return stream
  }

  /// Ends every sequence made so far.
  package func finishStreams() {
    let continuations = state.withLock { state in
      defer { state.continuations = [:] }
      return Array(state.continuations.values)
    }
    continuations.forEach { $0.finish() }
  }

  /// Ends every sequence once the callbacks already queued have run.
  package func finishStreamsAfterQueued() {
    queue.async { [self] in finishStreams() }
  }

  /// Queues `event`: `handler` runs with it on the queue, then every sequence gets it, as
  /// long as `isCurrent()` holds (asked before each, and while waiting). `waited` runs
  /// after a wait for a consumer, so that the manager does not count that time as the
  /// source's silence.
  package func deliver(
    _ event: Event, isCurrent: @escaping @Sendable () -> Bool, waited: @escaping @Sendable () -> Void = {},
    _ handler: @escaping @Sendable (Event) -> Void
  ) {
    if inFlight.wait(timeout: .now()) == .timedOut {
      state.withLock { $0.waiting += 1 }
      defer {
        // The manager notes the wait before it stops being one, so that its watchdog
        // never sees the wait over with the time before it.
        waited()
        state.withLock { $0.waiting -= 1 }
      }
      while inFlight.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
        if !isCurrent() { return }
      }
    }
    queue.async { [self] in
      defer { inFlight.signal() }
      guard isCurrent() else { return }
      handler(event)
      let continuations = state.withLock { Array($0.continuations.values) }
      for continuation in continuations { offer(event, to: continuation, isCurrent: isCurrent, waited: waited) }
    }
  }

  /// Hands `event` to a sequence, waiting while its buffer is full (and so holding up the
  /// queue and, through it, the source) until its consumer takes one, it ends, or the run
  /// is over.
  private func offer(
    _ event: Event, to continuation: AsyncStream<Event>.Continuation, isCurrent: @Sendable () -> Bool,
    waited: @Sendable () -> Void
  ) {
    var waiting = false
    while case .dropped = continuation.yield(event) {
      if !waiting {
        waiting = true
        state.withLock { $0.waiting += 1 }
      }
      usleep(2000)
      if !isCurrent() { break }
    }
    guard waiting else { return }
    waited()
    state.withLock { $0.waiting -= 1 }
  }
}

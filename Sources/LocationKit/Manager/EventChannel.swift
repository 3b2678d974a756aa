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
///
/// An event delivered ``deliver(_:replacing:isCurrent:waited:_:)`` with a key does not
/// hold the producer back: while an earlier event with a key still waits for the queue
/// or runs there, it waits in a slot of its key, and a newer one of the same key takes
/// its place (counted in ``replaced(kind:)``). So a slow consumer of a live source gets the
/// newest of each key, and at most one waits per key.
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
    /// Keyed events queued or running; the newest of each key waiting behind them, in the
    /// order they came; how many events of each kind of key newer ones replaced.
    var keyedInQueue = 0
    var newest: [Keyed] = []
    var replaced: [String: Int] = [:]
    /// The in-order deliveries queued as one block that has not started yet: a new one
    /// joins it rather than costing a block of its own. `nil` once that block has started,
    /// or once anything else was queued behind it (which must run after them all).
    var openBatch: Batch?
  }
  /// An event waiting for the queue in order.
  private struct Pending {
    var event: Event
    var isCurrent: @Sendable () -> Bool
    var waited: @Sendable () -> Void
    var handler: @Sendable (Event) -> Void
  }
  /// In-order deliveries that one block on the queue runs, in the order they came: one
  /// queue hop (a block, its allocation, the queue's locks, a wake-up) per run of events
  /// the queue had not reached yet, not one per event. A log read at full speed makes
  /// hundreds of thousands of fixes; with a block each, `print --json` of 60 MB of bare
  /// GGA and RMC took 4.2 s where it takes 3.6 s with batches.
  private final class Batch: @unchecked Sendable {
    // @unchecked Sendable: `items` is only read or written under the channel's `state`
    // lock: appended while the batch is `openBatch`, taken once by its block, which
    // closes it first, under that lock.
    var items: [Pending]
    init(_ first: Pending) { items = [first] }
  }
  /// A keyed event waiting for the queue.
  private struct Keyed {
    var key: String
    var event: Event
    var isCurrent: @Sendable () -> Bool
    var waited: @Sendable () -> Void
    var handler: @Sendable (Event) -> Void
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

  /// Runs `block` on the queue after every callback queued so far: the in-order
  /// deliveries waiting in a batch, and the keyed events waiting in their slots (a
  /// requested location among them), which are queued now, ahead of it.
  package func async(_ block: @escaping @Sendable () -> Void) {
    state.withLock { state in
      flushNewest(&state)
      state.openBatch = nil
      queue.async(execute: block)
    }
  }

  /// How many events a newer one of their key replaced while they waited, for the keys
  /// of `kind`: the key's first word ("update" of "update 192.0.2.1/0").
  package func replaced(kind: String) -> Int {
    state.withLock { $0.replaced[kind] ?? 0 }
  }

  /// A key's kind, its first word: counted per kind, since the keys (a kind and a device)
  /// are as many as the senders to a UDP port.
  private static func kind(of key: String) -> String {
    key.firstIndex(of: " ").map { String(key[..<$0]) } ?? key
  }

  /// Queues `event`: `handler` runs with it on the queue, then every sequence gets it, as
  /// long as `isCurrent()` holds (asked before each, and while waiting). `waited` runs
  /// after a wait for a consumer, so that the manager does not count that time as the
  /// source's silence. With a key `replacing`, the event never waits for the consumer: it
  /// waits in its key's slot while an earlier keyed event is queued, and a newer event of
  /// its key replaces it there. Without one, the keyed events waiting go first, in order.
  package func deliver(
    _ event: Event, replacing key: String? = nil, isCurrent: @escaping @Sendable () -> Bool,
    waited: @escaping @Sendable () -> Void = {}, _ handler: @escaping @Sendable (Event) -> Void
  ) {
    guard let key else {
      flushNewest()
      deliverInOrder(event, isCurrent: isCurrent, waited: waited, handler)
      return
    }
    let keyed = Keyed(key: key, event: event, isCurrent: isCurrent, waited: waited, handler: handler)
    // Decided and queued under one lock: a newer event of the key from another thread
    // cannot get ahead of it.
    state.withLock { state in
      if state.keyedInQueue == 0 && state.newest.isEmpty {
        state.keyedInQueue = 1
        enqueueKeyed(keyed, &state)
        return
      }
      if let index = state.newest.firstIndex(where: { $0.key == key }) {
        state.newest.remove(at: index)
        state.replaced[Self.kind(of: key), default: 0] += 1
      }
      state.newest.append(keyed)
    }
  }

  /// Queues the keyed events waiting in their slots, in the order they came. Under the
  /// lock, so that no event another thread delivers meanwhile goes ahead of them.
  private func flushNewest() {
    state.withLock { flushNewest(&$0) }
  }

  private func flushNewest(_ locked: inout State) {
    guard !locked.newest.isEmpty else { return }
    locked.keyedInQueue += locked.newest.count
    for keyed in locked.newest { enqueueKeyed(keyed, &locked) }
    locked.newest = []
  }

  /// Queues a keyed event (counted in `keyedInQueue`) without waiting for a consumer; once
  /// it has run, the keyed events that waited meanwhile follow it. At most one per key
  /// waits, so the queue grows by no more than the keys. Under the lock (`locked`), behind
  /// the open batch, which it closes.
  private func enqueueKeyed(_ keyed: Keyed, _ locked: inout State) {
    locked.openBatch = nil
    queue.async { [self] in
      if keyed.isCurrent() {
        keyed.handler(keyed.event)
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations {
          offer(keyed.event, to: continuation, isCurrent: keyed.isCurrent, waited: keyed.waited)
        }
      }
      state.withLock { state in
        state.keyedInQueue -= 1
        guard state.keyedInQueue == 0, !state.newest.isEmpty else { return }
        state.keyedInQueue = state.newest.count
        for keyed in state.newest { enqueueKeyed(keyed, &state) }
        state.newest = []
      }
    }
  }

  private func deliverInOrder(
    _ event: Event, isCurrent: @escaping @Sendable () -> Bool, waited: @escaping @Sendable () -> Void,
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
    let pending = Pending(event: event, isCurrent: isCurrent, waited: waited, handler: handler)
    state.withLock { state in
      if let open = state.openBatch {
        open.items.append(pending)
      } else {
        let batch = Batch(pending)
        state.openBatch = batch
        // Under the lock, so that nothing queued from another thread meanwhile can go
        // between the batch's events and its block.
        queue.async { [self] in run(batch) }
      }
    }
  }

  /// Runs a batch's events, each as ``deliver(_:replacing:isCurrent:waited:_:)`` says.
  private func run(_ batch: Batch) {
    let items = state.withLock { state in
      if state.openBatch === batch { state.openBatch = nil }
      defer { batch.items = [] }
      return batch.items
    }
    for item in items {
      defer { inFlight.signal() }
      guard item.isCurrent() else { continue }
      item.handler(item.event)
      let continuations = state.withLock { $0.continuations.isEmpty ? [] : Array($0.continuations.values) }
      for continuation in continuations {
        offer(item.event, to: continuation, isCurrent: item.isCurrent, waited: item.waited)
      }
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

import Dispatch
import TestSupport
import Testing

@testable import LocationKit

/// The channel both managers deliver through: in-order events, keyed events and blocks
/// queued behind them run in the order they were handed over, however the in-order events
/// are grouped into blocks on the queue, and a producer never gets more than the
/// channel's capacity ahead of its consumer.
@Suite struct EventChannelTests {
  /// What ran on the queue, in order.
  final class Log: Sendable {
    let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  /// A channel whose queue is held by a block until `release` is signalled, so that
  /// everything delivered meanwhile waits for it.
  static func heldChannel(capacity: Int = 64) -> (EventChannel<String>, release: DispatchSemaphore) {
    let channel = EventChannel<String>(queue: nil, label: "event-channel-test", capacity: capacity)
    let release = DispatchSemaphore(value: 0)
    channel.queue.async { release.wait() }
    return (channel, release)
  }

  @Test func keyedEventsAndBlocksKeepTheirPlaceAmongInOrderEvents() {
    let (channel, release) = Self.heldChannel()
    let log = Log()
    let inOrder: @Sendable (String) -> Void = { channel.deliver($0, isCurrent: { true }) { log.add($0) } }
    inOrder("1")
    inOrder("2")
    // Nothing keyed waits: this one goes to the queue at once, behind 1 and 2.
    channel.deliver("k", replacing: "key", isCurrent: { true }) { log.add($0) }
    inOrder("3")
    channel.async { log.add("block") }
    inOrder("4")
    inOrder("5")
    release.signal()
    channel.drain()
    #expect(log.all == ["1", "2", "k", "3", "block", "4", "5"])
  }

  @Test func keyedEventsWaitingInTheirSlotGoBeforeTheNextInOrderEvent() {
    let (channel, release) = Self.heldChannel()
    let log = Log()
    let keyed: @Sendable (String) -> Void = {
      channel.deliver($0, replacing: "key", isCurrent: { true }) { log.add($0) }
    }
    keyed("k1")  // queued at once
    keyed("k2")  // waits behind k1 in its slot...
    keyed("k3")  // ...and is replaced by k3
    channel.deliver("1", isCurrent: { true }) { log.add($0) }
    release.signal()
    channel.drain()
    #expect(log.all == ["k1", "k3", "1"])
    #expect(channel.replaced(kind: "key") == 1)
  }

  @Test func eventsNoLongerCurrentAreDroppedAndTheirPlacesFreed() {
    let (channel, release) = Self.heldChannel(capacity: 4)
    let log = Log()
    let current = Locked(true)
    for index in 0..<4 {
      channel.deliver("\(index)", isCurrent: { current.withLock { $0 } }) { log.add($0) }
    }
    current.withLock { $0 = false }
    release.signal()
    channel.drain()
    #expect(log.all.isEmpty)
    // Every place is free again: four more go through without waiting for a consumer.
    for index in 4..<8 { channel.deliver("\(index)", isCurrent: { true }) { log.add($0) } }
    channel.drain()
    #expect(log.all == ["4", "5", "6", "7"])
  }

  @Test func aProducerGetsNoFurtherAheadThanTheCapacity() {
    let (channel, release) = Self.heldChannel(capacity: 4)
    let log = Log()
    let handedOver = Locked(0)
    let producerDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      for index in 0..<10 {
        channel.deliver("\(index)", isCurrent: { true }) { log.add($0) }
        handedOver.withLock { $0 += 1 }
      }
      producerDone.signal()
    }
    // The fifth delivery waits for a place while the queue is held; it shows as the
    // channel holding its producer back.
    let heldBack = waitUntil(timeout: 30) { channel.isHoldingBack }
    #expect(heldBack)
    #expect(handedOver.withLock { $0 } == 4)
    release.signal()
    #expect(producerDone.wait(timeout: .now() + 30) == .success)
    channel.drain()
    #expect(log.all == (0..<10).map { "\($0)" })
  }
}

import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// The address a datagram came from, without its port: senders are told apart by address
/// alone, because a sender may send each datagram from a port of its own (one socket per
/// send), and a port would then make each datagram a receiver of its own. An IPv4 sender
/// heard on a dual-stack socket (`::ffff:a.b.c.d`) is the same IPv4 address.
struct SenderAddress: Hashable {
  /// `AF_INET` or `AF_INET6`.
  var family: Int32
  /// The address's bytes: 4 for IPv4, 16 for IPv6, zeros after.
  var high: UInt64
  var low: UInt64
  /// An IPv6 link-local address's interface; 0 otherwise.
  var scope: UInt32

  /// The sender in `storage` (as `recvfrom` fills it); `nil` for another family.
  init?(_ storage: sockaddr_storage) {
    var storage = storage
    switch Int32(storage.ss_family) {
    case AF_INET:
      let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
      family = AF_INET
      high = UInt64(UInt32(bigEndian: address.sin_addr.s_addr))
      low = 0
      scope = 0
    case AF_INET6:
      let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
      let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
      let top = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      let bottom = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      if top == 0, bottom >> 32 == 0xFFFF {
        family = AF_INET
        high = bottom & 0xFFFF_FFFF
        low = 0
        scope = 0
      } else {
        family = AF_INET6
        high = top
        low = bottom
        scope = address.sin6_scope_id
      }
    default:
      return nil
    }
  }

  /// The numeric address, as `ip` and `ss` print it: `192.0.2.7`, `fe80::1%2`.
  var description: String {
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    if family == AF_INET {
      var address = in_addr(s_addr: UInt32(truncatingIfNeeded: high).bigEndian)
      inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
      return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in 0..<8 {
      bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
      bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
    }
    inet_ntop(AF_INET6, bytes, &text, socklen_t(text.count))
    let address = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return scope == 0 ? address : "\(address)%\(scope)"
  }
}

/// The decoders of the senders heard on one UDP port, one each, so that two boats sending
/// to one port are two tracks, as two receivers of one gpsd are; each sender's fixes name
/// it as their device.
///
/// At most ``capacity`` senders are kept: a new one beyond that takes the place of the one
/// heard least recently (its waiting cycle delivered first, its counts kept), so that a
/// port sprayed from many addresses stays bounded in memory.
struct DatagramSenders {
  /// How many senders are decoded at once: more boats than one network carries.
  static let capacity = 64

  /// Where a sender's reporting cycle stands.
  enum Pending: Equatable {
    case nothing
    /// A datagram was just decoded: see whether more are waiting.
    case justRead
    /// The cycle is not known to be over: complete it after a silence.
    case waitingForSilence
  }

  struct Sender {
    var name: String
    var decoder: NMEADecoder
    var pending = Pending.nothing
    /// When its last datagram came (monotonic seconds).
    var lastHeard: Double
  }

  private(set) var senders: [SenderAddress: Sender] = [:]
  /// The counts of senders no longer kept.
  private var retired = DecoderStatistics()

  /// Every sender's counts together.
  var statistics: DecoderStatistics {
    var total = retired
    for sender in senders.values { total.merge(sender.decoder.statistics) }
    return total
  }

  /// Whether some sender's datagram was just decoded.
  var anyJustRead: Bool { senders.values.contains { $0.pending == .justRead } }

  /// The soonest moment (monotonic seconds) a sender's cycle is due after `silence`
  /// seconds without datagrams; `nil` when no cycle waits.
  func soonestSilence(after silence: Double) -> Double? {
    senders.values.lazy.filter { $0.pending == .waitingForSilence }.map { $0.lastHeard + silence }.min()
  }

  /// The sender at `address`, added with a new decoder when it is new; when the table is
  /// full, the sender heard least recently is ended first with `evict` (which completes
  /// its cycle).
  mutating func sender(
    at address: SenderAddress, now: Double, options: NMEADecoder.Options, evict: (inout Sender) -> Void
  ) -> SenderAddress {
    guard senders[address] == nil else { return address }
    if senders.count >= Self.capacity,
      let oldest = senders.min(by: { $0.value.lastHeard < $1.value.lastHeard })?.key
    {
      var sender = senders.removeValue(forKey: oldest)!
      evict(&sender)
      retired.merge(sender.decoder.statistics)
    }
    senders[address] = Sender(name: address.description, decoder: NMEADecoder(options: options), lastHeard: now)
    return address
  }

  /// Runs `body` on the sender at `address`, which must be present.
  mutating func update<Result>(_ address: SenderAddress, _ body: (inout Sender) -> Result) -> Result {
    body(&senders[address]!)
  }

  /// Runs `body` on every sender.
  mutating func updateAll(_ body: (inout Sender) -> Void) {
    for address in Array(senders.keys) { body(&senders[address]!) }
  }
}

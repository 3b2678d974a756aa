import Testing

@testable import LocationKit

/// The displacement test's history: a ring whose storage grows to its capacity as samples
/// come. Every sequence of appends, drops and clears must read as the same samples in
/// order as a plain array kept alongside.
struct TimedRingTests {
  @Test func readsAsThePlainArrayThroughGrowthWrapsAndClears() {
    var random = SystemRandomNumberGenerator()
    for capacity in 1...9 {
      var ring = TimedRing(capacity: capacity)
      var plain: [Double] = []
      var time = 0.0
      for _ in 0..<400 {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
          ring.removeFirst()
          if !plain.isEmpty { plain.removeFirst() }
        case 1 where Int.random(in: 0..<8, using: &random) == 0:
          ring.removeAll()
          plain.removeAll()
        default:
          time += 1
          ring.append(time, time * 2, -time, path: time / 2)
          plain.append(time)
          if plain.count > capacity { plain.removeFirst() }
        }
        #expect(ring.count == plain.count)
        #expect(ring.first?.time == plain.first)
        if let last = plain.last {
          #expect(ring.last.time == last)
          #expect(ring.last.east == last * 2 && ring.last.north == -last && ring.last.path == last / 2)
        }
        for value in plain {
          #expect(ring.sample(atOrBefore: value + 0.5)?.time == value)
          #expect(ring.sample(nearest: value + 0.2)?.time == value)
        }
      }
    }
  }
}

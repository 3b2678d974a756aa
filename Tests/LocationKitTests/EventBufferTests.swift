import NMEA
import Testing

@testable import LocationKit

/// The parallel decoder's event buffer hands each event over once, in order, and releases
/// every event it did not hand over: the skipped stretch, the rest after a stop, what is
/// held when it goes.
@Suite struct EventBufferTests {
  /// Events each holding an array of their own; `kept` shares each array, so that whether
  /// the buffer still holds an event shows in whether its array is still shared.
  static func filled(_ buffer: EventBuffer, count: Int) -> [[UInt8]] {
    var kept: [[UInt8]] = []
    for line in 0..<count {
      let bytes = [UInt8](repeating: UInt8(line), count: 16)
      kept.append(bytes)
      buffer.append(.accepted(bytes, line: line))
    }
    return kept
  }

  /// Whether nothing but `kept` holds the array at `index`: a write to a shared array
  /// copies it to a new address, a write to one held once does not.
  static func isReleased(_ kept: inout [[UInt8]], _ index: Int) -> Bool {
    let before = kept[index].withUnsafeBufferPointer { $0.baseAddress }
    kept[index][0] &+= 1
    return kept[index].withUnsafeBufferPointer { $0.baseAddress } == before
  }

  static func line(of event: consuming DecoderEvent) -> Int? {
    if case .accepted(_, let line) = event { line } else { nil }
  }

  /// The lines of the events of `range`, all taken from `buffer` (`nil` if it stopped).
  static func lines(taking range: Range<Int>, from buffer: EventBuffer) -> [Int]? {
    var lines: [Int] = []
    let finished = buffer.take(range) { _, event in
      lines.append(line(of: event) ?? -1)
      return true
    }
    return finished ? lines : nil
  }

  @Test func eventsAreHandedOverInOrderAndTheSkippedOnesReleased() {
    let buffer = EventBuffer(capacity: 16)
    var kept = Self.filled(buffer, count: 10)
    #expect(Self.lines(taking: 0..<3, from: buffer) == [0, 1, 2])
    #expect(Self.lines(taking: 6..<10, from: buffer) == [6, 7, 8, 9])
    // Handed over and dropped by the handler, or skipped and dropped by the buffer.
    #expect((0..<10).allSatisfy { Self.isReleased(&kept, $0) })
    buffer.removeAll()
    #expect(buffer.count == 0)
  }

  @Test func aStopHandsOverNothingMoreAndTheRestIsReleasedWhenEmptied() {
    let buffer = EventBuffer(capacity: 16)
    var kept = Self.filled(buffer, count: 10)
    var indices: [Int] = []
    let finished = buffer.take(0..<10) { index, _ in
      indices.append(index)
      return index < 4
    }
    #expect(!finished)
    #expect(indices == [0, 1, 2, 3, 4])
    #expect((0...4).allSatisfy { Self.isReleased(&kept, $0) })
    #expect(!(5..<10).contains { Self.isReleased(&kept, $0) })
    buffer.removeAll()
    #expect((5..<10).allSatisfy { Self.isReleased(&kept, $0) })
    // Filled again from the start, as a worker reuses it.
    var again = Self.filled(buffer, count: 3)
    #expect(buffer.count == 3)
    #expect(Self.lines(taking: 0..<3, from: buffer) == [0, 1, 2])
    #expect((0..<3).allSatisfy { Self.isReleased(&again, $0) })
  }

  @Test func itGrowsPastItsCapacityAndReleasesWhatItHoldsWhenItGoes() {
    var kept: [[UInt8]]
    do {
      let buffer = EventBuffer(capacity: 2)
      kept = Self.filled(buffer, count: 7)
      #expect(buffer.count == 7)
      #expect(Self.lines(taking: 0..<2, from: buffer) == [0, 1])
    }
    #expect((0..<7).allSatisfy { Self.isReleased(&kept, $0) })
  }
}

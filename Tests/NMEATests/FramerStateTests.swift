import Foundation
import TestSupport
import Testing

@testable import NMEA

/// The framer's state after some bytes must not depend on how they were cut into pieces:
/// the parallel decoder compares a worker's framer with the merger's, after the same
/// bytes read in different pieces, to take the worker's events from there.
@Suite struct FramerStateTests {
  /// The state after `bytes` fed in pieces cut at `cuts`.
  static func framer(_ bytes: [UInt8], cuts: [Int]) -> (SentenceFramer, events: Int) {
    var framer = SentenceFramer()
    var events = 0
    var start = 0
    bytes.withUnsafeBytes { all in
      for end in cuts + [bytes.count] where end > start {
        framer.consume(UnsafeRawBufferPointer(rebasing: all[start..<end])) { _ in events += 1 }
        start = end
      }
    }
    return (framer, events)
  }

  @Test func theStateAfterTheSameBytesDoesNotDependOnThePieces() throws {
    let logs = TestPaths.corpusLogs
    #expect(logs.count >= 100, "the gpsd corpus is missing (set WHEREAMI_CORPUS)")
    var generator = SeededRandom(seed: 32)
    var differing: [String] = []
    for log in logs {
      let data = [UInt8](try Data(contentsOf: log).prefix(16_384))
      guard data.count > 16 else { continue }
      for _ in 0..<24 {
        let end = Int.random(in: 2...data.count, using: &generator)
        let whole = Self.framer(Array(data[..<end]), cuts: [])
        for back in [1, 2, 3, Int.random(in: 1..<end, using: &generator)] where back < end {
          let cut = end - back
          let pieces = Self.framer(Array(data[..<end]), cuts: [cut])
          if !whole.0.continuesLike(pieces.0) || whole.events != pieces.events {
            differing.append("\(log.lastPathComponent): bytes ..<\(end) cut at \(cut)")
          }
        }
      }
    }
    #expect(differing.isEmpty, "\(differing.count): \(differing.prefix(5).joined(separator: "\n"))")
  }
}

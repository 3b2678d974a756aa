import Foundation
import TestSupport

/// The package's own fixture logs (`fixtures/`).
enum Fixtures {
  static let directory = Corpus.packageRoot.appendingPathComponent("fixtures")

  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
  }

  static func json(_ name: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))) as! [String: Any]
  }
}

/// A small deterministic generator (SplitMix64), so that "random" tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Appends `*HH` to a sentence body such as `$GPGGA,...`.
func withChecksum(_ body: String) -> String { checksummed(body) }

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

/// Appends `*HH` to a sentence body such as `$GPGGA,...`.
func withChecksum(_ body: String) -> String { checksummed(body) }

import Foundation

/// Where the tests find the package's files and the shared corpus.
public enum TestPaths {
  /// The package's root directory (this file is Tests/TestSupport/TestPaths.swift).
  public static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The fixtures directory.
  public static var fixtures: URL { packageRoot.appendingPathComponent("fixtures") }

  /// A fixture's path.
  public static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

  /// A fixture's reporting cycles as text (comments left out), each starting at an RMC of
  /// any talker, at most `limit` of them: for feeding a receiver's bursts one at a time.
  public static func cycles(_ fixture: String, limit: Int) throws -> [String] {
    let text = try String(contentsOfFile: self.fixture(fixture), encoding: .utf8)
    var cycles: [String] = []
    var current = ""
    for line in text.split(separator: "\r\n") where !line.hasPrefix("#") {
      if line.dropFirst(3).hasPrefix("RMC,") && !current.isEmpty {
        cycles.append(current)
        current = ""
        if cycles.count == limit { break }
      }
      current += line + "\r\n"
    }
    return cycles
  }

  /// The shared gpsd corpus: `$WHEREAMI_CORPUS`, or `../shared/corpus/gpsd` beside the
  /// package (the layout of a checkout and of CI).
  public static var corpus: URL {
    if let path = ProcessInfo.processInfo.environment["WHEREAMI_CORPUS"] { return URL(fileURLWithPath: path) }
    return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/gpsd")
  }

  /// The corpus's logs, by name.
  public static var corpusLogs: [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return names.filter { $0.hasSuffix(".log") }.sorted().map { corpus.appendingPathComponent($0) }
  }
}

/// A sentence body such as `$GPGGA,...` with `*HH` appended: the XOR of the bytes between
/// `$` (or `!`) and `*`, in upper-case hex.
public func checksummed(_ body: String) -> String {
  let checksum = body.utf8.dropFirst().reduce(UInt8(0), ^)
  let hex = String(checksum, radix: 16, uppercase: true)
  return body + "*" + (hex.count == 1 ? "0" + hex : hex)
}

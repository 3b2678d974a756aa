import Foundation
import TestSupport
import Testing

@testable import Geodesy

/// ``GeoidGrid`` against PROJ itself: `cct` with the same EGM96 grid (Debian's `proj-bin`
/// and `proj-data`, which `scripts/install-dependencies test` installs).
@Suite struct GeoidGridTests {
  static func egm96() throws -> GeoidGrid {
    try GeoidGrid(gtxPath: GeoidGrid.egm96DefaultPath, name: "EGM96")
  }

  /// PROJ's geoid heights for (longitude, latitude) pairs, from one `cct` run.
  static func projSeparations(_ points: [(latitude: Double, longitude: Double)]) throws -> [Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/cct")
    // vgridshift with multiplier 1 adds the grid's value to the input height 0: N itself.
    process.arguments = ["-d", "6", "+proj=vgridshift", "+grids=egm96_15.gtx", "+multiplier=1"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let text = points.map { "\($0.longitude) \($0.latitude) 0 0\n" }.joined()
    try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = try output.fileHandleForReading.readToEnd() ?? Data()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
      let columns = line.split(separator: " ", omittingEmptySubsequences: true)
      return columns.count >= 3 ? Double(columns[2]) ?? .nan : .nan
    }
  }

  @Test func agreesWithPROJAtAThousandRandomPoints() throws {
    let grid = try Self.egm96()
    var generator = SeededRandom(seed: 0x6e6d_3936)
    var points: [(latitude: Double, longitude: Double)] = (0..<1000).map { _ in
      // Uniform on the sphere, so the poles are not over-sampled.
      let latitude = asin(Double.random(in: -1...1, using: &generator)) * 180 / .pi
      return (latitude, Double.random(in: -180..<180, using: &generator))
    }
    // Where bilinear interpolation has edges: the antimeridian seam, the poles, nodes.
    points += [(0, -180), (0, 179.9), (-12.3, 179.99), (45.1, -179.99), (90, 0), (-90, 17), (89.9, 100), (52.25, 13.5)]
    let expected = try Self.projSeparations(points)
    try #require(expected.count == points.count, "cct printed \(expected.count) lines for \(points.count) points")
    var worst = 0.0
    for (point, reference) in zip(points, expected) {
      let ours = try #require(grid.separation(latitude: point.latitude, longitude: point.longitude))
      worst = max(worst, abs(ours - reference))
      #expect(abs(ours - reference) <= 0.001, "at \(point): ours \(ours) m, PROJ \(reference) m")
    }
    print("geoid: worst difference from PROJ over \(points.count) points: \(worst * 1000) mm")
  }

  @Test func longitudesOutsideTheUsualRangeWrap() throws {
    let grid = try Self.egm96()
    let east = try #require(grid.separation(latitude: 41, longitude: 2))
    #expect(grid.separation(latitude: 41, longitude: 362) == east)
    #expect(grid.separation(latitude: 41, longitude: -358) == east)
    #expect(grid.separation(latitude: 90.5, longitude: 0) == nil)
    #expect(grid.separation(latitude: .nan, longitude: 0) == nil)
  }

  @Test func filesThatAreNotGridsAreRefusedWithTheReason() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoid-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = directory.appendingPathComponent("missing.gtx").path
    #expect(throws: GeoidGridError(path: missing, reason: .cannotOpen(errno: ENOENT))) {
      try GeoidGrid(gtxPath: missing, name: "EGM96")
    }
    let short = directory.appendingPathComponent("short.gtx")
    try Data("not a grid".utf8).write(to: short)
    #expect(throws: GeoidGridError(path: short.path, reason: .notAGrid("shorter than a GTX header"))) {
      try GeoidGrid(gtxPath: short.path, name: "EGM96")
    }
    // A real header whose data was cut off.
    let truncated = directory.appendingPathComponent("truncated.gtx")
    let original = try Data(contentsOf: URL(fileURLWithPath: GeoidGrid.egm96DefaultPath))
    try original.prefix(100_000).write(to: truncated)
    do {
      _ = try GeoidGrid(gtxPath: truncated.path, name: "EGM96")
      Issue.record("a truncated grid was accepted")
    } catch {
      #expect(error.description.contains("has 100000 bytes where its header promises 4153000"))
    }
  }
}

import Foundation
import Geodesy
import LocationKit
import Testing

/// Regions' signed distances against GeographicLib (scripts/region-reference.py): points
/// laid out at right angles off the middle of geodesic edges, so their distance is exact.
@Suite struct RegionGeometryTests {
  struct Case {
    var rings: [[RegionPolygon.Vertex]] = []
    var circle: (latitude: Double, longitude: Double, radius: Double)?
    var points: [(latitude: Double, longitude: Double, distance: Double, line: Int)] = []
  }

  static let cases: [String: Case] = {
    let url = Bundle.module.url(forResource: "region-reference", withExtension: "tsv", subdirectory: "Resources")!
    let text = try! String(contentsOf: url, encoding: .utf8)
    var cases: [String: Case] = [:]
    for (index, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t").map(String.init)
      switch fields[0] {
      case "R":
        let numbers = fields[3...].map { Double($0)! }
        let ring = stride(from: 0, to: numbers.count, by: 2).map {
          RegionPolygon.Vertex(latitude: numbers[$0], longitude: numbers[$0 + 1])
        }
        cases[fields[1], default: Case()].rings.append(ring)
      case "C":
        cases[fields[1], default: Case()].circle = (Double(fields[2])!, Double(fields[3])!, Double(fields[4])!)
      default:
        cases[fields[1], default: Case()].points.append(
          (Double(fields[2])!, Double(fields[3])!, Double(fields[4])!, index + 1))
      }
    }
    return cases
  }()

  static func region(_ name: String) throws -> Region {
    let reference = try #require(cases[name])
    if let circle = reference.circle {
      return try Region(identifier: name, latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius)
    }
    let polygon = try RegionPolygon(outer: reference.rings[0], holes: Array(reference.rings.dropFirst()))
    return try Region(identifier: name, polygons: [polygon])
  }

  @Test(arguments: ["field", "antimeridian", "pole", "hole", "large"] + (0..<20).map { "circle\($0)" })
  func signedDistancesAreTheGeodesicOnes(name: String) throws {
    let region = try Self.region(name)
    let reference = try #require(Self.cases[name])
    #expect(reference.points.count >= 5)
    for point in reference.points {
      let distance = region.signedDistance(latitude: point.latitude, longitude: point.longitude)
      // Points on an edge count as inside (0 or just below); elsewhere the side must be right.
      #expect(
        abs(distance - point.distance) < 1e-3,
        "\(name), reference line \(point.line): \(distance) m, not \(point.distance)")
      if point.distance != 0 {
        #expect(region.contains(latitude: point.latitude, longitude: point.longitude) == (point.distance < 0))
      }
    }
  }

  @Test func theEdgesAreGeodesicsNotLinesInDegrees() throws {
    // The large case's 300 km edges: a point 10 m inside the geodesic edge is, for a
    // straight line in degrees, on the wrong side by up to kilometres.
    let region = try Self.region("large")
    let reference = try #require(Self.cases["large"])
    let near = reference.points.filter { abs($0.distance) < 11 && $0.distance != 0 }
    #expect(near.count >= 8)
    for point in near {
      #expect(region.contains(latitude: point.latitude, longitude: point.longitude) == (point.distance < 0))
    }
  }

  @Test func aPolygonRoundThePoleHoldsThePole() throws {
    let region = try Self.region("pole")
    #expect(region.contains(latitude: 90, longitude: 0))
    #expect(region.contains(latitude: 90, longitude: 137))
    #expect(!region.contains(latitude: 89.8, longitude: 45))
  }

  @Test func aHoleIsOutside() throws {
    let region = try Self.region("hole")
    #expect(!region.contains(latitude: 54.32, longitude: 10.14))
  }

  @Test func verticesAreOnTheBoundary() throws {
    let polygon = try RegionPolygon(outer: [
      .init(latitude: 0, longitude: 0), .init(latitude: 0, longitude: 0.01), .init(latitude: 0.01, longitude: 0.01),
      .init(latitude: 0, longitude: 0),
    ])
    let region = try Region(identifier: "triangle", polygons: [polygon])
    #expect(region.signedDistance(latitude: 0.01, longitude: 0.01) == 0)
    #expect(region.contains(latitude: 0.01, longitude: 0.01))
    #expect(polygon.rings[0].count == 3)
    // Half a square of 1.113 km (0.01° at the equator): about 0.62 km².
    #expect(abs(polygon.area - 612_000) < 10_000, "\(polygon.area)")
  }

  @Test func invalidRegionsAreRefusedWithTheirReason() {
    #expect(throws: LocationError.self) { try Region(identifier: "a", latitude: 91, longitude: 0, radius: 10) }
    #expect(throws: LocationError.self) { try Region(identifier: "a", latitude: 0, longitude: 0, radius: 0) }
    #expect(throws: LocationError.self) { try Region(identifier: "a", latitude: 0, longitude: 0, radius: .nan) }
    do {
      _ = try RegionPolygon(
        outer: [.init(latitude: 0, longitude: 0), .init(latitude: 0, longitude: 1), .init(latitude: 0, longitude: 0)],
        name: "line")
      Issue.record("a ring of two vertices was taken")
    } catch {
      #expect(error.code == .invalidSource)
      #expect(error.message == "region line: its outer ring has fewer than 3 distinct vertices")
    }
  }
}

extension RegionGeometryTests {
  /// A square of about 1 km in Spain.
  static func square() throws -> Region {
    let ring: [RegionPolygon.Vertex] = [
      .init(latitude: 40.0, longitude: -3.7), .init(latitude: 40.0, longitude: -3.688),
      .init(latitude: 40.009, longitude: -3.688), .init(latitude: 40.009, longitude: -3.7),
    ]
    return try Region(identifier: "square", polygons: [RegionPolygon(outer: ring)])
  }

  /// The distance to a geodesic edge by brute force: 4,001 points along it.
  static func bruteDistance(_ latitude: Double, _ longitude: Double, to region: Region) -> Double {
    guard case .polygons(let polygons) = region.shape else { return .nan }
    var best = Double.infinity
    for ring in polygons.flatMap(\.rings) {
      for index in ring.indices {
        let a = ring[index]
        let b = ring[(index + 1) % ring.count]
        let edge = Geodesic.wgs84.inverse(
          latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
        for step in 0...4000 {
          let point = Geodesic.wgs84.direct(
            latitude: a.latitude, longitude: a.longitude, azimuth: edge.initialAzimuth,
            distance: edge.distance * Double(step) / 4000)
          best = min(
            best,
            Geodesic.wgs84.distance(
              latitude1: point.latitude, longitude1: point.longitude, latitude2: latitude, longitude2: longitude))
        }
      }
    }
    return best
  }

  @Test func theAntipodeOfARegionIsNotInIt() throws {
    let square = try Self.square()
    #expect(square.contains(latitude: 40.004, longitude: -3.694))
    // New Zealand, opposite: the ring winds round it too, seen from there.
    #expect(!square.contains(latitude: -40.004, longitude: 176.306))
    #expect(square.signedDistance(latitude: -40.004, longitude: 176.306) > 19_000_000)
  }

  @Test func pointsNearestAVertexAndFarAwayHaveTheBruteForceDistance() throws {
    let square = try Self.square()
    // Beyond a corner along its diagonal, 300 m and 30 km out, and 800 km away.
    for (latitude, longitude) in [(40.0115, -3.6850), (40.25, -3.40), (47.0, 2.0), (39.99, -3.694)] {
      let distance = square.signedDistance(latitude: latitude, longitude: longitude)
      let brute = Self.bruteDistance(latitude, longitude, to: square)
      // The brute force's points are 0.3 m apart: it is at most 0.15 m long.
      #expect(distance > 0 && abs(distance - brute) < 0.2, "(\(latitude), \(longitude)): \(distance), brute \(brute)")
    }
  }

  @Test func aRingOfAHemisphereOrMoreIsRefused() {
    let equator = stride(from: -180.0, to: 180.0, by: 30).map { RegionPolygon.Vertex(latitude: 0, longitude: $0) }
    #expect(throws: LocationError.self) { try RegionPolygon(outer: equator) }
  }
}

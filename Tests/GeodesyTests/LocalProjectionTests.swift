import Foundation
import Testing

@testable import Geodesy

/// ``LocalProjection`` against exact geodesics: the error it states for its use (maps).
@Suite struct LocalProjectionTests {
  @Test(arguments: [0.0, 38.7, 52.5, -33.9, 69.6, 80.0])
  func distancesNearTheCentreAgreeWithGeodesics(latitude: Double) {
    let projection = LocalProjection(latitude: latitude, longitude: 13.4)
    for (east, north) in [(0.01, 0.0), (0.0, 0.01), (0.02, -0.015), (-0.3, 0.2), (0.45, 0.3)] {
      let lat = latitude + north
      let lon = 13.4 + east
      let exact = Geodesic.wgs84.inverse(
        latitude1: latitude, longitude1: 13.4, latitude2: lat, longitude2: lon
      ).distance
      let point = projection.project(latitude: lat, longitude: lon)
      let flat = (point.east * point.east + point.north * point.north).squareRoot()
      // About 0.1 % at 50 km (the farthest point is 30–55 km away), far less nearer.
      let bound = exact < 5_000 ? 2e-4 : 2e-3
      #expect(abs(flat - exact) / exact < bound, "\(latitude)°: \(flat) m for \(exact) m")
    }
  }

  @Test func longitudesWrapAcrossTheAntimeridian() {
    let projection = LocalProjection(latitude: -17, longitude: 179.99)
    let east = projection.project(latitude: -17, longitude: -179.99)
    #expect(east.east > 0 && abs(east.east - 0.02 * projection.eastPerDegree) < 1e-6)
    #expect(LocalProjection.wrap(540) == -180 && LocalProjection.wrap(-190) == 170)
  }

  /// The azimuthal projection keeps distances from its centre exactly, agrees with the
  /// local one near it, and has no seam at the antimeridian or a pole.
  @Test func theAzimuthalProjectionHasNoSeam() {
    let berlin = AzimuthalProjection(latitude: 52.5, longitude: 13.4)
    let local = LocalProjection(latitude: 52.5, longitude: 13.4)
    let a = berlin.project(latitude: 52.51, longitude: 13.42)
    let b = local.project(latitude: 52.51, longitude: 13.42)
    #expect(abs(a.east - b.east) < 0.002 * abs(b.east) && abs(a.north - b.north) < 0.002 * abs(b.north))
    let far = berlin.project(latitude: 48.85, longitude: 2.35)
    let distance = Geodesic.wgs84.inverse(latitude1: 52.5, longitude1: 13.4, latitude2: 48.85, longitude2: 2.35)
      .distance
    #expect(abs((far.east * far.east + far.north * far.north).squareRoot() - distance) < 1e-6)
    // Across the antimeridian and over the pole, neighbours stay neighbours.
    let fiji = AzimuthalProjection(latitude: -16.8, longitude: 180)
    let west = fiji.project(latitude: -16.8, longitude: 179.999)
    let east = fiji.project(latitude: -16.8, longitude: -179.999)
    #expect(abs(east.east - west.east - 213) < 1 && abs(east.north - west.north) < 0.01, "\(west) \(east)")
    let pole = AzimuthalProjection(latitude: 90, longitude: 0)
    let one = pole.project(latitude: 89.99, longitude: 179.9)
    let other = pole.project(latitude: 89.99, longitude: -179.9)
    #expect(
      ((one.east - other.east) * (one.east - other.east) + (one.north - other.north) * (one.north - other.north))
        .squareRoot() < 5)
    // The middle of points round a pole is the pole.
    let ring = (0..<36).map { (latitude: 89.99, longitude: Double($0 * 10 - 180)) }
    let middle = AzimuthalProjection(centreOf: ring)
    #expect(middle.map { $0.latitude > 89.999 } == true)
  }

}

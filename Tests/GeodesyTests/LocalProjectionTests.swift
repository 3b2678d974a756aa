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
}

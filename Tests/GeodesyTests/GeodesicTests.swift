import Foundation
import Geodesy
import Testing

/// Hand-picked geodesics with values from GeographicLib 2.1, and edge cases.
@Suite("Geodesic")
struct GeodesicTests {
  let wgs84 = Geodesic.wgs84

  @Test func wgs84Constants() {
    #expect(Ellipsoid.wgs84.semiMajorAxis == 6_378_137)
    let flattening: Double = 1 / 298.257223563
    #expect(Ellipsoid.wgs84.flattening == flattening)
    #expect(abs(Ellipsoid.wgs84.semiMinorAxis - 6_356_752.314245) < 1e-6)
    #expect(wgs84.ellipsoid == .wgs84)
  }

  /// An inverse problem with its expected solution.
  struct InverseCase: Sendable, CustomTestStringConvertible {
    var flattening = Ellipsoid.wgs84.flattening
    var lat1, lon1, lat2, lon2: Double
    var distance, azi1, azi2: Double

    var testDescription: String { "f=\(flattening) (\(lat1), \(lon1)) → (\(lat2), \(lon2))" }
  }

  static let classics: [InverseCase] = [
    // Equator to pole: the meridian quadrant.
    InverseCase(
      lat1: 0, lon1: 0, lat2: 90, lon2: 0, distance: 10_001_965.729312724, azi1: 0, azi2: 0),
    // A quarter of the equator, a·π/2.
    InverseCase(
      lat1: 0, lon1: 0, lat2: 0, lon2: 90, distance: 10_018_754.171394622, azi1: 90, azi2: 90),
    // Pole to pole, and equatorial antipodes, which go over a pole because
    // the equator is longer than a meridian.
    InverseCase(
      lat1: -90, lon1: 0, lat2: 90, lon2: 0, distance: 20_003_931.458625447, azi1: 0, azi2: 0),
    InverseCase(
      lat1: 0, lon1: 0, lat2: 0, lon2: 180, distance: 20_003_931.458625447, azi1: 0, azi2: 180),
    // Wellington to Salamanca, nearly antipodal (Karney 2013).
    InverseCase(
      lat1: -41.32, lon1: 174.81, lat2: 40.96, lon2: -5.50,
      distance: 19_959_679.26735382, azi1: 161.06766998616015, azi2: 18.825195123247063),
    // JFK to Paris CDG.
    InverseCase(
      lat1: 40.6, lon1: -73.8, lat2: 49.01666667, lon2: 2.55,
      distance: 5_853_226.25561329, azi1: 53.47021823943234, azi2: 111.59366951402322),
  ]

  @Test("Classic inverse problems", arguments: classics)
  func classicInverse(_ c: InverseCase) {
    let result = wgs84.inverse(
      latitude1: c.lat1, longitude1: c.lon1, latitude2: c.lat2, longitude2: c.lon2)
    #expect(abs(result.distance - c.distance) <= 1e-8)
    #expect(angularDifference(result.initialAzimuth, c.azi1) <= 1e-12)
    #expect(angularDifference(result.finalAzimuth, c.azi2) <= 1e-12)
  }

  @Test func quarterEquatorIsExact() {
    let s = wgs84.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 90)
    #expect(s == 6_378_137 * Double.pi / 2)
  }

  @Test func classicDirect() {
    // Karney (2013), the worked direct example.
    let result = wgs84.direct(latitude: 40, longitude: 0, azimuth: 30, distance: 10e6)
    #expect(abs(result.latitude - 41.793310205056265) <= 1e-12)
    #expect(abs(result.longitude - 137.8449000437715) <= 1e-12)
    #expect(abs(result.finalAzimuth - 149.09016931807182) <= 1e-12)
  }

  @Test func coincidentPointsAreZeroApart() {
    // Longitudes chosen so that adding 360 is exact.
    for (lat, lon) in [(0.0, 0.0), (51.5, -0.125), (-33.9, 151.25), (90, 45), (-90, -120)] {
      let result = wgs84.inverse(latitude1: lat, longitude1: lon, latitude2: lat, longitude2: lon)
      #expect(result.distance == 0)
      #expect(result.initialAzimuth.isFinite && result.finalAzimuth.isFinite)
      // The same point written with another longitude turn.
      #expect(
        wgs84.distance(latitude1: lat, longitude1: lon, latitude2: lat, longitude2: lon + 360)
          == 0)
    }
  }

  @Test func poleCoordinatesFollowTheirMeridian() {
    // The azimuth at a pole is that of a point approaching the pole along
    // the given meridian, so the answer is continuous as latitude → 90°.
    let atPole = wgs84.inverse(latitude1: 90, longitude1: 30, latitude2: 0, longitude2: 30)
    #expect(atPole.initialAzimuth == 180)
    #expect(atPole.finalAzimuth == 180)
    #expect(abs(atPole.distance - 10_001_965.729312724) <= 1e-8)
    let nearPole = wgs84.inverse(
      latitude1: 90 - 1e-9, longitude1: 30, latitude2: 0, longitude2: 75)
    let atPoleAngled = wgs84.inverse(
      latitude1: 90, longitude1: 30, latitude2: 0, longitude2: 75)
    #expect(angularDifference(nearPole.initialAzimuth, atPoleAngled.initialAzimuth) < 1e-6)
    #expect(abs(nearPole.distance - atPoleAngled.distance) < 1e-3)
  }

  @Test func equatorialLinesStayOnTheEquator() {
    for dlon in [1e-9, 0.5, 45, 179] {
      let result = wgs84.inverse(latitude1: 0, longitude1: 10, latitude2: 0, longitude2: 10 + dlon)
      let expectedOnEquator = 6_378_137 * dlon * .pi / 180
      if dlon <= 180 * (1 - Ellipsoid.wgs84.flattening) {
        #expect(abs(result.distance - expectedOnEquator) <= 1e-8 * max(1, expectedOnEquator))
        #expect(result.initialAzimuth == 90 && result.finalAzimuth == 90)
      } else {
        // Past (1 − f)·180° the geodesic leaves the equator and is shorter.
        #expect(result.distance < expectedOnEquator)
      }
    }
  }

  @Test func outputsAreInHalfOpenRange() throws {
    // Westward due-south lines are where −180 would otherwise appear.
    let south = wgs84.inverse(latitude1: 10, longitude1: 0, latitude2: -10, longitude2: -0.0)
    #expect(south.initialAzimuth == 180 && south.finalAzimuth == 180)
    let data = try ReferenceData.load()
    for reference in data.inverse {
      let result = wgs84.inverse(
        latitude1: reference.latitude1, longitude1: reference.longitude1,
        latitude2: reference.latitude2, longitude2: reference.longitude2)
      #expect(result.initialAzimuth > -180 && result.initialAzimuth <= 180)
      #expect(result.finalAzimuth > -180 && result.finalAzimuth <= 180)
    }
    for reference in data.direct {
      let result = wgs84.direct(
        latitude: reference.latitude, longitude: reference.longitude,
        azimuth: reference.azimuth, distance: reference.distance)
      #expect(result.longitude > -180 && result.longitude <= 180)
      #expect(result.latitude >= -90 && result.latitude <= 90)
      #expect(result.finalAzimuth > -180 && result.finalAzimuth <= 180)
    }
  }

  @Test func longitudesAreReducedExactly() {
    let a = wgs84.inverse(latitude1: 12.5, longitude1: 10, latitude2: -33, longitude2: 150)
    let b = wgs84.inverse(latitude1: 12.5, longitude1: 730, latitude2: -33, longitude2: -570)
    #expect(a == b)
  }

  @Test func zeroDistanceDirectStaysPut() {
    let result = wgs84.direct(latitude: -12.25, longitude: 44.5, azimuth: 33, distance: 0)
    #expect(result.latitude == -12.25)
    #expect(abs(result.longitude - 44.5) <= 1e-13)
    #expect(abs(result.finalAzimuth - 33) <= 1e-13)
  }

  @Test func invalidLatitudesGiveNaN() {
    for lat in [91.0, -90.5, .nan] {
      #expect(wgs84.distance(latitude1: lat, longitude1: 0, latitude2: 10, longitude2: 10).isNaN)
      #expect(wgs84.distance(latitude1: 10, longitude1: 0, latitude2: lat, longitude2: 10).isNaN)
      #expect(wgs84.direct(latitude: lat, longitude: 0, azimuth: 10, distance: 1000).latitude.isNaN)
    }
  }

  @Test func sphereMatchesGreatCircle() {
    let radius = 6_371_000.0
    let sphere = Geodesic(Ellipsoid(semiMajorAxis: radius, flattening: 0))
    for (lat1, lon1, lat2, lon2) in [
      (10.0, 20.0, -40.0, 100.0), (0, 0, 0.5, 179.5), (1, 2, 3, 4), (-89, 0, 89, 179),
    ] {
      let (p1, p2) = (lat1 * .pi / 180, lat2 * .pi / 180)
      let dl = (lon2 - lon1) * .pi / 180
      let central = atan2(
        hypot(cos(p2) * sin(dl), cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)),
        sin(p1) * sin(p2) + cos(p1) * cos(p2) * cos(dl))
      let s = sphere.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
      #expect(abs(s - radius * central) <= 1e-7)
    }
  }

  static let otherEllipsoidCases: [InverseCase] = [
    // Prolate: the antipodal region is organised the other way round.
    InverseCase(
      flattening: -1 / 150, lat1: 0, lon1: 0, lat2: 0.5, lon2: 179.5,
      distance: 20_041_966.69779223, azi1: 72.8982576904446, azi2: 107.09455492402999),
    InverseCase(
      flattening: -1 / 150, lat1: -30, lon1: 0, lat2: 29.9, lon2: 179.8,
      distance: 20_103_214.24179005, azi1: 95.08875209506526, azi2: 84.29523751769045),
    InverseCase(
      flattening: -1 / 150, lat1: 0, lon1: 0, lat2: 0, lon2: 179.8,
      distance: 20_083_852.76854915, azi1: 90, azi2: 90),
    InverseCase(
      flattening: -1 / 150, lat1: 10, lon1: 20, lat2: -40, lon2: 100,
      distance: 9_958_894.10512473, azi1: 131.27929777512355, azi2: 104.39978779317346),
    // Oblate, flatter than the Earth.
    InverseCase(
      flattening: 1 / 150, lat1: 0, lon1: 0, lat2: 0.5, lon2: 179.5,
      distance: 19_975_918.730439454, azi1: 16.96097440090618, azi2: 163.03836904272595),
    InverseCase(
      flattening: 1 / 150, lat1: -30, lon1: 0, lat2: 29.9, lon2: 179.8,
      distance: 20_026_472.84953029, azi1: 170.030232715828, azi2: 9.95974541688123),
    InverseCase(
      flattening: 1 / 150, lat1: 0, lon1: 0, lat2: 0, lon2: 179.8,
      distance: 20_037_363.62257863, azi1: 9.60981398716418, azi2: 170.3901860128358),
  ]

  @Test("Other ellipsoids (a = 6400 km)", arguments: otherEllipsoidCases)
  func otherEllipsoids(_ c: InverseCase) {
    let geodesic = Geodesic(Ellipsoid(semiMajorAxis: 6.4e6, flattening: c.flattening))
    let result = geodesic.inverse(
      latitude1: c.lat1, longitude1: c.lon1, latitude2: c.lat2, longitude2: c.lon2)
    #expect(abs(result.distance - c.distance) <= 1e-7)
    #expect(angularDifference(result.initialAzimuth, c.azi1) <= 1e-10)
    #expect(angularDifference(result.finalAzimuth, c.azi2) <= 1e-10)
    let end = geodesic.direct(
      latitude: c.lat1, longitude: c.lon1, azimuth: result.initialAzimuth,
      distance: result.distance)
    let miss = geodesic.distance(
      latitude1: end.latitude, longitude1: end.longitude, latitude2: c.lat2, longitude2: c.lon2)
    #expect(miss <= 1e-6)
  }

  @Test func directOnOtherEllipsoids() {
    for (f, lat2, lon2, azi2) in [
      (-1 / 150.0, 29.448655278983047, 175.9270238844284, 145.50995809483607),
      (1 / 150.0, 29.13338897492526, 175.6116780944866, 145.74026987143037),
      (0.0, 28.78797220178482, 176.16351775214096, 145.8166273087616),
    ] {
      let a = f == 0 ? 6_371_000 : 6.4e6
      let geodesic = Geodesic(Ellipsoid(semiMajorAxis: a, flattening: f))
      let result = geodesic.direct(latitude: 10, longitude: 20, azimuth: 30, distance: 1.5e7)
      #expect(abs(result.latitude - lat2) <= 1e-11)
      #expect(abs(result.longitude - lon2) <= 1e-11)
      #expect(abs(result.finalAzimuth - azi2) <= 1e-11)
    }
  }
}

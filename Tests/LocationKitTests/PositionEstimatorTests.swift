import Geodesy
import NMEA
import TestSupport
import Testing

@testable import LocationKit

@Suite struct PositionEstimatorTests {
  @Test func theMedianBySelectionIsTheSortedOne() {
    var random = SeededRandom(seed: 42)
    for count in 1...200 {
      // Few distinct values too: ties are where a partition goes wrong.
      var values = (0..<count).map { _ in count % 3 == 0 ? Double(random.next() % 4) : random.gaussian() }
      let sorted = values.sorted()
      let expected =
        count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
      #expect(PositionEstimator.median(&values) == expected, "\(count) values")
      #expect(values.sorted() == sorted)
    }
  }
}

extension PositionEstimatorTests {
  /// A fix at `second` (fractions allowed) `east` metres from 10° N 20° E.
  static func fix(_ second: Double, east: Double = 0, accuracy: Double? = nil, speed: Double? = nil) -> Location {
    let point = Geodesic.wgs84.direct(latitude: 10, longitude: 20, azimuth: 90, distance: east)
    var location = Location(
      latitude: point.latitude, longitude: point.longitude,
      timeOfDay: TimeOfDay(microseconds: Int64((second * 1e6).rounded())))
    location.horizontalAccuracy = accuracy
    if let speed {
      location.speed = speed
      location.course = 90
      location.speedSource = .receiver
    }
    return location
  }

  /// At 10 Hz the window keeps a fix about every second, not one in all: without a stated
  /// accuracy the receiver's own spread gives the uncertainty, and the median holds
  /// against one wild fix.
  @Test(arguments: [1, 5, 10]) func everyRateKeepsAWindowOfFixes(rate: Int) throws {
    var random = SeededRandom(seed: UInt64(rate))
    var estimator = PositionEstimator()
    var last: PositionEstimator.Estimate?
    for epoch in 0..<(30 * rate) {
      let second = Double(epoch) / Double(rate)
      // One fix 80 m off, at 20 s.
      let east = epoch == 20 * rate ? 80 : random.gaussian() * 2
      last = estimator.add(Self.fix(second, east: east))
      if epoch == 20 * rate {
        let estimate = try #require(last)
        let off = Geodesic.wgs84.distance(
          latitude1: 10, longitude1: 20, latitude2: estimate.latitude, longitude2: estimate.longitude)
        #expect(off < 5, "\(rate) Hz: the wild fix moved the estimate \(off) m")
      }
    }
    let estimate = try #require(last, "\(rate) Hz: no estimate without a stated accuracy")
    #expect(estimate.samples >= 25, "\(rate) Hz: \(estimate.samples) fixes kept")
    #expect(!estimate.usesVelocities)
    // Second differences of white noise of 2 m: its spread is near 2 m.
    #expect(estimate.sigma > 1 && estimate.sigma < 4, "\(rate) Hz: sigma \(estimate.sigma)")
  }

  @Test func withVelocitiesTheWindowIsCarriedAlong() throws {
    var estimator = PositionEstimator()
    var estimate: PositionEstimator.Estimate?
    // Moving east at 2 m/s for 200 s at 5 Hz, the fixes right on the track.
    for epoch in 0..<1000 {
      let second = Double(epoch) / 5
      estimate = estimator.add(Self.fix(second, east: 2 * second, accuracy: 3, speed: 2))
    }
    let last = try #require(estimate)
    #expect(last.usesVelocities)
    #expect(last.samples >= 118 && last.samples <= 122, "\(last.samples) fixes kept")
    let off = Geodesic.wgs84.distance(
      latitude1: PositionEstimatorTests.fix(0, east: 2 * 199.8).latitude,
      longitude1: PositionEstimatorTests.fix(0, east: 2 * 199.8).longitude, latitude2: last.latitude,
      longitude2: last.longitude)
    #expect(off < 0.01, "the carried median is \(off) m off the track")
  }

  @Test func theSameEpochAgainChangesNothing() throws {
    var estimator = PositionEstimator()
    var estimate: PositionEstimator.Estimate?
    for second in 0..<20 { estimate = estimator.add(Self.fix(Double(second), east: Double(second % 3), accuracy: 3)) }
    let before = try #require(estimate)
    let again = estimator.add(Self.fix(19, east: 50, accuracy: 3))
    #expect(again == before)
    let next = estimator.add(Self.fix(20, east: 1, accuracy: 3))
    #expect(next?.samples == before.samples + 1)
  }
}

extension PositionEstimatorTests {
  /// The estimate of a receiver standing still is where it stands, to a millimetre,
  /// anywhere: at a pole, across the antimeridian, on the equator.
  @Test(arguments: [(48.137, 11.575), (89.9999, 45.0), (-90.0, 0.0), (10.0, 179.99999), (0.0, -180.0), (-33.9, 151.2)])
  func aReceiverStandingStillIsWhereItStands(place: (Double, Double)) throws {
    var estimator = PositionEstimator()
    var estimate: PositionEstimator.Estimate?
    for second in 0..<10 {
      var location = Location(
        latitude: place.0, longitude: place.1, timeOfDay: TimeOfDay(microseconds: Int64(second) * 1_000_000))
      location.horizontalAccuracy = 3
      estimate = estimator.add(location)
    }
    let last = try #require(estimate)
    let off = Geodesic.wgs84.distance(
      latitude1: place.0, longitude1: place.1, latitude2: last.latitude, longitude2: last.longitude)
    #expect(off < 0.001, "\(place): \(off) m off")
  }

  /// A car at 30 m/s for ten minutes, north and east across 18 km and a new plane every
  /// 20 km: the carried median stays on the track.
  @Test func aFastCarStaysOnTheTrack() throws {
    var estimator = PositionEstimator()
    var worst = 0.0
    for second in 0..<600 {
      let point = Geodesic.wgs84.direct(latitude: 69.6, longitude: 18.9, azimuth: 45, distance: 30 * Double(second))
      var location = Location(
        latitude: point.latitude, longitude: point.longitude,
        timeOfDay: TimeOfDay(microseconds: Int64(second) * 1_000_000))
      location.horizontalAccuracy = 3
      location.speed = 30
      location.course = point.finalAzimuth
      location.speedSource = .receiver
      guard let estimate = estimator.add(location) else { continue }
      #expect(estimate.usesVelocities)
      worst = max(
        worst,
        Geodesic.wgs84.distance(
          latitude1: point.latitude, longitude1: point.longitude, latitude2: estimate.latitude,
          longitude2: estimate.longitude))
    }
    // Courses of the geodesic sampled once a second, integrated by trapezoids: their error
    // over 120 s of a gently curving course (on a Mercator-like view) is centimetres.
    #expect(worst < 0.5, "the carried median was \(worst) m off the track")
  }
}

import Foundation
import LocationKit
import NMEA
import Testing

@Suite struct TrackOdometerTests {
  private func odometer(_ fixture: String) throws -> TrackOdometer {
    let bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(fixture)))
    var decoder = NMEADecoder()
    var odometer = TrackOdometer()
    let handle: (DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event, let location = Location(fix) { odometer.add(location) }
    }
    bytes.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    return odometer
  }

  private func truth(_ fixture: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(fixture))) as! [String: Any]
  }

  @Test func standingStillForAnHourAddsLessThanTenMetres() throws {
    let odometer = try odometer("static-hour.nmea")
    let truth = try truth("static-hour.truth.json")
    #expect(odometer.distance < 10, "jitter-proof distance \(odometer.distance) m")
    // The naive sum is what other tools report.
    #expect(abs(odometer.pathLength - (truth["noisy_path_length_m"] as! Double)) < 1)
    #expect(odometer.pathLength > 100)
  }

  @Test func walkingWithinTwoPercent() throws {
    let odometer = try odometer("walk.nmea")
    let truth = try truth("walk.truth.json")
    let expected = truth["path_length_m"] as! Double
    #expect(abs(odometer.distance - expected) / expected < 0.02, "\(odometer.distance) m for \(expected) m")
    #expect(abs(odometer.displacement - (truth["displacement_m"] as! Double)) < 10)
  }

  @Test func drivingWithinHalfAPercent() throws {
    let odometer = try odometer("drive-midnight.nmea")
    let expected = try truth("drive-midnight.truth.json")["path_length_m"] as! Double
    #expect(abs(odometer.distance - expected) / expected < 0.005, "\(odometer.distance) m for \(expected) m")
  }

  @Test func aStaticRTKReceiverStaysPut() throws {
    let odometer = try odometer("multi-gnss-burst.nmea")
    #expect(odometer.distance < 1, "\(odometer.distance) m")
  }

  @Test func slowMovementBeyondTheNoiseStillCounts() {
    // No speed reported: 2 m steps with 1 m accuracy (threshold 2.8 m) count in pairs.
    var odometer = TrackOdometer()
    for step in 0...100 {
      var location = Location(latitude: 52.5 + Double(step) * 2 / 111_250, longitude: 13.4)
      location.horizontalAccuracy = 1
      odometer.add(location)
    }
    #expect(abs(odometer.distance - 200) < 3)
    #expect(abs(odometer.pathLength - 200) < 1)
  }
}

import Foundation
import Geodesy
import LocationKit
import NMEA
import TestSupport
import Testing

/// Per-axis accuracies (gpsd's `epx`, `epy`): the satellites' geometry checked against
/// gpsd's own `xdop` and `ydop` on the real corpus, and the receiver's GST sigmas kept.
@Suite struct AxisAccuracyTests {
  /// The geometry's east and north dilutions make up the receivers' own HDOP: on the
  /// corpus's skies that list the satellites used beside the receiver's HDOP, the root
  /// of their squares is that HDOP (to its rounding, plus 2 %) in 946 of 2,297 skies, and
  /// in every sky of 30 of the 83 receivers' logs. The others weight their satellites or
  /// mix constellations' clocks, which an unweighted geometry (gpsd's too) cannot know:
  /// the split between the axes is the geometry's, the scale the receiver's. A swapped
  /// azimuth or a wrong row would agree nowhere.
  @Test func theGeometrysDilutionsAreTheReceiversHDOPOnTheCorpus() throws {
    var compared = 0
    var agreeing = 0
    var logsAgreeing = 0
    for log in TestPaths.corpusLogs {
      guard let data = FileManager.default.contents(atPath: log.path + ".chk") else { continue }
      var skies = 0
      var agree = 0
      for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
      where line.hasPrefix("{\"class\":\"SKY\"") && line.contains("\"satellites\"") {
        // (A few of gpsd's lines are not JSON: NaN values.)
        guard let sky = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let hdop = sky["hdop"] as? Double, let satellites = sky["satellites"] as? [[String: Any]]
        else { continue }
        let used = satellites.compactMap { satellite -> SatelliteInfo? in
          guard satellite["used"] as? Bool == true, let id = satellite["PRN"] as? Int else { return nil }
          return SatelliteInfo(
            constellation: nil, id: id, elevation: satellite["el"] as? Double, azimuth: satellite["az"] as? Double,
            isUsed: true)
        }
        guard let dilutions = Location.horizontalDilutions(of: used) else { continue }
        skies += 1
        let combined = (dilutions.east * dilutions.east + dilutions.north * dilutions.north).squareRoot()
        if abs(combined - hdop) <= 0.051 + 0.02 * hdop { agree += 1 }
      }
      compared += skies
      agreeing += agree
      if skies > 0, agree == skies { logsAgreeing += 1 }
    }
    print(
      "axis dilutions: \(agreeing) of \(compared) skies, every sky of \(logsAgreeing) logs, make the receiver's HDOP")
    #expect(compared >= 2000, "\(compared) skies")
    #expect(
      Double(agreeing) >= 0.4 * Double(compared) && logsAgreeing >= 30,
      "\(agreeing) of \(compared), \(logsAgreeing) logs")
  }

  @Test func theAxesShareTheAccuracyAndKeepTheReceiversSigmas() throws {
    // Satellites east and west only (and one overhead): east–west is well determined,
    // north–south poorly.
    func satellite(_ id: Int, _ elevation: Double, _ azimuth: Double) -> SatelliteInfo {
      SatelliteInfo(constellation: .gps, id: id, elevation: elevation, azimuth: azimuth, isUsed: true)
    }
    var location = Location(latitude: 52, longitude: 13)
    location.horizontalAccuracy = 10
    location.satellites = [
      satellite(1, 10, 85), satellite(2, 30, 95), satellite(3, 10, 265), satellite(4, 30, 275), satellite(5, 89, 0),
    ]
    let axes = try #require(location.axisAccuracies)
    #expect(abs((axes.east * axes.east + axes.north * axes.north).squareRoot() - 10) < 1e-9)
    #expect(axes.north > 3 * axes.east, "\(axes)")
    // Fewer than four used: no geometry, no axes.
    location.satellites = Array(location.satellites.prefix(3))
    #expect(location.axisAccuracies == nil)
    // The receiver's own GST sigmas win, as the NMEA decoder keeps them.
    let lines = [
      "$GPGGA,120000.00,5200.0000,N,01300.0000,E,1,08,1.0,40.0,M,40.0,M,,",
      "$GPGST,120000.00,2.0,3.0,1.5,30.0,1.8,2.6,4.0",
      "$GPRMC,120000.00,A,5200.0000,N,01300.0000,E,0.0,0.0,010625,,,A",
      "$GPGGA,120001.00,5200.0000,N,01300.0000,E,1,08,1.0,40.0,M,40.0,M,,",
    ]
    var decoder = NMEADecoder()
    var fixes: [Fix] = []
    let handle: (consuming DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event { fixes.append(fix) }
    }
    decoder.decode(Array(lines.map { checksummed($0) + "\r\n" }.joined().utf8), handle)
    decoder.finish(handle)
    let fix = try #require(fixes.first.flatMap { Location($0) })
    #expect(fix.accuracySource == .receiverStatistics)
    let sigmas = try #require(fix.axisAccuracies)
    #expect(sigmas.east == 2.6 && sigmas.north == 1.8, "\(sigmas)")
  }

  @Test func maidenheadLocatorsOfKnownPlaces() {
    // The published examples (ARRL, Wikipedia's "Maidenhead Locator System").
    let places: [(Double, Double, String)] = [
      (48.146_66, 11.608_33, "JN58td"), (-34.91, -56.211_66, "GF15vc"), (38.92, -77.065, "FM18lw"),
      (-41.283_33, 174.745, "RE78ir"), (41.714_775, -72.727_260, "FN31pr"), (37.413_53, -122.105_49, "CM87wj"),
    ]
    for (latitude, longitude, expected) in places {
      #expect(Maidenhead.locator(latitude: latitude, longitude: longitude, pairs: 3) == expected, "\(expected)")
    }
    #expect(Maidenhead.locator(latitude: 52.514_232, longitude: 13.342_128) == "JO62qm13")
    // The grid's edges stay in it: the north pole is the last row; 180° east is 180° west.
    #expect(Maidenhead.locator(latitude: 90, longitude: 179.99, pairs: 1) == "RR")
    #expect(Maidenhead.locator(latitude: 90, longitude: 180, pairs: 1) == "AR")
    #expect(Maidenhead.locator(latitude: -90, longitude: -180, pairs: 2) == "AA00")
    #expect(Maidenhead.locator(latitude: 91, longitude: 0) == nil)
    #expect(Maidenhead.locator(latitude: .nan, longitude: 0) == nil)
  }
}

import Foundation
import LocationKit
import NMEA
import Testing

@Suite struct TrackPointTests {
  /// A point made straight from a fix is the point of the fix's location, for every fix of
  /// every fixture (derived speeds, fix losses and fixes without a date included): the
  /// summary takes that short cut, the manager goes through the location.
  @Test(arguments: ["walk.nmea", "drive-midnight.nmea", "static-hour.nmea", "multi-gnss-burst.nmea", "corrupted.nmea"])
  func aFixsPointIsItsLocationsPoint(fixture: String) throws {
    let bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(fixture)))
    var decoder = NMEADecoder()
    var compared = 0
    var withoutPosition = 0
    let handle: (DecoderEvent) -> Void = { event in
      guard case .fix(let fix) = event else { return }
      let viaLocation = Location(fix).map(TrackPoint.init)
      #expect(TrackPoint(fix) == viaLocation, "\(fix.timeOfDay)")
      if viaLocation == nil { withoutPosition += 1 } else { compared += 1 }
    }
    bytes.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    #expect(compared > 100)
    #expect(withoutPosition == 0)
  }

  /// A location carries every value of its fix, the packed ones too, and its fields pad
  /// nothing: seventeen eight-byte fields, the DOPs, the device's name, three packed
  /// optionals and six one-byte ones (248 bytes in their old places).
  @Test func aLocationKeepsItsFixsValuesInLittleRoom() {
    var fix = Fix(timeOfDay: TimeOfDay(microseconds: 3_600_000_000))
    fix.latitude = 48.1
    fix.longitude = 11.5
    fix.mode = .threeD
    fix.time = Timestamp(microsecondsSinceEpoch: 1_773_475_200_000_000)
    fix.satellitesUsed = 0
    fix.differentialStation = 1023
    let location = Location(fix)
    #expect(location?.timestamp == fix.time && location?.satellitesUsed == 0 && location?.differentialStation == 1023)
    var copy = location
    copy?.satellitesUsed = nil
    #expect(copy != location && copy?.satellitesUsed == nil)
    #expect(MemoryLayout<Location>.size == 17 * 8 + 24 + MemoryLayout<String?>.size + 3 * 8 + 6)
  }

  /// A cycle without a position has no point, as it has no location.
  @Test func aFixWithoutAPositionHasNoPoint() {
    let text =
      "$GPGGA,120000.00,,,,,0,00,,,M,,M,,\r\n$GPGGA,120001.00,5230.0000,N,01320.0000,E,1,08,0.9,35.0,M,40.0,M,,\r\n"
    var decoder = NMEADecoder()
    var fixes: [Fix] = []
    let handle: (DecoderEvent) -> Void = { event in if case .fix(let fix) = event { fixes.append(fix) } }
    Array(text.utf8).withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    #expect(fixes.count == 2)
    #expect(TrackPoint(fixes[0]) == nil && Location(fixes[0]) == nil)
    #expect(TrackPoint(fixes[1]) == Location(fixes[1]).map(TrackPoint.init) && TrackPoint(fixes[1]) != nil)
  }

  /// The odometer fed points gives exactly what it gives fed the same fixes' locations.
  @Test func theOdometerCountsPointsAsItCountsLocations() throws {
    let bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("walk.nmea")))
    var decoder = NMEADecoder()
    var byLocation = TrackOdometer()
    var byPoint = TrackOdometer()
    let handle: (DecoderEvent) -> Void = { event in
      guard case .fix(let fix) = event, let location = Location(fix), let point = TrackPoint(fix) else { return }
      byLocation.add(location)
      byPoint.add(point)
    }
    bytes.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    #expect(byLocation.distance == byPoint.distance && byLocation.pathLength == byPoint.pathLength)
    #expect(byLocation.displacement == byPoint.displacement && byLocation.movingTime == byPoint.movingTime)
    #expect(byPoint.distance > 100)
  }
}

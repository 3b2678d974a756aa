import Foundation
import Testing

@testable import Geodesy

/// WMM2025 against NOAA's published test values: components to the table's 0.1 nT
/// rounding (within 0.15 nT), angles to its 0.01° (within 0.006°).
@Suite struct MagneticModelTests {
  struct TestValue {
    var year, heightKilometres, latitude, longitude, north, east, down, declination, inclination: Double
  }

  static func testValues() throws -> [TestValue] {
    let url = try #require(
      Bundle.module.url(forResource: "WMM2025-test-values", withExtension: "tsv", subdirectory: "Resources"))
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst(2).map { line in
      let fields = line.split(separator: "\t").map { Double($0) ?? .nan }
      return TestValue(
        year: fields[0], heightKilometres: fields[1], latitude: fields[2], longitude: fields[3], north: fields[4],
        east: fields[5], down: fields[6], declination: fields[10], inclination: fields[9])
    }
  }

  @Test func matchesNOAAsTestValues() throws {
    let values = try Self.testValues()
    #expect(values.count == 12)
    for value in values {
      let field = MagneticModel.wmm2025.field(
        latitude: value.latitude, longitude: value.longitude, height: value.heightKilometres * 1000,
        year: value.year)
      let place = "\(value.year) \(value.heightKilometres) km \(value.latitude), \(value.longitude)"
      #expect(abs(field.north - value.north) <= 0.15, "\(place): X \(field.north)")
      #expect(abs(field.east - value.east) <= 0.15, "\(place): Y \(field.east)")
      #expect(abs(field.down - value.down) <= 0.15, "\(place): Z \(field.down)")
      #expect(abs(field.declination - value.declination) <= 0.006, "\(place): D \(field.declination)")
      #expect(abs(field.inclination - value.inclination) <= 0.006, "\(place): I \(field.inclination)")
    }
  }

  @Test func validityYears() {
    #expect(MagneticModel.wmm2025.isValid(year: 2026.9))
    #expect(!MagneticModel.wmm2025.isValid(year: 2031))
    // Berlin, late 2026: a few degrees east.
    let berlin = MagneticModel.wmm2025.declination(latitude: 52.5, longitude: 13.4, year: 2026.9)
    #expect(berlin > 4 && berlin < 7)
  }

  /// The WMM report's zones and years: going north along 140° E towards the north
  /// magnetic pole (85.8° N, 139° E in 2025), the horizontal field weakens from reliable
  /// through caution to blackout, in that order; outside 2025–2030 every place is outside
  /// the model's validity (but the blackout zone is still said first).
  @Test func reliabilityFollowsTheZonesAndTheYears() {
    let model = MagneticModel.wmm2025
    var seen: [MagneticModel.Reliability] = []
    for tenth in stride(from: 600, through: 860, by: 5) {
      let reliability = model.reliability(latitude: Double(tenth) / 10, longitude: 140, year: 2026)
      if seen.last != reliability { seen.append(reliability) }
    }
    #expect(seen == [.reliable, .caution, .blackout], "\(seen)")
    let berlin = model.reliability(latitude: 52.5, longitude: 13.4, year: 2026)
    #expect(berlin == .reliable)
    #expect(model.reliability(latitude: 52.5, longitude: 13.4, year: 2024.9) == .outsideValidity)
    #expect(model.reliability(latitude: 52.5, longitude: 13.4, year: 2030.1) == .outsideValidity)
    #expect(model.reliability(latitude: 86, longitude: 140, year: 2031) == .blackout)
    let field = model.field(latitude: 86, longitude: 140, year: 2026)
    #expect(field.horizontal < MagneticModel.blackoutIntensity)
  }

}

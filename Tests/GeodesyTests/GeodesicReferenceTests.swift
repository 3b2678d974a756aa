import Foundation
import Geodesy
import TestSupport
import Testing

/// Agreement with GeographicLib on the cases in geodesic-reference.tsv.
///
/// GeographicLib implements the same algorithm and is itself accurate to
/// about 15 nm, so the 1 µm requirement checked here leaves a wide margin;
/// in practice the distances agree to within an ulp or two.
@Suite("WGS84 reference geodesics")
struct GeodesicReferenceTests {
  let geodesic = Geodesic.wgs84

  @Test func referenceFileCoversAllCategories() throws {
    let data = try ReferenceData.load()
    #expect(data.inverse.count >= 1500)
    #expect(data.direct.count >= 300)
    let categories = Set(data.inverse.map(\.category))
    for category in [
      "random", "short", "pole", "equator", "meridian", "nearly-antipodal",
      "antipodal", "coincident",
    ] {
      #expect(categories.contains(category), "no \(category) cases")
    }
  }

  @Test func inverseDistanceMatches() throws {
    for reference in try ReferenceData.load().inverse {
      let result = geodesic.inverse(
        latitude1: reference.latitude1, longitude1: reference.longitude1,
        latitude2: reference.latitude2, longitude2: reference.longitude2)
      let error = abs(result.distance - reference.distance)
      #expect(error <= 1e-6, "distance off by \(error) m: \(reference)")
      // Relative 1e-14 is a few ulps; the floor covers millimetre lines,
      // whose endpoints are themselves only resolved to about 1 nm.
      #expect(
        error <= max(1e-14 * reference.distance, 1e-9),
        "distance off by \(error) m: \(reference)")
      if reference.isCoincident {
        #expect(result.distance == 0, "\(reference)")
      }
    }
  }

  @Test func inverseAzimuthsMatch() throws {
    for reference in try ReferenceData.load().inverse
    where !reference.isCoincident {
      let result = geodesic.inverse(
        latitude1: reference.latitude1, longitude1: reference.longitude1,
        latitude2: reference.latitude2, longitude2: reference.longitude2)
      let tolerance = azimuthTolerance(distance: reference.distance)
      let error1 = angularDifference(
        result.initialAzimuth, reference.initialAzimuth)
      let error2 = angularDifference(result.finalAzimuth, reference.finalAzimuth)
      #expect(error1 <= tolerance, "azi1 off by \(error1)°: \(reference)")
      #expect(error2 <= tolerance, "azi2 off by \(error2)°: \(reference)")
    }
  }

  @Test func distanceAgreesWithInverse() throws {
    for reference in try ReferenceData.load().inverse {
      let inverse = geodesic.inverse(
        latitude1: reference.latitude1, longitude1: reference.longitude1,
        latitude2: reference.latitude2, longitude2: reference.longitude2)
      let distance = geodesic.distance(
        latitude1: reference.latitude1, longitude1: reference.longitude1,
        latitude2: reference.latitude2, longitude2: reference.longitude2)
      // Short lines come from their chord (see `shortLinesAgreeWithTheFullSolution`).
      let isShort =
        abs(reference.latitude2 - reference.latitude1) <= 0.2
        && abs(remainder(reference.longitude2 - reference.longitude1, 360)) <= 0.2
      if isShort {
        #expect(abs(distance - inverse.distance) <= 1e-7, "\(reference)")
        #expect(abs(distance - reference.distance) <= max(1e-14 * reference.distance, 1e-7), "\(reference)")
      } else {
        #expect(distance == inverse.distance, "\(reference)")
      }
    }
  }

  /// A random step of a track for the short-line tests, 10^e degrees across for e drawn
  /// from `lowest` to `lowest + span`, at every latitude: every 50th step leaves the North
  /// Pole's cap and the next the South Pole, every 7th starts just west of the
  /// antimeridian, and every 3rd runs along a meridian.
  static func randomStep(_ index: Int, _ random: inout SeededRandom, exponents lowest: Double, _ span: Double) -> (
    Double, Double, Double, Double
  ) {
    let latitude1 =
      index % 50 == 0 ? 90 - 0.05 * random.uniform() : index % 50 == 1 ? -90 : 180 * random.uniform() - 90
    let longitude1 = index % 7 == 0 ? 179.99 + 0.01 * random.uniform() : 360 * random.uniform() - 180
    let scale = pow(10, lowest + span * random.uniform())
    let latitude2 = min(90, max(-90, latitude1 + scale * (2 * random.uniform() - 1)))
    let longitude2 = longitude1 + (index % 3 == 0 ? 0 : scale * (2 * random.uniform() - 1))
    return (latitude1, longitude1, latitude2, longitude2)
  }

  @Test func shortLinesAgreeWithTheFullSolution() {
    // Steps of a track, from 1 nm to the 0.1° limit, at every latitude (poles and the
    // antimeridian included), measured from their chord against Karney's series; then
    // lines of 0.02° to the 0.2° limit (a displacement across a town), whose error grows
    // as the fifth power of their length.
    var random = SeededRandom(seed: 2026)
    func worstError(_ lines: Int, exponents lowest: Double, _ span: Double) -> (absolute: Double, relative: Double) {
      var worst = 0.0
      var worstRelative = 0.0
      for index in 0..<lines {
        let (latitude1, longitude1, latitude2, longitude2) = Self.randomStep(index, &random, exponents: lowest, span)
        let full = geodesic.inverse(
          latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2
        ).distance
        let short = geodesic.distance(
          latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
        worst = max(worst, abs(short - full))
        if full > 0 { worstRelative = max(worstRelative, abs(short - full) / full) }
      }
      return (worst, worstRelative)
    }
    let steps = worstError(200_000, exponents: -9, 8)
    #expect(steps.absolute <= 5e-9, "worst \(steps.absolute) m")
    let towns = worstError(100_000, exponents: log10(0.02), 1)
    #expect(towns.absolute <= 1e-7, "worst \(towns.absolute) m")
    print("short lines: worst error \(steps.absolute) m to 0.1°, \(towns.absolute) m to 0.2°")
  }

  @Test func shortLinesFinalAzimuthAgreesWithTheFullSolution() throws {
    // What a fix without Doppler takes its speed and course from: against GeographicLib's
    // short lines, and against Karney's series on steps of 1 m to the 0.05° limit at every
    // latitude. The distance is `distance`'s, exactly.
    func turn(_ a: Double, _ b: Double) -> Double { abs(remainder(a - b, 360)) }
    var checked = 0
    for reference in try ReferenceData.load().inverse where reference.distance >= 1 {
      guard
        let short = geodesic.shortDistanceAndFinalAzimuth(
          reference.latitude1, reference.longitude1, reference.latitude2, reference.longitude2)
      else { continue }
      checked += 1
      #expect(turn(short.finalAzimuth, reference.finalAzimuth) <= 1e-6, "\(reference): \(short.finalAzimuth)")
    }
    #expect(checked >= 20)
    var random = SeededRandom(seed: 2027)
    var worst = 0.0
    var lines = 0
    for index in 0..<30_000 {
      let (latitude1, longitude1, latitude2, longitude2) = Self.randomStep(index, &random, exponents: -5, 3.7)
      let full = geodesic.inverse(
        latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
      guard full.distance >= 1,
        let short = geodesic.shortDistanceAndFinalAzimuth(latitude1, longitude1, latitude2, longitude2)
      else { continue }
      lines += 1
      #expect(
        short.distance
          == geodesic.distance(
            latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
      )
      worst = max(worst, turn(short.finalAzimuth, full.finalAzimuth))
    }
    #expect(lines >= 15_000)
    #expect(worst <= 1e-6, "worst \(worst)°")
    print("short lines: worst final azimuth \(worst)° over \(lines) lines of 1 m or more")
  }

  @Test func directMatches() throws {
    for reference in try ReferenceData.load().direct {
      let result = geodesic.direct(
        latitude: reference.latitude, longitude: reference.longitude,
        azimuth: reference.azimuth, distance: reference.distance)
      let miss = geodesic.distance(
        latitude1: result.latitude, longitude1: result.longitude,
        latitude2: reference.latitude2, longitude2: reference.longitude2)
      #expect(miss <= 1e-6, "end point off by \(miss) m: \(reference)")
      #expect(miss <= 1e-8, "end point off by \(miss) m: \(reference)")
      let error = angularDifference(result.finalAzimuth, reference.finalAzimuth)
      #expect(error <= 1e-9, "azi2 off by \(error)°: \(reference)")
    }
  }

  @Test func swappingPointsReversesTheGeodesic() throws {
    for reference in try ReferenceData.load().inverse {
      let forward = geodesic.inverse(
        latitude1: reference.latitude1, longitude1: reference.longitude1,
        latitude2: reference.latitude2, longitude2: reference.longitude2)
      let backward = geodesic.inverse(
        latitude1: reference.latitude2, longitude1: reference.longitude2,
        latitude2: reference.latitude1, longitude2: reference.longitude1)
      // The solver brings both orders to the same canonical form.
      #expect(backward.distance == forward.distance, "\(reference)")
      guard !reference.isCoincident && !reference.mayHaveSeveralShortestPaths
      else {
        continue
      }
      // Travelling backwards, each end's azimuth is reversed.
      let error1 = angularDifference(
        backward.initialAzimuth, forward.finalAzimuth + 180)
      let error2 = angularDifference(
        backward.finalAzimuth, forward.initialAzimuth + 180)
      #expect(error1 <= 1e-12, "\(reference)")
      #expect(error2 <= 1e-12, "\(reference)")
    }
  }

  @Test func directRetracesInverse() throws {
    for reference in try ReferenceData.load().inverse {
      let inverse = geodesic.inverse(
        latitude1: reference.latitude1, longitude1: reference.longitude1,
        latitude2: reference.latitude2, longitude2: reference.longitude2)
      let end = geodesic.direct(
        latitude: reference.latitude1, longitude: reference.longitude1,
        azimuth: inverse.initialAzimuth, distance: inverse.distance)
      let miss = geodesic.distance(
        latitude1: end.latitude, longitude1: end.longitude,
        latitude2: reference.latitude2, longitude2: reference.longitude2)
      #expect(miss <= 1e-6, "missed by \(miss) m: \(reference)")
    }
  }
}

import Geodesy
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
      #expect(distance == inverse.distance, "\(reference)")
    }
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

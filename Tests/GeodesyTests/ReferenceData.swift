import Foundation

/// One inverse problem solved by GeographicLib.
struct InverseReference: CustomStringConvertible {
  var line: Int
  var category: String
  var latitude1, longitude1, latitude2, longitude2: Double
  var distance, initialAzimuth, finalAzimuth: Double

  /// Points that coincide have no defined azimuth.
  var isCoincident: Bool { distance == 0 }

  /// Points mirrored across the equator (φ₂ = −φ₁, which includes exact
  /// antipodes and pole to pole) can be joined by two or more equally short
  /// geodesics, mirror images of each other; then only the distance is
  /// unique, and solving from the other end may pick a different geodesic.
  var mayHaveSeveralShortestPaths: Bool { latitude2 == -latitude1 }

  var description: String {
    "reference line \(line) (\(category)): (\(latitude1), \(longitude1)) → "
      + "(\(latitude2), \(longitude2)), s12 = \(distance), "
      + "azi1 = \(initialAzimuth), azi2 = \(finalAzimuth)"
  }
}

/// One direct problem solved by GeographicLib.
struct DirectReference: CustomStringConvertible {
  var line: Int
  var category: String
  var latitude, longitude, azimuth, distance: Double
  var latitude2, longitude2, finalAzimuth: Double

  var description: String {
    "reference line \(line) (\(category)): (\(latitude), \(longitude)) "
      + "azi1 = \(azimuth), s12 = \(distance) → (\(latitude2), \(longitude2)), "
      + "azi2 = \(finalAzimuth)"
  }
}

/// The cases in Resources/geodesic-reference.tsv, written by
/// scripts/geodesic-reference.py (see there for the format).
struct ReferenceData {
  var inverse: [InverseReference] = []
  var direct: [DirectReference] = []

  struct FormatError: Error, CustomStringConvertible {
    var description: String
  }

  static func load() throws -> ReferenceData {
    guard
      let url = Bundle.module.url(
        forResource: "geodesic-reference", withExtension: "tsv",
        subdirectory: "Resources")
    else {
      throw FormatError(description: "geodesic-reference.tsv is not bundled")
    }
    return try parse(String(contentsOf: url, encoding: .utf8))
  }

  static func parse(_ text: String) throws -> ReferenceData {
    var data = ReferenceData()
    for (index, line) in text.split(separator: "\n").enumerated() {
      if line.hasPrefix("#") || line.isEmpty { continue }
      let fields = line.split(separator: "\t")
      let numbers = fields.dropFirst(2).compactMap { Double($0) }
      guard fields.count == 9, numbers.count == 7 else {
        throw FormatError(description: "malformed line \(index + 1): \(line)")
      }
      let category = String(fields[1])
      switch fields[0] {
      case "I":
        data.inverse.append(
          InverseReference(
            line: index + 1, category: category,
            latitude1: numbers[0], longitude1: numbers[1],
            latitude2: numbers[2], longitude2: numbers[3],
            distance: numbers[4],
            initialAzimuth: numbers[5], finalAzimuth: numbers[6]))
      case "D":
        data.direct.append(
          DirectReference(
            line: index + 1, category: category,
            latitude: numbers[0], longitude: numbers[1],
            azimuth: numbers[2], distance: numbers[3],
            latitude2: numbers[4], longitude2: numbers[5],
            finalAzimuth: numbers[6]))
      default:
        throw FormatError(description: "unknown kind on line \(index + 1)")
      }
    }
    return data
  }
}

/// The magnitude of the difference between two directions in degrees,
/// ignoring whole turns (so 180 and −180 agree).
func angularDifference(_ x: Double, _ y: Double) -> Double {
  abs((x - y).remainder(dividingBy: 360))
}

/// How far an azimuth may be from the reference along a line `distance`
/// metres long.
///
/// Coordinates in doubles are only resolved to about 1 nm on the ground, so
/// the azimuth of a short line is only determined to roughly 1 nm/distance
/// radians: for a 5 cm line that is 1e-6°, and GeographicLib itself is off
/// from a high-precision evaluation by that much. The requirement is
/// therefore 1e-9°, or a sideways displacement of the far end by less than
/// 10 nm, whichever is looser (it is looser only below about 600 m).
func azimuthTolerance(distance: Double) -> Double {
  max(1e-9, 1e-8 / distance * 180 / .pi)
}

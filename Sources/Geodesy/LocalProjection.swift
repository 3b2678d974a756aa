#if canImport(Glibc)
  import Glibc
#endif

/// A local equirectangular projection: metres east and north of a centre, with the
/// ellipsoid's radii of curvature at the centre's latitude as the lengths of a degree.
///
/// Exact in scale at the centre and along its parallel and meridian; elsewhere the error
/// grows with the square of the distance, about 0.1 % at 50 km. For maps of a track (an
/// SVG export, the terminal's map), not for measuring: distances come from ``Geodesic``.
public struct LocalProjection: Sendable {
  /// The centre's latitude, degrees north.
  public let latitude: Double
  /// The centre's longitude, degrees east.
  public let longitude: Double
  /// Metres per degree of longitude at the centre (east-west).
  public let eastPerDegree: Double
  /// Metres per degree of latitude at the centre (north-south).
  public let northPerDegree: Double

  /// A projection about (`latitude`, `longitude`) on `ellipsoid` (WGS84 by default).
  public init(latitude: Double, longitude: Double, on ellipsoid: Ellipsoid = .wgs84) {
    self.latitude = latitude
    self.longitude = longitude
    let a = ellipsoid.semiMajorAxis
    let e2 = ellipsoid.flattening * (2 - ellipsoid.flattening)
    let sine = sin(latitude * .pi / 180)
    let w = (1 - e2 * sine * sine).squareRoot()
    let prime = a / w
    let meridional = a * (1 - e2) / (w * w * w)
    eastPerDegree = prime * cos(latitude * .pi / 180) * .pi / 180
    northPerDegree = meridional * .pi / 180
  }

  /// Metres east and north of the centre (longitudes wrapped across the antimeridian).
  public func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
    (Self.wrap(longitude - self.longitude) * eastPerDegree, (latitude - self.latitude) * northPerDegree)
  }

  /// A longitude difference in [-180, 180).
  public static func wrap(_ degrees: Double) -> Double {
    var value = degrees.truncatingRemainder(dividingBy: 360)
    if value >= 180 { value -= 360 }
    if value < -180 { value += 360 }
    return value
  }
}

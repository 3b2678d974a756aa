#if canImport(Glibc)
  import Glibc
#endif

/// An azimuthal equidistant projection on the WGS84 ellipsoid: a place is drawn at its
/// geodesic distance from the centre, in the direction of the geodesic's azimuth there.
///
/// Distances and directions from the centre are exact; elsewhere the scale errs by about
/// (d/R)²/6 across the direction to it at a distance d (0.004 % at 100 km). Unlike
/// ``LocalProjection``, it has no seam: a track across the antimeridian or over a pole
/// stays one line, since a longitude's jump at either is no jump in distance or azimuth.
/// For maps (the SVG export), not for measuring.
public struct AzimuthalProjection: Sendable {
  /// The centre's latitude, degrees north.
  public let latitude: Double
  /// The centre's longitude, degrees east.
  public let longitude: Double

  /// A projection about (`latitude`, `longitude`).
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// A projection about the middle of `points` (latitude, longitude in degrees): the
  /// direction of the mean of their unit vectors, which has no seam at the antimeridian
  /// and finds the middle of a track round a pole. `nil` without points, or for points
  /// whose mean is the Earth's centre (spread evenly round the globe).
  public init?(centreOf points: some Sequence<(latitude: Double, longitude: Double)>) {
    var (x, y, z) = (0.0, 0.0, 0.0)
    for point in points {
      let phi = point.latitude * .pi / 180
      let lambda = point.longitude * .pi / 180
      x += cos(phi) * cos(lambda)
      y += cos(phi) * sin(lambda)
      z += sin(phi)
    }
    let horizontal = (x * x + y * y).squareRoot()
    guard horizontal + abs(z) > 1e-12 else { return nil }
    self.init(latitude: atan2(z, horizontal) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
  }

  /// Metres east and north of the centre, along the centre's own east and north.
  public func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
    let line = Geodesic.wgs84.inverse(
      latitude1: self.latitude, longitude1: self.longitude, latitude2: latitude, longitude2: longitude)
    let azimuth = line.initialAzimuth * .pi / 180
    return (line.distance * sin(azimuth), line.distance * cos(azimuth))
  }
}

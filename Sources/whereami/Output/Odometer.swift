import Geodesy
import NMEA

/// The distance travelled along a track: the sum of WGS84 geodesic distances between
/// successive fixes that have a position.
struct Odometer {
  private(set) var distance = 0.0
  private var last: (latitude: Double, longitude: Double)?

  /// Adds a fix; returns the distance travelled so far.
  mutating func add(_ fix: Fix) -> Double {
    guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else {
      return distance
    }
    if let last {
      distance += Geodesic.wgs84.distance(
        latitude1: last.latitude, longitude1: last.longitude, latitude2: latitude, longitude2: longitude)
    }
    last = (latitude, longitude)
    return distance
  }
}

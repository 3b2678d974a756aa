import Geodesy

#if canImport(Glibc)
  import Glibc
#endif

/// A place a location manager can watch the receiver enter and leave, as Core Location's
/// `CLCircularRegion` and its polygon cousins: a circle or polygons on the WGS84
/// ellipsoid, with an identifier and whether entering and leaving are to be told.
///
/// Distances are geodesic: a circle is every point within ``Shape/circle(latitude:longitude:radius:)``'s
/// radius of its centre along the ellipsoid, and a polygon's edges are geodesics between
/// its vertices (the shortest paths, which GeoJSON's straight lines in degrees approach for
/// the small regions that regions are). Polygons may have holes, cross the antimeridian
/// and surround a pole; each ring must enclose less than a hemisphere.
public struct Region: Sendable, Equatable, CustomStringConvertible {
  /// What the region covers.
  public enum Shape: Sendable, Equatable {
    /// Within `radius` metres of the centre (degrees north and east).
    case circle(latitude: Double, longitude: Double, radius: Double)
    /// Inside any of the polygons (a GeoJSON Polygon is one, a MultiPolygon several).
    case polygons([RegionPolygon])
  }

  /// The name events carry; unique among a manager's monitored regions.
  public var identifier: String
  /// What the region covers.
  public let shape: Shape
  /// Whether entering is told (``LocationManagerDelegate/locationManager(_:didEnterRegion:event:)``);
  /// the state is determined either way.
  public var notifyOnEntry = true
  /// Whether leaving is told (``LocationManagerDelegate/locationManager(_:didExitRegion:event:)``).
  public var notifyOnExit = true
  /// The radius of the circle, or of the circle of the same area as the polygons: a
  /// position whose uncertainty is larger than this cannot say whether it is inside.
  public let resolutionRadius: Double

  /// A circle of `radius` metres about (`latitude`, `longitude`). Throws
  /// ``LocationError/Code/invalidSource`` for a radius that is not positive and finite or
  /// a centre that is not on the Earth.
  public init(identifier: String, latitude: Double, longitude: Double, radius: Double) throws(LocationError) {
    try Self.check(latitude: latitude, longitude: longitude, in: identifier)
    guard radius.isFinite, radius > 0 else {
      throw LocationError(.invalidSource, "region \(identifier): the radius \(radius) is not a positive distance")
    }
    self.identifier = identifier
    shape = .circle(latitude: latitude, longitude: longitude, radius: radius)
    resolutionRadius = radius
  }

  /// The union of `polygons`. Throws ``LocationError/Code/invalidSource`` without a
  /// polygon.
  public init(identifier: String, polygons: [RegionPolygon]) throws(LocationError) {
    guard !polygons.isEmpty else { throw LocationError(.invalidSource, "region \(identifier): no polygon") }
    self.identifier = identifier
    shape = .polygons(polygons)
    resolutionRadius = (polygons.reduce(0) { $0 + $1.area } / .pi).squareRoot()
  }

  /// `identifier`, as events print it.
  public var description: String { identifier }

  /// The distance in metres from (`latitude`, `longitude`) to the region's boundary:
  /// negative inside, positive outside, 0 on the boundary.
  public func signedDistance(latitude: Double, longitude: Double) -> Double {
    switch shape {
    case .circle(let centreLatitude, let centreLongitude, let radius):
      return Geodesic.wgs84.distance(
        latitude1: centreLatitude, longitude1: centreLongitude, latitude2: latitude, longitude2: longitude)
        - radius
    case .polygons(let polygons):
      var inside = false
      var nearestInside = Double.infinity
      var nearestOutside = Double.infinity
      for polygon in polygons {
        let distance = polygon.signedDistance(latitude: latitude, longitude: longitude)
        if distance <= 0 {
          inside = true
          nearestInside = min(nearestInside, -distance)
        } else {
          nearestOutside = min(nearestOutside, distance)
        }
      }
      return inside ? -nearestInside : nearestOutside
    }
  }

  /// Whether (`latitude`, `longitude`) is inside or on the boundary.
  public func contains(latitude: Double, longitude: Double) -> Bool {
    signedDistance(latitude: latitude, longitude: longitude) <= 0
  }

  static func check(latitude: Double, longitude: Double, in identifier: String) throws(LocationError) {
    guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else {
      throw LocationError(
        .invalidSource, "region \(identifier): (\(latitude), \(longitude)) is not a latitude and longitude")
    }
  }
}

/// A polygon on the WGS84 ellipsoid: an outer ring and any holes, each a ring of vertices
/// (latitude, longitude in degrees) joined by geodesics, closed or not.
public struct RegionPolygon: Sendable, Equatable {
  /// The outer ring, then the holes; each without its closing vertex.
  public let rings: [[Vertex]]
  /// The area in square metres inside the outer ring and outside the holes.
  public let area: Double
  /// Each ring's cap: the middle of its vertices and the farthest vertex from it, metres.
  /// A cap smaller than a hemisphere holds every geodesic between its points, so a point
  /// beyond it is outside the ring; this keeps the winding test, which cannot tell a point
  /// from its antipode, to the ring's own side of the Earth.
  private let caps: [Cap]

  private struct Cap: Sendable, Equatable {
    var latitude: Double
    var longitude: Double
    var reach: Double
  }

  /// A vertex of a ring, degrees.
  public struct Vertex: Sendable, Equatable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double

    /// A vertex at (`latitude`, `longitude`).
    public init(latitude: Double, longitude: Double) {
      self.latitude = latitude
      self.longitude = longitude
    }
  }

  /// A polygon from its outer ring and holes. A ring may repeat its first vertex at its
  /// end (GeoJSON does). Throws ``LocationError/Code/invalidSource`` for a ring of fewer
  /// than three distinct vertices, or a vertex not on the Earth; `name` is the region's,
  /// for the message.
  public init(outer: [Vertex], holes: [[Vertex]] = [], name: String = "polygon") throws(LocationError) {
    var rings: [[Vertex]] = []
    for (index, ring) in ([outer] + holes).enumerated() {
      let what = index == 0 ? "its outer ring" : "hole \(index)"
      var vertices = ring
      if vertices.count > 1, vertices.first == vertices.last { vertices.removeLast() }
      for vertex in vertices {
        try Region.check(latitude: vertex.latitude, longitude: vertex.longitude, in: name)
      }
      var distinct: [Vertex] = []
      for vertex in vertices where distinct.last != vertex { distinct.append(vertex) }
      if distinct.count > 1, distinct.first == distinct.last { distinct.removeLast() }
      guard distinct.count >= 3 else {
        throw LocationError(.invalidSource, "region \(name): \(what) has fewer than 3 distinct vertices")
      }
      rings.append(distinct)
    }
    self.rings = rings
    area = max(0, rings.enumerated().reduce(0) { $0 + ($1.offset == 0 ? 1 : -1) * Self.ringArea($1.element) })
    var caps: [Cap] = []
    for (index, ring) in rings.enumerated() {
      let what = index == 0 ? "its outer ring" : "hole \(index)"
      guard let middle = AzimuthalProjection(centreOf: ring.map { ($0.latitude, $0.longitude) }) else {
        throw LocationError(.invalidSource, "region \(name): \(what) spans the whole Earth")
      }
      let reach =
        ring.map {
          Geodesic.wgs84.distance(
            latitude1: middle.latitude, longitude1: middle.longitude, latitude2: $0.latitude, longitude2: $0.longitude)
        }.max() ?? 0
      // A quarter of the meridian: a ring must enclose less than a hemisphere.
      guard reach < 10_000_000 else {
        throw LocationError(
          .invalidSource,
          "region \(name): \(what) reaches \(Int(reach / 1000)) km from its middle (a hemisphere or more)")
      }
      caps.append(Cap(latitude: middle.latitude, longitude: middle.longitude, reach: reach))
    }
    self.caps = caps
  }

  /// The area a ring encloses, square metres, from an azimuthal equidistant projection
  /// about its middle: within 0.01 % for rings under 100 km across.
  private static func ringArea(_ ring: [Vertex]) -> Double {
    guard let projection = AzimuthalProjection(centreOf: ring.map { ($0.latitude, $0.longitude) }) else { return 0 }
    let points = ring.map { projection.project(latitude: $0.latitude, longitude: $0.longitude) }
    var twice = 0.0
    for index in points.indices {
      let next = points[(index + 1) % points.count]
      twice += points[index].east * next.north - next.east * points[index].north
    }
    return abs(twice) / 2
  }

  /// The distance in metres to the nearest edge: negative inside (inside the outer ring
  /// and in no hole), positive outside.
  public func signedDistance(latitude: Double, longitude: Double) -> Double {
    var inside = false
    var nearest = Double.infinity
    for (index, ring) in rings.enumerated() {
      var (winding, distance) = Self.look(from: (latitude, longitude), at: ring)
      let cap = caps[index]
      if winding,
        Geodesic.wgs84.distance(
          latitude1: cap.latitude, longitude1: cap.longitude, latitude2: latitude, longitude2: longitude) > cap.reach
      {
        winding = false
      }
      nearest = min(nearest, distance)
      if index == 0 {
        inside = winding
      } else if winding {
        inside = false
      }
    }
    // On an edge counts as inside, whichever ring's.
    return inside || nearest == 0 ? -nearest : nearest
  }

  /// Whether the ring winds round `point`, and the geodesic distance from `point` to its
  /// nearest edge. Each vertex is seen from the point at its exact distance and azimuth
  /// (the inverse problem); a geodesic edge that does not pass through the point sweeps
  /// less than 180° of azimuth, so the wrapped differences add up to ±360° round a point
  /// inside and 0 outside, across the antimeridian and round a pole alike.
  private static func look(from point: (Double, Double), at ring: [Vertex]) -> (winding: Bool, distance: Double) {
    let geodesic = Geodesic.wgs84
    var polar: [(distance: Double, azimuth: Double)] = []
    polar.reserveCapacity(ring.count)
    for vertex in ring {
      let line = geodesic.inverse(
        latitude1: point.0, longitude1: point.1, latitude2: vertex.latitude, longitude2: vertex.longitude)
      if line.distance == 0 { return (true, 0) }
      polar.append((line.distance, line.initialAzimuth))
    }
    var swept = 0.0
    // The edges by their distance in the plane of the polar coordinates (exact from the
    // point; the edge between is nearly straight there), refined on the ellipsoid below.
    var planar: [(distance: Double, edge: Int, fraction: Double)] = []
    planar.reserveCapacity(ring.count)
    for index in polar.indices {
      let a = polar[index]
      let b = polar[(index + 1) % polar.count]
      var turn = (b.azimuth - a.azimuth).truncatingRemainder(dividingBy: 360)
      if turn > 180 { turn -= 360 } else if turn <= -180 { turn += 360 }
      swept += turn
      let ax = a.distance * sin(a.azimuth * .pi / 180)
      let ay = a.distance * cos(a.azimuth * .pi / 180)
      let bx = b.distance * sin(b.azimuth * .pi / 180)
      let by = b.distance * cos(b.azimuth * .pi / 180)
      let (dx, dy) = (bx - ax, by - ay)
      let length2 = dx * dx + dy * dy
      let fraction = length2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length2)) : 0
      let (px, py) = (ax + fraction * dx, ay + fraction * dy)
      planar.append(((px * px + py * py).squareRoot(), index, fraction))
    }
    let best = planar.map(\.distance).min() ?? .infinity
    var nearest = Double.infinity
    // The plane errs by far less than a per cent of the distance for edges of regions: any
    // edge within that of the nearest is solved on the ellipsoid.
    for candidate in planar where candidate.distance <= best * 1.01 + 1 {
      let a = ring[candidate.edge]
      let b = ring[(candidate.edge + 1) % ring.count]
      nearest = min(nearest, edgeDistance(from: point, a, b, startingAt: candidate.fraction))
    }
    return (abs(swept) > 180, nearest)
  }

  /// The geodesic distance from `point` to the geodesic from `a` to `b`: Newton's method on
  /// the distance along the edge, where the line to the point meets the edge at a right
  /// angle (Karney's intercept), clamped to the edge's ends.
  private static func edgeDistance(from point: (Double, Double), _ a: Vertex, _ b: Vertex, startingAt fraction: Double)
    -> Double
  {
    let geodesic = Geodesic.wgs84
    let edge = geodesic.inverse(
      latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    var along = fraction * edge.distance
    var distance = Double.infinity
    for _ in 0..<8 {
      let foot = geodesic.direct(
        latitude: a.latitude, longitude: a.longitude, azimuth: edge.initialAzimuth, distance: along)
      let line = geodesic.inverse(
        latitude1: foot.latitude, longitude1: foot.longitude, latitude2: point.0, longitude2: point.1)
      distance = line.distance
      guard distance > 0 else { return 0 }
      let step = distance * cos((line.initialAzimuth - foot.finalAzimuth) * .pi / 180)
      let next = min(edge.distance, max(0, along + step))
      if abs(next - along) < 1e-4 { break }
      along = next
    }
    return distance
  }
}

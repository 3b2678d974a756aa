#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

extension Geodesic {
  /// The largest latitude or longitude difference, degrees, that
  /// ``shortDistanceAndFinalAzimuth(_:_:_:_:)`` takes (about 5.5 km along a meridian).
  static let shortLineDegrees = 0.05

  /// The largest latitude or longitude difference, degrees, that
  /// ``shortDistance(_:_:_:_:)`` takes (about 22 km along a meridian): where its error
  /// stays below 0.1 µm.
  static let shortDistanceDegrees = 0.2

  /// The geodesic distance between two points at most ``shortDistanceDegrees`` apart in
  /// latitude and longitude, from their chord; `nil` for points further apart, or a
  /// latitude outside [−90°, 90°].
  ///
  /// A geodesic bends only along the surface normal, so its curvature is the normal
  /// curvature κ = cos²α/M + sin²α/N at its azimuth α (M and N the meridian and
  /// prime-vertical radii). An arc of length s and nearly constant curvature κ has the
  /// chord c = s − κ²s³/24 + O(κ⁴s⁵), so s = c + κ²c³/24 to the same order. At 5.5 km the
  /// term is 0.2 mm and the next one 10⁻¹¹ m (at 22 km, 11 mm and 10⁻⁸ m); the variation
  /// of κ along the line and the rounding of the chord (about 10⁻⁹ m) bound the error. Against Karney's series on
  /// random pairs at every latitude the error stays below 5 nm up to 0.1° apart and below
  /// 0.1 µm up to 0.2° (tested; it grows as the fifth power beyond: 6 µm at 0.5°, 0.2 mm
  /// at 1°), where the full solution costs fifteen times as many instructions: an
  /// odometer adds one per fix, and `print` a displacement from the first fix per fix.
  @inline(__always)
  func shortDistance(
    _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double
  ) -> Double? {
    shortChord(latitude1, longitude1, latitude2, longitude2, within: Self.shortDistanceDegrees)?.distance
  }

  /// The distance and the final azimuth (the direction of travel on arrival at the second
  /// point, degrees in (−180°, 180°]) of a line between two points at most
  /// ``shortLineDegrees`` apart, as ``shortDistance(_:_:_:_:)`` measures it; `nil` for
  /// points further apart, or a latitude outside [−90°, 90°]. For the speed and course a
  /// receiver without Doppler gives neither: one per fix, at a fifth of the cost of
  /// ``inverse(latitude1:longitude1:latitude2:longitude2:)``.
  ///
  /// The azimuth is the chord's direction in the horizontal plane at the second point.
  /// On a sphere that is exactly the great circle's: the chord, the circle's tangent at
  /// the point and the vertical there lie in one plane, the circle's. On the ellipsoid
  /// the plane of the normal section differs from the geodesic's by a turn of order
  /// e²(s/a)², under 10⁻⁸° at 5.5 km. Against Karney's solution it agrees within
  /// 10⁻⁶° for lines of 1 m and more (tested); shorter lines are dominated by the
  /// rounding of the coordinates, as in the full solution.
  package func shortDistanceAndFinalAzimuth(
    _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double
  ) -> (distance: Double, finalAzimuth: Double)? {
    guard let chord = shortChord(latitude1, longitude1, latitude2, longitude2, within: Self.shortLineDegrees)
    else { return nil }
    // The second point's east and north, in the frame turned to the first one's longitude.
    let east = -chord.sinLambda * chord.dx + chord.cosLambda * chord.dy
    let north = -chord.sin2 * (chord.cosLambda * chord.dx + chord.sinLambda * chord.dy) + chord.cos2 * chord.dz
    let degrees = atan2(east, north) / Angle.radiansPerDegree
    return (chord.distance, degrees == -180 ? 180 : degrees + 0)
  }

  /// The chord between two points at most `limit` degrees apart (at most
  /// ``shortDistanceDegrees``), in Earth-centred coordinates turned so that the first
  /// point's longitude is 0, with the geodesic distance it gives; `nil` for points further
  /// apart, or a latitude outside [−90°, 90°].
  @inline(__always)
  private func shortChord(
    _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double, within limit: Double
  ) -> ShortChord? {
    var deltaLongitude = longitude2 - longitude1
    if deltaLongitude > 180 {
      deltaLongitude -= 360
    } else if deltaLongitude < -180 {
      deltaLongitude += 360
    }
    let deltaLatitude = latitude2 - latitude1
    guard abs(deltaLatitude) <= limit, abs(deltaLongitude) <= limit,
      abs(latitude1) <= 90, abs(latitude2) <= 90
    else { return nil }
    let e2 = f * (2 - f)
    // Earth-centred coordinates in a frame turned so that the first point's longitude
    // is 0: only the difference of longitudes needs a sine and cosine.
    // One sine and cosine from the library: the second latitude's come by the sum
    // formula, and the small angles' (under 0.2°) from their series.
    let (sin1, cos1) = (sin(latitude1 * Angle.radiansPerDegree), cos(latitude1 * Angle.radiansPerDegree))
    let (sinDelta, cosDelta) = Self.smallSineCosine(deltaLatitude * Angle.radiansPerDegree)
    let sin2 = sin1 * cosDelta + cos1 * sinDelta
    let cos2 = max(0, cos1 * cosDelta - sin1 * sinDelta)
    let (sinLambda, cosLambda) = Self.smallSineCosine(deltaLongitude * Angle.radiansPerDegree)
    let n1 = a / (1 - e2 * sin1 * sin1).squareRoot()
    let n2 = a / (1 - e2 * sin2 * sin2).squareRoot()
    let dx = n2 * cos2 * cosLambda - n1 * cos1
    let dy = n2 * cos2 * sinLambda
    let dz = (1 - e2) * (n2 * sin2 - n1 * sin1)
    var chord = ShortChord(
      dx: dx, dy: dy, dz: dz, sin2: sin2, cos2: cos2, sinLambda: sinLambda, cosLambda: cosLambda, distance: 0)
    let chord2 = dx * dx + dy * dy + dz * dz
    guard chord2 > 0 else { return chord }
    // Curvature at the middle, in the direction of the line: north and east parts of
    // the step (their scale does not matter, only their ratio).
    let sinMiddle = (sin1 + sin2) / 2
    let w2 = 1 - e2 * sinMiddle * sinMiddle
    let primeVertical = a / w2.squareRoot()
    let meridian = primeVertical * (1 - e2) / w2
    let north = deltaLatitude * meridian
    let east = deltaLongitude * primeVertical * (cos1 + cos2) / 2
    let across = north * north + east * east
    let curvature = across > 0 ? (north * north / meridian + east * east / primeVertical) / across : 1 / meridian
    chord.distance = chord2.squareRoot() * (1 + curvature * curvature * chord2 / 24)
    return chord
  }

  /// The sine and cosine of an angle of at most ``shortDistanceDegrees`` (in radians,
  /// under 0.0035), from their Taylor series: the first terms left out are below 10⁻¹⁸
  /// of the result, under the rounding of a double.
  @inline(__always)
  static func smallSineCosine(_ x: Double) -> (sine: Double, cosine: Double) {
    let x2 = x * x
    let sine = x - x * x2 / 6 * (1 - x2 / 20)
    let cosine = 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30))
    return (sine, cosine)
  }
}

/// A short line's chord (see `Geodesic.shortChord`): its Earth-centred components in a
/// frame turned to the first point's longitude, what the second point's horizontal plane
/// takes from that frame, and the geodesic distance.
private struct ShortChord {
  var dx, dy, dz: Double
  var sin2, cos2: Double
  var sinLambda, cosLambda: Double
  var distance: Double
}

import NMEA

#if canImport(Glibc)
  import Glibc
#endif

extension Location {
  /// The 1-sigma errors along the two axes, metres: east–west (gpsd's `epx`) and
  /// north–south (`epy`); `nil` when neither the receiver nor the satellites' geometry
  /// tells them apart.
  ///
  /// The receiver's own GST sigmas where its accuracy came from them
  /// (``latitudeAccuracy``, ``longitudeAccuracy``). Otherwise the horizontal accuracy
  /// shared between the axes as the geometry of the satellites used shares it: with `G`
  /// the rows (cos e sin a, cos e cos a, sin e, 1) of the satellites used, of elevation e
  /// and azimuth a, `Q = (GᵀG)⁻¹` gives the east and north dilutions √Q₀₀ and √Q₁₁, whose
  /// squares sum to the HDOP's; each axis gets its share of the accuracy's square, so
  /// that the two still add up to it (√(epx² + epy²) = the accuracy, as for DOP × UERE).
  /// This is how gpsd finds its `xdop` and `ydop`; it needs four satellites used with an
  /// elevation and an azimuth.
  public var axisAccuracies: (east: Double, north: Double)? {
    if let east = longitudeAccuracy, let north = latitudeAccuracy { return (east, north) }
    guard let accuracy = horizontalAccuracy, let (eastDOP, northDOP) = Self.dilutions(of: satellites, usedOnly: true)
    else { return nil }
    let sum = eastDOP * eastDOP + northDOP * northDOP
    guard sum > 0 else { return nil }
    return (accuracy * (eastDOP * eastDOP / sum).squareRoot(), accuracy * (northDOP * northDOP / sum).squareRoot())
  }

  /// The east and north dilutions of precision (gpsd's `xdop`, `ydop`) of `satellites`'
  /// geometry, all of them taken as used; `nil` with fewer than four that have an
  /// elevation and an azimuth, or a geometry without a solution.
  public static func horizontalDilutions(of satellites: [SatelliteInfo]) -> (east: Double, north: Double)? {
    dilutions(of: satellites, usedOnly: false)
  }

  /// The dilutions from the normal matrix `GᵀG` of the satellites' rows, through its
  /// Cholesky factor `L` (`GᵀG = LLᵀ`): `Q = (L⁻¹)ᵀL⁻¹`, so `Qᵢᵢ` is the sum of the squares
  /// of column `i` of `L⁻¹`. Nothing is allocated: it runs for every fix printed as JSON.
  private static func dilutions(of satellites: [SatelliteInfo], usedOnly: Bool) -> (east: Double, north: Double)? {
    // Taken once: each use of a static table checks that it was made.
    let (sines, cosines) = (wholeDegreeSines, wholeDegreeCosines)
    /// The sine and cosine of an angle in degrees: looked up for whole degrees, which is
    /// what GSV gives (four calls to the library for each satellite of each fix were a
    /// tenth of `print --json`'s work), and the same values as the library's either way.
    @inline(__always)
    func sineCosine(degrees: Double) -> (sin: Double, cos: Double) {
      if degrees >= 0, degrees < 360, let whole = Int(exactly: degrees) {
        return (sines[whole], cosines[whole])
      }
      let radians = degrees * (.pi / 180)
      return (sin(radians), cos(radians))
    }
    // The upper triangle of GᵀG, row by row: 00 01 02 03 11 12 13 22 23 33.
    var n00 = 0.0, n01 = 0.0, n02 = 0.0, n03 = 0.0, n11 = 0.0, n12 = 0.0, n13 = 0.0
    var n22 = 0.0, n23 = 0.0, n33 = 0.0
    for satellite in satellites where satellite.isUsed || !usedOnly {
      guard let elevation = satellite.elevation, let azimuth = satellite.azimuth else { continue }
      let (sinE, cosE) = sineCosine(degrees: elevation)
      let (sinA, cosA) = sineCosine(degrees: azimuth)
      let (x, y, z) = (cosE * sinA, cosE * cosA, sinE)
      n00 += x * x
      n01 += x * y
      n02 += x * z
      n03 += x
      n11 += y * y
      n12 += y * z
      n13 += y
      n22 += z * z
      n23 += z
      n33 += 1
    }
    guard n33 >= 4 else { return nil }
    // L, lower triangular; a pivot that is not clearly positive: no solution.
    let floor = 1e-12 * max(n00, n11, n22, n33)
    guard n00 > floor else { return nil }
    let l00 = n00.squareRoot()
    let l10 = n01 / l00, l20 = n02 / l00, l30 = n03 / l00
    let d11 = n11 - l10 * l10
    guard d11 > floor else { return nil }
    let l11 = d11.squareRoot()
    let l21 = (n12 - l20 * l10) / l11, l31 = (n13 - l30 * l10) / l11
    let d22 = n22 - l20 * l20 - l21 * l21
    guard d22 > floor else { return nil }
    let l22 = d22.squareRoot()
    let l32 = (n23 - l30 * l20 - l31 * l21) / l22
    let d33 = n33 - l30 * l30 - l31 * l31 - l32 * l32
    guard d33 > floor else { return nil }
    let l33 = d33.squareRoot()
    // Columns 0 and 1 of L⁻¹ by forward substitution (L⁻¹ is lower triangular).
    let m00 = 1 / l00
    let m10 = -l10 * m00 / l11
    let m20 = -(l20 * m00 + l21 * m10) / l22
    let m30 = -(l30 * m00 + l31 * m10 + l32 * m20) / l33
    let m11 = 1 / l11
    let m21 = -l21 * m11 / l22
    let m31 = -(l31 * m11 + l32 * m21) / l33
    let q00 = m00 * m00 + m10 * m10 + m20 * m20 + m30 * m30
    let q11 = m11 * m11 + m21 * m21 + m31 * m31
    return (q00.squareRoot(), q11.squareRoot())
  }

  /// sin(d × π/180) and cos(d × π/180) for d = 0, 1, ..., 359, as the library gives them.
  private static let wholeDegreeSines = (0..<360).map { sin(Double($0) * (.pi / 180)) }
  private static let wholeDegreeCosines = (0..<360).map { cos(Double($0) * (.pi / 180)) }
}

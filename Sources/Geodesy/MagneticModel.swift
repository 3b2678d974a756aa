#if canImport(Glibc)
  import Glibc
#endif

/// The Earth's main magnetic field from a spherical-harmonic model: the World Magnetic
/// Model 2025 (``wmm2025``), to degree and order 12.
///
/// The field is computed as in the WMM technical report: the geodetic position becomes a
/// geocentric one on the WGS84 ellipsoid, the Gauss coefficients move with their secular
/// variation to the date, the Schmidt semi-normalised associated Legendre functions give
/// the field's north, east and down components in the geocentric frame, and a rotation by
/// the difference of the two latitudes brings them to the geodetic frame. The declination
/// is the angle of the horizontal field east of true north.
public struct MagneticModel: Sendable {
  /// The model's name, for output that says where a declination came from.
  public let name: String
  /// The year the coefficients are for (decimal year, 2025.0 for WMM2025).
  public let epoch: Double
  /// The last year the model is valid for (decimal year, 2030.0 for WMM2025).
  public let validUntil: Double
  private let degree: Int
  /// `g`, `h`, `ġ`, `ḣ` by `n * (n + 1) / 2 + m`.
  private let g: [Double]
  private let h: [Double]
  private let gDot: [Double]
  private let hDot: [Double]

  /// The geomagnetic reference radius, kilometres.
  static let referenceRadius = 6371.2

  /// WMM2025: epoch 2025.0, valid to 2030.0.
  public static let wmm2025 = MagneticModel(
    name: "WMM2025", epoch: WMM2025Coefficients.epoch, validUntil: WMM2025Coefficients.epoch + 5,
    rows: WMM2025Coefficients.rows)

  init(
    name: String, epoch: Double, validUntil: Double,
    rows: [(n: Int, m: Int, g: Double, h: Double, gDot: Double, hDot: Double)]
  ) {
    self.name = name
    self.epoch = epoch
    self.validUntil = validUntil
    let degree = rows.map(\.n).max() ?? 0
    self.degree = degree
    let count = (degree + 1) * (degree + 2) / 2
    var g = [Double](repeating: 0, count: count)
    var h = g
    var gDot = g
    var hDot = g
    for row in rows {
      let index = row.n * (row.n + 1) / 2 + row.m
      g[index] = row.g
      h[index] = row.h
      gDot[index] = row.gDot
      hDot[index] = row.hDot
    }
    self.g = g
    self.h = h
    self.gDot = gDot
    self.hDot = hDot
  }

  /// The field at a place and time.
  public struct Field: Sendable, Equatable {
    /// The northward component, nanotesla.
    public var north: Double
    /// The eastward component, nanotesla.
    public var east: Double
    /// The downward component, nanotesla (positive where field lines dip into the Earth,
    /// as in the northern hemisphere).
    public var down: Double
    /// The horizontal intensity, nanotesla.
    public var horizontal: Double { (north * north + east * east).squareRoot() }
    /// The total intensity, nanotesla.
    public var total: Double { (north * north + east * east + down * down).squareRoot() }
    /// Degrees east of true north that a compass points (the magnetic variation).
    public var declination: Double { atan2(east, north) * 180 / .pi }
    /// Degrees below the horizontal.
    public var inclination: Double { atan2(down, horizontal) * 180 / .pi }
  }

  /// The field at geodetic `latitude`, `longitude` (degrees, WGS84), `height` metres above
  /// the ellipsoid, on the decimal `year` (2026.5 is the middle of 2026). Outside the
  /// model's years the result is extrapolated and less accurate; see ``isValid(year:)``.
  public func field(latitude: Double, longitude: Double, height: Double = 0, year: Double) -> Field {
    let ellipsoid = Ellipsoid.wgs84
    let a = ellipsoid.semiMajorAxis / 1000
    let e2 = ellipsoid.flattening * (2 - ellipsoid.flattening)
    let phi = latitude * .pi / 180
    let lambda = longitude * .pi / 180
    let heightKilometres = height / 1000
    // Geodetic to geocentric spherical coordinates.
    let sinPhi = sin(phi)
    let primeVertical = a / (1 - e2 * sinPhi * sinPhi).squareRoot()
    let p = (primeVertical + heightKilometres) * cos(phi)
    let z = (primeVertical * (1 - e2) + heightKilometres) * sinPhi
    let r = (p * p + z * z).squareRoot()
    let geocentricLatitude = asin(z / r)
    // Colatitude θ, the variable of the Legendre functions.
    let cosTheta = sin(geocentricLatitude)
    let sinTheta = cos(geocentricLatitude)

    let count = (degree + 1) * (degree + 2) / 2
    var legendre = [Double](repeating: 0, count: count)
    var derivative = [Double](repeating: 0, count: count)
    legendre[0] = 1
    for n in 1...degree {
      let row = n * (n + 1) / 2
      let previous = (n - 1) * n / 2
      let beforePrevious = n >= 2 ? (n - 2) * (n - 1) / 2 : 0
      for m in 0...n {
        let index = row + m
        if m == n {
          // Pₙⁿ = √((2n−1)/2n) sinθ Pₙ₋₁ⁿ⁻¹, with P₁¹ = sinθ.
          let factor = n == 1 ? 1 : ((2 * Double(n) - 1) / (2 * Double(n))).squareRoot()
          let lower = previous + (n - 1)
          legendre[index] = factor * sinTheta * legendre[lower]
          derivative[index] = factor * (sinTheta * derivative[lower] + cosTheta * legendre[lower])
        } else {
          // Pₙᵐ = ((2n−1) cosθ Pₙ₋₁ᵐ − √((n−1)²−m²) Pₙ₋₂ᵐ) / √(n²−m²).
          let first = Double(2 * n - 1)
          let second = Double((n - 1) * (n - 1) - m * m).squareRoot()
          let divisor = Double(n * n - m * m).squareRoot()
          let older = m <= n - 2 ? legendre[beforePrevious + m] : 0
          let olderDerivative = m <= n - 2 ? derivative[beforePrevious + m] : 0
          legendre[index] = (first * cosTheta * legendre[previous + m] - second * older) / divisor
          derivative[index] =
            (first * (cosTheta * derivative[previous + m] - sinTheta * legendre[previous + m]) - second
              * olderDerivative) / divisor
        }
      }
    }

    let years = year - epoch
    var north = 0.0
    var east = 0.0
    var down = 0.0
    let ratio = Self.referenceRadius / r
    var power = ratio * ratio
    for n in 1...degree {
      power *= ratio
      let row = n * (n + 1) / 2
      for m in 0...n {
        let index = row + m
        let gValue = g[index] + years * gDot[index]
        let hValue = h[index] + years * hDot[index]
        let cosine = cos(Double(m) * lambda)
        let sine = sin(Double(m) * lambda)
        let term = gValue * cosine + hValue * sine
        // P is a function of cos θ; d/dθ of it is the derivative above.
        north += power * term * derivative[index]
        east += power * Double(m) * (gValue * sine - hValue * cosine) * legendre[index]
        down -= power * Double(n + 1) * term * legendre[index]
      }
    }
    if sinTheta > 1e-12 { east /= sinTheta } else { east = 0 }
    // From the geocentric frame to the geodetic one.
    let rotation = geocentricLatitude - phi
    let geodeticNorth = north * cos(rotation) - down * sin(rotation)
    let geodeticDown = north * sin(rotation) + down * cos(rotation)
    return Field(north: geodeticNorth, east: east, down: geodeticDown)
  }

  /// The magnetic variation (declination), degrees east of true north.
  public func declination(latitude: Double, longitude: Double, height: Double = 0, year: Double) -> Double {
    field(latitude: latitude, longitude: longitude, height: height, year: year).declination
  }

  /// Whether `year` lies within the years the model is made for.
  public func isValid(year: Double) -> Bool { year >= epoch && year <= validUntil }

  /// How far a declination from the model can be trusted, as the WMM's report states it.
  public enum Reliability: String, Sendable, Equatable {
    /// Within the model's years, away from the magnetic poles.
    case reliable
    /// Before the epoch or after the model's end: the secular variation extrapolated,
    /// with an error that grows by tens of arc-minutes a year.
    case outsideValidity = "outside validity"
    /// The WMM's caution zone near a magnetic pole: horizontal intensity under 6,000 nT.
    case caution
    /// The WMM's blackout zone: horizontal intensity under 2,000 nT, where compasses and
    /// the declination are unreliable.
    case blackout
  }

  /// The horizontal intensity below which the WMM report calls a place a blackout zone,
  /// nanotesla.
  public static let blackoutIntensity = 2000.0
  /// The horizontal intensity below which the WMM report calls a place a caution zone,
  /// nanotesla.
  public static let cautionIntensity = 6000.0

  /// The declination's reliability at a place and time: the years first, then the zones.
  public func reliability(latitude: Double, longitude: Double, height: Double = 0, year: Double) -> Reliability {
    reliability(of: field(latitude: latitude, longitude: longitude, height: height, year: year), year: year)
  }

  /// The reliability of a `field` this model gave for `year`.
  public func reliability(of field: Field, year: Double) -> Reliability {
    let horizontal = field.horizontal
    if horizontal < Self.blackoutIntensity { return .blackout }
    if !isValid(year: year) { return .outsideValidity }
    return horizontal < Self.cautionIntensity ? .caution : .reliable
  }
}

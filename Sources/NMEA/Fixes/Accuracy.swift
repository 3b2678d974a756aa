import Geodesy

/// How a fix's accuracy figures were obtained, in the order of precedence: the first the
/// receiver gives is used.
///
/// All are 1-sigma figures, about 68 % confidence: the horizontal accuracy is the radius
/// of the circle the true position lies in with that probability (the root of the summed
/// latitude and longitude variances, "DRMS"), the vertical accuracy the altitude's
/// standard deviation.
public enum AccuracySource: Sendable, Equatable, CustomStringConvertible {
  /// From the receiver's own GST statistics: latitude, longitude and altitude sigmas.
  case receiverStatistics
  /// u-blox `$PUBX,00` hAcc and vAcc, 1-sigma metres as sent.
  case ubloxPUBX
  /// Garmin `$PGRME` HPE and VPE, which Garmin documents as 2-sigma, halved.
  case garminPGRME
  /// SiRF `$PSRFEPE` EHPE and EVPE, as sent (SiRF states no confidence level).
  case sirfPSRFEPE
  /// Estimated as DOP times a user-equivalent range error (UERE) for the fix quality.
  case dilutionOfPrecision
  /// The coordinates' own resolution: the receiver's estimate was smaller than the
  /// rounding of the latitude and longitude it printed allows (see
  /// ``CoordinateResolution``).
  case coordinateResolution
  /// gpsd's own estimates (`eph`, `epv`), passed on as gpsd gives them, only when gpsd
  /// sends neither a GST nor DOPs for the fix: gpsd states no confidence level for them
  /// (for NMEA receivers they are about twice a 1-sigma value).
  case gpsd

  public var description: String {
    switch self {
    case .receiverStatistics: "GST"
    case .ubloxPUBX: "PUBX"
    case .garminPGRME: "PGRME"
    case .sirfPSRFEPE: "PSRFEPE"
    case .dilutionOfPrecision: "DOP"
    case .coordinateResolution: "resolution"
    case .gpsd: "gpsd"
    }
  }
}

/// The user-equivalent range errors (1 sigma, metres) used to turn DOPs into metres.
///
/// A DOP multiplies the error of each range measurement; these typical values are for
/// the range error after the corrections each fix quality implies: broadcast ephemeris and
/// ionosphere model for autonomous fixes, SBAS or DGPS corrections, RTK float and fixed
/// carrier-phase solutions.
public enum UserEquivalentRangeError {
  /// Autonomous single-frequency fixes (and PPS, dead reckoning, manual, simulated).
  public static let autonomous = 4.0
  /// DGPS or SBAS corrected fixes.
  public static let differential = 1.0
  /// RTK float solutions.
  public static let rtkFloat = 0.3
  /// RTK fixed solutions.
  public static let rtkFixed = 0.02

  /// The range error for a fix quality.
  public static func metres(for quality: FixQuality?) -> Double {
    switch quality {
    case .differential: differential
    case .rtkFloat: rtkFloat
    case .rtkFixed: rtkFixed
    default: autonomous
    }
  }
}

/// The accuracy a printed coordinate can have at best.
///
/// A receiver that prints minutes with `d` decimals rounds the latitude and longitude to
/// steps of `q = 10⁻ᵈ` arc-minutes: `q` × the metres per minute of latitude (the meridian
/// radius of curvature) north–south, and × the metres per minute of longitude (the prime
/// vertical radius × cos latitude) east–west. A rounding error spread evenly over a step
/// has a standard deviation of step/√12; the bound is the root of the two axes' summed
/// variances, the same DRMS measure as every accuracy here. Two decimals (0.01′, 18.5 m
/// north–south) give about 7.5 m at the equator, four decimals about 0.08 m.
public enum CoordinateResolution {
  /// The 1-sigma horizontal radius, metres, that rounding to `decimals` decimals of a
  /// minute allows at `latitude`.
  public static func horizontalBound(decimals: Int, latitude: Double) -> Double {
    let step = pow10(-decimals) / 60
    let projection = LocalProjection(latitude: latitude, longitude: 0)
    let north = step * projection.northPerDegree
    let east = step * projection.eastPerDegree
    return ((north * north + east * east) / 12).squareRoot()
  }

  /// A bound on ``horizontalBound(decimals:latitude:)`` at any latitude, without its
  /// sine and cosine: a degree is at most 111.7 km along either axis (the meridian's
  /// degree at the poles is 111,694 m, the equator's 111,320 m), with 1 % to spare. An
  /// accuracy above it needs no resolution check.
  public static func largestBound(decimals: Int) -> Double {
    let step = pow10(-decimals) / 60
    return 1.01 * step * 111_700 * (2.0 / 12).squareRoot()
  }

  private static func pow10(_ exponent: Int) -> Double {
    var value = 1.0
    for _ in 0..<abs(exponent) { value *= 10 }
    return exponent < 0 ? 1 / value : value
  }
}

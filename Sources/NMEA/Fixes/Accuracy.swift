/// How a fix's accuracy figures were obtained.
///
/// Both kinds are 1-sigma figures, about 68 % confidence: the horizontal accuracy is the
/// radius of the circle the true position lies in with that probability (the root of the
/// summed latitude and longitude variances, "DRMS"), the vertical accuracy the altitude's
/// standard deviation.
public enum AccuracySource: Sendable, Equatable, CustomStringConvertible {
  /// From the receiver's own GST statistics: latitude, longitude and altitude sigmas.
  case receiverStatistics
  /// Estimated as DOP times a user-equivalent range error (UERE) for the fix quality.
  case dilutionOfPrecision
  /// gpsd's own estimates (`eph`, `epv`), passed on as gpsd gives them: gpsd states no
  /// confidence level for them (for NMEA receivers they are about twice a 1-sigma value).
  case gpsd

  public var description: String {
    switch self {
    case .receiverStatistics: "GST"
    case .dilutionOfPrecision: "DOP"
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

/// Everything one reporting cycle of a receiver said: the sentences sharing one UTC time,
/// merged.
///
/// Values the receiver did not give are `nil`: never 0, never carried over from an
/// earlier cycle (the satellites in view excepted: receivers send them every few cycles,
/// and they describe the sky, which changes slowly).
public struct Fix: Sendable, Equatable {
  /// The cycle's UTC time of day.
  public var timeOfDay: TimeOfDay
  /// The full UTC time; `nil` until a date is known (from RMC, ZDA, `--date` or `# Date:`).
  public var time: Timestamp?
  /// Degrees north, WGS84; `nil` when the cycle has no valid position.
  public var latitude: Double?
  /// Degrees east, WGS84.
  public var longitude: Double?
  public var mode: FixMode
  public var quality: FixQuality?
  public var navigationalStatus: NavigationalStatus?
  /// Metres above mean sea level.
  public var altitudeMSL: Double?
  /// Metres of the geoid above the WGS84 ellipsoid.
  public var geoidSeparation: Double?
  /// Speed over ground, metres per second.
  public var speed: Double?
  /// Course over ground, degrees from true north.
  public var course: Double?
  /// Degrees, east positive.
  public var magneticVariation: Double?
  /// Vertical speed, metres per second, from the altitude change since the previous fix.
  public var climb: Double?
  /// True heading, degrees (HDT).
  public var heading: Double?
  public var dop: DilutionOfPrecision
  /// The number of satellites used, as the receiver reported it (GGA or GNS) or counted
  /// from GSA.
  public var satellitesUsed: Int?
  /// The satellites in view from the latest complete GSV reports, with used flags.
  public var satellites: [SatelliteInfo]
  public var errorStatistics: ErrorStatistics?
  /// 1-sigma horizontal radius, metres (see ``AccuracySource``); `nil` when unknown.
  public var horizontalAccuracy: Double?
  /// 1-sigma vertical error, metres; `nil` when unknown.
  public var verticalAccuracy: Double?
  public var accuracySource: AccuracySource?
  /// Seconds since the last differential correction.
  public var differentialAge: Double?
  public var differentialStation: Int?

  /// Creates an empty cycle at a time of day.
  public init(timeOfDay: TimeOfDay) {
    self.timeOfDay = timeOfDay
    mode = .noFix
    dop = DilutionOfPrecision()
    satellites = []
  }

  /// Whether the fix has a usable position.
  public var hasPosition: Bool { mode >= .twoD && latitude != nil && longitude != nil }

  /// Metres above the WGS84 ellipsoid: the altitude plus the geoid separation.
  public var altitudeHAE: Double? {
    guard let altitudeMSL, let geoidSeparation else { return nil }
    return altitudeMSL + geoidSeparation
  }
}

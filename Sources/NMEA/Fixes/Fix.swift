/// Everything one reporting cycle of a receiver said: the sentences sharing one UTC time,
/// merged.
///
/// Values the receiver did not give are `nil`: never 0, never carried over from an
/// earlier cycle (the satellites in view excepted: receivers send them every few cycles,
/// and they describe the sky, which changes slowly).
public struct Fix: Sendable, Equatable {
  // The eight-byte fields first, then the one-byte ones, so that none pads the ones
  // after it: a fix is copied at every stage from the decoder to the printed line, and
  // its events are most of a parallel decode's memory, so its size is much of its cost.

  /// The cycle's UTC time of day.
  public var timeOfDay: TimeOfDay
  /// The full UTC time; `nil` until a date is known (from RMC, ZDA, `--date` or `# Date:`).
  @PackedTimestamp public var time: Timestamp?
  /// Degrees north, WGS84; `nil` when the cycle has no valid position.
  @PackedDouble public var latitude: Double?
  /// Degrees east, WGS84.
  @PackedDouble public var longitude: Double?
  /// Metres above mean sea level.
  @PackedDouble public var altitudeMSL: Double?
  /// Metres of the geoid above the WGS84 ellipsoid.
  @PackedDouble public var geoidSeparation: Double?
  /// Metres above the WGS84 ellipsoid: the altitude plus the geoid separation, or the
  /// receiver's own ellipsoidal height (`$PUBX,00`, `$PASHR,POS`).
  @PackedDouble public var altitudeHAE: Double?
  /// Speed over ground, metres per second.
  @PackedDouble public var speed: Double?
  /// Course over ground, degrees from true north.
  @PackedDouble public var course: Double?
  /// Degrees, east positive.
  @PackedDouble public var magneticVariation: Double?
  /// Vertical speed, metres per second, from the altitude change since the previous fix.
  @PackedDouble public var climb: Double?
  /// True heading, degrees (HDT).
  @PackedDouble public var heading: Double?
  /// The cycle's dilutions of precision (GSA, GGA, GNS, `$PUBX,00`, `$PASHR,POS`); each is
  /// `nil` when no sentence gave it.
  public var dop: DilutionOfPrecision
  /// The number of satellites used, as the receiver reported it (GGA or GNS) or counted
  /// from GSA.
  @PackedInt public var satellitesUsed: Int?
  /// The satellites in view from the latest complete GSV reports, with used flags.
  public var satellites: [SatelliteInfo]
  /// 1-sigma horizontal radius, metres (see ``AccuracySource``); `nil` when unknown.
  @PackedDouble public var horizontalAccuracy: Double?
  /// 1-sigma vertical error, metres; `nil` when unknown.
  @PackedDouble public var verticalAccuracy: Double?
  /// Seconds since the last differential correction.
  @PackedDouble public var differentialAge: Double?
  /// The differential reference station's ID (GGA, GNS); `nil` when not given.
  @PackedInt public var differentialStation: Int?
  /// The receiver's GST error statistics for this cycle's time; `nil` without a GST.
  public var errorStatistics: ErrorStatistics?
  /// The fix dimension: ``FixMode/noFix`` without a position, 3D with an altitude or a 3D
  /// GSA, otherwise 2D or the mode recently stated (see ``FixAssembler``).
  public var mode: FixMode
  /// How the position was obtained: GGA's quality, unless it is missing or invalid and an FAA
  /// mode (RMC, GLL, GNS) or a `$PUBX,00`/`$PASHR,POS` status implies another; `nil` when no
  /// sentence gives one.
  public var quality: FixQuality?
  /// The NMEA 4.10 navigational status (RMC, GNS); `nil` when the receiver sends none.
  public var navigationalStatus: NavigationalStatus?
  /// Where ``geoidSeparation`` came from; `nil` when there is none.
  public var geoidSource: GeoidSource?
  /// Whether ``speed`` and ``course`` are the receiver's or were derived from this fix's
  /// position and the previous one's; `nil` when there are none.
  public var speedSource: SpeedSource?
  /// Where ``horizontalAccuracy`` and ``verticalAccuracy`` came from; `nil` when there are
  /// none.
  public var accuracySource: AccuracySource?

  /// Creates an empty cycle at a time of day.
  public init(timeOfDay: TimeOfDay) {
    self.timeOfDay = timeOfDay
    mode = .noFix
    dop = DilutionOfPrecision()
    satellites = []
  }

  /// Whether the fix has a usable position.
  public var hasPosition: Bool { mode >= .twoD && latitude != nil && longitude != nil }
}

/// Where a fix's geoid separation came from.
public enum GeoidSource: Sendable, Equatable, CustomStringConvertible {
  /// The receiver sent it (GGA, GNS), or sent both heights.
  case receiver
  /// The EGM96 geoid model (PROJ's 15-minute grid), where the receiver gave none.
  case egm96

  public var description: String {
    switch self {
    case .receiver: "receiver"
    case .egm96: "EGM96"
    }
  }
}

/// Where a fix's speed and course came from.
public enum SpeedSource: Sendable, Equatable, CustomStringConvertible {
  /// Measured by the receiver (RMC, VTG, `$PUBX,00`, `$PASHR,POS`): Doppler, usually.
  case receiver
  /// Derived from this fix's position and the previous one's, for a cycle that had none
  /// (see ``FixAssembler``): an average over the interval, as noisy as the positions.
  case positions

  public var description: String {
    switch self {
    case .receiver: "receiver"
    case .positions: "positions"
    }
  }
}

/// One satellite in view, as the last complete GSV report described it.
public struct SatelliteInfo: Sendable, Equatable {
  /// The constellation, from the talker, the NMEA 4.10 system ID or the ID range.
  public var constellation: Constellation?
  /// The satellite ID as the receiver numbers it (the PRN for GPS).
  public var id: Int
  /// The NMEA 4.10 signal ID (1 is L1 C/A or E1 etc.; meaning depends on the system).
  public var signalID: Int?
  /// Degrees above the horizon.
  @PackedDouble public var elevation: Double?
  /// Degrees from true north.
  @PackedDouble public var azimuth: Double?
  /// Carrier-to-noise density, dB-Hz; absent when the satellite is not tracked.
  @PackedDouble public var snr: Double?
  /// Whether the receiver used it in the fix (listed in a GSA of the cycle).
  public var isUsed: Bool

  /// Creates a satellite description.
  public init(
    constellation: Constellation?, id: Int, signalID: Int? = nil, elevation: Double? = nil,
    azimuth: Double? = nil, snr: Double? = nil, isUsed: Bool = false
  ) {
    self.constellation = constellation
    self.id = id
    self.signalID = signalID
    self.elevation = elevation
    self.azimuth = azimuth
    self.snr = snr
    self.isUsed = isUsed
  }
}

/// Dilutions of precision: how the satellites' geometry magnifies range errors.
public struct DilutionOfPrecision: Sendable, Equatable {
  /// Position (3D) dilution of precision, PDOP; `nil` when unknown.
  @PackedDouble public var position: Double?
  /// Horizontal dilution of precision, HDOP; `nil` when unknown.
  @PackedDouble public var horizontal: Double?
  /// Vertical dilution of precision, VDOP; `nil` when unknown.
  @PackedDouble public var vertical: Double?

  /// Creates a set of DOPs.
  public init(position: Double? = nil, horizontal: Double? = nil, vertical: Double? = nil) {
    self.position = position
    self.horizontal = horizontal
    self.vertical = vertical
  }
}

/// The receiver's own error statistics for a fix (from GST), 1-sigma, metres.
public struct ErrorStatistics: Sendable, Equatable {
  /// RMS of the pseudorange residuals, metres.
  @PackedDouble public var rms: Double?
  /// Standard deviation of the error ellipse's semi-major axis, metres.
  @PackedDouble public var semiMajor: Double?
  /// Standard deviation of the error ellipse's semi-minor axis, metres.
  @PackedDouble public var semiMinor: Double?
  /// Degrees from true north.
  @PackedDouble public var orientation: Double?
  /// Standard deviation of the latitude error, metres.
  @PackedDouble public var latitude: Double?
  /// Standard deviation of the longitude error, metres.
  @PackedDouble public var longitude: Double?
  /// Standard deviation of the altitude error, metres.
  @PackedDouble public var altitude: Double?

  /// Error statistics as a GST gives them.
  public init(
    rms: Double? = nil, semiMajor: Double? = nil, semiMinor: Double? = nil, orientation: Double? = nil,
    latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil
  ) {
    self.rms = rms
    self.semiMajor = semiMajor
    self.semiMinor = semiMinor
    self.orientation = orientation
    self.latitude = latitude
    self.longitude = longitude
    self.altitude = altitude
  }
}

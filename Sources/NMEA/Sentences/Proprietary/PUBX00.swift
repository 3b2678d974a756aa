/// u-blox `$PUBX,00`: position, velocity and the receiver's accuracy estimates.
///
/// ```
/// Format:  $PUBX,00,hhmmss.ss,llll.ll,a,yyyyy.yy,a,x.x,cc,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x,x,x*hh
/// Fields:       0  1         2       3 4        5 6   7  8   9   10  11  12  13  14  15  16  17 18 19
/// Example: $PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0*5F
/// ```
///
/// Its altitude is above the ellipsoid (u-blox: "altitude above user datum ellipsoid",
/// WGS84 unless the receiver was configured otherwise), not above mean sea level; its
/// accuracies are 1-sigma metres; its speed is in km/h and its vertical velocity is
/// positive downwards.
public struct PUBX00: Sendable, Equatable {
  /// UTC time of the fix (field 1); `nil` when empty.
  public var time: TimeOfDay?
  /// Latitude, degrees, north positive (fields 2–3); `nil` when empty.
  public var latitude: Double?
  /// Longitude, degrees, east positive (fields 4–5); `nil` when empty.
  public var longitude: Double?
  /// Metres above the WGS84 ellipsoid.
  public var ellipsoidalAltitude: Double?
  /// The navigation status: `NF` no fix, `DR` dead reckoning, `G2`/`G3` stand-alone 2D/3D,
  /// `D2`/`D3` differential 2D/3D, `RK` combined GNSS and dead reckoning, `TT` time only.
  public var status: Status?
  /// Horizontal and vertical accuracy estimates, metres, 1-sigma.
  public var horizontalAccuracy: Double?
  /// Vertical accuracy estimate, metres, 1-sigma (field 9); `nil` when empty.
  public var verticalAccuracy: Double?
  /// Speed over ground, metres per second (the receiver's km/h converted).
  public var speed: Double?
  /// Course over ground, degrees from true north.
  public var course: Double?
  /// Vertical speed, metres per second, upwards positive (the receiver's sign turned).
  public var climb: Double?
  /// Seconds since the last differential correction (field 13); `nil` when empty.
  public var differentialAge: Double?
  /// Horizontal dilution of precision (field 14); `nil` when empty.
  public var hdop: Double?
  /// Vertical dilution of precision (field 15); `nil` when empty.
  public var vdop: Double?
  /// Number of satellites used in the fix (field 17); `nil` when empty.
  public var satellitesUsed: Int?

  /// `$PUBX,00`'s navigation status.
  public enum Status: Sendable, Equatable {
    /// No fix (`NF`).
    case noFix
    /// Dead reckoning only (`DR`).
    case deadReckoning
    /// Stand-alone 2D fix (`G2`).
    case standalone2D
    /// Stand-alone 3D fix (`G3`).
    case standalone3D
    /// Differential 2D fix (`D2`).
    case differential2D
    /// Differential 3D fix (`D3`).
    case differential3D
    /// Combined GNSS and dead reckoning fix (`RK`).
    case combined
    /// Time only, no position (`TT`).
    case timeOnly

    /// Whether the status vouches for a position.
    public var hasPosition: Bool { self != .noFix && self != .timeOnly }
    /// Whether the position is three-dimensional.
    public var isThreeDimensional: Bool { self == .standalone3D || self == .differential3D || self == .combined }
    /// The fix quality it corresponds to.
    public var quality: FixQuality {
      switch self {
      case .noFix, .timeOnly: .invalid
      case .deadReckoning: .deadReckoning
      case .differential2D, .differential3D: .differential
      case .standalone2D, .standalone3D, .combined: .gps
      }
    }
  }

  /// Decimals of the coordinates' minutes (see ``CoordinateResolution``).
  public var coordinateDecimals: Int?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 8, name: "navigation status")
    time = try fields.time(1)
    latitude = try fields.latitude(2)
    longitude = try fields.longitude(4)
    coordinateDecimals = fields.coordinateDecimals(2, 4)
    ellipsoidalAltitude = try fields.decimal(6, "altitude", in: -100_000...1e8)
    let code = fields.raw(7)
    if !code.isEmpty {
      guard code.count == 2, let status = Self.status(code[0], code[1]) else {
        throw FieldError(index: 7, name: "navigation status", problem: .outOfRange)
      }
      self.status = status
    }
    horizontalAccuracy = try fields.decimal(8, "horizontal accuracy", in: 0...1e7)
    verticalAccuracy = try fields.decimal(9, "vertical accuracy", in: 0...1e7)
    speed = try fields.decimal(10, "speed", in: 0...1e6).map { $0 / 3.6 }
    course = try fields.decimal(11, "course", in: 0...360)
    climb = try fields.decimal(12, "vertical velocity", in: -1e5...1e5).map { -$0 }
    differentialAge = try fields.decimal(13, "differential age", in: 0...1_000_000)
    hdop = try fields.decimal(14, "HDOP", in: 0...100_000)
    vdop = try fields.decimal(15, "VDOP", in: 0...100_000)
    satellitesUsed = try fields.integer(17, "satellites used", in: 0...255)
  }

  private static func status(_ first: UInt8, _ second: UInt8) -> Status? {
    switch (Character(Unicode.Scalar(first)), Character(Unicode.Scalar(second))) {
    case ("N", "F"): .noFix
    case ("D", "R"): .deadReckoning
    case ("G", "2"): .standalone2D
    case ("G", "3"): .standalone3D
    case ("D", "2"): .differential2D
    case ("D", "3"): .differential3D
    case ("R", "K"): .combined
    case ("T", "T"): .timeOnly
    default: nil
    }
  }
}

/// Ashtech (Magellan, Spectra) `$PASHR,POS`: position, velocity and DOPs.
///
/// ```
/// Format:  $PASHR,POS,d,nn,hhmmss.ss,llll.lllll,a,yyyyy.yyyyy,a,x.xx,s,x.x,x.x,x.x,x.x,x.x,x.x,x.x,cccc*hh
/// Fields:         0   1 2  3         4          5 6           7 8    9 10  11  12  13  14  15  16  17
/// Example: $PASHR,POS,0,03,183530.00,2037.76012,N,08704.07373,W,058.48,,359.4,000.0,+000.0,2.2,2.2,0.0,1.0,BQ00*20
/// ```
///
/// Ashtech's manuals give the altitude above the WGS84 ellipsoid (the Z-family can be set
/// to send it above mean sea level instead, which the sentence does not say) and the
/// speed in knots. An empty position mode means no fix.
public struct PASHRPOS: Sendable, Equatable {
  /// 0 autonomous, 1 differential (RTCM), 2 RTK float, 3 RTK fixed; `nil` with no fix.
  public var positionMode: Int?
  /// Number of satellites used in the fix (field 2); `nil` when empty.
  public var satellitesUsed: Int?
  /// UTC time of the fix (field 3); `nil` when empty.
  public var time: TimeOfDay?
  /// Latitude, degrees, north positive (fields 4–5); `nil` when empty.
  public var latitude: Double?
  /// Longitude, degrees, east positive (fields 6–7); `nil` when empty.
  public var longitude: Double?
  /// Metres above the WGS84 ellipsoid.
  public var ellipsoidalAltitude: Double?
  /// Course over ground, degrees from true north.
  public var course: Double?
  /// Speed over ground, metres per second (the receiver's knots converted).
  public var speed: Double?
  /// Position dilution of precision (field 13); `nil` when empty.
  public var pdop: Double?
  /// Horizontal dilution of precision (field 14); `nil` when empty.
  public var hdop: Double?
  /// Vertical dilution of precision (field 15); `nil` when empty.
  public var vdop: Double?

  /// Decimals of the coordinates' minutes (see ``CoordinateResolution``).
  public var coordinateDecimals: Int?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 9, name: "altitude")
    positionMode = try fields.integer(1, "position mode", in: 0...9)
    satellitesUsed = try fields.integer(2, "satellites used", in: 0...255)
    time = try fields.time(3)
    latitude = try fields.latitude(4)
    longitude = try fields.longitude(6)
    coordinateDecimals = fields.coordinateDecimals(4, 6)
    ellipsoidalAltitude = try fields.decimal(8, "altitude", in: -100_000...1e8)
    course = try fields.decimal(10, "course", in: 0...360)
    speed = try fields.decimal(11, "speed", in: 0...1e6).map { $0 * 1852 / 3600 }
    pdop = try fields.decimal(13, "PDOP", in: 0...100_000)
    hdop = try fields.decimal(14, "HDOP", in: 0...100_000)
    vdop = try fields.decimal(15, "VDOP", in: 0...100_000)
  }

  /// The fix quality of the position mode.
  public var quality: FixQuality? {
    switch positionMode {
    case nil: nil
    case 0: .gps
    case 1: .differential
    case 2: .rtkFloat
    case 3: .rtkFixed
    default: .gps
    }
  }
}

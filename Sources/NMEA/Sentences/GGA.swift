/// GGA: global positioning system fix data, the main source of altitude and fix quality.
///
/// ```
/// Format:  $--GGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,x,xx,x.x,x.x,M,x.x,M,x.x,xxxx*hh
/// Fields:         0         1       2 3        4 5 6  7   8   9 10  11 12  13
/// Example: $GPGGA,113258,3238.9148,N,10822.4466,W,2,08,1.1,1577.4,M,-24.6,M,,*4D
/// ```
public struct GGA: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// UTC time of the fix (field 0); `nil` when empty.
  public var time: TimeOfDay?
  /// Latitude, degrees, north positive (fields 1–2); `nil` when empty.
  public var latitude: Double?
  /// Longitude, degrees, east positive (fields 3–4); `nil` when empty.
  public var longitude: Double?
  /// The fix quality indicator (field 5); `nil` when empty.
  public var quality: FixQuality?
  /// Number of satellites used in the fix (field 6); `nil` when empty.
  public var satellitesUsed: Int?
  /// Horizontal dilution of precision (field 7); `nil` when empty.
  public var hdop: Double?
  /// Altitude above mean sea level (the geoid), metres.
  public var altitude: Double?
  /// Height of the geoid above the WGS84 ellipsoid, metres.
  public var geoidSeparation: Double?
  /// Seconds since the last differential correction.
  public var differentialAge: Double?
  /// Differential reference station ID (field 13); `nil` when empty.
  public var differentialStation: Int?

  /// Decimals of the coordinates' minutes (see ``CoordinateResolution``).
  public var coordinateDecimals: Int?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 6, name: "quality")
    self.talker = talker
    time = try fields.time(0)
    latitude = try fields.latitude(1)
    longitude = try fields.longitude(3)
    coordinateDecimals = fields.coordinateDecimals(1, 3)
    quality = try fields.integer(5, "quality", in: 0...8).flatMap(FixQuality.init(rawValue:))
    satellitesUsed = try fields.integer(6, "satellites used", in: 0...255)
    hdop = try fields.decimal(7, "HDOP", in: 0...100_000)
    altitude = try fields.decimal(8, "altitude", unit: UInt8(ascii: "M"))
    geoidSeparation = try fields.decimal(10, "geoid separation", unit: UInt8(ascii: "M"))
    differentialAge = try fields.decimal(12, "differential age", in: 0...1_000_000)
    differentialStation = try fields.integer(13, "differential station")
  }
}

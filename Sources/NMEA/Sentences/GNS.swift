/// GNS: GNSS fix data, with one mode letter per constellation.
///
/// ```
/// Format:  $--GNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,c--c,xx,x.x,x.x,x.x,x.x,x.x,a*hh
/// Fields:         0         1       2 3        4 5    6  7   8   9   10  11  12
/// Example: $GNGNS,112257.00,3844.24011,N,00908.43828,W,AN,03,10.5,,,,*57
/// ```
/// The mode letters are GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC in that order; field
/// 12 (navigational status) came with NMEA 4.10.
///
/// Informational field (a value unknown to it costs that field only, counted in
/// ``DecoderStatistics/ignoredFields``): 12 (navigational status).
public struct GNS: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// UTC time of the fix (field 0); `nil` when empty.
  public var time: TimeOfDay?
  /// Latitude, degrees, north positive (fields 1–2); `nil` when empty.
  public var latitude: Double?
  /// Longitude, degrees, east positive (fields 3–4); `nil` when empty.
  public var longitude: Double?
  /// The best mode among the constellations' letters (`nil` when none is given).
  public var mode: FAAMode?
  /// Number of satellites used in the fix (field 6); `nil` when empty.
  public var satellitesUsed: Int?
  /// Horizontal dilution of precision (field 7); `nil` when empty.
  public var hdop: Double?
  /// Altitude above mean sea level (the geoid), metres (field 8); `nil` when empty.
  public var altitude: Double?
  /// Height of the geoid above the WGS84 ellipsoid, metres (field 9); `nil` when empty.
  public var geoidSeparation: Double?
  /// Seconds since the last differential correction (field 10); `nil` when empty.
  public var differentialAge: Double?
  /// Differential reference station ID (field 11); `nil` when empty.
  public var differentialStation: Int?
  /// The navigational status (field 12, NMEA 4.10); `nil` when empty or absent.
  public var navigationalStatus: NavigationalStatus?

  /// Decimals of the coordinates' minutes (see ``CoordinateResolution``).
  public var coordinateDecimals: Int?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 6, name: "mode")
    self.talker = talker
    time = try fields.time(0)
    latitude = try fields.latitude(1)
    longitude = try fields.longitude(3)
    coordinateDecimals = fields.coordinateDecimals(1, 3)
    mode = try Self.bestMode(fields.raw(5))
    satellitesUsed = try fields.integer(6, "satellites used", in: 0...255)
    hdop = try fields.decimal(7, "HDOP", in: 0...100_000)
    altitude = try fields.decimal(8, "altitude")
    geoidSeparation = try fields.decimal(9, "geoid separation")
    differentialAge = try fields.decimal(10, "differential age", in: 0...1_000_000)
    differentialStation = try fields.integer(11, "differential station")
    navigationalStatus = fields.informational(12, oneOf: "SCUV").flatMap(NavigationalStatus.init(rawValue:))
  }

  /// The mode of the best-served constellation: a fix by any one of them is a fix.
  private static func bestMode(_ letters: UnsafeBufferPointer<UInt8>) throws(FieldError) -> FAAMode? {
    guard !letters.isEmpty else { return nil }
    var best: FAAMode?
    for letter in letters {
      guard let mode = FAAMode(rawValue: letter) else {
        throw FieldError(index: 5, name: "mode", problem: .outOfRange)
      }
      if best == nil || rank(mode) > rank(best!) { best = mode }
    }
    return best
  }

  private static func rank(_ mode: FAAMode) -> Int {
    switch mode {
    case .notValid: 0
    case .simulated, .manual: 1
    case .estimated: 2
    case .autonomous: 3
    case .precise, .differential: 4
    case .rtkFloat: 5
    case .rtkFixed: 6
    }
  }
}

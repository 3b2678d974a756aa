/// GLL: geographic position, latitude and longitude.
///
/// ```
/// Format:  $--GLL,llll.ll,a,yyyyy.yy,a,hhmmss.ss,A,a*hh
/// Fields:         0       1 2        3 4         5 6
/// Example: $GPGLL,4916.45,N,12311.12,W,225444,A,A*5C
/// ```
/// Fields 4 and 5 are absent before NMEA 2.0, field 6 before 2.3.
///
/// Informational field (a value unknown to it costs that field only, counted in
/// ``DecoderStatistics/ignoredFields``): 6 (FAA mode: an unknown letter leaves validity to
/// the status, field 5, as for a receiver older than NMEA 2.3).
public struct GLL: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// Latitude, degrees, north positive (fields 0–1); `nil` when empty.
  public var latitude: Double?
  /// Longitude, degrees, east positive (fields 2–3); `nil` when empty.
  public var longitude: Double?
  /// UTC time of the position (field 4); `nil` when empty or absent (before NMEA 2.0).
  public var time: TimeOfDay?
  /// `true` for status `A` (valid), `false` for `V` (field 5); `nil` when empty or absent.
  public var isValid: Bool?
  /// The FAA mode indicator (field 6); `nil` when empty or absent (before NMEA 2.3).
  public var mode: FAAMode?

  /// Decimals of the coordinates' minutes (see ``CoordinateResolution``).
  public var coordinateDecimals: Int?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 4, name: "longitude hemisphere")
    self.talker = talker
    latitude = try fields.latitude(0)
    longitude = try fields.longitude(2)
    coordinateDecimals = fields.coordinateDecimals(0, 2)
    time = try fields.time(4)
    isValid = try fields.character(5, "status", oneOf: "AV").map { $0 == UInt8(ascii: "A") }
    mode = fields.informational(6, oneOf: "ADEFMNPRS").flatMap(FAAMode.init(rawValue:))
  }
}

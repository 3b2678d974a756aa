/// RMC: recommended minimum data: position, speed, course and the date.
///
/// ```
/// Format:  $--RMC,hhmmss.ss,A,llll.ll,a,yyyyy.yy,a,x.x,x.x,ddmmyy,x.x,a,m,s*hh
/// Fields:         0         1 2       3 4        5 6   7   8      9   10 11 12
/// Example: $GPRMC,113258,A,3238.9148,N,10822.4466,W,005.3,247.1,181022,009.3,E*6B
/// ```
/// Field 11 (FAA mode) came with NMEA 2.3, field 12 (navigational status) with 4.10.
///
/// Informational fields (a value unknown to one costs that field only, counted in
/// ``DecoderStatistics/ignoredFields``): 11 (FAA mode: an unknown letter leaves validity
/// to the status, field 1, as for a receiver older than NMEA 2.3) and 12 (navigational
/// status).
public struct RMC: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// UTC time of the fix (field 0); `nil` when empty.
  public var time: TimeOfDay?
  /// `true` for status `A` (valid), `false` for `V` (warning: the position is not usable).
  public var isValid: Bool?
  /// Latitude, degrees, north positive (fields 2–3); `nil` when empty.
  public var latitude: Double?
  /// Longitude, degrees, east positive (fields 4–5); `nil` when empty.
  public var longitude: Double?
  /// Speed over ground, metres per second.
  public var speed: Double?
  /// Course over ground, degrees from true north.
  public var course: Double?
  /// UTC date (field 8, `ddmmyy`: years 80–99 are 1980–1999, the others 2000–2079); `nil`
  /// when empty.
  public var date: CalendarDate?
  /// Magnetic variation, degrees, east positive.
  public var magneticVariation: Double?
  /// The FAA mode indicator (field 11, NMEA 2.3; field 10 from receivers that drop the
  /// variation's direction); `nil` when empty or absent.
  public var mode: FAAMode?
  /// The navigational status (field 12, NMEA 4.10); `nil` when empty or absent.
  public var navigationalStatus: NavigationalStatus?

  /// Decimals of the coordinates' minutes (see ``CoordinateResolution``).
  public var coordinateDecimals: Int?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 9, name: "date")
    self.talker = talker
    time = try fields.time(0)
    isValid = try fields.character(1, "status", oneOf: "AV").map { $0 == UInt8(ascii: "A") }
    latitude = try fields.latitude(2)
    longitude = try fields.longitude(4)
    coordinateDecimals = fields.coordinateDecimals(2, 4)
    speed = try fields.decimal(6, "speed", in: 0...100_000).map { $0 * knot }
    course = try fields.decimal(7, "course", in: -360...360)
    date = try fields.date(8)
    // Some receivers (Motorola) drop the variation's direction and put the mode letter
    // in its place: `...,181207,0,A*77`.
    if fields.count == 11, let letter = try? fields.character(10, "mode"), letter != UInt8(ascii: "E"),
      letter != UInt8(ascii: "W"), let shiftedMode = FAAMode(rawValue: letter)
    {
      mode = shiftedMode
    } else {
      magneticVariation = try signedVariation(fields, 9)
      mode = fields.informational(11, oneOf: "ADEFMNPRS").flatMap(FAAMode.init(rawValue:))
    }
    navigationalStatus = fields.informational(12, oneOf: "SCUV").flatMap(NavigationalStatus.init(rawValue:))
  }
}

/// Metres per second in one knot.
let knot = 1852.0 / 3600.0

/// A magnetic variation in field `index` with `E`/`W` in the next, east positive.
///
/// Some receivers (Trimble, Caterpillar) fill the field with 999.9 when they have no
/// model: a value beyond 180° is their "unknown", and is read as absent rather than
/// rejecting the position and date the same sentence carries.
func signedVariation(
  _ fields: FieldReader, _ index: Int, _ name: String = "magnetic variation"
) throws(FieldError) -> Double? {
  guard let value = try fields.decimal(index, name), value >= 0 else {
    if fields.has(index) { throw FieldError(index: index, name: name, problem: .outOfRange) }
    return nil
  }
  if value > 180 { return nil }
  switch try fields.character(index + 1, of: name, suffix: " direction", oneOf: "EW") {
  case UInt8(ascii: "W"): return -value
  default: return value
  }
}

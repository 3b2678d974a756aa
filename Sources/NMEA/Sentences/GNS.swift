/// GNS: GNSS fix data, with one mode letter per constellation.
///
/// ```
/// Format:  $--GNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,c--c,xx,x.x,x.x,x.x,x.x,x.x,a*hh
/// Fields:         0         1       2 3        4 5    6  7   8   9   10  11  12
/// Example: $GNGNS,112257.00,3844.24011,N,00908.43828,W,AN,03,10.5,,,,*57
/// ```
/// The mode letters are GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC in that order; field
/// 12 (navigational status) came with NMEA 4.10.
public struct GNS: Sendable, Equatable {
  public var talker: Talker
  public var time: TimeOfDay?
  public var latitude: Double?
  public var longitude: Double?
  /// The best mode among the constellations' letters (`nil` when none is given).
  public var mode: FAAMode?
  public var satellitesUsed: Int?
  public var hdop: Double?
  public var altitude: Double?
  public var geoidSeparation: Double?
  public var differentialAge: Double?
  public var differentialStation: Int?
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
    navigationalStatus = try fields.character(12, "navigational status", oneOf: "SCUV")
      .flatMap(NavigationalStatus.init(rawValue:))
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

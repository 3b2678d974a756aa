/// GBS: GNSS satellite fault detection (RAIM): expected errors and a suspect satellite.
///
/// ```
/// Format:  $--GBS,hhmmss.ss,x.x,x.x,x.x,xx,x.x,x.x,x.x,h,h*hh
/// Fields:         0         1   2   3   4  5   6   7   8 9
/// Example: $GPGBS,125027,23.43,M,13.91,M,34.01,M*07
/// ```
/// Fields 8 and 9 (system and signal ID) came with NMEA 4.10.
public struct GBS: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// UTC time of the fix the errors are for (field 0); `nil` when empty.
  public var time: TimeOfDay?
  /// Expected 1-sigma errors of latitude, longitude and altitude, metres.
  public var latitudeError: Double?
  /// Expected 1-sigma longitude error, metres; `nil` when empty.
  public var longitudeError: Double?
  /// Expected 1-sigma altitude error, metres; `nil` when empty.
  public var altitudeError: Double?
  /// The satellite most likely to have failed, if any.
  public var failedSatellite: Int?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 4, name: "altitude error")
    self.talker = talker
    time = try fields.time(0)
    // Some receivers put unit letters (`M`) between the values, as in the example.
    if fields.raw(2).count == 1 && fields.raw(2)[0] == UInt8(ascii: "M") {
      latitudeError = try fields.decimal(1, "latitude error", in: 0...1e9)
      longitudeError = try fields.decimal(3, "longitude error", in: 0...1e9)
      altitudeError = try fields.decimal(5, "altitude error", in: 0...1e9)
    } else {
      latitudeError = try fields.decimal(1, "latitude error", in: 0...1e9)
      longitudeError = try fields.decimal(2, "longitude error", in: 0...1e9)
      altitudeError = try fields.decimal(3, "altitude error", in: 0...1e9)
      failedSatellite = try fields.integer(4, "failed satellite", in: 0...999)
    }
  }
}

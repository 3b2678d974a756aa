/// VTG: course and speed over ground.
///
/// ```
/// Format:  $--VTG,x.x,T,x.x,M,x.x,N,x.x,K,m*hh
/// Fields:         0   1 2   3 4   5 6   7 8
/// Example: $GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48
/// ```
/// Receivers older than NMEA 2.0 omit the unit letters: `$GPVTG,054.7,034.4,005.5,010.2`.
///
/// No informational field: the FAA mode (field 8) is all that says whether speed and
/// course are valid, so an unknown mode rejects the sentence.
public struct VTG: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// Course over ground, degrees from true north.
  public var course: Double?
  /// Course over ground, degrees from magnetic north.
  public var magneticCourse: Double?
  /// Speed over ground, metres per second.
  public var speed: Double?
  /// The FAA mode indicator (field 8, NMEA 2.3); `nil` when empty or absent.
  public var mode: FAAMode?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 4, name: "speed")
    self.talker = talker
    let hasUnits = fields.count >= 8 || fields.raw(1).first.map { $0 == UInt8(ascii: "T") } == true
    if hasUnits {
      course = try fields.decimal(0, "true course", in: -360...360)
      magneticCourse = try fields.decimal(2, "magnetic course", in: -360...360)
      let knots = try fields.decimal(4, "speed in knots", in: 0...100_000)
      let kilometresPerHour = try fields.decimal(6, "speed in km/h", in: 0...200_000)
      speed = knots.map { $0 * knot } ?? kilometresPerHour.map { $0 / 3.6 }
      // Not informational: VTG has no status, and its mode alone says whether the speed
      // and course hold (`N`: not valid).
      mode = try fields.character(8, "mode", oneOf: "ADEFMNPRS").flatMap(FAAMode.init(rawValue:))
    } else {
      course = try fields.decimal(0, "true course", in: -360...360)
      magneticCourse = try fields.decimal(1, "magnetic course", in: -360...360)
      speed = try fields.decimal(2, "speed in knots", in: 0...100_000).map { $0 * knot }
    }
  }
}

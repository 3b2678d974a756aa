/// True North Technologies `$PTNTHTM`: a tilt-compensated compass's heading, pitch, roll
/// and magnetic dip, each with a magnetometer status letter.
///
/// ```
/// Format:  $PTNTHTM,x.x,a,x.x,a,x.x,a,x.x,x.x*hh
/// Fields:           0   1 2   3 4   5 6   7
/// Example: $PTNTHTM,14223,N,169,N,-43,N,13641,2454*15
/// ```
///
/// The status letters: `N` normal, `C` calibration alarm, `L`/`P` low/high alarm, `M`/`O`
/// low/high warning, `V` supply voltage alarm. The heading includes the deviation and
/// variation the compass was set up with: it is a true heading.
///
/// The compass reports in degrees or, unless told otherwise (`@F2.2=1`), in raw counts:
/// 65,536 to the circle, heading 0–65535, pitch and roll −32768–32767. The sentence does not
/// say which; a heading or dip beyond 360 (or a pitch or roll beyond 180) can only be
/// counts, and then all four angles are scaled by 360/65536.
///
/// Informational fields (a value unknown to one costs that field only, counted in
/// ``DecoderStatistics/ignoredFields``): 1, 3 and 5 (the status letters).
public struct PTNTHTM: Sendable, Equatable {
  /// Degrees from true north.
  public var heading: Double?
  /// Pitch, degrees (field 2; scaled from raw counts when ``wasRaw``); `nil` when empty.
  public var pitch: Double?
  /// Roll, degrees (field 4; scaled from raw counts when ``wasRaw``); `nil` when empty.
  public var roll: Double?
  /// Degrees below the horizontal.
  public var dip: Double?
  /// The heading's magnetometer status letter as an ASCII byte (field 1); `nil` when empty.
  public var magnetometerStatus: UInt8?
  /// The pitch's status letter as an ASCII byte (field 3); `nil` when empty.
  public var pitchStatus: UInt8?
  /// The roll's status letter as an ASCII byte (field 5); `nil` when empty.
  public var rollStatus: UInt8?
  /// Whether the angles were raw counts, scaled here.
  public var wasRaw: Bool

  /// Degrees per raw count.
  public static let degreesPerCount = 360.0 / 65536

  /// Whether a True North compass's four angles can only be raw counts: a heading or dip
  /// beyond 360, or a pitch or roll beyond 180, is no angle in degrees. The decision is
  /// made for the four together, as the compass reports all in one unit. gpsd passes the
  /// compass's numbers on unscaled in its ATT reports, so its readers decide with this too.
  public static func areRawCounts(heading: Double?, pitch: Double?, roll: Double?, dip: Double?) -> Bool {
    (heading ?? 0) > 360 || abs(dip ?? 0) > 360 || abs(pitch ?? 0) > 180 || abs(roll ?? 0) > 180
  }

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 6, name: "roll status")
    let statuses: StaticString = "NCLMOPV"
    var heading = try fields.decimal(0, "heading", in: 0...65535)
    magnetometerStatus = fields.informational(1, oneOf: statuses)
    var pitch = try fields.decimal(2, "pitch", in: -32768...32767)
    pitchStatus = fields.informational(3, oneOf: statuses)
    var roll = try fields.decimal(4, "roll", in: -32768...32767)
    rollStatus = fields.informational(5, oneOf: statuses)
    var dip = try fields.decimal(6, "dip", in: -32768...65535)
    wasRaw = Self.areRawCounts(heading: heading, pitch: pitch, roll: roll, dip: dip)
    if wasRaw {
      heading = heading.map { $0 * Self.degreesPerCount }
      pitch = pitch.map { $0 * Self.degreesPerCount }
      roll = roll.map { $0 * Self.degreesPerCount }
      dip = dip.map { $0 * Self.degreesPerCount }
    }
    self.heading = heading
    self.pitch = pitch
    self.roll = roll
    self.dip = dip
  }
}

/// SkyTraq `$PSTI,036`: heading, pitch and roll from a dual-antenna receiver.
///
/// ```
/// Format:  $PSTI,036,hhmmss.sss,ddmmyy,x.x,x.x,x.x,a*hh
/// Fields:        0   1          2      3   4   5   6
/// Example: $PSTI,036,003832.000,290322,244.28,2.77,0.00,R*5D
/// ```
///
/// The mode is that of the baseline between the antennas: `N` no fix, `A` autonomous,
/// `D` differential, `E` estimated, `M` manual, `S` simulator, `F` float RTK, `R` fixed
/// RTK. SkyTraq documents the angles as meaningful in mode `R` only; other modes give none.
public struct PSTI036: Sendable, Equatable {
  /// UTC time of the measurement (field 1); `nil` when empty.
  public var time: TimeOfDay?
  /// UTC date (field 2, `ddmmyy`); `nil` when empty.
  public var date: CalendarDate?
  /// Degrees from true north.
  public var heading: Double?
  /// Pitch, degrees (field 4), −90 to 90; `nil` unless the mode is `R`.
  public var pitch: Double?
  /// Roll, degrees (field 5), −180 to 180; `nil` unless the mode is `R`.
  public var roll: Double?
  /// The baseline's mode letter as an ASCII byte (field 6, one of `NADEMSFR`); `nil` when
  /// empty.
  public var mode: UInt8?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 7, name: "mode")
    time = try fields.time(1)
    date = try fields.date(2)
    mode = try fields.character(6, "mode", oneOf: "NADEMSFR")
    let heading = try fields.decimal(3, "heading", in: 0...360)
    let pitch = try fields.decimal(4, "pitch", in: -90...90)
    let roll = try fields.decimal(5, "roll", in: -180...180)
    if mode == UInt8(ascii: "R") {
      self.heading = heading
      self.pitch = pitch
      self.roll = roll
    }
  }
}

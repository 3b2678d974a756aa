/// `$PASHR` in its attitude form (OxTS, Hemisphere and others; not Ashtech's `$PASHR,POS`):
/// true heading, roll, pitch and heave, with the sensor's own standard deviations.
///
/// ```
/// Format:  $PASHR,hhmmss.sss,HHH.HH,T,RRR.RR,PPP.PP,hhh.hh,r.rrr,p.ppp,h.hhh,Q,I*hh
/// Fields:         0          1      2 3      4      5      6     7     8     9 10
/// Example: $PASHR,204132.000,010.51,T,+00.39,-00.79,-00.84,0.151,0.075,0.555,1,0*03
/// ```
///
/// Roll is positive with the starboard side down, pitch positive bow up; the standard
/// deviations are 1-sigma degrees. `Q` is the GNSS quality (0 no position, 1 normal,
/// 2 RTK or differential), `I` the inertial alignment (0 aligning, 1 aligned).
public struct PASHRAttitude: Sendable, Equatable {
  public var time: TimeOfDay?
  /// Degrees from true north.
  public var heading: Double?
  public var roll: Double?
  public var pitch: Double?
  /// Metres, up positive.
  public var heave: Double?
  /// 1-sigma degrees.
  public var rollAccuracy: Double?
  public var pitchAccuracy: Double?
  public var headingAccuracy: Double?
  public var gnssQuality: Int?
  public var isAligned: Bool?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 6, name: "heave")
    time = try fields.time(0)
    heading = try fields.decimal(1, "heading", unit: UInt8(ascii: "T"), in: 0...360)
    roll = try fields.decimal(3, "roll", in: -180...180)
    pitch = try fields.decimal(4, "pitch", in: -90...90)
    heave = try fields.decimal(5, "heave", in: -10_000...10_000)
    rollAccuracy = try fields.decimal(6, "roll accuracy", in: 0...360)
    pitchAccuracy = try fields.decimal(7, "pitch accuracy", in: 0...360)
    headingAccuracy = try fields.decimal(8, "heading accuracy", in: 0...360)
    gnssQuality = try fields.integer(9, "GNSS quality", in: 0...9)
    isAligned = try fields.integer(10, "alignment", in: 0...1).map { $0 == 1 }
  }
}

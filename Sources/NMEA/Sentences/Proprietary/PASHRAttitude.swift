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
/// 2 RTK or differential), `I` the inertial alignment status: 0 aligning and 1 aligned in
/// the two-state definition (OxTS, Hemisphere); 0 GPS only, 1 coarse levelling, 2 degraded,
/// 3 aligned and 4 full navigation in the five-state one (Applanix POS and the units that
/// follow it). Both are read; a value above 4 rejects the sentence as out of range.
public struct PASHRAttitude: Sendable, Equatable {
  /// UTC time of the measurement (field 0); `nil` when empty.
  public var time: TimeOfDay?
  /// Degrees from true north.
  public var heading: Double?
  /// Roll, degrees, starboard side down positive (field 3); `nil` when empty.
  public var roll: Double?
  /// Pitch, degrees, bow up positive (field 4); `nil` when empty.
  public var pitch: Double?
  /// Metres, up positive.
  public var heave: Double?
  /// 1-sigma degrees.
  public var rollAccuracy: Double?
  /// The pitch's 1-sigma accuracy, degrees (field 7); `nil` when empty.
  public var pitchAccuracy: Double?
  /// The heading's 1-sigma accuracy, degrees (field 8); `nil` when empty.
  public var headingAccuracy: Double?
  /// The GNSS quality (field 9): 0 no position, 1 normal, 2 RTK or differential; `nil`
  /// when empty or absent.
  public var gnssQuality: Int?
  /// Whether the inertial alignment is complete (field 10): `true` for 1 (two-state
  /// "aligned"), 3 and 4, `false` for 0 and 2 (degraded); `nil` when empty or absent. A 1
  /// from a five-state unit ("coarse levelling") reads as aligned: the sentence does not
  /// say which definition it follows; ``alignmentStatus`` keeps the value.
  public var isAligned: Bool?
  /// The alignment status as sent (field 10, 0–4); `nil` when empty or absent.
  public var alignmentStatus: Int?

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
    alignmentStatus = try fields.integer(10, "alignment", in: 0...4)
    isAligned = alignmentStatus.map { $0 == 1 || $0 >= 3 }
  }
}

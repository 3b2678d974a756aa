/// GSA: DOP and the satellites used in the fix. Multi-constellation receivers send one
/// per constellation and cycle.
///
/// ```
/// Format:  $--GSA,a,x,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,x.x,x.x,x.x,h*hh
/// Fields:         0 1 2  3  4  5  6  7  8  9  10 11 12 13 14  15  16  17
/// Example: $GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2*0E
/// ```
/// Field 17 (system ID) came with NMEA 4.10. Some receivers list more than twelve
/// satellites; the three DOPs are then still the three fields before the system ID.
///
/// Informational field (a value unknown to it costs that field only, counted in
/// ``DecoderStatistics/ignoredFields``): 0 (selection mode, automatic or manual).
public struct GSA: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// `true` for automatic 2D/3D selection (`A`), `false` for manual (`M`).
  public var isAutomatic: Bool?
  /// The fix dimension (field 1: 1 no fix, 2 2D, 3 3D); `nil` when empty.
  public var mode: FixMode?
  /// The satellites used, in the sentence's numbering (count in `usedCount`).
  public var used: InlineArray<24, UInt16>
  /// How many entries of ``used`` are satellites, at most 24.
  public var usedCount: Int
  /// Position dilution of precision; `nil` when empty or the list was cut short.
  public var pdop: Double?
  /// Horizontal dilution of precision; `nil` when empty or the list was cut short.
  public var hdop: Double?
  /// Vertical dilution of precision; `nil` when empty or the list was cut short.
  public var vdop: Double?
  /// The constellation of the NMEA 4.10 system ID (field 17); `nil` when the sentence has
  /// none or an unknown one.
  public var constellation: Constellation?

  /// The satellites used, as an array.
  public var usedSatellites: [Int] { (0..<usedCount).map { Int(used[$0]) } }

  public static func == (lhs: GSA, rhs: GSA) -> Bool {
    lhs.talker == rhs.talker && lhs.isAutomatic == rhs.isAutomatic && lhs.mode == rhs.mode
      && lhs.usedSatellites == rhs.usedSatellites && lhs.pdop == rhs.pdop && lhs.hdop == rhs.hdop
      && lhs.vdop == rhs.vdop && lhs.constellation == rhs.constellation
  }

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 2, name: "fix type")
    self.talker = talker
    isAutomatic = fields.informational(0, oneOf: "AM").map { $0 == UInt8(ascii: "A") }
    mode = try fields.integer(1, "fix type", in: 1...3).flatMap(FixMode.init(rawValue:))
    // Twelve satellite fields, three DOPs and, from NMEA 4.10, a system ID.
    let hasSystemID =
      fields.count == 18 || fields.count > 18 && !fields.raw(fields.count - 1).contains(UInt8(ascii: "."))
    let dopStart = max(fields.count - (hasSystemID ? 4 : 3), 2)
    used = InlineArray(repeating: 0)
    usedCount = 0
    if fields.count >= 17 {
      for index in 2..<dopStart {
        guard let id = try fields.integer(index, "satellite ID", in: 1...999) else { continue }
        if usedCount < 24 {
          used[usedCount] = UInt16(id)
          usedCount += 1
        }
      }
      pdop = try fields.decimal(dopStart, "PDOP", in: 0...100_000)
      hdop = try fields.decimal(dopStart + 1, "HDOP", in: 0...100_000)
      vdop = try fields.decimal(dopStart + 2, "VDOP", in: 0...100_000)
      constellation =
        hasSystemID ? try fields.hexInteger(fields.count - 1, "system ID").flatMap(Constellation.init(systemID:)) : nil
    } else {
      // Truncated lists: whatever satellites there are, no DOPs.
      for index in 2..<max(fields.count, 2) {
        guard let id = try fields.integer(index, "satellite ID", in: 1...999) else { continue }
        if usedCount < 24 {
          used[usedCount] = UInt16(id)
          usedCount += 1
        }
      }
    }
  }
}

/// DTM: the datum the positions refer to, and its offset from WGS84.
///
/// ```
/// Format:  $--DTM,ccc,a,x.x,a,x.x,a,x.x,ccc*hh
/// Fields:         0   1 2   3 4   5 6   7
/// Example: $GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6F
/// ```
public struct DTM: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// The local datum code (`W84`, `W72`, `S85`, `P90`, `999` user-defined).
  public var localDatum: String?
  /// The local datum's subdivision code (field 1); `nil` when empty.
  public var subdivision: String?
  /// Offsets of the local datum, in minutes of arc (north and east positive) and metres.
  public var latitudeOffset: Double?
  /// Longitude offset, minutes of arc, east positive (fields 4–5); `nil` when empty.
  public var longitudeOffset: Double?
  /// Altitude offset, metres (field 6); `nil` when empty.
  public var altitudeOffset: Double?
  /// The reference datum code, normally `W84` (field 7); `nil` when empty.
  public var referenceDatum: String?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 8, name: "reference datum")
    self.talker = talker
    localDatum = fields.text(0)
    subdivision = fields.text(1)
    latitudeOffset = try Self.signed(fields, 2, "latitude offset", negative: UInt8(ascii: "S"), allowed: "NS")
    longitudeOffset = try Self.signed(fields, 4, "longitude offset", negative: UInt8(ascii: "W"), allowed: "EW")
    altitudeOffset = try fields.decimal(6, "altitude offset")
    referenceDatum = fields.text(7)
  }

  private static func signed(
    _ fields: FieldReader, _ index: Int, _ name: String, negative: UInt8, allowed: StaticString
  ) throws(FieldError) -> Double? {
    guard let value = try fields.decimal(index, name) else { return nil }
    return try fields.character(index + 1, of: name, suffix: " direction", oneOf: allowed) == negative ? -value : value
  }
}

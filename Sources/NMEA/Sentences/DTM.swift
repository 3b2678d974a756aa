/// DTM: the datum the positions refer to, and its offset from WGS84.
///
/// ```
/// Format:  $--DTM,ccc,a,x.x,a,x.x,a,x.x,ccc*hh
/// Fields:         0   1 2   3 4   5 6   7
/// Example: $GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6F
/// ```
public struct DTM: Sendable, Equatable {
  public var talker: Talker
  /// The local datum code (`W84`, `W72`, `S85`, `P90`, `999` user-defined).
  public var localDatum: String?
  public var subdivision: String?
  /// Offsets of the local datum, in minutes of arc (north and east positive) and metres.
  public var latitudeOffset: Double?
  public var longitudeOffset: Double?
  public var altitudeOffset: Double?
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
    return try fields.character(index + 1, name + " direction", oneOf: allowed) == negative ? -value : value
  }
}

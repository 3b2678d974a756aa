/// GSV: satellites in view, four per sentence, over several sentences.
///
/// ```
/// Format:  $--GSV,x,x,xx,xx,xx,xxx,xx,...,h*hh
/// Fields:         0 1 2  3  4  5   6  (3–6 repeat up to four times) then signal ID
/// Example: $GPGSV,3,1,11,02,60,319,36,05,77,132,38,11,29,052,29,12,46,186,46*74
/// ```
/// The trailing signal ID (hexadecimal, `1`–`F`) came with NMEA 4.10.
public struct GSV: Sendable, Equatable {
  /// One satellite as a GSV sentence describes it; absent values were empty fields.
  public struct Satellite: Sendable, Equatable {
    /// The satellite ID in the sentence's numbering (the PRN for GPS), 0–999.
    public var id: Int
    /// Degrees above the horizon.
    @PackedDouble public var elevation: Double?
    /// Degrees from true north.
    @PackedDouble public var azimuth: Double?
    /// Carrier-to-noise density, dB-Hz.
    @PackedDouble public var snr: Double?

    /// A satellite; absent values were empty fields.
    public init(id: Int, elevation: Double? = nil, azimuth: Double? = nil, snr: Double? = nil) {
      self.id = id
      self.elevation = elevation
      self.azimuth = azimuth
      self.snr = snr
    }
  }

  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// How many GSV sentences make up this report (field 0), 1–99.
  public var messageCount: Int
  /// This sentence's number within the report (field 1), from 1 to ``messageCount``.
  public var messageNumber: Int
  /// The total number of satellites in view (field 2); `nil` when empty.
  public var satellitesInView: Int?
  /// The NMEA 4.10 signal ID (the trailing field, hexadecimal); `nil` when absent.
  public var signalID: Int?
  /// The satellites described, in fixed storage; only the first ``entryCount`` are
  /// meaningful (see ``satellites``).
  public var entries: InlineArray<4, Satellite>
  /// How many of ``entries`` are satellites, 0–4; groups with an empty ID are skipped.
  public var entryCount: Int

  /// The satellites this sentence describes.
  public var satellites: [Satellite] { (0..<entryCount).map { entries[$0] } }

  public static func == (lhs: GSV, rhs: GSV) -> Bool {
    lhs.talker == rhs.talker && lhs.messageCount == rhs.messageCount
      && lhs.messageNumber == rhs.messageNumber && lhs.satellitesInView == rhs.satellitesInView
      && lhs.signalID == rhs.signalID && lhs.satellites == rhs.satellites
  }

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 3, name: "satellites in view")
    self.talker = talker
    guard let count = try fields.integer(0, "number of messages", in: 1...99),
      let number = try fields.integer(1, "message number", in: 1...99)
    else { throw FieldError(index: 0, name: "number of messages", problem: .missing) }
    guard number <= count else { throw FieldError(index: 1, name: "message number", problem: .outOfRange) }
    messageCount = count
    messageNumber = number
    satellitesInView = try fields.integer(2, "satellites in view", in: 0...999)
    let remainder = (fields.count - 3) % 4
    signalID = remainder == 1 ? try fields.hexInteger(fields.count - 1, "signal ID") : nil
    let groupFields = fields.count - 3 - (remainder == 1 ? 1 : 0)
    entries = InlineArray(repeating: Satellite(id: 0))
    entryCount = 0
    var index = 3
    while index < 3 + groupFields && entryCount < 4 {
      if let id = try fields.integer(index, "satellite ID", in: 0...999) {
        entries[entryCount] = Satellite(
          id: id,
          elevation: try fields.decimal(index + 1, "elevation", in: -90...90),
          azimuth: try fields.decimal(index + 2, "azimuth", in: 0...360),
          snr: try fields.decimal(index + 3, "SNR", in: 0...99))
        entryCount += 1
      }
      index += 4
    }
  }
}

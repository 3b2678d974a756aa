/// ZDA: UTC date and time with a four-digit year, and the local zone.
///
/// ```
/// Format:  $--ZDA,hhmmss.ss,xx,xx,xxxx,xx,xx*hh
/// Fields:         0         1  2  3    4  5
/// Example: $GPZDA,160012.71,11,03,2004,-1,00*7D
/// ```
public struct ZDA: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// UTC time (field 0); `nil` when empty.
  public var time: TimeOfDay?
  /// UTC date (fields 1–3: day, month, four-digit year); `nil` when all three are empty.
  public var date: CalendarDate?
  /// Local zone offset from UTC, minutes (hours field times 60, plus or minus minutes).
  public var zoneOffsetMinutes: Int?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 4, name: "year")
    self.talker = talker
    time = try fields.time(0)
    let day = try fields.integer(1, "day", in: 1...31)
    let month = try fields.integer(2, "month", in: 1...12)
    let year = try fields.integer(3, "year", in: 1980...2999)
    if let day, let month, let year {
      guard let date = CalendarDate(year: year, month: month, day: day) else {
        throw FieldError(index: 1, name: "day", problem: .outOfRange)
      }
      self.date = date
    } else if day != nil || month != nil || year != nil {
      throw FieldError(index: 1, name: "date", problem: .incompletePair)
    }
    let zoneField = fields.raw(4)
    if !zoneField.isEmpty {
      guard let hours = DecimalDigits(zoneField), hours.fractionDigits == 0, hours.integerPart <= 13 else {
        throw FieldError(index: 4, name: "zone hours", problem: .outOfRange)
      }
      let minutes = try fields.integer(5, "zone minutes", in: 0...59) ?? 0
      let magnitude = Int(hours.integerPart) * 60 + minutes
      zoneOffsetMinutes = hours.negative ? -magnitude : magnitude
    }
  }
}

/// A UTC time of day, as NMEA sentences carry it, to the microsecond.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Microseconds since midnight UTC; up to one leap second past 23:59:59.
  public var microseconds: Int64

  /// Microseconds in a day without a leap second.
  public static let microsecondsPerDay: Int64 = 86_400_000_000

  /// Creates a time of day from microseconds since midnight.
  public init(microseconds: Int64) { self.microseconds = microseconds }

  /// Creates a time of day from its parts; `nil` when a part is out of range. Second 60
  /// is a leap second, only at 23:59 (where UTC inserts them).
  public init?(hour: Int, minute: Int, second: Int, microsecond: Int = 0) {
    guard (0...23).contains(hour), (0...59).contains(minute),
      (0...59).contains(second) || (hour, minute, second) == (23, 59, 60),
      (0..<1_000_000).contains(microsecond)
    else { return nil }
    microseconds =
      (Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)) * 1_000_000 + Int64(microsecond)
  }

  /// Seconds since midnight, with the fraction.
  public var seconds: Double { Double(microseconds) / 1e6 }

  /// Whether this is a leap second, `23:59:60.xxx`: as a ``Timestamp`` it is the next
  /// day's `00:00:00.xxx` (which counts no leap seconds), one second before it really is.
  public var isLeapSecond: Bool { microseconds >= Self.microsecondsPerDay }

  /// Hours, minutes and seconds (60 in a leap second), and milliseconds.
  package var clockParts: (hour: Int, minute: Int, second: Int, millisecond: Int) {
    let (seconds, milliseconds) = (microseconds / 1000).quotientAndRemainder(dividingBy: 1000)
    if seconds >= 86_400 { return (23, 59, Int(seconds - 86_400) + 60, Int(milliseconds)) }
    return (Int(seconds / 3600), Int(seconds / 60 % 60), Int(seconds % 60), Int(milliseconds))
  }

  public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
    lhs.microseconds < rhs.microseconds
  }

  /// `hh:mm:ss.sss` (`23:59:60.sss` in a leap second)
  public var description: String {
    let parts = clockParts
    return "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(parts.millisecond, 3))"
  }
}

/// A calendar date in UTC (proleptic Gregorian).
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The year in full (`2025`, not `25`).
  public var year: Int
  /// The month, 1 (January) to 12.
  public var month: Int
  /// The day of the month, from 1 to the month's last day.
  public var day: Int

  /// Creates a date; `nil` when the day does not exist.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `days` days after 1970-01-01.
  public init(daysSinceEpoch days: Int) {
    // Howard Hinnant's civil-from-days algorithm: exact for any Gregorian date.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days since 1970-01-01 (negative before it).
  public var daysSinceEpoch: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The next calendar day.
  public var next: CalendarDate { CalendarDate(daysSinceEpoch: daysSinceEpoch + 1) }
  /// The previous calendar day.
  public var previous: CalendarDate { CalendarDate(daysSinceEpoch: daysSinceEpoch - 1) }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  /// `YYYY-MM-DD`
  public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

  /// Parses `YYYY-MM-DD`.
  public init?(iso8601 text: some StringProtocol) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }
}

/// A point in UTC time: microseconds since 1970-01-01T00:00:00Z (leap seconds not counted).
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Microseconds since the Unix epoch.
  public var microsecondsSinceEpoch: Int64

  /// Creates a timestamp from microseconds since the Unix epoch.
  public init(microsecondsSinceEpoch: Int64) {
    self.microsecondsSinceEpoch = microsecondsSinceEpoch
  }

  /// Joins a date and a time of day.
  public init(date: CalendarDate, time: TimeOfDay) {
    microsecondsSinceEpoch =
      Int64(date.daysSinceEpoch) * TimeOfDay.microsecondsPerDay + time.microseconds
  }

  /// Seconds since the Unix epoch.
  public var secondsSinceEpoch: Double { Double(microsecondsSinceEpoch) / 1e6 }

  /// Whole days since the epoch (rounded down, so negative before it).
  private var days: Int64 {
    microsecondsSinceEpoch >= 0
      ? microsecondsSinceEpoch / TimeOfDay.microsecondsPerDay
      : (microsecondsSinceEpoch + 1) / TimeOfDay.microsecondsPerDay - 1
  }

  /// The date part.
  public var date: CalendarDate { CalendarDate(daysSinceEpoch: Int(days)) }

  /// `time` on this timestamp's day: `Timestamp(date: date, time: time)` without the
  /// round trip through the calendar.
  @inline(__always)
  package func onSameDay(at time: TimeOfDay) -> Timestamp {
    Timestamp(microsecondsSinceEpoch: days * TimeOfDay.microsecondsPerDay + time.microseconds)
  }

  /// The time-of-day part (from the day count, not the date: turning that back into
  /// days cost as much again, for every timestamp printed).
  public var timeOfDay: TimeOfDay {
    TimeOfDay(microseconds: microsecondsSinceEpoch - days * TimeOfDay.microsecondsPerDay)
  }

  /// The same time of day `days` whole days later (earlier when negative).
  package func shifted(byDays days: Int) -> Timestamp {
    Timestamp(microsecondsSinceEpoch: microsecondsSinceEpoch + Int64(days) * TimeOfDay.microsecondsPerDay)
  }

  /// Seconds from `other` to `self`.
  public func seconds(since other: Timestamp) -> Double {
    Double(microsecondsSinceEpoch - other.microsecondsSinceEpoch) / 1e6
  }

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
  }

  /// ISO 8601 in UTC with milliseconds, as gpsd prints it: `2024-05-01T12:00:00.000Z`.
  public var description: String { "\(date)T\(timeOfDay)Z" }
}

/// Zero-padded decimal without Foundation.
func pad(_ value: Int, _ width: Int) -> String {
  let digits = String(value)
  return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Gives time-only sentences a date, never from the computer's clock.
///
/// The tracker keeps an anchor: "at this time of day it was this date". RMC and ZDA set
/// it; every cycle then takes the day (the anchor's, the one before or the one after)
/// that puts it closest to the anchor, and moves the anchor along. So a log whose GGA
/// runs past midnight rolls forward to the next date by itself, and a late sentence from
/// before midnight keeps its day. A seed (`--date`, a `# Date:` comment) is weaker: it
/// names the date of the first cycle, whatever its time.
struct DateTracker: Equatable {
  private var anchor: Timestamp?
  private var seed: CalendarDate?
  /// How many dates the receiver has stated (see ``observe(_:at:)``): a decoder that
  /// stated none over a stretch dated every cycle of it by its anchor alone.
  private(set) var observations = 0

  /// Equal when they date what follows alike: the count of dates seen does not matter.
  static func == (a: DateTracker, b: DateTracker) -> Bool { a.anchor == b.anchor && a.seed == b.seed }

  /// Whole days from this tracker's anchor to `other`'s, when both have one and they
  /// differ by whole days only (a log without dates of its own, dated from a seed, read
  /// from different places); `nil` otherwise.
  func wholeDays(to other: DateTracker) -> Int? {
    guard let anchor, let theirs = other.anchor else { return nil }
    let difference = theirs.microsecondsSinceEpoch - anchor.microsecondsSinceEpoch
    guard difference % TimeOfDay.microsecondsPerDay == 0 else { return nil }
    return Int(difference / TimeOfDay.microsecondsPerDay)
  }

  /// The latest timestamp given: the anchor; `nil` before the first.
  var latest: Timestamp? { anchor }

  /// Whether this tracker can date nothing: no date seen, none seeded.
  var isEmpty: Bool { anchor == nil && seed == nil }

  /// Takes `other`'s anchor and seed (not its count of dates seen).
  mutating func adopt(_ other: DateTracker) {
    anchor = other.anchor
    seed = other.seed
  }

  /// Moves the anchor by `days` whole days.
  mutating func shift(byDays days: Int) {
    anchor = anchor?.shifted(byDays: days)
  }

  /// Seeds the date of the first cycle, unless a date is known already.
  /// Whether a date has been seen or resolved: then seeding changes nothing.
  var isAnchored: Bool { anchor != nil }

  mutating func seed(_ date: CalendarDate) {
    if anchor == nil { seed = date }
  }

  /// Records a date the receiver stated for a time of day.
  mutating func observe(_ date: CalendarDate, at time: TimeOfDay) {
    anchor = Timestamp(date: date, time: time)
    seed = nil
    observations += 1
  }

  /// The timestamp of `time` as ``resolve(_:)`` would give it, without moving the anchor
  /// (for readings between cycles, such as headings).
  func timestamp(for time: TimeOfDay) -> Timestamp? {
    var copy = self
    return copy.resolve(time)
  }

  /// The timestamp for a cycle at `time`, and the anchor moved to it; `nil` while no date
  /// is known.
  mutating func resolve(_ time: TimeOfDay) -> Timestamp? {
    if let anchor {
      let day = TimeOfDay.microsecondsPerDay
      let sameDay = anchor.onSameDay(at: time).microsecondsSinceEpoch
      let offset = sameDay - anchor.microsecondsSinceEpoch
      let shift = offset > day / 2 ? -day : offset < -day / 2 ? day : 0
      let resolved = Timestamp(microsecondsSinceEpoch: sameDay + shift)
      self.anchor = resolved
      return resolved
    }
    if let seed {
      let resolved = Timestamp(date: seed, time: time)
      anchor = resolved
      self.seed = nil
      return resolved
    }
    return nil
  }
}

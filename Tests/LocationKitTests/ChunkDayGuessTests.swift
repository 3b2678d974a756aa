import NMEA
import Testing

@testable import LocationKit

/// A worker of a log that states no date guesses its chunk's day: the first at or after
/// the time the merger dated last with the time of day its warm-up reached.
@Suite struct ChunkDayGuessTests {
  static func time(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Timestamp {
    Timestamp(
      date: CalendarDate(year: 2026, month: 12, day: day)!, time: TimeOfDay(hour: hour, minute: minute, second: 0)!)
  }

  @Test func theDayIsTheFirstAtOrAfterTheMergersTime() {
    // The worker dated from the seed's day (the 1st); the merger is at 22:00 on the 3rd.
    #expect(ChunkReader.days(from: Self.time(1, 23), toTheFirstAfter: Self.time(3, 22)) == 2)
    #expect(ChunkReader.days(from: Self.time(1, 1), toTheFirstAfter: Self.time(3, 22)) == 3)
    // The same time: that day.
    #expect(ChunkReader.days(from: Self.time(1, 22), toTheFirstAfter: Self.time(3, 22)) == 2)
    // Already right, and a worker ahead of the merger's day.
    #expect(ChunkReader.days(from: Self.time(3, 23), toTheFirstAfter: Self.time(3, 22)) == 0)
    #expect(ChunkReader.days(from: Self.time(5, 23), toTheFirstAfter: Self.time(3, 22)) == -2)
  }

  @Test func aTimeBeforeTheMergersIsTakenForTheNextDay() {
    // Time that went back in the log is guessed a day late: the merger moves it back.
    #expect(ChunkReader.days(from: Self.time(1, 21, 30), toTheFirstAfter: Self.time(1, 22)) == 1)
  }
}

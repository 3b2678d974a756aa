import TestSupport
import Testing

@testable import LocationKit

@Suite struct RecentIntervalsTests {
  /// The median kept across appends is the median of the last five values, recomputed
  /// from scratch, after every append of runs of equal and of differing values.
  @Test func theKeptMedianIsTheMedianOfTheLastFive() {
    var generator = SeededRandom(seed: 31)
    for _ in 0..<200 {
      var intervals = RecentIntervals()
      var appended: [Double] = []
      #expect(intervals.median == nil)
      for _ in 0..<60 {
        // Mostly a steady rate, with losses, rate changes and repeats.
        let value =
          Int.random(in: 0..<4, using: &generator) == 0
          ? Double(Int.random(in: 1...5, using: &generator)) / 10 : appended.last ?? 0.1
        intervals.append(value)
        appended.append(value)
        let recent = appended.suffix(5).sorted()
        #expect(intervals.median == recent[recent.count / 2], "\(appended.suffix(5))")
      }
    }
  }
}

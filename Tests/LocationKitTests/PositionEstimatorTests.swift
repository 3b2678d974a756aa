import TestSupport
import Testing

@testable import LocationKit

@Suite struct PositionEstimatorTests {
  @Test func theMedianBySelectionIsTheSortedOne() {
    var random = SeededRandom(seed: 42)
    for count in 1...200 {
      // Few distinct values too: ties are where a partition goes wrong.
      var values = (0..<count).map { _ in count % 3 == 0 ? Double(random.next() % 4) : random.gaussian() }
      let sorted = values.sorted()
      let expected =
        count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
      #expect(PositionEstimator.median(&values) == expected, "\(count) values")
      #expect(values.sorted() == sorted)
    }
  }
}

import Testing

@testable import LocationKit

/// The odometer's noise estimates rest on `MedianWindow`'s selection: it must give what
/// sorting gives, for every count, with ties, and once the window wraps round.
struct MedianWindowTests {
  @Test func theMedianIsTheSortedMiddle() {
    var random = SystemRandomNumberGenerator()
    for count in 1...80 {
      for draw in 0..<20 {
        // Few distinct values in half the draws: ties.
        let values = (0..<count).map { _ in
          draw % 2 == 0 ? Double(Int.random(in: 0..<4, using: &random)) : Double.random(in: -5...5, using: &random)
        }
        var window = MedianWindow(capacity: 600)
        values.forEach { window.append($0) }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        let expected = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        #expect(window.median == expected, "\(values)")
      }
    }
  }

  @Test func aFullWindowKeepsTheLatestValues() {
    var window = MedianWindow(capacity: 5)
    [100.0, 100, 100, 1, 2, 3, 4, 5].forEach { window.append($0) }
    #expect(window.count == 5)
    #expect(window.median == 3)
  }
}

/// Capped exponential backoff for reconnecting: 0.25 s, 0.5 s, 1 s, ... up to 8 s.
struct Backoff: Sendable {
  var initial: Double
  var maximum: Double
  private var next: Double

  init(initial: Double = 0.25, maximum: Double = 8) {
    self.initial = initial
    self.maximum = maximum
    next = initial
  }

  /// The delay before the next attempt; each call doubles the following one.
  mutating func delay() -> Double {
    let delay = next
    next = min(next * 2, maximum)
    return delay
  }

  /// Starts again from the initial delay (after a successful connection).
  mutating func reset() { next = initial }
}

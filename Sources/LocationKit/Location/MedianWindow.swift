/// The last values of a series and their median, worked out when asked.
struct MedianWindow: Sendable {
  private var values: [Double] = []
  private var next = 0
  private let capacity: Int
  /// The same values in ascending order, for a window whose median is asked after every
  /// value; `nil` for one asked seldom, where an insertion costs more than a selection.
  private var sorted: [Double]?

  /// A window of the last `capacity` values. `keepsSorted` keeps them in order as well,
  /// for a median asked after every value: it is then read (an insertion moves some
  /// hundred values), not selected in a copy (some ten thousand instructions for 600).
  init(capacity: Int, keepsSorted: Bool = false) {
    self.capacity = capacity
    values.reserveCapacity(capacity)
    if keepsSorted {
      sorted = []
      sorted?.reserveCapacity(capacity)
    }
  }

  var count: Int { values.count }

  mutating func append(_ value: Double) {
    var evicted: Double?
    if values.count < capacity {
      values.append(value)
    } else {
      evicted = values[next]
      values[next] = value
      next = (next + 1) % capacity
    }
    guard sorted != nil else { return }
    if let evicted { sorted!.remove(at: Self.firstIndex(notBelow: evicted, in: sorted!)) }
    sorted!.insert(value, at: Self.firstIndex(notBelow: value, in: sorted!))
  }

  /// The first index of `sorted` whose value is not below `value`.
  private static func firstIndex(notBelow value: Double, in sorted: [Double]) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The middle value (the mean of the two middle ones for an even count): read from the
  /// sorted values, or by selection in a copy (linear time); the same value either way.
  var median: Double {
    guard !values.isEmpty else { return 0 }
    if let sorted {
      let upper = sorted[sorted.count / 2]
      return sorted.count % 2 == 0 ? (sorted[sorted.count / 2 - 1] + upper) / 2 : upper
    }
    var copy = values
    return Median.of(&copy)
  }
}

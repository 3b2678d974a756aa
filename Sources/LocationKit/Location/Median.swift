/// Medians by selection, for the estimators that need robust figures from many values:
/// the regions' position estimate and the odometer's noise.
enum Median {
  /// The median of `values` (reordered), the mean of the middle two for an even count: by
  /// selection (Hoare's), in time linear in the count.
  static func of(_ values: inout [Double]) -> Double {
    let count = values.count
    precondition(count > 0)
    return values.withUnsafeMutableBufferPointer { buffer in
      let upper = select(buffer, count / 2)
      guard count % 2 == 0 else { return upper }
      // The lower middle is the largest of the values left of the upper one.
      var lower = buffer[0]
      for index in 1..<(count / 2) where buffer[index] > lower { lower = buffer[index] }
      return (lower + upper) / 2
    }
  }

  /// The value of rank `rank` (from 0) of `buffer`, which is reordered so that every
  /// value before that rank is at most it.
  private static func select(_ buffer: UnsafeMutableBufferPointer<Double>, _ rank: Int) -> Double {
    var low = 0
    var high = buffer.count - 1
    while low < high {
      let pivot = buffer[(low + high) / 2]
      var i = low
      var j = high
      while i <= j {
        while buffer[i] < pivot { i += 1 }
        while buffer[j] > pivot { j -= 1 }
        if i <= j {
          buffer.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if rank <= j {
        high = j
      } else if rank >= i {
        low = i
      } else {
        break
      }
    }
    return buffer[rank]
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// Hands chunk numbers to worker threads and their results back, in order, to one
/// consumer, with at most `window` chunks decoded ahead of the one it is waiting for (so
/// memory stays bounded whatever the file's size).
final class ChunkQueue<Item>: @unchecked Sendable {
  // @unchecked Sendable: every stored property is read and written only while
  // `condition` is locked; a result is stored by one worker and taken by the consumer,
  // which alone uses it afterwards.
  private let condition = ConditionLock()
  private let count: Int
  private let window: Int
  private var nextToDecode = 0
  private var nextToTake = 0
  private var results: [Int: Item] = [:]
  private var cancelled = false
  private var runningWorkers = 0

  /// A queue of `count` chunks.
  init(count: Int, window: Int) {
    self.count = count
    self.window = max(1, window)
  }

  /// Called by a worker before its first ``nextChunk()``.
  func workerStarted() {
    condition.withLock { runningWorkers += 1 }
  }

  /// Called by a worker when ``nextChunk()`` gave `nil`.
  func workerEnded() {
    condition.withLock {
      runningWorkers -= 1
      condition.broadcast()
    }
  }

  /// The next chunk to decode, once it is within the window; `nil` when all are taken or
  /// the queue was cancelled.
  func nextChunk() -> Int? {
    condition.withLock {
      while !cancelled && nextToDecode < count && nextToDecode >= nextToTake + window {
        condition.wait()
      }
      guard !cancelled, nextToDecode < count else { return nil }
      defer { nextToDecode += 1 }
      return nextToDecode
    }
  }

  /// Whether the consumer has stopped: a worker gives up the chunk it is decoding.
  var isCancelled: Bool { condition.withLock { cancelled } }

  /// Stores chunk `index`'s result for the consumer.
  func store(_ result: Item, for index: Int) {
    condition.withLock {
      results[index] = result
      condition.broadcast()
    }
  }

  /// Waits for the next chunk's result, in order; `nil` after the last or a cancel.
  func take() -> Item? {
    condition.withLock {
      while !cancelled && nextToTake < count && results[nextToTake] == nil { condition.wait() }
      guard !cancelled, nextToTake < count, let result = results.removeValue(forKey: nextToTake) else {
        return nil
      }
      nextToTake += 1
      condition.broadcast()
      return result
    }
  }

  /// Stops the workers at their next chunk and waits until every one has ended.
  func cancelAndWait() {
    condition.withLock {
      cancelled = true
      condition.broadcast()
      while runningWorkers > 0 { condition.wait() }
      results.removeAll()
    }
  }
}

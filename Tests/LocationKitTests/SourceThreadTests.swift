import Foundation
import Testing

@testable import LocationKit

/// The reading thread's stop protocol.
@Suite struct SourceThreadTests {
  /// A source that stops itself (a final error, from its own sink) is still finishing
  /// when that stop returns; a later stop from another thread waits until it is gone. A
  /// program that exited meanwhile had the thread half-way out, still holding its last
  /// event, which LeakSanitizer reported as leaked.
  @Test func aStopAfterTheThreadStoppedItselfWaitsForItsEnd() {
    for _ in 0..<20 {
      let reader = SourceThread()
      let stoppedItself = DispatchSemaphore(value: 0)
      let finished = Locked(false)
      reader.start(name: "test.self-stop") { _ in
        reader.stop()
        stoppedItself.signal()
        // Still at work after its own stop, as a source is while it unwinds.
        let busyUntil = SystemClock.monotonic() + 0.05
        while SystemClock.monotonic() < busyUntil {}
        finished.withLock { $0 = true }
      }
      #expect(stoppedItself.wait(timeout: .now() + 60) == .success)
      #expect(!reader.isRunning)
      reader.stop()
      #expect(finished.withLock { $0 }, "stop() returned while the thread was still running")
    }
  }

  /// Starting again after the thread stopped itself waits for the old one first: never
  /// two reading threads for one source.
  @Test func aRestartWaitsForTheThreadThatStoppedItself() {
    let reader = SourceThread()
    let running = Locked(0)
    let most = Locked(0)
    for _ in 0..<20 {
      let stoppedItself = DispatchSemaphore(value: 0)
      reader.start(name: "test.restart") { _ in
        let now = running.withLock { count -> Int in
          count += 1
          return count
        }
        most.withLock { $0 = max($0, now) }
        reader.stop()
        stoppedItself.signal()
        let busyUntil = SystemClock.monotonic() + 0.01
        while SystemClock.monotonic() < busyUntil {}
        running.withLock { $0 -= 1 }
      }
      #expect(stoppedItself.wait(timeout: .now() + 60) == .success)
    }
    reader.stop()
    #expect(most.withLock { $0 } == 1)
    #expect(running.withLock { $0 } == 0)
  }
}

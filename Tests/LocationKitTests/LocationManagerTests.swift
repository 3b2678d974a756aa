import Foundation
import NMEA
import TestSupport
import Testing

@testable import LocationKit

/// A manager reading `terminal` as a serial receiver at `baud`, recorded; nothing started.
func recordedManager(
  _ terminal: PseudoTerminal, baud: Int, options: NMEASource.Options = NMEASource.Options()
) -> (LocationManager, Recorder) {
  let manager = LocationManager(source: NMEASource(.serial(path: terminal.devicePath, baud: baud), options: options))
  let recorder = Recorder()
  manager.delegate = recorder
  return (manager, recorder)
}

/// A manager updating from the serial receiver at `path`, retrying within 0.05 to 0.2 s
/// (a test does not wait seconds for the backoff), recorded.
func retryingSoon(path: String, baud: Int, waitsForDevice: Bool = false) -> (LocationManager, Recorder) {
  var options = NMEASource.Options()
  options.waitsForDevice = waitsForDevice
  options.initialBackoff = 0.05
  options.maximumBackoff = 0.2
  let manager = LocationManager(source: NMEASource(.serial(path: path, baud: baud), options: options))
  let recorder = Recorder()
  manager.delegate = recorder
  manager.startUpdatingLocation()
  return (manager, recorder)
}

@Suite(.serialized) struct LocationManagerTests {
  private func manager(_ text: String, name: String = #function, speed: Double? = nil) throws -> (
    LocationManager, Recorder
  ) {
    let path = try temporaryLog(text, name: name)
    let source = NMEASource(.file(path: path), options: .init(replaySpeed: speed))
    let manager = LocationManager(source: source)
    let recorder = Recorder()
    manager.delegate = recorder
    return (manager, recorder)
  }

  @Test func creatingAManagerStartsNothing() throws {
    let (manager, recorder) = try manager(cycle(0) + cycle(1))
    Thread.sleep(forTimeInterval: 0.1)
    #expect(recorder.events.isEmpty)
    #expect(!manager.isUpdating)
  }

  @Test func delegateGetsNewAndPreviousLocationsInOrder() throws {
    let (manager, recorder) = try manager((0..<5).map { cycle($0, metresNorth: Double($0) * 10) }.joined())
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    let events = recorder.events
    #expect(events.count == 6)
    guard case .update(let first, let none) = events[0] else {
      Issue.record("first event is not an update")
      return
    }
    #expect(none == nil, "no previous location on the first call")
    #expect(first.timestamp?.description == "2024-06-15T12:00:00.000Z")
    for index in 1..<5 {
      guard case .update(let location, let previous) = events[index], case .update(let earlier, _) = events[index - 1]
      else {
        Issue.record("event \(index) is not an update")
        return
      }
      #expect(previous == earlier)
      // The test log converts metres to minutes of latitude at 1852 m per minute.
      #expect(abs(location.distance(from: earlier) - 10) < 0.05)
    }
    #expect(recorder.errors.last?.code == .sourceEnded)
    #expect(!manager.isUpdating, "the end of a file is final")
    #expect(manager.location == recorder.locations.last)
  }

  /// `location` is the last one delivered, also after a later run that delivered none;
  /// a new run's first update has no previous location, and later ones have theirs.
  @Test func theLastLocationOutlivesARunThatDeliversNone() throws {
    let (manager, recorder) = try manager((0..<3).map { cycle($0, metresNorth: Double($0) * 10) }.joined())
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    let last = try #require(recorder.locations.last)
    #expect(manager.location == last)
    // No fix is this good: the second run delivers nothing.
    manager.desiredAccuracy = 0.000_001
    manager.startUpdatingLocation()
    #expect(recorder.wait { $0.filter { if case .failure = $0 { true } else { false } }.count == 2 })
    #expect(recorder.locations.count == 3)
    #expect(manager.location == last)
    // A third run delivers again, from no previous location.
    manager.desiredAccuracy = LocationAccuracy.best
    manager.startUpdatingLocation()
    #expect(recorder.wait { $0.filter { if case .failure = $0 { true } else { false } }.count == 3 })
    let updates = recorder.events.compactMap { event -> (Location, Location?)? in
      if case .update(let location, let previous) = event { (location, previous) } else { nil }
    }
    #expect(updates.count == 6, "\(recorder.events.map { "\($0)".prefix(60) })")
    guard updates.count == 6 else { return }
    #expect(updates[3].1 == nil)
    #expect(updates[4].1 == updates[3].0)
    #expect(manager.location == updates[5].0)
  }

  @Test func callbacksRunOnTheCallbackQueue() throws {
    let queue = DispatchQueue(label: "test.callbacks")
    queue.setSpecific(key: queueNameKey, value: "test.callbacks")
    let path = try temporaryLog(cycle(0) + cycle(1))
    let manager = LocationManager(source: NMEASource(.file(path: path)), callbackQueue: queue)
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    #expect(recorder.callbackThreads == ["test.callbacks"])
  }

  @Test func distanceFilterMeasuresFromTheLastDeliveredLocation() throws {
    let (manager, recorder) = try manager((0..<10).map { cycle($0, metresNorth: Double($0) * 4) }.joined())
    manager.distanceFilter = 10
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    // 0, 12, 24, 36 m: every third fix is at least 10 m from the last delivered one.
    let north = recorder.locations.map { ($0.latitude - 52.5) * 111_250 }
    #expect(recorder.locations.count == 4)
    #expect(zip(north, north.dropFirst()).allSatisfy { $1 - $0 >= 10 - 0.1 })
  }

  @Test func desiredAccuracyDropsWorseFixes() throws {
    // HDOP 1 → 4 m, HDOP 5 → 20 m with the autonomous UERE.
    let text = cycle(0, hdop: 1) + cycle(1, hdop: 5) + cycle(2, hdop: 1) + cycle(3, hdop: 5)
    let (manager, recorder) = try manager(text)
    manager.desiredAccuracy = LocationAccuracy.nearestTenMeters
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    #expect(recorder.locations.map(\.horizontalAccuracy) == [4, 4])
    let (everything, all) = try self.manager(text, name: "desiredAccuracyBest")
    everything.desiredAccuracy = LocationAccuracy.best
    everything.startUpdatingLocation()
    #expect(all.waitForError(.sourceEnded))
    #expect(all.locations.count == 4)
  }

  @Test func fixLossIsLocationUnknownOnceAndUpdatesResume() throws {
    let text = cycle(0) + cycle(1) + cycle(2, valid: false) + cycle(3, valid: false) + cycle(4) + cycle(5)
    let (manager, recorder) = try manager(text)
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    let kinds = recorder.events.map { event -> String in
      switch event {
      case .update: "update"
      case .failure(let error): error.kind
      case .movement(let movement): movement.state.description
      case .setAside(_, let reason): reason.description
      case .sky: "sky"
      case .heading: "heading"
      case .region(let event): "region \(event.state)"
      case .regionFailure: "region failure"
      }
    }
    #expect(kinds == ["update", "update", "location unknown", "update", "update", "source ended"])
  }

  @Test func watchdogReportsSilenceAndUpdatesResume() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 9600)
    manager.watchdogTimeout = 0.5
    manager.startUpdatingLocation()
    defer { manager.stopUpdatingLocation() }
    terminal.write(cycle(0) + cycle(1))
    #expect(recorder.wait { $0.count >= 1 })
    #expect(recorder.waitForError(.locationUnknown, timeout: 30))
    #expect(recorder.errors.first?.message.contains("no data") == true)
    terminal.write(cycle(2) + cycle(3))
    #expect(
      recorder.wait { events in events.count >= 3 && { if case .update = events.last! { true } else { false } }() })
    #expect(manager.isUpdating, "location unknown is transient")
  }

  @Test func requestLocationDeliversOneThenStops() throws {
    let (manager, recorder) = try manager((0..<50).map { cycle($0) }.joined())
    manager.requestLocation()
    #expect(recorder.wait { !$0.isEmpty })
    Thread.sleep(forTimeInterval: 0.2)
    #expect(recorder.events.count == 1)
    #expect(!manager.isUpdating)
  }

  /// Short of the accuracy asked for until the deadline: the most accurate fix it had,
  /// once, and no error (as Core Location does).
  @Test func requestLocationGivesTheBestItHadAtTheDeadline() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 9600)
    manager.desiredAccuracy = 1
    manager.requestLocation(timeout: 2)
    // HDOP 2, 1.5 and 3 times the autonomous UERE of 4 m: 8, 6 and 12 m.
    terminal.write(cycle(0, hdop: 2) + cycle(1, hdop: 1.5) + cycle(2, hdop: 3) + cycle(3, hdop: 3))
    #expect(recorder.wait { !$0.isEmpty })
    #expect(recorder.locations.count == 1 && recorder.errors.isEmpty, "\(recorder.events)")
    #expect(recorder.locations.first?.horizontalAccuracy == 6)
    #expect(!manager.isUpdating)
    // The manager's last location is the one it delivered (it had none).
    #expect(manager.location?.horizontalAccuracy == 6)
  }

  @Test func requestLocationTimesOutWithLocationUnknown() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 4800)
    let started = Date()
    manager.requestLocation(timeout: 0.5)
    #expect(recorder.waitForError(.locationUnknown, timeout: 30))
    #expect(Date().timeIntervalSince(started) >= 0.45)
    #expect(recorder.errors.first?.message.contains("within") == true)
    Thread.sleep(forTimeInterval: 0.1)
    #expect(!manager.isUpdating)
  }

  /// `--wait` for a receiver plugged in after the source starts: transient errors while
  /// its device does not exist, then its fixes; without the option, not found at once.
  @Test func aSerialReceiverNotPluggedInYetIsWaitedFor() throws {
    let path = NSTemporaryDirectory() + "whereami-plugged-later-\(getpid())"
    unlink(path)
    defer { unlink(path) }
    let absent = Recorder()
    let once = LocationManager(source: NMEASource(.serial(path: path, baud: 9600)))
    once.delegate = absent
    once.startUpdatingLocation()
    #expect(absent.waitForError(.sourceNotFound))
    once.stopUpdatingLocation()

    let (manager, recorder) = retryingSoon(path: path, baud: 9600, waitsForDevice: true)
    defer { manager.stopUpdatingLocation() }
    #expect(recorder.waitForError(.locationUnknown))
    #expect(recorder.errors.first?.message.hasSuffix("waiting for it to be plugged in") == true, "\(recorder.errors)")
    #expect(manager.isUpdating, "waiting is transient")
    // Plugged in: the device appears (a pseudo-terminal behind the path) and talks.
    let terminal = try PseudoTerminal()
    #expect(symlink(terminal.devicePath, path) == 0)
    // The receiver talks once a cycle until the source, retrying, has opened it and
    // delivered three fixes (what it said before the source opened it may be flushed).
    var second = 0
    while recorder.locations.count < 3, second < 600 {
      terminal.write(cycle(second))
      second += 1
      recorder.wait(timeout: 0.1) { events in
        events.count { if case .update = $0 { true } else { false } } >= 3
      }
    }
    #expect(recorder.locations.count >= 3, "\(recorder.errors)")
    manager.stopUpdatingLocation()
    _ = terminal
  }

  @Test func serialReceiverOverAPseudoTerminal() throws {
    let terminal = try PseudoTerminal()
    let source = NMEASource(.serial(path: terminal.devicePath, baud: 115_200))
    let manager = LocationManager(source: source)
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    let writer = Thread {
      for second in 0..<5 {
        terminal.write(cycle(second, metresNorth: Double(second)))
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
    writer.start()
    #expect(recorder.wait { $0.count >= 5 })
    let seconds = recorder.locations.compactMap { $0.timestamp?.timeOfDay.seconds }
    #expect(seconds == [43200, 43201, 43202, 43203, 43204])
    manager.stopUpdatingLocation()
  }

  /// Options whose idle completion (a cycle delivered after a silence) is far off, so
  /// that a cycle delivered within seconds can only have been delivered on its last
  /// sentence, however loaded the machine.
  private static let slowIdleCompletion: NMEASource.Options = {
    var options = NMEASource.Options()
    options.idleCompletion = 60
    return options
  }()

  @Test func liveCyclesAreDeliveredWithoutWaitingForTheNextOne() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 9600, options: Self.slowIdleCompletion)
    manager.startUpdatingLocation()
    defer { manager.stopUpdatingLocation() }
    // Once the cycle's last sentence is learned, a cycle comes out when it ends.
    terminal.write(cycle(0) + cycle(1) + cycle(2))
    #expect(recorder.wait { $0.count >= 3 })
    let before = recorder.events.count
    terminal.write(cycle(3))
    let started = Date()
    #expect(recorder.wait(timeout: 30) { $0.count > before })
    #expect(Date().timeIntervalSince(started) < 30, "not the 60 s idle completion")
  }

  @Test func aPipeIsLiveButItsEndIsFinal() throws {
    let fifo = try FIFO()
    let manager = LocationManager(source: NMEASource(.file(path: fifo.path), options: Self.slowIdleCompletion))
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    defer { manager.stopUpdatingLocation() }
    let writer = try fifo.openForWriting()
    writer.write(Data((cycle(0) + cycle(1) + cycle(2)).utf8))
    #expect(recorder.wait { $0.count >= 3 }, "the third cycle comes out without the fourth")
    let before = recorder.events.count
    let started = Date()
    writer.write(Data(cycle(3).utf8))
    #expect(recorder.wait(timeout: 30) { $0.count > before })
    #expect(Date().timeIntervalSince(started) < 30, "not the 60 s idle completion")
    try writer.close()
    #expect(recorder.waitForError(.sourceEnded))
    #expect(recorder.locations.count == 4)
    #expect(!manager.isUpdating, "the end of a pipe is not a receiver unplugged")
  }

  @Test func aLogPipedAtFullSpeedGivesTheFileFixes() throws {
    // An irregular receiver: every third cycle has its GST after the RMC that ends the
    // others. Completing cycles at the RMC mid-stream would lose those accuracies. (The
    // log fits in a pipe's 64 KiB, so the reader gets it in one piece.)
    let text = (0..<240).map { second in
      let time = String(format: "%02d%02d%02d.00", 12 + second / 3600, second / 60 % 60, second % 60)
      let gst = sentence("$GPGST,\(time),1.0,2.5,1.5,45.0,\(1 + second % 7),1.8,3.0")
      return second % 3 == 0 ? cycle(second) + gst : gst + cycle(second)
    }.joined()
    let path = try temporaryLog(text)
    let fileRecorder = Recorder()
    let fileManager = LocationManager(source: NMEASource(.file(path: path)))
    fileManager.delegate = fileRecorder
    fileManager.startUpdatingLocation()
    #expect(fileRecorder.waitForError(.sourceEnded))

    let fifo = try FIFO()
    let pipeRecorder = Recorder()
    let pipeManager = LocationManager(source: NMEASource(.file(path: fifo.path)))
    pipeManager.delegate = pipeRecorder
    pipeManager.startUpdatingLocation()
    defer { pipeManager.stopUpdatingLocation() }
    let writer = try fifo.openForWriting()
    writer.write(Data(text.utf8))
    try writer.close()
    #expect(pipeRecorder.waitForError(.sourceEnded))
    #expect(fileRecorder.locations.count == 240)
    #expect(text.utf8.count < 65536)
    #expect(pipeRecorder.locations == fileRecorder.locations)
    #expect(Set(fileRecorder.locations.map(\.horizontalAccuracy)).count == 7, "the GSTs were all used")
  }

  @Test func everyCorpusLogPipedAtFullSpeedGivesTheFileLocations() throws {
    // The 118 receivers of the gpsd corpus, with their varied sentence orders: a pipe is
    // live, yet read at full speed it must decode as the file does.
    let logs = corpusLogs
    #expect(logs.count >= 100, "the gpsd corpus is missing (set WHEREAMI_CORPUS)")
    var compared = 0
    for log in logs {
      let fileRecorder = Recorder()
      let fileManager = LocationManager(source: NMEASource(.file(path: log.path)))
      fileManager.delegate = fileRecorder
      fileManager.startUpdatingLocation()
      #expect(fileRecorder.waitForError(.sourceEnded, timeout: 60))

      let fifo = try FIFO()
      let pipeRecorder = Recorder()
      let pipeManager = LocationManager(source: NMEASource(.file(path: fifo.path)))
      pipeManager.delegate = pipeRecorder
      pipeManager.startUpdatingLocation()
      let writer = try fifo.openForWriting()
      writer.write(try Data(contentsOf: log))
      try writer.close()
      #expect(pipeRecorder.waitForError(.sourceEnded, timeout: 60))
      let (piped, read) = (pipeRecorder.locations, fileRecorder.locations)
      let firstDifference =
        zip(piped, read).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(piped.count, read.count)
      #expect(
        piped == read,
        "\(log.lastPathComponent): \(piped.count) locations piped, \(read.count) read, first difference at \(firstDifference)"
      )
      compared += read.count
      pipeManager.stopUpdatingLocation()
    }
    #expect(compared > 2000, "locations compared: \(compared)")
  }

  @Test func aDelegateThatFallsBehindIsNoSilenceOfTheSource() throws {
    let path = try temporaryLog((0..<300).map { cycle($0) }.joined())
    let queue = DispatchQueue(label: "test.slow-delegate")
    let manager = LocationManager(source: NMEASource(.file(path: path)), callbackQueue: queue)
    let recorder = Recorder()
    manager.delegate = recorder
    manager.watchdogTimeout = 0.3
    // The delegate's queue is busy for a while: the source fills the callback queue and
    // is held back, which is not the receiver falling silent.
    queue.async { Thread.sleep(forTimeInterval: 1.5) }
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded, timeout: 20))
    #expect(recorder.locations.count == 300)
    #expect(recorder.errors.map(\.code) == [.sourceEnded])
  }

  @Test func tcpSourceReconnectsWhenThePeerGoesAway() throws {
    let listener = try LoopbackListener()
    let source = NMEASource(.tcp(host: "127.0.0.1", port: listener.port))
    let manager = LocationManager(source: source)
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    defer { manager.stopUpdatingLocation() }
    #expect(listener.accept())
    listener.send(cycle(0) + cycle(1) + cycle(2))
    #expect(recorder.wait { $0.count >= 2 })
    // A peer that resets mid-sentence: the half sentence is lost, nothing else.
    listener.send("$GPGGA,1200")
    listener.dropClient()
    #expect(recorder.waitForError(.locationUnknown))
    #expect(recorder.errors.contains { $0.message.contains("reconnecting") })
    #expect(listener.accept(), "the source reconnects")
    listener.send(cycle(10) + cycle(11) + cycle(12))
    #expect(
      recorder.wait { events in
        events.contains { if case .update(let location, _) = $0 { location.timeOfDay.seconds == 43210 } else { false } }
      })
    #expect(manager.isUpdating)
  }

  @Test func tcpSourceWithoutAListenerRetries() throws {
    // A port that was bound and is closed again: connecting gives ECONNREFUSED.
    let refused = try LoopbackListener()
    let refusedPort = refused.port
    refused.stopListening()
    let manager = LocationManager(source: NMEASource(.tcp(host: "127.0.0.1", port: refusedPort)))
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    #expect(recorder.wait { $0.count >= 2 })
    manager.stopUpdatingLocation()
    let errors = recorder.errors
    #expect(errors.allSatisfy { $0.code == .cannotConnect })
    #expect(errors.first?.message.contains("127.0.0.1:\(refusedPort)") == true)
    #expect(errors.first?.message.contains("refused") == true)
  }

  @Test func replayIsPacedByTheLogsOwnTime() throws {
    // Eleven cycles one second apart: 10 s of log; at speed 10 about 1 s. Each fix is due
    // at a time set from the first, so a late wake-up on a loaded machine delays that fix
    // alone: the whole replay is at most a scheduling delay over 1 s, never 1 s per fix.
    let (manager, recorder) = try manager((0...10).map { cycle($0) }.joined(), speed: 10)
    let started = Date()
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded, timeout: 60))
    let elapsed = Date().timeIntervalSince(started)
    #expect(elapsed > 0.9 && elapsed < 2.5, "took \(elapsed) s")
    #expect(recorder.locations.count == 11)
  }

  @Test func stopReleasesTheSourceAtOnceAndNoCallbackFollows() throws {
    let terminal = try PseudoTerminal()
    let source = NMEASource(.serial(path: terminal.devicePath, baud: 9600))
    let manager = LocationManager(source: source)
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    terminal.write(cycle(0) + cycle(1))
    #expect(recorder.wait { $0.count >= 1 })
    #expect(descriptors(openOn: terminal.devicePath) == 2, "the test's own and the source's")
    let started = Date()
    manager.stopUpdatingLocation()
    // A stop that waited for the device's next byte would not return at all (none comes
    // before this check): the bound only allows for a loaded machine.
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(descriptors(openOn: terminal.devicePath) == 1, "the source closed the device")
    let count = recorder.events.count
    terminal.write(cycle(2) + cycle(3) + cycle(4))
    Thread.sleep(forTimeInterval: 0.4)
    #expect(recorder.events.count == count)
  }

  @Test func stopFromInsideTheCallbackWorks() throws {
    final class Stopper: LocationManagerDelegate, @unchecked Sendable {
      // @unchecked Sendable: `calls` is only touched under `lock`.
      private let lock = NSLock()
      private var calls = 0
      var count: Int { lock.withLock { calls } }
      func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
        lock.withLock { calls += 1 }
        manager.stopUpdatingLocation()
      }
    }
    let (manager, _) = try manager((0..<100).map { cycle($0) }.joined())
    let stopper = Stopper()
    manager.delegate = stopper
    manager.startUpdatingLocation()
    #expect(waitUntil { stopper.count >= 1 && !manager.isUpdating })
    // Time for a callback that should not come.
    Thread.sleep(forTimeInterval: 0.3)
    #expect(stopper.count == 1)
    #expect(!manager.isUpdating)
  }

  @Test func updatesAsAnAsyncSequence() async throws {
    let path = try temporaryLog((0..<3).map { cycle($0) }.joined())
    let manager = LocationManager(source: NMEASource(.file(path: path)))
    let updates = manager.updates
    manager.startUpdatingLocation()
    var seen: [String] = []
    for await event in updates {
      switch event {
      case .update(let location, _): seen.append(location.timeOfDay.description)
      case .failure(let error): seen.append(error.kind)
      case .movement(let movement): seen.append(movement.state.description)
      case .setAside(_, let reason): seen.append(reason.description)
      case .sky, .heading, .region, .regionFailure: break
      }
    }
    #expect(seen == ["12:00:00.000", "12:00:01.000", "12:00:02.000", "source ended"])
  }

  @Test func aSlowUpdatesConsumerHoldsTheSourceBackAndLosesNothing() async throws {
    // A sequence consumer that does not take anything for a while: the manager waits for
    // it, as for a slow delegate, instead of buffering the whole log for it.
    let path = try temporaryLog((0..<3000).map { cycle($0) }.joined())
    let manager = LocationManager(source: NMEASource(.file(path: path)))
    manager.watchdogTimeout = 0.3
    let updates = manager.updates
    manager.startUpdatingLocation()
    try await Task.sleep(for: .milliseconds(800))
    #expect(manager.isHoldingBackSource)
    var fixes = 0
    var errors: [LocationError.Code] = []
    for await event in updates {
      switch event {
      case .update: fixes += 1
      case .failure(let error): errors.append(error.code)
      default: break
      }
    }
    #expect(fixes == 3000)
    #expect(errors == [.sourceEnded])
  }

  /// Under `deliveryPolicy = .newestLocation`, a delegate still busy with one location
  /// gets the newest next, not the ones in between, which are counted; the source is not
  /// held back, and the end of the log still comes after the newest location.
  @Test func aBusyDelegateGetsTheNewestLocationUnderThatPolicy() throws {
    final class Busy: LocationManagerDelegate, @unchecked Sendable {
      // @unchecked Sendable: `seen` is only touched under `lock`; `release` is a semaphore.
      private let lock = NSLock()
      private var seen: [String] = []
      let release = DispatchSemaphore(value: 0)
      var events: [String] { lock.withLock { seen } }
      func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
        let first = lock.withLock {
          seen.append(location.timeOfDay.description)
          return seen.count == 1
        }
        if first { release.wait() }
      }
      func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
        lock.withLock { seen.append(error.kind) }
      }
    }
    let path = try temporaryLog((0..<3000).map { cycle($0) }.joined())
    let manager = LocationManager(source: NMEASource(.file(path: path)))
    manager.deliveryPolicy = .newestLocation
    let busy = Busy()
    manager.delegate = busy
    manager.startUpdatingLocation()
    defer { manager.stopUpdatingLocation() }
    // The delegate holds on to its first location until every other one has come.
    #expect(waitUntil { manager.skippedLocations == 2998 }, "\(manager.skippedLocations) skipped")
    #expect(!manager.isHoldingBackSource)
    busy.release.signal()
    #expect(waitUntil { busy.events.count == 3 }, "\(busy.events)")
    #expect(busy.events == ["12:00:00.000", "12:49:59.000", "source ended"])
  }

  @Test func missingFileIsSourceNotFound() throws {
    let manager = LocationManager(source: NMEASource(.file(path: "/nonexistent/x.nmea")))
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceNotFound))
    #expect(!manager.isUpdating)
  }
}

@Suite(.serialized) struct SerialReconnectionTests {
  @Test func aSerialDeviceThatGoesAwayAndComesBackIsReopened() throws {
    // The receiver is reached through a stable path (as udev names give), which is moved
    // to a new pseudo-terminal after the first one is closed: an unplug and replug.
    let link = NSTemporaryDirectory() + "whereami-ttyGPS-\(getpid())"
    var terminal: PseudoTerminal? = try PseudoTerminal()
    unlink(link)
    #expect(symlink(terminal!.devicePath, link) == 0)
    defer { unlink(link) }
    let (manager, recorder) = retryingSoon(path: link, baud: 4800)
    defer { manager.stopUpdatingLocation() }
    terminal!.write(cycle(0) + cycle(1) + cycle(2))
    #expect(recorder.wait { $0.count >= 2 })
    terminal = nil  // unplugged: the master side closes, reads fail
    #expect(recorder.waitForError(.locationUnknown))
    let replugged = try PseudoTerminal()
    let staging = link + ".new"
    #expect(symlink(replugged.devicePath, staging) == 0)
    #expect(rename(staging, link) == 0)
    // Written once the source has the new device open: a pseudo-terminal keeps nothing
    // for a reader that opens it later.
    #expect(waitUntil { descriptors(openOn: replugged.devicePath) >= 2 }, "the source reopens the device")
    replugged.write(cycle(10) + cycle(11) + cycle(12))
    #expect(
      recorder.wait { events in
        events.contains { if case .update(let location, _) = $0 { location.timeOfDay.seconds == 43210 } else { false } }
      }, "updates resume from the new device")
    #expect(manager.isUpdating)
  }
}

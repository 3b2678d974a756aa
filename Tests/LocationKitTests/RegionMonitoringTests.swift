import Foundation
import LocationKit
import NMEA
import TestSupport
import Testing

/// Region monitoring through the manager: the delegate's calls, the updates sequence,
/// requested states and failures.
@Suite(.serialized) struct RegionMonitoringTests {
  /// At rest, then north at 10 m/s to 500 m, at rest there, two cycles without a fix, and
  /// back at the start.
  static var log: String {
    var text = ""
    for second in 0..<20 { text += cycle(second, course: 0) }
    for second in 20..<70 {
      text += cycle(second, metresNorth: Double(second - 20) * 10, speedKnots: 10 / 0.514_444, course: 0)
    }
    for second in 70..<90 { text += cycle(second, metresNorth: 500, course: 0) }
    text += cycle(90, valid: false) + cycle(91, valid: false)
    for second in 92..<110 { text += cycle(second, course: 0) }
    return text
  }

  /// 52.5 N 13.4 E, where the log starts.
  static let home = try! Region(identifier: "home", latitude: 52.5, longitude: 13.4, radius: 100)

  private func manager(_ text: String, name: String = #function) throws -> (LocationManager, Recorder) {
    let path = try temporaryLog(text, name: name)
    let manager = LocationManager(source: NMEASource(.file(path: path)))
    let recorder = Recorder()
    manager.delegate = recorder
    return (manager, recorder)
  }

  @Test func theDelegateHearsEachStateAndEachCrossing() throws {
    let (manager, recorder) = try manager(Self.log)
    manager.startMonitoring(for: Self.home)
    #expect(manager.monitoredRegions == [Self.home])
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    let events = recorder.regionEvents
    #expect(events.map(\.state) == [.inside, .outside, .unknown, .inside])
    #expect(events.map(\.transition) == [nil, .exited, nil, .entered])
    #expect(recorder.regionCalls == ["exit home", "enter home"])
    // The exit came with the fix that decided it, on the way out at 10 m/s: past 100 m by
    // the threshold, within a few seconds.
    let exit = try #require(events.first { $0.transition == .exited })
    let second = try #require(exit.location).timeOfDay.microseconds / 1_000_000 - 12 * 3600
    let threshold = try #require(exit.threshold)
    #expect(try #require(exit.distance) > threshold)
    #expect(second >= 30 && second <= 40, "exit at second \(second), threshold \(threshold) m")
    // The delegate had the update before the region event it decided.
    let kinds = recorder.events.map { event -> String in
      switch event {
      case .update: "update"
      case .region: "region"
      default: "other"
      }
    }
    let firstRegion = try #require(kinds.firstIndex(of: "region"))
    #expect(kinds[firstRegion - 1] == "update")

    // Asked after the end: the last state, marked as asked.
    manager.requestState(for: Self.home)
    #expect(recorder.wait { $0.contains { if case .region(let event) = $0 { event.isRequested } else { false } } })
    #expect(recorder.regionEvents.last?.state == .inside)
    #expect(recorder.regionEvents.last?.isRequested == true)
    #expect(try #require(recorder.regionEvents.last?.distance) < -90)
  }

  @Test func theUpdatesSequenceCarriesTheSameEvents() async throws {
    let (manager, _) = try manager(Self.log)
    manager.startMonitoring(for: Self.home)
    let updates = manager.updates
    manager.startUpdatingLocation()
    var states: [RegionState] = []
    for await event in updates {
      if case .region(let regionEvent) = event { states.append(regionEvent.state) }
    }
    #expect(states == [.inside, .outside, .unknown, .inside])
  }

  @Test func stoppedRegionsAreNoLongerTold() throws {
    let (manager, recorder) = try manager(Self.log)
    let away = try Region(identifier: "away", latitude: 52.5045, longitude: 13.4, radius: 50)
    manager.startMonitoring(for: Self.home)
    manager.startMonitoring(for: away)
    manager.stopMonitoring(for: Self.home)
    #expect(manager.monitoredRegions.map(\.identifier) == ["away"])
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    #expect(Set(recorder.regionEvents.map(\.region.identifier)) == ["away"])
    // 500 m north is 0.0045° of latitude: the car parks inside "away" and leaves it again.
    #expect(recorder.regionCalls == ["enter away", "exit away"])
  }

  @Test func failuresAreErrorsOfTheExistingKinds() throws {
    let (manager, recorder) = try manager(Self.log)
    // 1 m is far less than 2.33 sigmas of a 4 m accuracy.
    let tiny = try Region(identifier: "tiny", latitude: 52.5, longitude: 13.4, radius: 1)
    manager.startMonitoring(for: tiny)
    var nameless = Self.home
    nameless.identifier = ""
    manager.startMonitoring(for: nameless)
    manager.requestState(for: Self.home)
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    let failures = recorder.events.compactMap { event -> (String?, LocationError.Code)? in
      if case .regionFailure(let region, let error) = event { (region?.identifier, error.code) } else { nil }
    }
    #expect(failures.map(\.0) == ["", "home", "tiny"])
    #expect(failures.map(\.1) == [.invalidSource, .invalidSource, .locationUnknown])
    // "tiny" is never decided: its state stays unknown, with no event.
    #expect(recorder.regionEvents.isEmpty)
    #expect(manager.monitoredRegions.map(\.identifier) == ["tiny"])
  }

  @Test func aRequestBeforeAnyFixIsUnknown() throws {
    let (manager, recorder) = try manager(Self.log)
    manager.startMonitoring(for: Self.home)
    manager.requestState(for: Self.home)
    #expect(recorder.wait { !$0.isEmpty })
    #expect(recorder.regionEvents.map(\.state) == [.unknown])
    #expect(recorder.regionEvents.first?.location == nil)
  }
}

extension RegionMonitoringTests {
  @Test func aCircleAboutTheNextFixMissesNoFix() throws {
    let (manager, recorder) = try manager(Self.log)
    try manager.startMonitoringCircle(identifier: "here", radius: 100)
    #expect(manager.monitoredRegions.isEmpty)
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    let events = recorder.regionEvents
    #expect(events.map(\.state) == [.inside, .outside, .unknown, .inside])
    // Placed at the first fix, and decided once there are five.
    let first = try #require(events.first)
    #expect(first.location?.timeOfDay.description == "12:00:04.000")
    guard case .circle(let latitude, let longitude, let radius) = first.region.shape else {
      Issue.record("not a circle")
      return
    }
    #expect(abs(latitude - 52.5) < 1e-7 && abs(longitude - 13.4) < 1e-7 && radius == 100)
    #expect(manager.monitoredRegions.map(\.identifier) == ["here"])
    #expect(throws: LocationError.self) { try manager.startMonitoringCircle(identifier: "x", radius: 0) }
    #expect(throws: LocationError.self) { try manager.startMonitoringCircle(identifier: "", radius: 5) }
  }

  /// A delegate that asks for a region's state from inside its callbacks, as an app would
  /// when it shows a fix: with a log read at full speed the queue is full, and the answer
  /// must not wait for it.
  final class Asking: LocationManagerDelegate, @unchecked Sendable {
    // @unchecked Sendable: `answers` is touched only on the manager's serial callback queue,
    // and read after the run has ended (stopUpdating drained the queue).
    let region: Region
    var answers = 0
    var ended = DispatchSemaphore(value: 0)
    init(_ region: Region) { self.region = region }
    func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
      manager.requestState(for: region)
    }
    func locationManager(
      _ manager: LocationManager, didDetermineState state: RegionState, for region: Region, event: RegionEvent
    ) {
      if event.isRequested { answers += 1 }
    }
    func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
      if error.code == .sourceEnded { ended.signal() }
    }
  }

  @Test func askingForAStateFromACallbackNeverWaitsForTheQueue() throws {
    var text = ""
    for second in 0..<600 { text += cycle(second, course: 0) }
    let path = try temporaryLog(text)
    let manager = LocationManager(source: NMEASource(.file(path: path)))
    let delegate = Asking(Self.home)
    manager.delegate = delegate
    manager.startMonitoring(for: Self.home)
    manager.startUpdatingLocation()
    #expect(delegate.ended.wait(timeout: .now() + 60) == .success, "the run never ended: a deadlock")
    manager.stopUpdating()
    #expect(delegate.answers > 0)
  }
}

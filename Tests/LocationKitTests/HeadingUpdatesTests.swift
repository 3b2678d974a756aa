import Foundation
import NMEA
import TestSupport
import Testing

@testable import LocationKit

/// Heading updates: apart from location updates, filtered by ``LocationManager/headingFilter``,
/// at the sensor's rate, and a sensor that stops is `headingUnknown` while locations go on.
@Suite(.serialized) struct HeadingUpdatesTests {
  /// A cycle at `second` with a GGA, an RMC and `headings` HDTs spread after it.
  private func cycle(_ second: Int, headings: [Double]) -> String {
    let time = String(format: "12%02d%02d.00", second / 60, second % 60)
    var text = checksummed("$GPGGA,\(time),5230.000000,N,01320.000000,E,1,08,0.9,35.0,M,40.0,M,,")
    text += checksummed("$GPRMC,\(time),A,5230.000000,N,01320.000000,E,0.0,,150626,3.0,E,A")
    for heading in headings { text += checksummed("$HEHDT,\(String(format: "%.1f", heading)),T") }
    return text
  }

  private func manager(_ text: String, name: String = #function, speed: Double? = nil) throws -> (
    LocationManager, Recorder
  ) {
    let path = try temporaryLog(text, name: name)
    let manager = LocationManager(source: NMEASource(.file(path: path), options: .init(replaySpeed: speed)))
    let recorder = Recorder()
    manager.delegate = recorder
    return (manager, recorder)
  }

  @Test func headingUpdatesComeApartFromLocationsAndPassTheFilter() throws {
    // Ten readings a second, turning 0.4° each: the default 1° filter passes every third.
    let text = (0..<3).map { (second: Int) -> String in
      let headings: [Double] = (0..<10).map { (tenth: Int) -> Double in
        HeadingMath.normalized(350 + Double(second * 10 + tenth) * 0.4)
      }
      return cycle(second, headings: headings)
    }.joined()
    let (manager, recorder) = try manager(text)
    manager.startUpdatingHeading()
    #expect(recorder.waitForError(.sourceEnded))
    #expect(recorder.locations.isEmpty, "heading updates alone deliver no locations")
    let headings = recorder.headings
    let directions = headings.compactMap(\.trueHeading)
    #expect(directions.count == headings.count && directions.count >= 9 && directions.count <= 11)
    for (earlier, later) in zip(directions, directions.dropFirst()) {
      #expect(HeadingMath.difference(earlier, later) >= 1 - 1e-9, "\(earlier)° then \(later)°")
    }
    // Across north: 359.6° to 0.4° is 0.8°, not 359.2°.
    #expect(directions.contains { $0 < 10 } && directions.contains { $0 > 350 })
    #expect(headings.first?.magneticHeading == 347, "the RMC's 3° E variation")
    #expect(headings.first?.declinationSource == .receiver && headings.first?.source == "HDT")

    let (everything, all) = try self.manager(text, name: "everything")
    everything.headingFilter = HeadingFilter.none
    everything.startUpdatingLocation()
    everything.startUpdatingHeading()
    #expect(all.waitForError(.sourceEnded))
    #expect(all.headings.count == 30 && all.locations.count == 3)
    #expect(abs((everything.heading?.trueHeading ?? 0) - 1.6) < 1e-9)
  }

  @Test func stoppingHeadingUpdatesLeavesLocationUpdatesRunning() throws {
    let text = (0..<40).map { cycle($0, headings: [Double($0)]) }.joined()
    let (manager, recorder) = try manager(text, speed: 10)
    manager.startUpdatingLocation()
    manager.startUpdatingHeading()
    #expect(recorder.wait(timeout: 30) { events in events.contains { if case .heading = $0 { true } else { false } } })
    manager.stopUpdatingHeading()
    #expect(manager.isUpdating && !manager.isUpdatingHeading)
    let headingsThen = recorder.headings.count
    let locationsThen = recorder.locations.count
    #expect(
      recorder.wait(timeout: 30) { events in
        events.filter { if case .update = $0 { true } else { false } }.count >= locationsThen + 5
      })
    #expect(recorder.headings.count <= headingsThen + 1, "at most one already under way")
    manager.stopUpdatingLocation()
    #expect(!manager.isUpdating)
  }

  /// A compass that stops while the receiver goes on: `headingUnknown` once, locations keep
  /// coming, and headings that resume are delivered again.
  @Test func aHeadingSensorThatStopsIsHeadingUnknownAndLocationsGoOn() throws {
    let text = (0..<30).map { second in
      cycle(second, headings: second < 5 || second >= 25 ? [Double(second * 10)] : [])
    }.joined()
    let (manager, recorder) = try manager(text, speed: 5)
    manager.watchdogTimeout = 1
    manager.headingFilter = HeadingFilter.none
    manager.startUpdatingLocation()
    manager.startUpdatingHeading()
    #expect(recorder.waitForError(.sourceEnded, timeout: 15))
    let kinds = recorder.events.map { event -> String in
      switch event {
      case .update: "L"
      case .heading: "H"
      case .failure(let error): error.code == .headingUnknown ? "U" : "E"
      default: ""
      }
    }.joined()
    #expect(recorder.errors.filter { $0.code == .headingUnknown }.count == 1, "\(kinds)")
    let unknown = try #require(kinds.firstIndex(of: "U"))
    #expect(kinds[unknown...].contains("L"), "location updates go on: \(kinds)")
    #expect(kinds[unknown...].contains("H"), "headings resume: \(kinds)")
    #expect(recorder.locations.count == 30)
    let message = try #require(recorder.errors.first { $0.code == .headingUnknown }?.message)
    #expect(message.hasPrefix("no heading from ") && !recorder.errors.contains { $0.code == .locationUnknown })
  }
}

/// A source whose events the test hands over itself, each from the calling thread.
final class HandDrivenSource: LocationSource {
  let name = "hand-driven"
  private let sink = Locked<(@Sendable (SourceEvent) -> Void)?>(nil)

  func start(_ sink: @escaping @Sendable (SourceEvent) -> Void) { self.sink.withLock { $0 = sink } }
  func stop() { sink.withLock { $0 = nil } }

  /// Hands `event` to the manager; it has been handled (and its callbacks queued) when
  /// this returns.
  func send(_ event: SourceEvent) { sink.withLock { $0 }?(event) }
}

/// Stopping location updates while heading updates go on.
@Suite struct StopLocationBesideHeadingsTests {
  /// A location already queued when a callback stops location updates (a delegate that
  /// has what it wanted) is not delivered after `stopUpdatingLocation()`; the headings
  /// queued with it and after it are.
  @Test func noLocationCallbackComesAfterStopUpdatingLocationReturns() {
    let queue = DispatchQueue(label: "held callbacks")
    let source = HandDrivenSource()
    let manager = LocationManager(source: source, callbackQueue: queue)
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdating(location: true, heading: true)
    // A callback under way: it stops location updates once the events below are queued.
    let release = DispatchSemaphore(value: 0)
    queue.async {
      release.wait()
      manager.stopUpdatingLocation()
    }
    let time = TimeOfDay(microseconds: 43_200_000_000)
    var location = Location(latitude: 52.5, longitude: 13.4, timeOfDay: time, mode: .threeD)
    location.horizontalAccuracy = 5
    source.send(.location(location))
    var heading = Heading(source: "HDT")
    heading.trueHeading = 90
    source.send(.heading(heading))
    release.signal()
    heading.trueHeading = 180
    source.send(.heading(heading))
    #expect(recorder.wait { $0.count >= 2 })
    manager.stopUpdating()
    #expect(recorder.locations.isEmpty, "\(recorder.events)")
    #expect(recorder.headings.compactMap(\.trueHeading) == [90, 180])
  }
}

/// Stopping location updates beside headings does not wait for the callback queue: a
/// consumer of ``LocationManager/updates`` that stops them, while the queue waits for it
/// to take an event, would wait for ever.
@Suite struct PartialStopWaitsForNothingTests {
  @Test func stopUpdatingLocationReturnsWhileACallbackIsBusy() {
    let queue = DispatchQueue(label: "busy callbacks")
    let source = HandDrivenSource()
    let manager = LocationManager(source: source, callbackQueue: queue)
    manager.startUpdating(location: true, heading: true)
    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    let returned = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      manager.stopUpdatingLocation()
      returned.signal()
    }
    let waitedForNothing = returned.wait(timeout: .now() + 30) == .success
    release.signal()
    #expect(waitedForNothing)
    if !waitedForNothing { _ = returned.wait(timeout: .now() + 30) }
    manager.stopUpdating()
  }

  /// With two receivers, after location updates stop (headings going on), neither is
  /// said to be silent: their fixes are no longer followed. One of them was, every
  /// watchdog timeout, as "no data from B ... its other devices report".
  @Test func noDeviceIsSaidSilentAfterLocationUpdatesStop() {
    let source = HandDrivenSource()
    let manager = LocationManager(source: source)
    manager.watchdogTimeout = 0.3
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdating(location: true, heading: true)
    var heading = Heading(source: "HDT")
    func fix(_ device: String, _ second: Int) -> Location {
      let time = TimeOfDay(microseconds: Int64(43_200 + second) * 1_000_000)
      var location = Location(latitude: 52.5, longitude: 13.4, timeOfDay: time, mode: .threeD)
      location.horizontalAccuracy = 5
      location.device = device
      return location
    }
    for second in 0..<3 {
      source.send(.location(fix("A", second)))
      source.send(.location(fix("B", second)))
    }
    #expect(recorder.wait { events in events.count { if case .update = $0 { true } else { false } } >= 6 })
    manager.stopUpdatingLocation()
    // A goes on and B falls silent, for well over the watchdog's timeout; the headings
    // go on. Each cycle is 50 ms, the receivers' pace.
    for cycle in 0..<40 {
      source.send(.location(fix("A", 3 + cycle)))
      heading.trueHeading = Double(cycle * 7 % 360)
      source.send(.heading(heading))
      recorder.wait(timeout: 0.05) { _ in false }
    }
    #expect(recorder.wait { $0.count { if case .heading = $0 { true } else { false } } >= 40 })
    manager.stopUpdating()
    #expect(recorder.errors.isEmpty, "\(recorder.errors)")
  }
}

/// A requested location delivered newest-first reaches the ``LocationManager/updates``
/// sequence before it ends.
@Suite struct RequestedLocationInTheSequenceTests {
  /// The location waited in its slot behind a sky view still queued when the request's
  /// answer ended the run; the sequence's end was queued ahead of it, and the sequence
  /// ended without it (the delegate had it).
  @Test func aRequestedLocationWaitingInItsSlotIsInTheSequence() async {
    let queue = DispatchQueue(label: "held callbacks")
    let source = HandDrivenSource()
    let manager = LocationManager(source: source, callbackQueue: queue)
    manager.deliveryPolicy = .newestLocation
    let recorder = Recorder()
    manager.delegate = recorder
    // Read once it has ended, from its buffer: a consumer task running meanwhile would
    // need a thread of the cooperative pool, which the suite's other tests may all hold.
    let updates = manager.updates
    manager.requestLocation(timeout: 60)
    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    let time = TimeOfDay(microseconds: 43_200_000_000)
    source.send(.noFix(SkyView(timeOfDay: time)))
    var location = Location(latitude: 52.5, longitude: 13.4, timeOfDay: time, mode: .threeD)
    location.horizontalAccuracy = 5
    source.send(.location(location))
    release.signal()
    #expect(recorder.wait { events in events.contains { if case .update = $0 { true } else { false } } })
    // Ends the sequence if the request's end has not yet (its events stay buffered).
    manager.stopUpdating()
    var received: [LocationEvent] = []
    for await event in updates { received.append(event) }
    #expect(recorder.locations.count == 1)
    let locations = received.filter { if case .update = $0 { true } else { false } }
    #expect(locations.count == 1, "\(received)")
  }

}

import Foundation
import LocationKit
import TestSupport

/// A delegate that records every callback, for tests to wait on and inspect.
final class Recorder: LocationManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable: `events` is only touched under `condition`'s lock.
  private let condition = NSCondition()
  private var recorded: [LocationEvent] = []
  private(set) var callbackThreads: Set<String> = []

  func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {
    record(.update(location, previous: previous))
  }

  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    record(.failure(error))
  }

  func locationManager(_ manager: LocationManager, didRecognize movement: MovementEvent) {
    record(.movement(movement))
  }

  func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading) {
    record(.heading(heading))
  }

  func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: Region, event: RegionEvent
  ) {
    record(.region(event))
  }

  func locationManager(_ manager: LocationManager, didEnterRegion region: Region, event: RegionEvent) {
    noteCall("enter \(region.identifier)")
  }

  func locationManager(_ manager: LocationManager, didExitRegion region: Region, event: RegionEvent) {
    noteCall("exit \(region.identifier)")
  }

  func locationManager(_ manager: LocationManager, monitoringDidFailFor region: Region?, withError error: LocationError)
  {
    record(.regionFailure(region, error))
  }

  /// The region callbacks that carry no event of their own (enter, exit), in order.
  var regionCalls: [String] {
    condition.lock()
    defer { condition.unlock() }
    return calls
  }
  private var calls: [String] = []

  private func noteCall(_ call: String) {
    condition.lock()
    calls.append(call)
    condition.unlock()
  }

  var regionEvents: [RegionEvent] {
    events.compactMap { if case .region(let event) = $0 { event } else { nil } }
  }

  var headings: [Heading] {
    events.compactMap { if case .heading(let heading) = $0 { heading } else { nil } }
  }

  var movements: [MovementEvent] {
    events.compactMap { if case .movement(let movement) = $0 { movement } else { nil } }
  }

  private func record(_ event: LocationEvent) {
    condition.lock()
    recorded.append(event)
    callbackThreads.insert(DispatchQueue.getSpecific(key: queueNameKey) ?? "unknown")
    condition.broadcast()
    condition.unlock()
  }

  var events: [LocationEvent] {
    condition.lock()
    defer { condition.unlock() }
    return recorded
  }

  var locations: [Location] {
    events.compactMap { if case .update(let location, _) = $0 { location } else { nil } }
  }

  var errors: [LocationError] {
    events.compactMap { if case .failure(let error) = $0 { error } else { nil } }
  }

  /// Waits until `predicate` holds for the events (or `timeout` passes); returns whether
  /// it held. The predicate gets the events: it must not call back into the recorder.
  @discardableResult
  func wait(timeout: Double = 30, until predicate: ([LocationEvent]) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(recorded) {
      if !condition.wait(until: deadline) { return predicate(recorded) }
    }
    return true
  }

  func waitForError(_ code: LocationError.Code, timeout: Double = 30) -> Bool {
    wait(timeout: timeout) { events in
      events.contains { if case .failure(let error) = $0 { error.code == code } else { false } }
    }
  }
}

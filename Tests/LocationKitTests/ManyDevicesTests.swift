import Foundation
import NMEA
import Testing

@testable import LocationKit

/// A source that reports `events` from its own thread, then its end.
final class ScriptedSource: LocationSource {
  let name: String
  let events: [SourceEvent]

  init(_ name: String, _ events: [SourceEvent]) {
    self.name = name
    self.events = events
  }

  func start(_ sink: @escaping @Sendable (SourceEvent) -> Void) {
    let (name, events) = (name, events)
    Thread {
      for event in events { sink(event) }
      sink(.error(LocationError(.sourceEnded, "\(name): end")))
    }.start()
  }

  /// The thread ends by itself, after the end it reports.
  func stop() {}
}

/// Sources of several devices: what the manager keeps of each, and what it says of each.
@Suite struct ManyDevicesTests {
  /// A fix at 12:00:00 plus `second`, from `device`.
  private static func location(_ device: String, second: Int = 0, north: Double = 0) -> Location {
    let time = TimeOfDay(microseconds: Int64(43_200 + second) * 1_000_000)
    var location = Location(latitude: 52.5 + north, longitude: 13.4, timeOfDay: time, mode: .threeD)
    location.horizontalAccuracy = 5
    location.device = device
    return location
  }

  private static func run(_ source: ScriptedSource, recognizing: Bool = false) -> (LocationManager, Recorder) {
    let manager = LocationManager(source: source)
    if recognizing { manager.movementRecognizer = MovementRecognizer() }
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    return (manager, recorder)
  }

  /// A manager fed by a thousand devices, each once (a UDP port that addresses without
  /// number send to), keeps a plausibility check and a movement recogniser for at most the
  /// devices it watches (256), not one for each device that ever reported: they had grown
  /// without bound.
  @Test func perDeviceStateStaysBounded() throws {
    let events = (0..<1000).map { index in
      SourceEvent.location(Self.location("192.0.2.\(index % 256)/\(index / 256)", north: Double(index) * 1e-6))
    }
    let (manager, recorder) = Self.run(ScriptedSource("many devices", events), recognizing: true)
    #expect(recorder.waitForError(.sourceEnded))
    #expect(recorder.locations.count == 1000)
    let kept = manager.devicesKept
    #expect(
      kept.plausibility <= LocationManager.watchedDevices && kept.recognizers <= LocationManager.watchedDevices + 1)
    #expect(kept.recognizers > 200, "\(kept)")
  }

  /// Two receivers, one with a fix and one without: the one without is said once, by
  /// name, not every cycle (the other's fixes had cleared the one flag for both).
  @Test func aDeviceWithoutAFixBesideOneWithIsSaidOnce() throws {
    let events = (0..<20).flatMap { second in
      [
        SourceEvent.location(Self.location("A", second: second)),
        .noFix(SkyView(timeOfDay: TimeOfDay(microseconds: Int64(43_200 + second) * 1_000_000), device: "B")),
      ]
    }
    let (_, recorder) = Self.run(ScriptedSource("two devices", events))
    #expect(recorder.waitForError(.sourceEnded))
    #expect(recorder.locations.count == 20)
    let noFix = recorder.errors.filter { $0.message.contains("no fix") }
    #expect(noFix.map(\.message) == ["two devices: no fix from B"], "\(noFix)")
  }
}

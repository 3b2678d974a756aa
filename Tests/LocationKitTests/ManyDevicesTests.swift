import Foundation
import NMEA
import Testing

@testable import LocationKit

/// A source of locations from many devices, one each, then its end: a UDP port that
/// addresses without number send to.
final class ManyDevicesSource: LocationSource {
  let name = "many devices"
  let devices: Int

  init(devices: Int) { self.devices = devices }

  func start(_ sink: @escaping @Sendable (SourceEvent) -> Void) {
    let devices = devices
    let thread = Thread {
      for index in 0..<devices {
        var location = Location(
          latitude: 52.5 + Double(index) * 1e-6, longitude: 13.4, timeOfDay: TimeOfDay(microseconds: 43_200_000_000),
          mode: .threeD)
        location.horizontalAccuracy = 5
        location.device = "192.0.2.\(index % 256)/\(index / 256)"
        sink(.location(location))
      }
      sink(.error(LocationError(.sourceEnded, "many devices: end")))
    }
    thread.start()
  }

  /// The thread ends by itself, after the end it reports.
  func stop() {}
}

@Suite struct ManyDevicesTests {
  /// A manager fed by a thousand devices, each once, keeps a plausibility check and a
  /// movement recogniser for at most the devices it watches (256), not one for each device
  /// that ever reported: they had grown without bound.
  @Test func perDeviceStateStaysBounded() throws {
    let manager = LocationManager(source: ManyDevicesSource(devices: 1000))
    manager.movementRecognizer = MovementRecognizer()
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
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
    let manager = LocationManager(source: TwoDevicesSource(cycles: 20))
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    #expect(recorder.waitForError(.sourceEnded))
    #expect(recorder.locations.count == 20)
    let noFix = recorder.errors.filter { $0.message.contains("no fix") }
    #expect(noFix.map(\.message) == ["two devices: no fix from B"], "\(noFix)")
  }
}

/// Device A with a fix and device B without one, a cycle each, then the end.
final class TwoDevicesSource: LocationSource {
  let name = "two devices"
  let cycles: Int

  init(cycles: Int) { self.cycles = cycles }

  func start(_ sink: @escaping @Sendable (SourceEvent) -> Void) {
    let cycles = cycles
    Thread {
      for second in 0..<cycles {
        let time = TimeOfDay(microseconds: Int64(43_200 + second) * 1_000_000)
        var location = Location(latitude: 52.5, longitude: 13.4, timeOfDay: time, mode: .threeD)
        location.horizontalAccuracy = 5
        location.device = "A"
        sink(.location(location))
        sink(.noFix(SkyView(timeOfDay: time, device: "B")))
      }
      sink(.error(LocationError(.sourceEnded, "two devices: end")))
    }.start()
  }

  /// The thread ends by itself, after the end it reports.
  func stop() {}
}

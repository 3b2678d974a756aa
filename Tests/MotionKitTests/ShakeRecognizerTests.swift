import Foundation
import MotionKit
import TestSupport
import Testing

/// The shake recogniser, through the same analysis the manager runs, on generated sensor
/// logs from families whose rates and noise differ: every shake found, no false one.
@Suite struct ShakeRecognizerTests {
  static let families: [MotionSimulator.Family] = {
    var random = SeededRandom(seed: 14)
    return (0..<24).map { index in
      MotionSimulator.Family(
        rate: [50, 100, 200][index % 3], sensorNoise: [0.001, 0.003, 0.006][(index / 3) % 3],
        tremor: random.uniform(0.01...0.04), tremorCorrelation: random.uniform(0.02...0.15),
        hasGyroscope: index % 2 == 0)
    }
  }()

  static func analyse(_ readings: [SensorReading]) -> [ShakeEvent] {
    var analysis = MotionAnalysis()
    var events: [ShakeEvent] = []
    for reading in readings { events += analysis.add(reading).shakes }
    if let last = readings.last, let final = analysis.finish(time: last.time) { events.append(final) }
    return events
  }

  static func phases(_ events: [ShakeEvent]) -> [String] {
    events.map { $0.phase.rawValue + ($0.cancelReason.map { "(\($0.rawValue))" } ?? "") }
  }

  static func randomAxis(_ random: inout SeededRandom) -> MotionVector {
    let axes = [
      MotionVector(x: 1, y: 0, z: 0), MotionVector(x: 0, y: 1, z: 0), MotionVector(x: 0, y: 0, z: 1),
      MotionVector(x: 1, y: 1, z: 0),
    ]
    return axes[Int(random.uniform(0...3.999))]
  }

  @Test(arguments: Array(families.indices))
  func everyShakeIsFound(_ index: Int) {
    let family = Self.families[index]
    var simulator = MotionSimulator(family: family, seed: UInt64(100 + index))
    var random = SeededRandom(seed: UInt64(200 + index))
    var shakes: [(start: Double, end: Double)] = []
    simulator.add(.hand(seconds: 2))
    for _ in 0..<3 {
      let start = simulator.now
      simulator.add(
        .shake(
          seconds: random.uniform(1.5...3), frequency: random.uniform(2.5...5), amplitude: random.uniform(1.8...3.5),
          axis: Self.randomAxis(&random)))
      shakes.append((start, simulator.now))
      simulator.add(.hand(seconds: 2))
    }
    let events = Self.analyse(simulator.readings)
    #expect(Self.phases(events) == ["began", "ended", "began", "ended", "began", "ended"], "\(family)")
    for (shake, ended) in zip(shakes, events.filter { $0.phase == .ended }) {
      #expect(ended.start >= shake.start && ended.start < shake.start + 0.5, "\(family)")
      #expect(ended.time > shake.end && ended.time < shake.end + 1, "\(family)")
      #expect(ended.peaks >= 5)
      #expect(ended.duration > 0.8 * (shake.end - shake.start) - 0.5)
    }
  }

  @Test(arguments: Array(families.indices))
  func bumpsWalkingAndRoughRoadsAreNotShakes(_ index: Int) {
    let family = Self.families[index]
    var simulator = MotionSimulator(family: family, seed: UInt64(300 + index))
    var random = SeededRandom(seed: UInt64(400 + index))
    simulator.add(.hand(seconds: 1))
    simulator.add(.bump(amplitude: random.uniform(1.6...2.6), width: random.uniform(0.03...0.08)))
    simulator.add(.hand(seconds: 2))
    simulator.add(.walk(seconds: 10, cadence: random.uniform(1.6...2.2), amplitude: random.uniform(0.2...0.6)))
    simulator.add(.hand(seconds: 1))
    simulator.add(
      .car(
        seconds: 20, sigma: random.uniform(0.05...0.25), correlationTime: random.uniform(0.03...0.2),
        pothole: random.uniform(1.6...2.2)))
    let events = Self.analyse(simulator.readings)
    #expect(events.isEmpty, "\(family): \(Self.phases(events))")
  }

  @Test(arguments: Array(families.indices))
  func aShakeEndingOnATableIsCancelled(_ index: Int) {
    let family = Self.families[index]
    var simulator = MotionSimulator(family: family, seed: UInt64(500 + index))
    var random = SeededRandom(seed: UInt64(600 + index))
    simulator.add(.hand(seconds: 1))
    simulator.add(
      .shake(
        seconds: 2, frequency: random.uniform(2...5), amplitude: random.uniform(1.8...3), axis: Self.randomAxis(&random)
      ))
    simulator.add(.table(seconds: 2))
    let events = Self.analyse(simulator.readings)
    #expect(Self.phases(events) == ["began", "cancelled(put down)"], "\(family)")
  }

  @Test(arguments: Array(families.indices))
  func tooFewPeaksAreCancelled(_ index: Int) {
    let family = Self.families[index]
    var simulator = MotionSimulator(family: family, seed: UInt64(700 + index))
    var random = SeededRandom(seed: UInt64(800 + index))
    simulator.add(.hand(seconds: 1))
    simulator.add(.shake(seconds: 0.5, frequency: 3, amplitude: random.uniform(2...3), axis: Self.randomAxis(&random)))
    simulator.add(.hand(seconds: 2))
    let events = Self.analyse(simulator.readings)
    #expect(Self.phases(events) == ["began", "cancelled(incomplete)"], "\(family)")
    #expect(events.allSatisfy { $0.peaks >= 2 && $0.peaks < 5 })
  }

  @Test func thresholdsAndStrengthAreOptions() {
    var options = ShakeRecognizer.Options()
    options.lightThreshold = 3
    var recognizer = ShakeRecognizer(options: options)
    var events: [ShakeEvent] = []
    // Ten strokes of 2.5 g at 4 Hz, 100 Hz: under a 3 g threshold, nothing.
    for index in 0..<300 {
      let t = Double(index) / 100
      let user = MotionVector(x: 2.5 * sin(2 * Double.pi * 4 * t) * (t < 1.25 ? 1 : 0), y: 0, z: 0)
      events += recognizer.add(time: t, acceleration: user + MotionVector(x: 0, y: 0, z: -1), userAcceleration: user)
    }
    #expect(events.isEmpty)
    // The default thresholds: a light shake, then a strong one.
    for amplitude in [1.8, 2.6] {
      var recognizer = ShakeRecognizer()
      var events: [ShakeEvent] = []
      for index in 0..<300 {
        let t = Double(index) / 100
        let user = MotionVector(x: amplitude * sin(2 * Double.pi * 4 * t) * (t < 1.25 ? 1 : 0), y: 0, z: 0)
        // A hand: a slow sway and a tremor.
        let hand = MotionVector(x: 0.05 * sin(2 * Double.pi * 1.3 * t), y: 0.02 * cos(Double(index) * 1.7), z: 0)
        events += recognizer.add(
          time: t, acceleration: user + hand + MotionVector(x: 0, y: 0, z: -1), userAcceleration: user + hand)
      }
      #expect(events.map(\.phase) == [.began, .ended])
      #expect(events.last?.strength == (amplitude > 2 ? .strong : .light))
      #expect(events.last?.peaks == 10)
      #expect(abs((events.last?.peakAcceleration ?? 0) - amplitude) < 0.05)
    }
  }
}

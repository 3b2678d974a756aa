import Foundation
import LocationKit
import NMEA
import TestSupport
import Testing

/// The odometer's goals, measured on logs generated here with a noise model that is not
/// the fixtures' (see `ReceiverModel`), each on several seeds: every seed draws another
/// receiver from the family (noise levels, correlation times, rates, precisions).
///
/// `WHEREAMI_ODOMETER_SEEDS=N` runs N seeds per case instead of the suite's few, and
/// `WHEREAMI_ODOMETER_TABLE=FILE` writes the README's table of measured values there
/// (`scripts/odometer-table` does both).
@Suite struct OdometerAccuracyTests {
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    /// The goal, asserted on every seed: an absolute bound in metres, or a relative one.
    var goal: Goal
    /// Where the goal is not yet the one the product aims for (issue #31), that aim: the
    /// table reports both, and the goal guards what is reached meanwhile.
    var target: Goal? = nil
    var make: @Sendable (inout SeededRandom) -> TrackSimulator
    var description: String { name }
  }

  enum Goal: Sendable {
    case below(metres: Double)
    case zero
    case within(fraction: Double)

    var text: String {
      switch self {
      case .below(let metres): "< \(Int(metres)) m"
      case .zero: "0 m"
      case .within(let fraction): "within ±\(String(format: "%g", fraction * 100)) %"
      }
    }
  }

  static let cases: [Case] = [
    Case(name: "standing, Doppler present", goal: .below(metres: 1)) { random in
      TrackSimulator(receiver: .drawn(&random), phases: [.stand(seconds: 3600)])
    },
    Case(name: "standing, no speed sentences", goal: .below(metres: 10)) { random in
      TrackSimulator(receiver: .drawn(&random, sendsSpeed: false), phases: [.stand(seconds: 3600)])
    },
    Case(name: "standing, 0.01-minute coordinates, speed 0.0", goal: .zero) { random in
      var receiver = ReceiverModel.drawn(&random)
      receiver.minuteDecimals = 2
      receiver.knotDecimals = 1
      receiver.zeroSpeedBelow = 0.5
      return TrackSimulator(receiver: receiver, phases: [.stand(seconds: 3600)])
    },
    Case(name: "standing, 0.01-minute coordinates, no speed sentences", goal: .below(metres: 10)) { random in
      var receiver = ReceiverModel.drawn(&random, sendsSpeed: false)
      receiver.minuteDecimals = 2
      return TrackSimulator(receiver: receiver, phases: [.stand(seconds: 3600)])
    },
    Case(name: "standing with multipath excursions, Doppler present", goal: .below(metres: 1)) { random in
      var receiver = ReceiverModel.drawn(&random)
      receiver.multipathPerHour = 6
      return TrackSimulator(receiver: receiver, phases: [.stand(seconds: 3600)])
    },
    Case(name: "walking, Doppler present", goal: .within(fraction: 0.01)) { random in
      TrackSimulator(receiver: .drawn(&random), style: .walking, phases: walk(&random))
    },
    Case(name: "walking, no speed sentences", goal: .within(fraction: 0.02)) { random in
      TrackSimulator(receiver: .drawn(&random, sendsSpeed: false), style: .walking, phases: walk(&random))
    },
    Case(
      name: "walking at 1.1 m/s, no speed sentences, 4 m correlated over 30 s + 1 m white",
      goal: .within(fraction: 0.03), target: .within(fraction: 0.02)
    ) { random in
      var receiver = ReceiverModel.drawn(&random, sendsSpeed: false)
      receiver.correlatedSigma = 4
      receiver.correlationTime = 30
      receiver.whiteSigma = 1
      return TrackSimulator(receiver: receiver, style: .walking, phases: walk(&random, pace: 1.1))
    },
    Case(name: "walking, speed in one cycle of four", goal: .within(fraction: 0.02)) { random in
      var receiver = ReceiverModel.drawn(&random)
      receiver.speedEvery = 4
      return TrackSimulator(receiver: receiver, style: .walking, phases: walk(&random))
    },
    Case(
      name: "driving with stops at lights and fix losses", goal: .within(fraction: 0.005),
      target: .within(fraction: 0.003)
    ) {
      random in
      var simulator = TrackSimulator(
        receiver: .drawn(&random, rate: [1, 2, 5][Int(random.next() % 3)]), style: .driving, phases: drive(&random))
      simulator.meanTimeBetweenOutages = 240
      simulator.outagesWhileStanding = true
      return simulator
    },
    Case(name: "cycling at 10 Hz (30 min)", goal: .within(fraction: 0.01)) { random in
      TrackSimulator(
        receiver: .drawn(&random, rate: 10), style: .cycling,
        phases: [.move(seconds: 1800, speed: random.uniform(4...7))])
    },
    Case(
      name: "slow movement 0.15–0.45 m/s, Doppler present", goal: .within(fraction: 0.05),
      target: .within(fraction: 0.03)
    ) {
      random in
      TrackSimulator(
        receiver: .drawn(&random), style: .drifting, phases: [.move(seconds: 3600, speed: random.uniform(0.15...0.45))])
    },
    Case(
      name: "standing for 10 min, then slow movement 0.15–0.45 m/s for 50 min, Doppler present",
      goal: .within(fraction: 0.05), target: .within(fraction: 0.03)
    ) { random in
      TrackSimulator(
        receiver: .drawn(&random), style: .drifting,
        phases: [.stand(seconds: 600), .move(seconds: 3000, speed: random.uniform(0.15...0.45))])
    },
    Case(
      name: "slow movement 0.15–0.45 m/s, no speed sentences", goal: .within(fraction: 0.2),
      target: .within(fraction: 0.1)
    ) { random in
      TrackSimulator(
        receiver: .drawn(&random, sendsSpeed: false), style: .drifting,
        phases: [.move(seconds: 3600, speed: random.uniform(0.15...0.45))])
    },
    Case(
      name: "slow movement for 30 min, then standing for 30 min, no speed sentences", goal: .within(fraction: 0.1)
    ) { random in
      TrackSimulator(
        receiver: .drawn(&random, sendsSpeed: false), style: .drifting,
        phases: [.move(seconds: 1800, speed: random.uniform(0.15...0.45)), .stand(seconds: 1800)])
    },
    Case(
      name: "standing with multipath excursions, no speed sentences", goal: .below(metres: 60),
      target: .below(metres: 20)
    ) { random in
      var receiver = ReceiverModel.drawn(&random, sendsSpeed: false)
      receiver.multipathPerHour = 6
      return TrackSimulator(receiver: receiver, phases: [.stand(seconds: 3600)])
    },
    Case(name: "standing, Doppler noise 0.2–0.3 m/s", goal: .below(metres: 5)) { random in
      var receiver = ReceiverModel.drawn(&random)
      receiver.speedSigma = random.uniform(0.2...0.3)
      return TrackSimulator(receiver: receiver, phases: [.stand(seconds: 3600)])
    },
    Case(name: "walking, logged every 5 s", goal: .within(fraction: 0.01)) { random in
      var receiver = ReceiverModel.drawn(&random)
      receiver.loggingInterval = 5
      return TrackSimulator(receiver: receiver, style: .walking, phases: walk(&random))
    },
    Case(name: "cycling, logged every 5 s (30 min)", goal: .within(fraction: 0.02), target: .within(fraction: 0.01)) {
      random in
      var receiver = ReceiverModel.drawn(&random)
      receiver.loggingInterval = 5
      return TrackSimulator(
        receiver: receiver, style: .cycling, phases: [.move(seconds: 1800, speed: random.uniform(4...7))])
    },
    Case(name: "driving, logged every 5 s", goal: .within(fraction: 0.02), target: .within(fraction: 0.01)) { random in
      var receiver = ReceiverModel.drawn(&random)
      receiver.loggingInterval = 5
      return TrackSimulator(receiver: receiver, style: .driving, phases: drive(&random))
    },
  ]

  /// An hour's walk at 1.1 to 1.6 m/s with a few pauses.
  static func walk(_ random: inout SeededRandom, pace: Double? = nil) -> [MovementPhase] {
    var phases: [MovementPhase] = []
    let pace = pace ?? random.uniform(1.1...1.6)
    while phases.totalSeconds < 3600 {
      phases.append(.move(seconds: random.uniform(300...900), speed: pace))
      phases.append(.stand(seconds: random.uniform(10...60)))
    }
    return phases
  }

  /// An hour in town: 1 to 4 minutes at 8 to 20 m/s, then 20 to 60 s at a light.
  static func drive(_ random: inout SeededRandom) -> [MovementPhase] {
    var phases: [MovementPhase] = []
    while phases.totalSeconds < 3600 {
      phases.append(.move(seconds: random.uniform(60...240), speed: random.uniform(8...20)))
      phases.append(.stand(seconds: random.uniform(20...60)))
    }
    return phases
  }

  struct Measurement {
    var truth: Double
    var distance: Double
    var pathLength: Double
    var bridged: Double
    var inOutages: Double
    var receiver: ReceiverModel
    /// The odometer's own 1-sigma uncertainty of ``distance``, metres.
    var distanceError = 0.0
  }

  static func measure(_ testCase: Case, seed: UInt64) -> Measurement {
    var random = SeededRandom(seed: seed)
    let simulator = testCase.make(&random)
    let track = simulator.generate(seed: seed &+ 1000)
    // To look at one receiver's log with `whereami`: the file is named by case and seed.
    if let directory = ProcessInfo.processInfo.environment["WHEREAMI_ODOMETER_LOGS"] {
      let name = testCase.name.map { $0.isLetter || $0.isNumber ? $0 : "-" }
      let path = "\(directory)/\(String(name))-\(seed).nmea"
      #expect(FileManager.default.createFile(atPath: path, contents: Data(track.nmea)), "could not write \(path)")
    }
    var decoder = NMEADecoder()
    var odometer = TrackOdometer()
    let handle: (DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event, let location = Location(fix) { odometer.add(location) }
    }
    track.nmea.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    return Measurement(
      truth: track.pathLength, distance: odometer.distance, pathLength: odometer.pathLength,
      bridged: odometer.bridgedDistance, inOutages: track.pathInOutages, receiver: simulator.receiver,
      distanceError: odometer.distanceError)
  }

  static var seedCount: Int {
    ProcessInfo.processInfo.environment["WHEREAMI_ODOMETER_SEEDS"].flatMap(Int.init) ?? 3
  }

  static func passes(_ goal: Goal, _ m: Measurement) -> Bool {
    switch goal {
    case .below(let metres): m.distance - m.truth < metres
    case .zero: m.distance == 0
    case .within(let fraction): abs(m.distance - m.truth) / m.truth <= fraction
    }
  }

  /// A slow movement's speeds, |v + n|, are corrected by the velocity noise's variance
  /// learned while the body seemed at rest; a drift that never stops teaches it its own
  /// turns too (seed 16: 0.0105 (m/s)² where the receiver's is 0.0081), and the distance
  /// reads 3 % short, 2.8 of a bar that left that out. The bar now carries what the fits
  /// the data allow put the variance at: every seed's truth is within two of it, and the
  /// bar stays within three times the errors' RMS.
  @Test func aSlowDriftsBarCoversTheNoiseItsSpeedsAreCorrectedBy() throws {
    let testCase = try #require(Self.cases.first { $0.name == "slow movement 0.15–0.45 m/s, Doppler present" })
    let rows = (1...20).map { Self.measure(testCase, seed: UInt64($0)) }
    for (seed, m) in zip(1..., rows) {
      #expect(
        abs(m.distance - m.truth) <= 2 * m.distanceError,
        "seed \(seed): \(m.distance) ± \(m.distanceError) m for \(m.truth)")
    }
    let rms = (rows.map { ($0.distance - $0.truth) * ($0.distance - $0.truth) }.reduce(0, +) / 20).squareRoot()
    let meanBar = rows.map(\.distanceError).reduce(0, +) / 20
    #expect(meanBar <= 3 * rms, "a mean bar of \(meanBar) m for errors of \(rms) m RMS")
  }

  /// A slow movement without speeds is a chain of departures from the noise; counted as
  /// long chords, it read 6 to 33 % short (the turns inside them lost), 8 % on average
  /// over these seeds. Its links, soon after each other, are shorter and their turns are
  /// counted back: the mean error over the seeds is now within ±3 %.
  @Test func aSlowMovementWithoutSpeedsIsCountedWithoutBias() throws {
    let testCase = try #require(Self.cases.first { $0.name == "slow movement 0.15–0.45 m/s, no speed sentences" })
    let errors = (1...6).map { seed in
      let m = Self.measure(testCase, seed: UInt64(seed))
      return (m.distance - m.truth) / m.truth
    }
    let mean = errors.reduce(0, +) / Double(errors.count)
    #expect(abs(mean) <= 0.03, "\(errors)")
  }

  /// Standing after a slow drift without speeds, noise passes the chain's 2σ test now and
  /// then. Each such link set the next link's window to five times its own spacing, so at
  /// rest the chain renewed itself for good: seed 10 added 49 m between 10 and 30 minutes
  /// into its stand, seed 20 11 m. The window now widens at most twofold per link.
  @Test func aChainEndsWhileTheReceiverStands() throws {
    let testCase = try #require(
      Self.cases.first { $0.name == "slow movement for 30 min, then standing for 30 min, no speed sentences" })
    for seed in [10, 20, 1, 2, 3] as [UInt64] {
      var random = SeededRandom(seed: seed)
      let track = testCase.make(&random).generate(seed: seed &+ 1000)
      var decoder = NMEADecoder()
      var odometer = TrackOdometer()
      var tenMinutesIn: Double?
      var fixes = 0
      let handle: (DecoderEvent) -> Void = { event in
        guard case .fix(let fix) = event, let location = Location(fix) else { return }
        // One fix a second (the family's receivers log at 1 Hz): 40 minutes in.
        if fixes == 2400 { tenMinutesIn = odometer.distance }
        fixes += 1
        odometer.add(location)
      }
      track.nmea.withUnsafeBytes { decoder.decode($0, handle) }
      decoder.finish(handle)
      let added = odometer.distance - (try #require(tenMinutesIn))
      #expect(added < 5, "seed \(seed): \(added) m added standing, from 10 minutes into the stand")
    }
  }

  @Test(arguments: cases) func meetsItsGoalOnEverySeed(_ testCase: Case) {
    var rows: [Measurement] = []
    for seed in 1...UInt64(Self.seedCount) {
      let m = Self.measure(testCase, seed: seed)
      rows.append(m)
      // One row per seed, to see which receivers miss and by how much.
      if let file = ProcessInfo.processInfo.environment["WHEREAMI_ODOMETER_SEED_ROWS"] {
        let row = [
          testCase.name, "\(seed)", String(format: "%.3f", m.truth), String(format: "%.3f", m.distance),
          String(format: "%.3f", m.distanceError), "\(m.receiver)",
        ]
        Self.appendLine(row.joined(separator: "\t") + "\n", to: file)
      }
      #expect(
        Self.passes(testCase.goal, m),
        "seed \(seed), \(m.receiver): \(m.distance) m for a true \(m.truth) m (raw steps \(m.pathLength) m; bridged \(m.bridged) m for \(m.inOutages) m in fix losses)"
      )
      // The error bar: the truth within three of its sigmas (and half a metre, for a
      // stand whose sigma is a few centimetres).
      #expect(
        abs(m.distance - m.truth) <= 3 * m.distanceError + 0.5,
        "seed \(seed), \(m.receiver): \(m.distance) ± \(m.distanceError) m for a true \(m.truth) m")
    }
    if let file = ProcessInfo.processInfo.environment["WHEREAMI_ODOMETER_TABLE"] {
      Self.append(testCase, rows, to: file)
    }
  }

  private static func append(_ testCase: Case, _ rows: [Measurement], to file: String) {
    func error(_ value: Double, _ m: Measurement) -> Double {
      switch testCase.goal {
      case .below, .zero: value - m.truth
      case .within: (value - m.truth) / m.truth * 100
      }
    }
    let unit = if case .within = testCase.goal { " %" } else { " m" }
    let errors = rows.map { error($0.distance, $0) }
    let raw = rows.map { error($0.pathLength, $0) }
    let worst = errors.max { abs($0) < abs($1) } ?? 0
    // The error bar: how many seeds' truth lies within ±2σ, and the mean σ beside the
    // error's RMS (the issue asks for at least 90 % covered, σ at most 3 times the RMS).
    let covered = rows.filter { abs($0.distance - $0.truth) <= 2 * $0.distanceError }.count
    let meanSigma = rows.map(\.distanceError).reduce(0, +) / Double(rows.count)
    let rms = (rows.map { ($0.distance - $0.truth) * ($0.distance - $0.truth) }.reduce(0, +) / Double(rows.count))
      .squareRoot()
    let met = testCase.target.map { target in rows.filter { Self.passes(target, $0) }.count }
    let goal = testCase.target.map { "\($0.text) (met on \(met!) of \(rows.count); asserted: \(testCase.goal.text))" }
    let line =
      "| \(testCase.name) | \(goal ?? testCase.goal.text) | \(String(format: "%+.2f", worst))\(unit) | "
      + "\(String(format: "%+.2f", errors.reduce(0, +) / Double(errors.count)))\(unit) | "
      + "\(String(format: "%+.1f", raw.reduce(0, +) / Double(raw.count)))\(unit) | \(rows.count) | "
      + "\(covered) of \(rows.count) | \(String(format: "%.1f m (%.1f m)", meanSigma, rms)) |\n"
    // The index lets the script put the rows in order.
    let index = cases.firstIndex { $0.name == testCase.name } ?? 0
    appendLine("\(index)\t\(line)", to: file)
  }

  /// Appends `line` to `file` in one `O_APPEND` write, so that lines from cases running
  /// in parallel stay whole.
  private static func appendLine(_ line: String, to file: String) {
    let descriptor = open(file, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard descriptor >= 0 else { return }
    _ = Array(line.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
  }
}

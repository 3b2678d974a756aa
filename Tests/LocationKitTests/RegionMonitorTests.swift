import Foundation
import Geodesy
import LocationKit
import NMEA
import TestSupport
import Testing

/// Region monitoring on generated receivers whose noise is not the fixtures': correlated
/// position error of 1 to 4 m over 30 to 90 s plus white noise, Doppler error of 0.03 to
/// 0.1 m/s correlated over 0.5 to 5 s, 4 to 7 decimals of minutes, with or without GST or
/// speeds, multipath excursions of 5 to 25 m over 20 to 90 s, and fix losses.
///
/// `WHEREAMI_ODOMETER_SEEDS=N` runs N seeds of each case (the sanitizer runs take one);
/// `WHEREAMI_REGION_REPORT=1` prints each run's figures, which the README's table gives.
@Suite struct RegionMonitorTests {
  /// One decision of the monitor: when (seconds from the log's start) and what.
  struct Decided {
    var second: Double
    var event: RegionEvent
  }

  struct Run {
    var events: [Decided] = []
    /// The threshold of the region at each fix, by the fix's centisecond.
    var thresholds: [Int: Double] = [:]
    var fixes = 0
  }

  /// The track through a monitor of `regions`, as the manager runs it: each fix with a
  /// position, and a fix loss for each cycle without one.
  static func monitor(_ track: SimulatedTrack, _ regions: [Region]) -> Run {
    var decoder = NMEADecoder()
    var monitor = RegionMonitor()
    regions.forEach { monitor.add($0) }
    var run = Run()
    // Seconds from the log's first cycle, by the time of day (a log without RMC has no
    // dates), across midnight.
    var start: Double?
    var days = 0.0
    var lastOfDay = 0.0
    func seconds(_ time: TimeOfDay) -> Double {
      let ofDay = Double(time.microseconds) / 1e6
      if ofDay < lastOfDay - 43_200 { days += 1 }
      lastOfDay = ofDay
      if start == nil { start = ofDay }
      return ofDay + days * 86_400 - start!
    }
    let handle: (DecoderEvent) -> Void = { event in
      guard case .fix(let fix) = event else { return }
      guard let location = Location(fix) else {
        let second = seconds(fix.timeOfDay)
        run.events += monitor.lose(device: "").map { Decided(second: second, event: $0) }
        return
      }
      let second = seconds(location.timeOfDay)
      run.fixes += 1
      run.events += monitor.add(location).map { Decided(second: second, event: $0) }
      run.thresholds[Int((second * 100).rounded())] = monitor.state(of: regions[0]).threshold
    }
    track.nmea.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    return run
  }

  static var seedCount: Int { OdometerAccuracyTests.seedCount }
  /// The seeds of the day-long cases (86,400 fixes each): one unless
  /// `WHEREAMI_ODOMETER_SEEDS` asks for more, as the README's figures did (10).
  static let daySeeds: [UInt64] = {
    let asked = ProcessInfo.processInfo.environment["WHEREAMI_ODOMETER_SEEDS"].flatMap(Int.init)
    return (1...UInt64(max(1, asked ?? 1))).map { $0 }
  }()
  static let reports = ProcessInfo.processInfo.environment["WHEREAMI_REGION_REPORT"] == "1"

  /// A point `metres` from the start along `azimuth`.
  static func offset(_ simulator: TrackSimulator, azimuth: Double, metres: Double) -> (Double, Double) {
    let point = Geodesic.wgs84.direct(
      latitude: simulator.start.latitude, longitude: simulator.start.longitude, azimuth: azimuth, distance: metres)
    return (point.latitude, point.longitude)
  }

  /// A receiver of the family, drawn from `seed`, with multipath at rest as asked.
  static func receiver(_ seed: UInt64, rate: Int = 1, sendsSpeed: Bool, multipathPerHour: Double) -> ReceiverModel {
    var random = SeededRandom(seed: seed &* 7919)
    var receiver = ReceiverModel.drawn(&random, rate: rate, sendsSpeed: sendsSpeed)
    receiver.multipathPerHour = multipathPerHour
    return receiver
  }

  // MARK: No false event

  /// A day standing 20 m from the centre of a 30 m circle (10 m inside), with a fix loss
  /// of 3 to 60 s an hour: the simulator and the circle.
  static func standingDay(_ seed: UInt64, sendsSpeed: Bool, multipathPerHour: Double) throws -> (
    TrackSimulator, Region
  ) {
    var simulator = TrackSimulator(
      receiver: receiver(seed, sendsSpeed: sendsSpeed, multipathPerHour: multipathPerHour),
      phases: [.stand(seconds: 86_400)])
    simulator.outagesWhileStanding = true
    simulator.meanTimeBetweenOutages = 3600
    let centre = offset(simulator, azimuth: Double(seed) * 47, metres: 20)
    return (simulator, try Region(identifier: "anchor", latitude: centre.0, longitude: centre.1, radius: 30))
  }

  /// Standing 10 m inside a 30 m circle for a day, with multipath excursions of up to 25 m
  /// (two an hour) and fix losses of 3 to 60 s (one an hour): never an exit. With Doppler
  /// speeds the excursions are told from movement; without them, see the next test.
  @Test(arguments: daySeeds)
  func aDayStandingInsideGivesNoExit(seed: UInt64) throws {
    let (simulator, circle) = try Self.standingDay(seed, sendsSpeed: true, multipathPerHour: 2)
    let run = Self.monitor(simulator.generate(seed: seed), [circle])
    let exits = run.events.filter { $0.event.transition == .exited }
    let inside = run.events.filter { $0.event.state == .inside }.count
    if Self.reports {
      print(
        "region report: standing inside, \(simulator.receiver): \(exits.count) exits, \(inside) insides, "
          + "\(run.events.count) state changes in \(run.fixes) fixes")
    }
    #expect(exits.isEmpty, "\(simulator.receiver): exits at \(exits.map(\.second))")
    #expect(run.events.contains { $0.event.state == .inside }, "never decided inside: \(simulator.receiver)")
  }

  /// Without speeds, an excursion cannot be told from movement: the same day without
  /// multipath gives no exit (with it, the README says what happens).
  @Test(arguments: daySeeds)
  func aDayStandingInsideWithoutSpeedsGivesNoExit(seed: UInt64) throws {
    var (simulator, circle) = try Self.standingDay(seed, sendsSpeed: false, multipathPerHour: 0)
    let run = Self.monitor(simulator.generate(seed: seed + 100), [circle])
    let exits = run.events.filter { $0.event.transition == .exited }
    if Self.reports {
      print("region report: standing inside without speeds, \(simulator.receiver): \(exits.count) exits")
      // The limit the README states: the same receiver with two excursions an hour.
      simulator.receiver.multipathPerHour = 2
      let excursions = Self.monitor(simulator.generate(seed: seed + 100), [circle]).events
      print(
        "region report: standing inside without speeds, with multipath, \(simulator.receiver): "
          + "\(excursions.filter { $0.event.transition == .exited }.count) exits")
    }
    #expect(exits.isEmpty, "\(simulator.receiver): exits at \(exits.map(\.second))")
  }

  /// Standing on the boundary for an hour: the hysteresis keeps the crossings to a handful.
  @Test(arguments: (1...UInt64(max(1, seedCount))).map { $0 })
  func anHourOnTheBoundaryGivesAtMostAHandfulOfCrossings(seed: UInt64) throws {
    for sendsSpeed in [true, false] {
      let simulator = TrackSimulator(
        receiver: Self.receiver(seed, sendsSpeed: sendsSpeed, multipathPerHour: 0), phases: [.stand(seconds: 3600)])
      let centre = Self.offset(simulator, azimuth: Double(seed) * 31, metres: 30)
      let circle = try Region(identifier: "edge", latitude: centre.0, longitude: centre.1, radius: 30)
      let run = Self.monitor(simulator.generate(seed: seed + 200), [circle])
      let crossings = run.events.filter { $0.event.transition != nil }
      if Self.reports { print("region report: on the boundary, \(simulator.receiver): \(crossings.count) crossings") }
      #expect(crossings.count <= 4, "\(simulator.receiver): \(crossings.map { ($0.second, $0.event.state) })")
    }
  }

  // MARK: Fast true events

  /// How long after the true position was past the boundary by twice the threshold (and by
  /// the threshold) the exit came, and whether anything came before the true crossing.
  struct Delay {
    var afterAllowance: Double
    var afterThreshold: Double
    var early: Bool
  }

  static func exitDelay(_ run: Run, _ track: SimulatedTrack, _ region: Region) throws -> Delay {
    let exit = try #require(run.events.first { $0.event.transition == .exited }, "no exit")
    var passedThreshold: Double?
    var passedAllowance: Double?
    var crossed: Double?
    for point in track.truth {
      let distance = region.signedDistance(latitude: point.latitude, longitude: point.longitude)
      guard let threshold = run.thresholds[Int((point.second * 100).rounded())] else { continue }
      if crossed == nil, distance > 0 { crossed = point.second }
      if passedThreshold == nil, distance > threshold { passedThreshold = point.second }
      if distance > 2 * threshold {
        passedAllowance = point.second
        break
      }
    }
    let allowance = try #require(passedAllowance, "never truly outside by the allowance")
    return Delay(
      afterAllowance: exit.second - allowance, afterThreshold: exit.second - (passedThreshold ?? allowance),
      early: exit.second < (crossed ?? allowance))
  }

  /// The seeds of the crossing cases, which are short: 20, or 2 in the sanitizer runs.
  static let crossingSeeds = (1...UInt64(seedCount >= 3 ? 20 : 2)).map { $0 }
  /// The receivers' rates, by seed.
  static func rate(_ seed: UInt64) -> Int { [1, 2, 5, 10][Int(seed % 4)] }

  /// A boat at anchor for ten minutes (with multipath excursions, 6 an hour), then
  /// dragging at 0.2 to 1 m/s out of its 30 m circle: the exit comes within 10 s of the
  /// boat being truly outside by the allowance, and never before it has crossed the
  /// boundary. Receivers of 1 to 10 Hz, two in three with speeds.
  @Test(arguments: crossingSeeds)
  func aDraggingBoatIsToldWithinTenSeconds(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &* 104_729)
    let speed = random.uniform(0.2...1)
    let sendsSpeed = seed % 3 != 0
    var simulator = TrackSimulator(
      receiver: Self.receiver(
        seed, rate: Self.rate(seed), sendsSpeed: sendsSpeed, multipathPerHour: sendsSpeed ? 6 : 0),
      style: MovementStyle(meanTimeBetweenTurns: .infinity, turnRate: 0, acceleration: 0.05, speedWander: 0.05),
      phases: [.stand(seconds: 600), .move(seconds: 150 / speed + 120, speed: speed)])
    simulator.recordsTruth = true
    let anchor = Self.offset(simulator, azimuth: 0, metres: 0)
    let circle = try Region(identifier: "anchor", latitude: anchor.0, longitude: anchor.1, radius: 30)
    let track = simulator.generate(seed: seed + 300)
    let run = Self.monitor(track, [circle])
    let delay = try Self.exitDelay(run, track, circle)
    if Self.reports {
      print(
        String(
          format:
            "region report: dragging at %.2f m/s, %@: exit %.1f s after the allowance, %.1f s after the threshold",
          speed, simulator.receiver.description, delay.afterAllowance, delay.afterThreshold))
    }
    #expect(delay.afterAllowance <= 10, "\(simulator.receiver), \(speed) m/s: \(delay.afterAllowance) s")
    #expect(!delay.early, "\(simulator.receiver): an exit before the boat crossed the boundary")
  }

  /// A car parked in a 120 m × 80 m depot for ten minutes, then leaving at 8 to 15 m/s.
  @Test(arguments: crossingSeeds)
  func aCarLeavingADepotIsToldWithinTenSeconds(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &* 15_485_863)
    let speed = random.uniform(8...15)
    var simulator = TrackSimulator(
      receiver: Self.receiver(seed, rate: Self.rate(seed), sendsSpeed: seed % 2 == 1, multipathPerHour: 0),
      style: .driving,
      phases: [.stand(seconds: 600), .move(seconds: 60, speed: speed)])
    simulator.recordsTruth = true
    let corners = [(50.0, 72.0), (130.0, 36.0), (230.0, 72.0), (310.0, 36.0)].map { angle, metres in
      Self.offset(simulator, azimuth: angle + Double(seed) * 13, metres: metres)
    }
    let depot = try Region(
      identifier: "depot",
      polygons: [RegionPolygon(outer: corners.map { RegionPolygon.Vertex(latitude: $0.0, longitude: $0.1) })])
    let track = simulator.generate(seed: seed + 400)
    let run = Self.monitor(track, [depot])
    let delay = try Self.exitDelay(run, track, depot)
    if Self.reports {
      print(
        String(
          format: "region report: leaving a depot at %.1f m/s, %@: exit %.1f s after the allowance", speed,
          simulator.receiver.description, delay.afterAllowance))
    }
    #expect(delay.afterAllowance <= 10, "\(simulator.receiver), \(speed) m/s: \(delay.afterAllowance) s")
    #expect(!delay.early)
    #expect(run.events.first?.event.state == .inside)
  }

  /// Arriving: a car from 300 m away drives into the depot's circle and parks; it is told
  /// as an entry (after the first decision, outside).
  @Test func arrivingIsAnEntry() throws {
    var simulator = TrackSimulator(
      receiver: Self.receiver(5, sendsSpeed: true, multipathPerHour: 0),
      style: MovementStyle(meanTimeBetweenTurns: .infinity, turnRate: 0, acceleration: 1, speedWander: 0.05),
      phases: [.stand(seconds: 60), .move(seconds: 300 / 10, speed: 10), .stand(seconds: 300)])
    simulator.initialHeading = 90
    let target = Self.offset(simulator, azimuth: 90, metres: 300)
    let circle = try Region(identifier: "home", latitude: target.0, longitude: target.1, radius: 50)
    let run = Self.monitor(simulator.generate(seed: 9), [circle])
    #expect(run.events.map(\.event.state) == [.outside, .inside])
    #expect(run.events.map(\.event.transition) == [nil, .entered])
  }

  @Test func aFixLossMakesTheStateUnknownAndACrossingMeanwhileIsStillTold() throws {
    var monitor = RegionMonitor()
    let circle = try Region(identifier: "c", latitude: 10, longitude: 20, radius: 100)
    monitor.add(circle)
    var events: [RegionEvent] = []
    func fix(_ second: Int, metresNorth: Double) {
      let point = Geodesic.wgs84.direct(latitude: 10, longitude: 20, azimuth: 0, distance: metresNorth)
      var location = Location(
        latitude: point.latitude, longitude: point.longitude,
        timeOfDay: TimeOfDay(microseconds: Int64(second) * 1_000_000))
      location.horizontalAccuracy = 3
      location.speed = 0
      location.course = 0
      location.speedSource = .receiver
      events += monitor.add(location)
    }
    for second in 0..<10 { fix(second, metresNorth: 0) }
    #expect(events.map(\.state) == [.inside])
    events += monitor.lose()
    #expect(events.map(\.state) == [.inside, .unknown])
    for second in 100..<110 { fix(second, metresNorth: 500) }
    #expect(events.map(\.state) == [.inside, .unknown, .outside])
    #expect(events.last?.transition == .exited)
    #expect(monitor.state(of: circle).state == .outside)
    #expect(monitor.state(of: circle).isRequested)
  }

  @Test func aRegionSmallerThanTheUncertaintyStaysUnknown() throws {
    var monitor = RegionMonitor()
    let tiny = try Region(identifier: "tiny", latitude: 10, longitude: 20, radius: 5)
    monitor.add(tiny)
    var events: [RegionEvent] = []
    for second in 0..<20 {
      var location = Location(
        latitude: 10, longitude: 20, timeOfDay: TimeOfDay(microseconds: Int64(second) * 1_000_000))
      location.horizontalAccuracy = 10
      events += monitor.add(location)
    }
    #expect(events.isEmpty)
    #expect(monitor.state(of: tiny).state == .unknown)
    #expect(try #require(monitor.state(of: tiny).threshold) > 5)
  }
}

extension RegionMonitorTests {
  @Test func manyDevicesStayBounded() throws {
    var monitor = RegionMonitor()
    let circle = try Region(identifier: "c", latitude: 10, longitude: 20, radius: 100)
    monitor.add(circle)
    for device in 0..<(RegionMonitor.maximumDevices + 50) {
      for second in 0..<5 {
        var location = Location(
          latitude: 10, longitude: 20, timeOfDay: TimeOfDay(microseconds: Int64(second) * 1_000_000))
        location.horizontalAccuracy = 3
        location.device = "sender \(device)"
        _ = monitor.add(location)
      }
    }
    #expect(monitor.devicesHeard.count == RegionMonitor.maximumDevices)
    #expect(monitor.devicesHeard.last == "sender \(RegionMonitor.maximumDevices + 49)")
    #expect(!monitor.devicesHeard.contains("sender 0"))
    #expect(monitor.state(of: circle, device: "sender 300").state == .inside)
  }
}

extension RegionMonitorTests {
  /// An uncertainty hovering about the region's size gives one unknown, not a flurry: the
  /// state is decided again only once the threshold is below half the region.
  @Test func anUncertaintyAboutTheRegionsSizeGivesNoFlurry() throws {
    var monitor = RegionMonitor()
    let circle = try Region(identifier: "c", latitude: 10, longitude: 20, radius: 30)
    monitor.add(circle)
    var events: [RegionEvent] = []
    func fix(_ second: Int, accuracy: Double) {
      var location = Location(
        latitude: 10, longitude: 20, timeOfDay: TimeOfDay(microseconds: Int64(second) * 1_000_000))
      location.horizontalAccuracy = accuracy
      location.speed = 0
      location.speedSource = .receiver
      events += monitor.add(location)
    }
    for second in 0..<10 { fix(second, accuracy: 5) }
    #expect(events.map(\.state) == [.inside])
    // 40 m: 2.33 × 28 m is more than 30 m; 10 m: 16.5 m, below 30 m but above 15 m.
    for second in 10..<70 { fix(second, accuracy: second % 2 == 0 ? 40 : 10) }
    #expect(events.map(\.state) == [.inside, .unknown])
    for second in 70..<80 { fix(second, accuracy: 5) }
    #expect(events.map(\.state) == [.inside, .unknown, .inside])
    #expect(events.last?.transition == nil)
  }
}

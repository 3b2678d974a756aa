import Foundation
import LocationKit
import NMEA
import TestSupport
import Testing

@Suite struct MovementRecognizerTests {
  /// A day of a car and its driver: a jittery stationary hour, a drive with a 40 s stop at
  /// a light, two hours parked with multipath excursions, another drive, half an hour
  /// parked, a walk, and twenty minutes standing.
  static let day: [MovementPhase] = [
    .stand(seconds: 3600),
    .move(seconds: 600, speed: 12), .stand(seconds: 40), .move(seconds: 500, speed: 14),
    .stand(seconds: 7200),
    .move(seconds: 900, speed: 10),
    .stand(seconds: 1800),
    .move(seconds: 600, speed: 1.4),
    .stand(seconds: 1200),
  ]

  struct Recognized {
    var events: [MovementEvent] = []
    var firstSecond: Double?
  }

  static func recognize(_ track: SimulatedTrack) -> Recognized {
    var decoder = NMEADecoder()
    var recognizer = MovementRecognizer()
    var result = Recognized()
    let handle: (DecoderEvent) -> Void = { event in
      guard case .fix(let fix) = event, let location = Location(fix) else { return }
      if result.firstSecond == nil { result.firstSecond = location.timestamp?.secondsSinceEpoch }
      if let event = recognizer.add(location) { result.events.append(event) }
    }
    track.nmea.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    if let event = recognizer.finish() { result.events.append(event) }
    return result
  }

  /// The generator's movements, joined where they stop for less than `stopDuration`.
  static func trueTrips(_ track: SimulatedTrack, stopDuration: Double = 60) -> [(start: Double, end: Double)] {
    var trips: [(start: Double, end: Double)] = []
    for movement in track.movements {
      if let last = trips.last, movement.start - last.end < stopDuration {
        trips[trips.count - 1].end = movement.end
      } else {
        trips.append((movement.start, movement.end))
      }
    }
    return trips
  }

  /// A fix `second` seconds after 2026-03-14T08:00:00Z, `north` metres from a point in
  /// Munich, with a measured speed (and course), 3 m accurate.
  static func fix(_ second: Int, north: Double, speed: Double, course: Double? = nil) -> Location {
    var location = Location(latitude: 48.137 + north / 111_200, longitude: 11.575)
    location.timestamp = Timestamp(microsecondsSinceEpoch: 1_773_475_200_000_000 + Int64(second) * 1_000_000)
    location.speed = speed
    location.course = course
    location.horizontalAccuracy = 3
    return location
  }

  /// A recogniser fed fixes heading north (course 0), and the trips it ended.
  struct NorthboundRun {
    var recognizer: MovementRecognizer
    var events: [MovementEvent] = []

    init(stopDuration: Double = 60) { recognizer = MovementRecognizer(stopDuration: stopDuration) }

    mutating func add(_ second: Int, north: Double, speed: Double) {
      if let event = recognizer.add(MovementRecognizerTests.fix(second, north: north, speed: speed, course: 0)) {
        events.append(event)
      }
    }

    /// Ends the track: the trips ended, in order.
    mutating func endedTrips() -> [Trip] {
      if let last = recognizer.finish() { events.append(last) }
      return events.filter { $0.state == .ended }.map(\.trip)
    }
  }

  /// The seeds: as many as the odometer's accuracy tests run (`WHEREAMI_ODOMETER_SEEDS`).
  /// One seed (the sanitizer runs) is seed 2, a 1 Hz receiver: seed 1's 5 Hz day took
  /// four and a half minutes under ThreadSanitizer, the whole run's critical path.
  static let seeds =
    OdometerAccuracyTests.seedCount == 1 ? [2] : (1...UInt64(OdometerAccuracyTests.seedCount)).map { $0 }

  @Test(arguments: seeds) func aDayGivesExactlyTheGeneratorsTrips(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    var receiver = ReceiverModel.drawn(&random, rate: [1, 5][Int(seed % 2)])
    receiver.multipathPerHour = 8
    let track = TrackSimulator(receiver: receiver, style: .driving, phases: Self.day).generate(seed: seed)
    let recognized = Self.recognize(track)
    let origin = try #require(recognized.firstSecond)
    let expected = Self.trueTrips(track)
    #expect(expected.count == 3)
    let ended = recognized.events.filter { $0.state == .ended }
    #expect(recognized.events.filter { $0.state == .cancelled }.isEmpty, "\(receiver)")
    #expect(ended.count == expected.count, "\(receiver)")
    for (trip, truth) in zip(ended.map(\.trip), expected) {
      let start = try #require(trip.start.timestamp).secondsSinceEpoch - origin
      let end = try #require(trip.end.timestamp).secondsSinceEpoch - origin
      #expect(abs(start - truth.start) <= 10, "start \(start) s for \(truth.start) s; \(receiver)")
      #expect(abs(end - truth.end) <= 10, "end \(end) s for \(truth.end) s; \(receiver)")
    }
    // Began and ended alternate, with changes only between them.
    var open = false
    for event in recognized.events {
      switch event.state {
      case .began:
        #expect(!open)
        open = true
      case .changed: #expect(open)
      case .ended, .cancelled:
        #expect(open)
        open = false
      case .possible: Issue.record("possible is not a transition")
      }
    }
  }

  /// A drift too slow for the speed to show (0.3 m/s, below the 0.5 m/s a speed must
  /// reach) is one trip, found by the displacement the velocities integrate to, with the
  /// drift's distance; the main odometer's fixed thresholds made it no trip at all.
  @Test func aSlowDriftOfAKilometreIsATrip() throws {
    var random = SeededRandom(seed: 31)
    let phases: [MovementPhase] = [.stand(seconds: 300), .move(seconds: 3600, speed: 0.3), .stand(seconds: 600)]
    let track = TrackSimulator(receiver: .drawn(&random), style: .drifting, phases: phases).generate(seed: 31)
    let trips = Self.recognize(track).events.filter { $0.state == .ended }.map(\.trip)
    let truth = try #require(track.movements.first)
    #expect(trips.count == 1, "\(trips.map(\.distance))")
    let trip = try #require(trips.first)
    #expect(abs(trip.distance - truth.distance) / truth.distance < 0.2, "\(trip.distance) m for \(truth.distance) m")
  }

  /// A drift the displacement test finds minutes after it began is dated back to then by
  /// the odometer, in moving time and distance; its trip begins then too. It began at the
  /// decision: a 20-minute trip had 40 minutes of moving time.
  @Test(arguments: [31, 32, 33] as [UInt64]) func aSlowDriftFoundLateBeginsWhenItBegan(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let phases: [MovementPhase] = [.stand(seconds: 1800), .move(seconds: 1200, speed: 0.15), .stand(seconds: 600)]
    let track = TrackSimulator(receiver: .drawn(&random), style: .drifting, phases: phases).generate(seed: seed)
    let recognized = Self.recognize(track)
    let trips = recognized.events.filter { $0.state == .ended }.map(\.trip)
    let truth = try #require(track.movements.first)
    let first = try #require(recognized.firstSecond)
    let longest = try #require(trips.max { $0.distance < $1.distance })
    let start = try #require(longest.start.timestamp?.secondsSinceEpoch) - first
    // The movement's own start, dated from the velocities: within a minute of the truth.
    #expect(abs(start - truth.start) < 60, "began \(start) s in, the drift at \(truth.start) s")
    for trip in trips {
      #expect(trip.movingTime <= trip.duration + 1e-9, "\(trip.movingTime) s moving in \(trip.duration) s")
    }
  }

  /// Without speeds, a slow drift stands between the links of its chain of departures, a
  /// minute or two at 0.2 m/s: the trip goes on while the next link may still come. With
  /// a stop after a minute, the drift had been no trip at all.
  @Test(arguments: [31, 32, 33] as [UInt64]) func aSlowDriftWithoutSpeedsIsATrip(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let phases: [MovementPhase] = [.stand(seconds: 300), .move(seconds: 3600, speed: 0.2), .stand(seconds: 600)]
    let track = TrackSimulator(receiver: .drawn(&random, sendsSpeed: false), style: .drifting, phases: phases)
      .generate(seed: seed)
    let trips = Self.recognize(track).events.filter { $0.state == .ended }.map(\.trip)
    let truth = try #require(track.movements.first)
    let longest = try #require(trips.max { $0.distance < $1.distance })
    #expect(longest.distance > 0.6 * truth.distance, "\(trips.map(\.distance)) m for \(truth.distance) m")
    let total = trips.map(\.distance).reduce(0, +)
    #expect(abs(total - truth.distance) / truth.distance < 0.2, "\(trips.map(\.distance)) m for \(truth.distance) m")
    for trip in trips {
      // The time stood between links is moving time, never more than the trip lasted.
      #expect(trip.movingTime <= trip.duration + 1e-9, "\(trip.movingTime) s moving in \(trip.duration) s")
      #expect(trip.movingTime > 0.5 * trip.duration, "\(trip.movingTime) s moving in \(trip.duration) s")
    }
  }

  @Test func theTripCarriesItsFigures() throws {
    var random = SeededRandom(seed: 9)
    // The day's first trip alone, with ten minutes' stand either side: the rest of the day
    // made the test six times as long for nothing it checks.
    let phases: [MovementPhase] = [.stand(seconds: 600)] + Self.day[1...3] + [.stand(seconds: 600)]
    let track = TrackSimulator(receiver: .drawn(&random), style: .driving, phases: phases).generate(seed: 9)
    let trips = Self.recognize(track).events.filter { $0.state == .ended }.map(\.trip)
    let movements = track.movements
    // The first trip is the two movements around the light.
    let truth = movements[0].distance + movements[1].distance
    let first = try #require(trips.first)
    #expect(abs(first.distance - truth) / truth < 0.01, "\(first.distance) m for \(truth) m")
    let movingTruth = movements[0].end - movements[0].start + movements[1].end - movements[1].start
    #expect(abs(first.movingTime - movingTruth) < 3, "\(first.movingTime) s moving for \(movingTruth) s")
    #expect(first.duration > first.movingTime)
    #expect(first.maximumSpeed.map { $0 > 12 && $0 < 20 } == true)
    #expect(first.meanMovingSpeed.map { $0 > 10 && $0 < 15 } == true)
  }

  /// A trip's mean moving speed is its distance over its moving time, and with Doppler
  /// speeds it is never above the trip's maximum: the moving time holds the steps that led
  /// to the decision to move (a second of them at 10 Hz is ten steps), and the maximum
  /// the speeds of those steps. On receivers drawn from the family at 1 to 10 Hz, short
  /// and long trips, slow and fast, accelerating as each style does, and at a constant
  /// speed with little Doppler noise (where the old accounting read 3 % over the maximum).
  @Test(arguments: [1, 2, 5, 10]) func aTripsMeanSpeedIsNeverAboveItsMaximum(rate: Int) throws {
    var trips = 0
    let constant = MovementStyle(meanTimeBetweenTurns: 1e9, turnRate: 0, acceleration: 50, speedWander: 0)
    for (index, (style, speed)) in [
      (MovementStyle.walking, 0.8), (.walking, 1.4), (.cycling, 5), (.driving, 14), (.driving, 30),
      (constant, 1.4), (constant, 5), (constant, 14),
    ].enumerated() {
      for seconds in [12.0, 30, 300] {
        let seed = UInt64(rate * 100 + index * 10) + UInt64(seconds)
        var random = SeededRandom(seed: seed)
        var receiver = ReceiverModel.drawn(&random, rate: rate)
        if style.speedWander == 0 {
          receiver.speedSigma = 0.005
          receiver.knotDecimals = 3
        }
        let phases: [MovementPhase] = [
          .stand(seconds: 90), .move(seconds: seconds, speed: speed), .stand(seconds: 90),
          .move(seconds: seconds, speed: speed), .stand(seconds: 90),
        ]
        let track = TrackSimulator(receiver: receiver, style: style, phases: phases).generate(seed: seed)
        for trip in Self.recognize(track).events.filter({ $0.state == .ended }).map(\.trip) {
          trips += 1
          let mean = try #require(trip.meanMovingSpeed)
          let maximum = try #require(trip.maximumSpeed)
          #expect(mean <= maximum, "\(seconds) s at \(speed) m/s: mean \(mean), max \(maximum); \(receiver)")
          #expect(abs(mean - trip.distance / trip.movingTime) < 1e-12)
        }
      }
    }
    // The 12 s walks are too short to be trips (under 50 m); all else is two trips each.
    #expect(trips >= 34, "\(trips) trips")
  }

  @Test func aShortJitterIsCancelledNotATrip() {
    // Doppler says 0.8 m/s for three seconds, then rest: began, then cancelled.
    var recognizer = MovementRecognizer()
    var events: [MovementEvent] = []
    for second in 0..<200 {
      var location = Location(latitude: 48.137, longitude: 11.575)
      location.timestamp = Timestamp(microsecondsSinceEpoch: 1_773_475_200_000_000 + Int64(second) * 1_000_000)
      location.speed = (10...12).contains(second) ? 0.8 : 0.05
      location.horizontalAccuracy = 3
      if let event = recognizer.add(location) { events.append(event) }
    }
    #expect(events.map(\.state) == [.began, .changed, .cancelled])
    #expect(recognizer.state == .possible)
  }

  @Test func aShortWalkWithoutSpeedsAfterALongStandIsATripOfItsLength() {
    // No speeds, 2 m accuracy: five minutes standing, 90 s at 1.4 m/s north (126 m), then
    // five minutes standing. The odometer holds the departure for two minutes in case it
    // comes back (multipath); the trip that ended meanwhile gets its distance all the same.
    var recognizer = MovementRecognizer()
    var events: [MovementEvent] = []
    for second in 0..<690 {
      let north = min(max(0, Double(second - 300)), 90) * 1.4
      var location = Location(latitude: 48.137 + north / 111_200, longitude: 11.575)
      location.timestamp = Timestamp(microsecondsSinceEpoch: 1_773_475_200_000_000 + Int64(second) * 1_000_000)
      location.horizontalAccuracy = 2
      if let event = recognizer.add(location) { events.append(event) }
    }
    let ended = events.filter { $0.state == .ended }
    #expect(ended.count == 1, "\(events.map(\.state))")
    #expect(ended.first.map { abs($0.trip.distance - 126) < 10 } == true, "\(ended.first?.trip.distance ?? -1) m")
  }

  @Test func aTripUnderWayAtTheEndOfALogEndsWithIt() {
    var recognizer = MovementRecognizer()
    var events: [MovementEvent] = []
    for second in 0..<100 {
      var location = Location(latitude: 48.137 + Double(max(0, second - 10)) * 10 / 111_200, longitude: 11.575)
      location.timestamp = Timestamp(microsecondsSinceEpoch: 1_773_475_200_000_000 + Int64(second) * 1_000_000)
      location.speed = second >= 10 ? 10 : 0
      if let event = recognizer.add(location) { events.append(event) }
    }
    let last = recognizer.finish()
    #expect(last?.state == .ended)
    #expect(last.map { abs($0.trip.distance - 890) < 15 } == true)
    #expect(events.first?.state == .began)
    #expect(recognizer.finish() == nil)
  }

  @Test func theManagerReportsMovementBeforeItsFiltersAndEndsTheTripWithTheLog() async throws {
    var random = SeededRandom(seed: 4)
    let phases: [MovementPhase] = [
      .stand(seconds: 120), .move(seconds: 300, speed: 10), .stand(seconds: 120), .move(seconds: 100, speed: 8),
    ]
    let track = TrackSimulator(receiver: .drawn(&random), style: .driving, phases: phases).generate(seed: 4)
    let path = NSTemporaryDirectory() + "whereami-movement-\(getpid()).nmea"
    try Data(track.nmea).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let manager = LocationManager(source: NMEASource(.file(path: path)))
    let recorder = Recorder()
    manager.delegate = recorder
    manager.distanceFilter = 1000
    manager.movementRecognizer = MovementRecognizer()
    // The sequence is consumed as the events come: the manager waits for a consumer that
    // falls behind (LocationManager.updatesBuffer), as for a slow delegate.
    let updates = manager.updates
    let streaming = Task {
      var streamed: [MovementState] = []
      for await event in updates {
        if case .movement(let movement) = event { streamed.append(movement.state) }
      }
      return streamed
    }
    manager.startUpdatingLocation()
    // The sequence ends after the source's end has reached the delegate.
    let streamed = await streaming.value
    #expect(recorder.waitForError(.sourceEnded))
    let states = recorder.movements.map(\.state)
    #expect(states.first == .began)
    #expect(states.filter { $0 == .began }.count == 2)
    #expect(states.filter { $0 == .ended }.count == 2)
    #expect(states.last == .ended)
    // The distance filter let through a handful of fixes; the recogniser saw them all.
    #expect(recorder.locations.count < 10)
    #expect(states.filter { $0 == .changed }.count > 300)
    // The trip that the log's end cut short ends before the source does.
    guard case .failure(let error) = recorder.events.last, case .movement(let last) = recorder.events.dropLast().last
    else {
      Issue.record("the last events are not the trip's end and the source's")
      return
    }
    #expect(error.code == .sourceEnded)
    #expect(last.state == .ended)
    #expect(abs(last.trip.distance - track.movements[1].distance) / track.movements[1].distance < 0.02)
    #expect(streamed == states)
  }

  @Test func aTripEndsWhereTheFixesStopWhenTheReceiverIsSwitchedOff() {
    // Driving, then nothing for eight hours, then driving again elsewhere: two trips.
    var recognizer = MovementRecognizer()
    var events: [MovementEvent] = []
    func add(_ second: Int, north: Double) {
      if let event = recognizer.add(Self.fix(second, north: north, speed: 10)) { events.append(event) }
    }
    for second in 0...300 { add(second, north: Double(second) * 10) }
    for second in 29_100...29_400 { add(second, north: 5000 + Double(second - 29_100) * 10) }
    if let last = recognizer.finish() { events.append(last) }
    let ended = events.filter { $0.state == .ended }.map(\.trip)
    #expect(ended.count == 2)
    #expect(ended.first.map { abs($0.duration - 300) < 2 } == true, "\(ended.first?.duration ?? -1) s")
    #expect(ended.first.map { abs($0.distance - 3000) < 20 } == true, "\(ended.first?.distance ?? -1) m")
    #expect(ended.last.map { $0.duration < 310 } == true)
  }

  /// Standing, then no fix for longer than a stop, then moving elsewhere: the trip begins
  /// after the loss, without the odometer's bridge across it, whose time is stopped time
  /// (the corpus's ublox-lea-4h.log, in the corpus family, made a trip of 887 m in 1 s).
  @Test func aTripThatBeginsAfterALossLeavesTheBridgeOut() throws {
    var run = NorthboundRun()
    for second in 0...120 { run.add(second, north: 0, speed: 0) }
    for second in 200...320 { run.add(second, north: 900 + Double(second - 200) * 10, speed: 10) }
    let trips = run.endedTrips()
    let trip = try #require(trips.first)
    #expect(trips.count == 1)
    #expect(trip.start.timestamp == Timestamp(microsecondsSinceEpoch: 1_773_475_200_000_000 + 200 * 1_000_000))
    #expect(abs(trip.distance - 1200) < 20, "\(trip.distance) m")
    #expect(trip.movingTime <= trip.duration, "\(trip.movingTime) s moving in \(trip.duration) s")
    #expect((trip.meanMovingSpeed ?? 0) <= 10.5, "\(trip.meanMovingSpeed ?? -1) m/s")
  }

  /// With a stop longer than the odometer's longest moving gap (60 s), a loss between
  /// the two goes on inside the trip: the odometer bridges it, its time stopped time. The
  /// trip keeps the bridge in its distance, and its mean leaves it out with its time (a
  /// 90 s loss at 10 m/s made the mean 11.5 m/s, above every speed).
  @Test func aLossInsideATripIsLeftOutOfItsMeanWithItsTime() throws {
    var run = NorthboundRun(stopDuration: 120)
    for second in 0...60 { run.add(second, north: 0, speed: 0) }
    for second in 61...360 { run.add(second, north: Double(second - 60) * 10, speed: 10) }
    for second in 450...750 { run.add(second, north: Double(second - 60) * 10, speed: 10) }
    for second in 751...1000 { run.add(second, north: 6900, speed: 0) }
    let trips = run.endedTrips()
    let trip = try #require(trips.first)
    #expect(trips.count == 1)
    #expect(abs(trip.distance - 6900) < 30, "\(trip.distance) m")
    #expect(abs(trip.bridgedDistanceInStoppedTime - 900) < 1, "\(trip.bridgedDistanceInStoppedTime) m bridged")
    #expect(abs(trip.movingTime - 600) < 3, "\(trip.movingTime) s")
    #expect(abs((trip.meanMovingSpeed ?? 0) - 10) < 0.1, "\(trip.meanMovingSpeed ?? -1) m/s")
  }

  /// With a stop longer than the odometer's longest moving gap, a trip that stands and
  /// then loses its fixes for less than the stop, to stand again elsewhere, ends where it
  /// stopped: the bridge across the loss is after its end, in neither its distance nor
  /// its mean (it was in the distance, a 500 m bridge making a mean of 11.6 m/s).
  @Test func aBridgeAfterATripsStopIsNotTheTrips() throws {
    var run = NorthboundRun(stopDuration: 120)
    for second in 0...60 { run.add(second, north: 0, speed: 0) }
    for second in 61...360 { run.add(second, north: Double(second - 60) * 10, speed: 10) }
    for second in 361...390 { run.add(second, north: 3000, speed: 0) }
    for second in 470...700 { run.add(second, north: 3500, speed: 0) }
    let trips = run.endedTrips()
    let trip = try #require(trips.first)
    #expect(trips.count == 1)
    #expect(abs(trip.distance - 3000) < 30, "\(trip.distance) m")
    #expect(abs(trip.end.latitude - Self.fix(360, north: 3000, speed: 0).latitude) < 1e-6, "ends at \(trip.end)")
    #expect(abs((trip.meanMovingSpeed ?? 0) - 10) < 0.2, "\(trip.meanMovingSpeed ?? -1) m/s")
  }

  @Test func aTripWithoutDatesAcrossMidnightLastsItsMinutes() {
    var recognizer = MovementRecognizer()
    var events: [MovementEvent] = []
    for step in 0...600 {
      var location = Location(latitude: 48.137 + Double(max(0, step - 60)) * 8 / 111_200, longitude: 11.575)
      location.timeOfDay = TimeOfDay(microseconds: (Int64(86_100 + step) % 86_400) * 1_000_000)
      location.speed = step >= 60 && step < 500 ? 8 : 0
      location.horizontalAccuracy = 3
      if let event = recognizer.add(location) { events.append(event) }
    }
    let ended = events.filter { $0.state == .ended }.map(\.trip)
    #expect(ended.count == 1)
    #expect(ended.first.map { $0.duration > 430 && $0.duration < 450 } == true, "\(ended.first?.duration ?? -1)")
  }
}

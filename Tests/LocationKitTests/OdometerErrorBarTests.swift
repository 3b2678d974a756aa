import Foundation
import NMEA
import TestSupport
import Testing

@testable import LocationKit

/// The odometer's error bar, term by term; its coverage over receivers is in
/// `OdometerAccuracyTests` and the README's table.
@Suite struct OdometerErrorBarTests {
  /// A fix `seconds` after 2026-03-14T08:00:00Z, `north` and `east` metres from a point in
  /// Munich, with a measured speed and course.
  private func fix(_ seconds: Double, north: Double, east: Double = 0, speed: Double, course: Double) -> Location {
    var location = Location(latitude: 48.137 + north / 111_200, longitude: 11.575 + east / 74_300)
    location.timestamp = Timestamp(microsecondsSinceEpoch: 1_773_475_200_000_000 + Int64(seconds * 1e6))
    location.timeOfDay = location.timestamp!.timeOfDay
    location.speed = speed
    location.course = course
    location.horizontalAccuracy = 3
    return location
  }

  /// Ten minutes at 10 m/s round blocks: 250 m north, 250 m east, 250 m north, ... (a
  /// right-angled turn every 25 s), and a last fix heading north.
  private func blocks(into odometer: inout TrackOdometer) -> (seconds: Double, north: Double, east: Double) {
    var north = 0.0
    var east = 0.0
    var second = 0.0
    for leg in 0..<24 {
      let heading = leg % 2 == 0 ? 0.0 : 90.0
      for _ in 0..<25 {
        odometer.add(fix(second, north: north, east: east, speed: 10, course: heading))
        if heading == 0 { north += 10 } else { east += 10 }
        second += 1
      }
    }
    odometer.add(fix(second, north: north, east: east, speed: 10, course: 0))
    return (second, north, east)
  }

  @Test func aLossInAStraightTunnelAddsNothingToTheBar() {
    var odometer = TrackOdometer()
    let end = blocks(into: &odometer)
    let before = odometer.distanceError
    // 30 s on, straight ahead, at the same speed and course.
    odometer.add(fix(end.seconds + 30, north: end.north + 300, east: end.east, speed: 10, course: 0))
    #expect(odometer.bridges == 1)
    #expect(abs(odometer.distanceError - before) < 0.5, "\(before) → \(odometer.distanceError)")
  }

  @Test func aLossRoundACornerWidensTheBarToCoverWhatTheBridgeCut() {
    var odometer = TrackOdometer()
    let end = blocks(into: &odometer)
    let beforeDistance = odometer.distance
    let before = odometer.distanceError
    // 30 s: 150 m north, then 150 m east; the bridge is the diagonal.
    odometer.add(fix(end.seconds + 30, north: end.north + 150, east: end.east + 150, speed: 10, course: 90))
    let cut = 300 - (odometer.distance - beforeDistance)
    #expect(abs(cut - (300 - 150 * 2.0.squareRoot())) < 1)
    let added = (odometer.distanceError * odometer.distanceError - before * before).squareRoot()
    // The bar's share for the loss is half the most the courses allow, so the cut is within
    // two of its sigmas, and not far beyond.
    #expect(added >= cut / 2 - 1 && added <= cut, "\(added) for a cut of \(cut)")
  }

  @Test func aLossEndingAtRestWaitsForTheCourseAfter() {
    var odometer = TrackOdometer()
    let end = blocks(into: &odometer)
    let before = odometer.distanceError
    // Out of the tunnel and stopped at a light 30 s later, 250 m on; then on north.
    var second = end.seconds + 30
    var north = end.north + 250
    for _ in 0..<20 {
      odometer.add(fix(second, north: north, east: end.east, speed: 0.02, course: 0))
      second += 1
    }
    let waiting = odometer.distanceError
    for _ in 0..<10 {
      north += 10
      odometer.add(fix(second, north: north, east: end.east, speed: 10, course: 0))
      second += 1
    }
    // Standing, the speeds either side (10 and 0: 150 m in 30 s) bound the loss; moving
    // on in the course it had, it went straight: what is left is where the stop and the
    // start fell within their steps (10 m each, over √12).
    #expect(waiting - before > 10, "\(before) → \(waiting)")
    #expect(odometer.distanceError - before < 3, "\(before) → \(odometer.distanceError)")
  }

  @Test func aSpeedThatWandersBetweenALoggersSamplesWidensTheBar() {
    var steady = TrackOdometer()
    var wandering = TrackOdometer()
    var north = (steady: 0.0, wandering: 0.0)
    for sample in 0...120 {
      let seconds = Double(sample) * 5
      // Sampled every 5 s: one speed steady, one between 8 and 12 m/s from sample to sample.
      let speed = sample % 2 == 0 ? 8.0 : 12.0
      steady.add(fix(seconds, north: north.steady, speed: 10, course: 0))
      wandering.add(fix(seconds, north: north.wandering, speed: speed, course: 0))
      north.steady += 50
      north.wandering += 50
    }
    // The second differences are ±8 m/s: each step adds 8²·5²/24 = 67 m².
    #expect(steady.distanceError < 10, "\(steady.distanceError)")
    #expect(wandering.distanceError > 80, "\(wandering.distanceError)")
  }

  @Test func theIntegratedVelocityAgainstThePositionsBoundsItsNoise() {
    // Doppler velocity with white noise of 0.2 m/s per axis at 1 Hz (q = 0.04 m²/s), the
    // positions exact, moving north at 5 m/s without a stop for 40 minutes.
    var random = SeededRandom(seed: 7)
    var history = TrackHistory()
    for second in 0...2400 {
      let noiseEast = 0.2 * random.gaussian()
      let noiseNorth = 0.2 * random.gaussian()
      history.add(
        time: Double(second), distance: Double(second) * 5, latitude: 48.137 + Double(second) * 5 / 111_200,
        longitude: 11.575, velocity: (noiseEast, 5 + noiseNorth))
    }
    let bound = try! #require(history.velocityNoiseBound)
    #expect(bound >= 0.04 && bound <= 0.12, "\(bound)")
  }

  @Test func aTracksOwnTurnsBoundWhatALossMayCut() {
    var history = TrackHistory()
    // 10 m/s on a circle of 300 m radius: a 30 s stretch turns by 1 rad, its chord is
    // 2 · 300 · sin(0.5) = 287.6 m against 300 m of path.
    for second in 0...600 {
      let angle = Double(second) * 10 / 300
      history.add(
        time: Double(second), distance: Double(second) * 10,
        latitude: 48.137 + 300 * sin(angle) / 111_195, longitude: 11.575 + 300 * (1 - cos(angle)) / 74_288,
        velocity: nil)
    }
    let shortfall = try! #require(history.chordShortfall(over: 30))
    #expect(abs(shortfall - (300 - 600 * sin(0.5))) < 1.5, "\(shortfall)")
  }

  /// Without speeds, a departure after a long stand is held for
  /// ``TrackOdometer/excursionSeconds`` in case it is the position error's excursion: the
  /// distance shown lacks it meanwhile, and the bar covers what it lacks.
  @Test func aDepartureHeldAsAPossibleExcursionIsInsideTheBar() {
    var odometer = TrackOdometer()
    func position(_ seconds: Double, north: Double) -> Location {
      var location = fix(seconds, north: north, speed: 0, course: 0)
      location.speed = nil
      location.course = nil
      return location
    }
    // Three minutes standing, then a walk north at 1.4 m/s.
    for second in 0..<180 { odometer.add(position(Double(second), north: 0)) }
    var held = 0
    for step in 1...200 {
      let walked = 1.4 * Double(step)
      odometer.add(position(180 + Double(step), north: walked))
      // Past the noise (4 combined sigmas, 17 m, in two blocks running) and not yet
      // counted: held.
      if odometer.distance == 0, walked > 30 {
        held += 1
        #expect(walked <= 2 * odometer.distanceError + 3, "\(walked) m walked, 0 ± \(odometer.distanceError) m shown")
      }
    }
    // Held for two minutes from the departure, then counted in full, and the bar
    // narrows again.
    #expect(held >= 100)
    #expect(abs(odometer.distance - 280) < 15, "\(odometer.distance)")
    #expect(odometer.distanceError < 20, "\(odometer.distanceError)")
  }

  /// The correction's spread (``TrackOdometer/correctionSpread``) is one error for a
  /// receiver's session and adds up linearly; the rest of the bar in quadrature. A
  /// trip's bar is its own share of each: what the rest grew by since it began, and what
  /// the spread grew by, added as the odometer adds them. The second of two slow drifts
  /// took √((S₁ + S₂)² − S₁²) of the spread instead of its own S₂ (here 13.9 m for a
  /// bar of 9.5 m).
  @Test func aTripsBarTakesItsOwnShareOfTheCorrectionsSpread() throws {
    var recognizer = MovementRecognizer()
    var receiver = ReceiverModel()
    receiver.speedSigma = 0.09
    let simulator = TrackSimulator(
      receiver: receiver, style: .drifting,
      phases: [.move(seconds: 600, speed: 0.2), .stand(seconds: 600), .move(seconds: 1200, speed: 0.2)])
    let track = simulator.generate(seed: 5)
    var decoder = NMEADecoder()
    // When a trip began: the spread before the fix that began it; the rest of the
    // variance, and the whole bar, after it.
    var atStart = (spread: 0.0, rest: 0.0, bar: 0.0)
    var trips = 0
    var checked = 0
    var quadrature = 0.0
    var bar = 0.0
    let handle: (DecoderEvent) -> Void = { event in
      guard case .fix(let fix) = event, let location = Location(fix) else { return }
      let spreadBefore = recognizer.odometer.correctionSpread
      let event = recognizer.add(location)
      let error = recognizer.odometer.distanceError
      let spread = recognizer.odometer.correctionSpread
      let rest = error * error - spread * spread
      if event?.state == .began {
        atStart = (spreadBefore, rest, error)
        trips += 1
      }
      guard let event, event.state == .changed else { return }
      let share = spread - atStart.spread
      let expected = (max(0, rest - atStart.rest) + share * share).squareRoot()
      #expect(
        abs(event.trip.distanceError - expected) <= 1e-6 * max(1, expected),
        "\(event.trip.distanceError) m, not \(expected) m")
      checked += 1
      bar = event.trip.distanceError
      quadrature = max(0, error * error - atStart.bar * atStart.bar).squareRoot()
    }
    track.nmea.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    #expect(trips == 2 && checked > 1000)
    // The second trip's last bar, against what taking the whole bar's growth gave.
    #expect(quadrature > 1.2 * bar, "\(bar) m against \(quadrature) m")
  }

  /// A drift too short to be decided is in the bar as the rest's displacement beyond the
  /// noise. When another session begins (the time going back an hour: logs joined), the
  /// new session's test starts afresh, and that term stays in the bar as settled: it was
  /// dropped.
  @Test func aSessionChangeKeepsTheRestsUndecidedDrift() {
    var odometer = TrackOdometer()
    // Two minutes standing, then a drift of 0.1 m/s north for half a minute, too short
    // to be decided.
    for second in 0..<120 {
      let noise = Double((second * 7919) % 11) / 100 - 0.05
      odometer.add(fix(Double(second), north: 0, speed: abs(noise), course: noise >= 0 ? 0 : 180))
    }
    for second in 120..<150 {
      odometer.add(fix(Double(second), north: Double(second - 120) * 0.1, speed: 0.1, course: 0))
    }
    let before = odometer.distanceError
    #expect(!odometer.isMoving && before > 0.5, "\(before) m")
    odometer.add(fix(-3600, north: 0, speed: 0, course: 0))
    #expect(odometer.sessions == 2)
    #expect(odometer.distanceError >= before, "\(odometer.distanceError) m after the change, \(before) m before")
  }

  @Test func aTripsBarIsWhatTheOdometersGrewByOverIt() throws {
    var recognizer = MovementRecognizer()
    let simulator = TrackSimulator(
      receiver: ReceiverModel(), style: .walking,
      phases: [
        .stand(seconds: 120), .move(seconds: 600, speed: 1.4), .stand(seconds: 180), .move(seconds: 600, speed: 1.4),
      ]
    )
    let track = simulator.generate(seed: 3)
    var decoder = NMEADecoder()
    var trips: [Trip] = []
    let handle: (DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event, let location = Location(fix),
        let event = recognizer.add(location), event.state == .ended
      {
        trips.append(event.trip)
      }
    }
    track.nmea.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    if let event = recognizer.finish(), event.state == .ended { trips.append(event.trip) }
    try #require(trips.count == 2)
    let total = recognizer.odometer.distanceError
    #expect(trips.allSatisfy { $0.distanceError > 0 && $0.distanceError <= total })
    let combined = trips.map { $0.distanceError * $0.distanceError }.reduce(0, +).squareRoot()
    // Not exactly: each trip's share of the integrated noise is reckoned with the rate
    // learned by its end, the total's with the rate learned by the track's.
    #expect(abs(combined - total) <= 0.2 * total, "\(trips.map(\.distanceError)) against \(total)")
  }
}

import Foundation
import Geodesy
import LocationKit
import NMEA
import TestSupport
import Testing

@Suite struct TrackOdometerTests {
  private func odometer(_ fixture: String) throws -> TrackOdometer {
    let bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(fixture)))
    var decoder = NMEADecoder()
    var odometer = TrackOdometer()
    let handle: (DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event, let location = Location(fix) { odometer.add(location) }
    }
    bytes.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    return odometer
  }

  private func truth(_ fixture: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(fixture))) as! [String: Any]
  }

  @Test func standingStillForAnHourAddsLessThanTenMetres() throws {
    let odometer = try odometer("static-hour.nmea")
    let truth = try truth("static-hour.truth.json")
    #expect(odometer.distance < 10, "jitter-proof distance \(odometer.distance) m")
    // The naive sum is what other tools report.
    #expect(abs(odometer.pathLength - (truth["noisy_path_length_m"] as! Double)) < 1)
    #expect(odometer.pathLength > 100)
  }

  @Test func walkingWithinTwoPercent() throws {
    let odometer = try odometer("walk.nmea")
    let truth = try truth("walk.truth.json")
    let expected = truth["path_length_m"] as! Double
    #expect(abs(odometer.distance - expected) / expected < 0.02, "\(odometer.distance) m for \(expected) m")
    #expect(abs(odometer.displacement - (truth["displacement_m"] as! Double)) < 10)
  }

  @Test func drivingWithinHalfAPercent() throws {
    let odometer = try odometer("drive-midnight.nmea")
    let expected = try truth("drive-midnight.truth.json")["path_length_m"] as! Double
    #expect(abs(odometer.distance - expected) / expected < 0.005, "\(odometer.distance) m for \(expected) m")
  }

  @Test func aStaticRTKReceiverStaysPut() throws {
    let odometer = try odometer("multi-gnss-burst.nmea")
    #expect(odometer.distance < 1, "\(odometer.distance) m")
  }

  /// A fix `seconds` after 2026-03-14T08:00:00Z, `north` metres from a point in Munich.
  private func fix(
    _ seconds: Double, north: Double = 0, east: Double = 0, speed: Double? = nil, accuracy: Double? = 3
  ) -> Location {
    var location = Location(latitude: 48.137 + north / 111_200, longitude: 11.575 + east / 74_300)
    location.timestamp = Timestamp(microsecondsSinceEpoch: 1_773_475_200_000_000 + Int64(seconds * 1e6))
    location.timeOfDay = location.timestamp!.timeOfDay
    location.speed = speed
    location.horizontalAccuracy = accuracy
    return location
  }

  /// A walk without speeds, turning every minute, counts the same across the
  /// antimeridian as in Munich: the chords' directions (their turns, counted back) wrap
  /// there, where a chord from 179.999° E to 179.999° W had pointed 40 000 km west.
  @Test func aWalkAcrossTheAntimeridianCountsAsAnywhere() {
    func walk(from longitude: Double) -> TrackOdometer {
      var odometer = TrackOdometer()
      for second in 0...900 {
        // East and north by turns, a minute each, at 1.2 m/s, with a metre of wander.
        let t = Double(second)
        let legs = Int(t / 60)
        let into = t - Double(legs) * 60
        let east = Double((legs + 1) / 2) * 72 + (legs % 2 == 0 ? into * 1.2 : 0) + sin(t / 7)
        let north = Double(legs / 2) * 72 + (legs % 2 == 1 ? into * 1.2 : 0) + cos(t / 11)
        var location = fix(t, north: north, accuracy: 1)
        location.longitude = LocalProjection.wrap(longitude + east / 74_300)
        odometer.add(location)
      }
      return odometer
    }
    let munich = walk(from: 11.575)
    let acrossTheAntimeridian = walk(from: 179.995)
    #expect(munich.distance > 1000, "\(munich.distance)")
    #expect(
      abs(acrossTheAntimeridian.distance - munich.distance) < 0.1,
      "\(acrossTheAntimeridian.distance) m, \(munich.distance) m in Munich")
  }

  @Test func slowMovementBeyondTheNoiseStillCounts() {
    // No speed reported: 0.5 m/s with 1 m accuracy departs beyond 4 combined sigmas
    // (5.7 m) after about 12 s, and from then on every 8 s chord counts.
    var odometer = TrackOdometer()
    for second in 0...400 { odometer.add(fix(Double(second), north: Double(second) * 0.5, accuracy: 1)) }
    #expect(abs(odometer.distance - 200) < 2, "\(odometer.distance)")
    #expect(abs(odometer.pathLength - 200) < 1)
  }

  @Test func aMultipathExcursionAtRestIsNotATripWithoutSpeed() {
    // Ten minutes standing, then the position wanders 20 m off and back over a minute,
    // then ten minutes standing; no speed, 1 m accuracy: a departure beyond the noise that
    // comes back along its line.
    var odometer = TrackOdometer()
    for second in 0..<1260 {
      let offset = (600...660).contains(second) ? 20 * sin(Double(second - 600) / 60 * .pi) : 0
      odometer.add(fix(Double(second), north: offset, east: offset / 2, accuracy: 1))
    }
    #expect(odometer.distance == 0, "\(odometer.distance) m")
    #expect(odometer.pathLength > 40)
    #expect(odometer.movingTime < 5, "\(odometer.movingTime) s")
  }

  @Test func aWalkRoundALoopBackToItsStartCounts() {
    // Five minutes standing, a walk round a 30 m square at 1.5 m/s (80 s) back to the
    // start, five minutes standing: 120 m, though it came back where it stood within
    // ``TrackOdometer/excursionSeconds`` (its path is 2.8 times its farthest point).
    var odometer = TrackOdometer()
    for second in 0..<300 { odometer.add(fix(Double(second), accuracy: 1)) }
    for step in 0...80 {
      let along = Double(step) * 1.5
      let (north, east): (Double, Double) =
        switch along {
        case ..<30: (along, 0)
        case ..<60: (30, along - 30)
        case ..<90: (90 - along, 30)
        default: (0, 120 - along)
        }
      odometer.add(fix(Double(300 + step), north: north, east: east, accuracy: 1))
    }
    for second in 381..<681 { odometer.add(fix(Double(second), accuracy: 1)) }
    #expect(abs(odometer.distance - 120) < 12, "\(odometer.distance) m")
  }

  @Test func aDepartureFromAStandCountsOnceItHasNotComeBack() {
    // Five minutes standing, then 1 m/s north: the departure is held for two minutes, in
    // case it comes back, then counted from the stand.
    var odometer = TrackOdometer()
    for second in 0..<300 { odometer.add(fix(Double(second), accuracy: 1)) }
    for second in 300...360 { odometer.add(fix(Double(second), north: Double(second - 300), accuracy: 1)) }
    #expect(odometer.distance == 0, "\(odometer.distance) m")
    for second in 361...600 { odometer.add(fix(Double(second), north: Double(second - 300), accuracy: 1)) }
    #expect(abs(odometer.distance - 300) < 10, "\(odometer.distance) m")
  }

  @Test func aSingleDopplerSpikeIsNotMovement() {
    var odometer = TrackOdometer()
    for second in 0..<60 {
      let speed = second == 30 ? 2.0 : 0.1
      odometer.add(fix(Double(second), north: second == 30 ? 40 : 0, speed: speed))
    }
    #expect(odometer.distance == 0)
    #expect(odometer.pathLength > 79)
  }

  @Test func movementHeldForASecondCountsFromItsFirstStep() {
    var odometer = TrackOdometer()
    odometer.add(fix(0, speed: 0))
    // 0 -> 1 m/s at t = 1, held: trapezoids 0.5 + 1 + 1 ... from the first step on.
    for second in 1...10 { odometer.add(fix(Double(second), north: Double(second), speed: 1)) }
    #expect(abs(odometer.distance - 9.5) < 1e-9, "\(odometer.distance)")
    #expect(odometer.isMoving)
    // Stopped (below 0.25 m/s): nothing more, whatever the positions do.
    for second in 11...100 {
      odometer.add(fix(Double(second), north: 10 + Double(second % 7) * 9, speed: 0.1))
    }
    #expect(abs(odometer.distance - 10.05) < 1e-9, "\(odometer.distance)")
    #expect(!odometer.isMoving)
  }

  @Test func jumpsBetweenCoarseCellsAreNotMovementWithoutSpeed() {
    // 0.01-minute coordinates: 18.5 m cells; a receiver near a cell border flips between two.
    var odometer = TrackOdometer()
    let cell = 0.01 / 60
    for second in 0..<3600 {
      var location = fix(Double(second), accuracy: nil)
      location.latitude = 47.7035 + (second % 13 < 5 ? cell : 0)
      odometer.add(location)
    }
    #expect(odometer.distance == 0, "\(odometer.distance)")
    #expect(odometer.pathLength > 10_000)
  }

  @Test func aFixLossIsBridgedByTheGeodesic() {
    var odometer = TrackOdometer()
    for second in 0...20 { odometer.add(fix(Double(second), north: Double(second) * 10, speed: 10)) }
    let before = odometer.distance
    // 30 s in a tunnel, then on at the same pace: 300 m further.
    odometer.add(fix(50, north: 500, speed: 10))
    #expect(odometer.bridges == 1)
    #expect(abs(odometer.bridgedDistance - 300) < 0.1)
    #expect(abs(odometer.distance - before - 300) < 0.1)
  }

  @Test func aFixLossWhileStandingAddsNothing() {
    var odometer = TrackOdometer()
    for second in 0...20 { odometer.add(fix(Double(second), north: Double(second % 2), speed: 0.05)) }
    odometer.add(fix(60, north: 4, speed: 0.05))
    #expect(odometer.distance == 0)
    #expect(odometer.bridges == 0)
  }

  @Test func timeGoingBackwardsAddsNothing() {
    var odometer = TrackOdometer()
    for second in 0...10 { odometer.add(fix(Double(second), north: Double(second) * 2, speed: 2)) }
    let distance = odometer.distance
    let path = odometer.pathLength
    odometer.add(fix(3, north: 1000, speed: 2))
    odometer.add(fix(10, north: 20, speed: 2))
    #expect(odometer.distance == distance)
    #expect(odometer.pathLength == path)
  }

  /// `seconds` of driving north (or east) at 10 m/s from `start`, one fix a second.
  private func drive(from start: Double, seconds: Int, offset: Double = 0, east: Bool = false) -> [Location] {
    (0...seconds).map { second in
      let metres = Double(second) * 10
      return fix(start + Double(second), north: east ? offset : offset + metres, east: east ? metres : 0, speed: 10)
    }
  }

  /// A log joined after one it overlaps in time, the same day (its first fix 5 min before
  /// the first log's last): the first fixes that go back are left out, then it is another
  /// session counted on its own, not dropped until its time passes the first's.
  @Test func aLogJoinedToOneItOverlapsIsAnotherSession() {
    var odometer = TrackOdometer()
    var recognizer = MovementRecognizer()
    var trips = 0
    for location in drive(from: 0, seconds: 600) + drive(from: 300, seconds: 600, offset: 20_000, east: true) {
      odometer.add(location)
      if recognizer.add(location)?.state == .ended { trips += 1 }
    }
    if recognizer.finish()?.state == .ended { trips += 1 }
    #expect(odometer.sessions == 2)
    #expect(odometer.fixesBackInTime == FixPlausibility.recoveryCount - 1)
    // 6 km each; the fixes left out and the first step of the second session are lost.
    #expect(odometer.distance > 12_000 - 10 * Double(FixPlausibility.recoveryCount + 1), "\(odometer.distance) m")
    #expect(odometer.distance <= 12_000 + 1e-6)
    #expect(odometer.bridges == 0)
    #expect(abs(odometer.movingTime + odometer.stoppedTime - 1198) < 1e-6, "each session's own time")
    #expect(trips == 2, "a trip in each session")
  }

  @Test func anotherSessionLearnsItsReceiversNoiseAfresh() {
    // An hour of a receiver at rest whose speed noise is 0.25 m/s (its moving speed rises
    // to 5.26σ), then a log of another receiver joined after it (its time an hour back):
    // until that one's own rest is known, the moving speed is the least one again.
    var odometer = TrackOdometer()
    var random = SeededRandom(seed: 3)
    for second in 0..<3600 {
      let east = random.gaussian() * 0.25
      let north = random.gaussian() * 0.25
      var location = fix(Double(second), speed: (east * east + north * north).squareRoot())
      location.course = (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
      odometer.add(location)
    }
    #expect(odometer.movingSpeed > 1, "\(odometer.movingSpeed) m/s")
    odometer.add(fix(0, north: 5_000, speed: 0))
    #expect(odometer.sessions == 2)
    #expect(odometer.movingSpeed == TrackOdometer.lowestMovingSpeed, "\(odometer.movingSpeed) m/s")
  }

  /// A session of the day before joined after one that went past midnight: the step back
  /// comes with a change of date, so the new session begins at once.
  @Test func aStepBackToAnotherDateBeginsASessionAtOnce() {
    // 23:55 to 00:05 on the night of the 14th, then the same times again elsewhere.
    let before = 57_300.0
    var odometer = TrackOdometer()
    for location in drive(from: before, seconds: 600) + drive(from: before, seconds: 600, offset: 20_000, east: true) {
      odometer.add(location)
    }
    #expect(odometer.sessions == 2)
    #expect(odometer.fixesBackInTime == 0)
    #expect(odometer.distance > 12_000 - 10 && odometer.distance <= 12_000 + 1e-6, "\(odometer.distance) m")
  }

  /// Two places' logs joined on one day (a drive in Munich, half an hour later one
  /// 1,200 km north): no credible travel covers the jump (660 m/s), so it is another
  /// session, not a fix loss bridged across the map (the corpus's logs joined counted
  /// 40,857 km so). A loss an airliner could have crossed is still bridged.
  @Test func aJumpNoTravelCouldMakeIsASessionNotAFixLoss() {
    var odometer = TrackOdometer()
    for location in drive(from: 0, seconds: 600) + drive(from: 600 + 1800, seconds: 600, offset: 1_200_000) {
      odometer.add(location)
    }
    #expect(odometer.sessions == 2)
    #expect(odometer.bridges == 0)
    #expect(odometer.distance > 12_000 - 10 && odometer.distance <= 12_000 + 1e-6, "\(odometer.distance) m")
    // 515 m/s (1,000 knots) in the time between, beyond the fixes' uncertainty, is the
    // bound: 40 km across a 100 s loss (400 m/s) is bridged.
    var fast = TrackOdometer()
    for location in drive(from: 0, seconds: 600) + drive(from: 700, seconds: 600, offset: 6_000 + 40_000) {
      fast.add(location)
    }
    #expect(fast.sessions == 1 && fast.bridges == 1)
    #expect(abs(fast.bridgedDistance - 40_000) < 50, "\(fast.bridgedDistance) m")
  }

  /// The next day's drive joined after today's is a session of its own: the straight
  /// line between them (the receiver off overnight, the car moved meanwhile) is not a fix
  /// loss to bridge, nor the night stopped time.
  @Test func theNextDaysDriveIsASessionNotAFixLoss() {
    var odometer = TrackOdometer()
    for location in drive(from: 0, seconds: 600) + drive(from: 86_400, seconds: 600, offset: 50_000) {
      odometer.add(location)
    }
    #expect(odometer.sessions == 2)
    #expect(odometer.bridges == 0)
    #expect(odometer.distance > 12_000 - 10 && odometer.distance <= 12_000 + 1e-6, "\(odometer.distance) m")
    #expect(abs(odometer.movingTime + odometer.stoppedTime - 1200) < 1e-6)
  }

  /// Across a leap second (23:59:58, 23:59:59, 23:59:60, 00:00:00, 00:00:01), each step
  /// is a second: the leap second's timestamp is the next midnight's, yet neither fix is a
  /// repeat of the other, and no step's distance is lost.
  @Test func aLeapSecondIsASecondOfItsOwn() {
    let midnight = Timestamp(date: CalendarDate(year: 2017, month: 1, day: 1)!, time: TimeOfDay(microseconds: 0))
    var odometer = TrackOdometer()
    for (index, second) in [-2, -1, 0, 0, 1].enumerated() {
      var location = Location(latitude: 48.137 + Double(index) * 10 / 111_200, longitude: 11.575, mode: .threeD)
      location.timestamp = Timestamp(
        microsecondsSinceEpoch: midnight.microsecondsSinceEpoch + Int64(second) * 1_000_000)
      location.timeOfDay =
        index == 2 ? TimeOfDay(hour: 23, minute: 59, second: 60)! : location.timestamp!.timeOfDay
      location.speed = 10
      location.horizontalAccuracy = 3
      odometer.add(location)
    }
    #expect(abs(odometer.distance - 40) < 0.1, "\(odometer.distance) m")
    #expect(odometer.movingTime + odometer.stoppedTime == 4)
    #expect(odometer.fixesBackInTime == 0 && odometer.sessions == 1)
  }

  private func corpusOdometer(_ name: String) throws -> TrackOdometer? {
    guard let log = corpusLogs.first(where: { $0.lastPathComponent == name }) else {
      Issue.record("the gpsd corpus is missing \(name)")
      return nil
    }
    let bytes = [UInt8](try Data(contentsOf: log))
    var decoder = NMEADecoder()
    var odometer = TrackOdometer()
    let handle: (DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event, let location = Location(fix) { odometer.add(location) }
    }
    bytes.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    return odometer
  }

  @Test func aTimingReceiverOfTheCorpusNeverMoves() throws {
    // meinberg-gps164: RMC only, 0.01-minute coordinates, speed 0.0; the positions flip
    // between cells (88 m of raw steps in 89 s).
    guard let odometer = try corpusOdometer("meinberg-gps164.log") else { return }
    #expect(odometer.pathLength > 50)
    #expect(odometer.distance == 0)
  }

  @Test func aReceiverHoldingItsCourseAtRestDoesNotDrift() throws {
    // sirfstarv-nmea: at rest, speed 0.00 knots with a few 0.1 and 0.19, and every course
    // 359.11: the course held from before, not a direction the small speeds were measured in.
    guard let odometer = try corpusOdometer("sirfstarv-nmea.log") else { return }
    #expect(odometer.distance == 0, "\(odometer.distance) m")
    #expect(odometer.movingTime == 0)
  }

  @Test func aDriftAfterACourseHeldAtRestStillCounts() {
    // A minute at rest with the course held at 359.11, then ten minutes' drift at 0.1 m/s
    // whose courses are measured: the held course does not hide the drift.
    var odometer = TrackOdometer()
    for second in 0..<60 {
      var location = fix(Double(second), speed: 0)
      location.course = 359.11
      odometer.add(location)
    }
    for second in 60..<660 {
      var location = fix(Double(second), north: Double(second - 60) * 0.1, speed: 0.1)
      location.course = [358.5, 359.0, 0.5, 1.0, 359.5][second % 5]
      odometer.add(location)
    }
    #expect(abs(odometer.distance - 60) < 10, "\(odometer.distance) m")
  }

  @Test func aFirstFixWithoutADateIsNotFiftyYearsBeforeTheNext() {
    // The capture starts after the cycle's RMC: the first fix has a time of day only.
    var odometer = TrackOdometer()
    var first = fix(0, speed: 10)
    first.timestamp = nil
    first.timeOfDay = TimeOfDay(hour: 8, minute: 0, second: 0)!
    odometer.add(first)
    for second in 1...10 { odometer.add(fix(Double(second), north: Double(second) * 10, speed: 10)) }
    #expect(abs(odometer.distance - 100) < 1e-6, "\(odometer.distance)")
    #expect(odometer.movingTime + odometer.stoppedTime == 10)
  }

  @Test func aLogWithoutDatesRunsOnAcrossMidnight() {
    // Positions only (GGA, no dates): 1 m/s north from 23:58 to 00:03.
    var odometer = TrackOdometer()
    for second in 0...300 {
      var location = Location(latitude: 48.137 + Double(second) / 111_200, longitude: 11.575)
      location.timeOfDay = TimeOfDay(microseconds: (Int64(86_280 + second) % 86_400) * 1_000_000)
      location.horizontalAccuracy = 1
      odometer.add(location)
    }
    #expect(abs(odometer.distance - 300) < 10, "\(odometer.distance)")
    #expect(odometer.time == 300)
  }

  @Test func aChangeOfRateIsNotAFixLossForEver() {
    // 1 Hz for a minute, then one fix every 5 s (a power-saving mode), at 10 m/s.
    var odometer = TrackOdometer()
    var second = 0.0
    while second <= 600 {
      odometer.add(fix(second, north: second * 10, speed: 10))
      second += second < 60 ? 1 : 5
    }
    #expect(abs(odometer.distance - 6000) < 1, "\(odometer.distance)")
    #expect(odometer.bridges <= 3, "\(odometer.bridges) bridges")
  }

  @Test func aSpeedInEveryOtherCycleDoesNotConfirmASpike() {
    // Standing, RMC every other second: a single 0.9 m/s spike, held by the GGA-only fix
    // after it, is still one measurement.
    var odometer = TrackOdometer()
    for second in 0..<120 {
      let speed: Double? = second % 2 == 1 ? nil : (second == 60 ? 0.9 : 0.1)
      odometer.add(fix(Double(second), north: Double(second % 3), speed: speed))
    }
    #expect(odometer.distance == 0, "\(odometer.distance)")
  }

  @Test func switchingBetweenDopplerAndPositionsLosesNoDistance() {
    // Speed in one cycle of four, at 5 m/s: the other three have positions only.
    var odometer = TrackOdometer()
    for second in 0...400 {
      odometer.add(fix(Double(second), north: Double(second) * 5, speed: second % 4 == 0 ? 5 : nil, accuracy: 2))
    }
    #expect(abs(odometer.distance - 2000) / 2000 < 0.02, "\(odometer.distance)")
  }

  @Test func aNightParkedWithTheReceiverOffIsStoppedTime() {
    var odometer = TrackOdometer()
    for second in 0...60 { odometer.add(fix(Double(second), north: Double(second) * 10, speed: 10)) }
    // Off for eight hours; on again 2 km away, already driving.
    for second in 28_860...28_900 {
      odometer.add(fix(Double(second), north: 2600 + Double(second - 28_860) * 10, speed: 10))
    }
    #expect(odometer.bridges == 1)
    #expect(odometer.movingTime < 200, "\(odometer.movingTime) s moving")
    #expect(abs(odometer.movingTime + odometer.stoppedTime - 28_900) < 1e-6)
  }

  /// A slow movement whose speed dips under the stop threshold for a minute, the body
  /// going on: the speed ended the movement, and when it rose again the minute between
  /// was lost (9 m of 81 here; 0.4 m/s under a speed noise of 0.09 m/s dips under
  /// 0.25 now and then). Its displacement passes the test of movement, so it counts.
  @Test func aMinuteWhoseSpeedDippedUnderTheStopCountsWhenItMoved() {
    var odometer = TrackOdometer()
    var north = 0.0
    func add(_ second: Int, speed: Double, course: Double) {
      var location = fix(Double(second), north: north, speed: speed)
      location.course = course
      odometer.add(location)
      north += course == 0 ? speed : -speed
    }
    // Two minutes standing, a speed noise of up to 0.014 m/s.
    for second in 0..<120 {
      let noise = Double((second * 7919) % 11) / 700
      add(second, speed: noise, course: second % 2 == 0 ? 0 : 180)
    }
    north = 0
    for second in 120..<180 { add(second, speed: 0.6, course: 0) }
    #expect(odometer.isMoving)
    for second in 180..<240 { add(second, speed: 0.15, course: 0) }
    #expect(!odometer.isMoving)
    for second in 240..<300 { add(second, speed: 0.6, course: 0) }
    #expect(odometer.isMoving)
    #expect(abs(odometer.distance - 81) < 2, "\(odometer.distance) m")
    #expect(odometer.movingTime >= 178, "\(odometer.movingTime) s moving")
  }

  /// The same when the speeds after the stop carry no course (a receiver that leaves it
  /// out at low speeds): the displacement test has nothing since the stop to integrate,
  /// and the movement resumes on the speed alone.
  @Test func aSpeedWithoutACourseResumesAfterADip() {
    var odometer = TrackOdometer()
    var north = 0.0
    for second in 0..<300 {
      let speed = second < 120 ? Double((second * 7919) % 11) / 700 : second < 180 || second >= 240 ? 0.6 : 0.15
      var location = fix(Double(second), north: north, speed: speed)
      if second < 180 { location.course = second < 120 && second % 2 == 1 ? 180 : 0 }
      odometer.add(location)
      if second >= 120 { north += speed }
    }
    #expect(odometer.isMoving)
    #expect(abs(odometer.distance - 72) < 2, "\(odometer.distance) m")
  }
}

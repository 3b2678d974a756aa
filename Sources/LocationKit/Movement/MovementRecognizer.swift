/// Where a movement recogniser is, in the shape of the platform's gesture recognisers.
public enum MovementState: String, Sendable, Equatable, CustomStringConvertible {
  /// Standing; no movement has begun.
  case possible
  /// The receiver has really started moving (reported once per trip).
  case began
  /// It moves on (reported at most once per fix).
  case changed
  /// It has stood still for the recogniser's stop duration: the trip is over.
  case ended
  /// What began turned out to be noise: it never reached the minimum distance.
  case cancelled

  public var description: String { rawValue }
}

/// A trip so far, or a finished one.
public struct Trip: Sendable, Equatable {
  /// The last fix at rest before the movement (where and when the trip began); for a slow
  /// movement the odometer found later and dated back, the fix at rest when it began (at
  /// most `restSampleSeconds`, 4 s, earlier).
  public var start: Location
  /// The latest fix of a trip under way; where it stopped, once it has ended.
  public var end: Location
  /// Distance travelled in the trip, metres (``TrackOdometer/distance``).
  public var distance: Double
  /// The 1-sigma uncertainty of ``distance``, metres: what the odometer's error bar
  /// (``TrackOdometer/distanceError``) grew by over the trip: its independent terms in
  /// quadrature, and the share of the slow movements' correction spread (one error for a
  /// receiver's session, added up linearly) that the trip's own distance carries.
  public var distanceError = 0.0
  /// Seconds spent moving in the trip (stops shorter than the stop duration excluded).
  public var movingTime: Double
  /// The highest speed the receiver reported while moving, m/s; `nil` without speeds.
  public var maximumSpeed: Double?
  /// The part of ``distance`` bridged across fix losses whose time counts as stopped
  /// (``TrackOdometer/bridgedDistanceInStoppedTime``), metres: losses longer than
  /// ``TrackOdometer/longestMovingGap`` but shorter than the recogniser's stop duration,
  /// which do not end the trip.
  public var bridgedDistanceInStoppedTime = 0.0

  /// Seconds from start to end.
  public var duration: Double { Trip.elapsed(from: start, to: end) }

  /// Distance over moving time, m/s: without what was bridged in stopped time, whose
  /// time is not in ``movingTime`` (as ``TrackOdometer``'s summary leaves it out).
  public var meanMovingSpeed: Double? {
    movingTime > 0 ? max(0, distance - bridgedDistanceInStoppedTime) / movingTime : nil
  }

  /// Seconds from one fix to a later one: between their timestamps when both have a
  /// date, otherwise between their times of day, the shorter way round the clock (a log
  /// without dates crossing midnight).
  public static func elapsed(from earlier: Location, to later: Location) -> Double {
    TrackClock.elapsed(from: earlier, to: later)
  }
}

/// A transition of a movement recogniser, with the trip it concerns.
public struct MovementEvent: Sendable, Equatable {
  /// The transition: began, changed, ended or cancelled.
  public var state: MovementState
  /// The trip so far (for ``MovementState/ended``, the whole trip).
  public var trip: Trip

  /// An event of `state` for `trip`.
  public init(state: MovementState, trip: Trip) {
    self.state = state
    self.trip = trip
  }
}

/// Turns a track into trips and stops, reporting each transition once and in order, as a
/// gesture recogniser does: ``MovementState/began`` when the receiver has really started
/// moving, ``MovementState/changed`` for each fix while it moves, ``MovementState/ended``
/// once it has stood still for ``stopDuration`` (so a traffic light does not end a trip),
/// ``MovementState/cancelled`` instead when the trip never reached ``minimumDistance``
/// (it was noise); then back to ``MovementState/possible``.
///
/// "Really moving" is the odometer's decision (``TrackOdometer``): with Doppler speeds, a
/// speed above the receiver's noise held for a second, or a displacement they integrate
/// to that its learned velocity noise does not explain (so a slow drift of a kilometre is
/// a trip), or without speeds a departure
/// beyond four combined sigmas of the position's uncertainty seen in two 2 s blocks
/// running. A trip begins at the last fix before that (the last one at rest, or slower
/// than ``TrackOdometer/movingSpeed``), or, for a displacement found after the movement
/// began, at the fix at rest when it began: the odometer dates the movement's distance
/// and moving time back to then, and the trip takes them, so its moving time never
/// exceeds its duration. It ends at the first fix of the stop. Without speeds, a start is known only once the receiver has
/// left its noise radius, so it is late by the time that takes (about 20 s at walking
/// pace for 5 m accuracies); after a stand of two minutes or more its distance shows only
/// two minutes later (``TrackOdometer/excursionSeconds``), and a position that wandered off
/// and came back (multipath) is a trip that is cancelled.
public struct MovementRecognizer: Sendable {
  /// How long the receiver must stand still to end a trip, seconds (default 60).
  public var stopDuration: Double
  /// The distance a trip must reach to be one, metres (default 50).
  public var minimumDistance: Double

  /// Where the recogniser is; ``MovementState/possible`` between trips.
  public private(set) var state = MovementState.possible
  /// The trip under way.
  public private(set) var trip: Trip?
  /// The odometer the decision and the distances come from.
  public private(set) var odometer = TrackOdometer()

  private var lastAtRest: Location?
  /// Fixes at rest since the last trip, one every ``restSampleSeconds`` as far back as the
  /// odometer may date a movement's start (`DopplerMotion.history`): a slow movement that
  /// the displacement test finds is dated back to when it began, and so is its trip.
  private var restHistory: [Location] = []
  private var restHistoryStart = 0
  /// How finely ``restHistory`` keeps the rest: a trip dated back begins at most this
  /// long before its movement did, seconds.
  static let restSampleSeconds = 4.0
  private var latest: Location?
  private var distanceAtStart = 0.0
  private var movingTimeAtStart = 0.0
  private var bridgedAtStart = 0.0
  /// Where and how a trip stood, as it would end there: the odometer's figures since the
  /// trip began.
  private struct Stop {
    var location: Location
    var distance: Double
    var movingTime: Double
    var error: Double
    var bridged: Double
    /// The odometer's ``TrackOdometer/bridgedDistance`` then: a bridge after the stop,
    /// across a loss the stop outlasted, is not the trip's.
    var bridgedByOdometer: Double
  }
  private var stoppedAt: Stop?
  /// The odometer's error variance when the trip began, m², less the square of its
  /// session's ``TrackOdometer/correctionSpread``; that grows linearly within a session,
  /// not in quadrature, so the trip's share of it is taken apart (`spreadAtStart`). A
  /// trip ends with its session.
  private var varianceAtStart = 0.0
  private var spreadAtStart = 0.0
  /// The trip's ``Trip/distanceError`` as of the last fix.
  private var latestError = 0.0

  /// How much the odometer's error bar grew since the trip began, metres.
  private var errorSinceStart: Double {
    let error = odometer.distanceError
    let spread = odometer.correctionSpread
    let independent = max(0, error * error - spread * spread - varianceAtStart)
    let tripSpread = spread - spreadAtStart
    return (independent + tripSpread * tripSpread).squareRoot()
  }
  /// The highest measured speed of the fixes since the odometer last moved or rested,
  /// at least the odometer's ``TrackOdometer/movingSpeed`` each: the steps the odometer is waiting to
  /// confirm, whose distance a trip gets once it does.
  private var unconfirmedPeak: Double?

  /// A recogniser at rest.
  public init(stopDuration: Double = 60, minimumDistance: Double = 50) {
    self.stopDuration = stopDuration
    self.minimumDistance = minimumDistance
  }

  /// Adds the next fix; returns the transition it causes, if any. A fix without a time
  /// (``Location/hasTime``) changes nothing.
  public mutating func add(_ location: Location) -> MovementEvent? {
    guard location.hasTime else { return nil }
    let previous = latest
    let distanceBefore = odometer.distance
    let movingTimeBefore = odometer.movingTime
    let bridgedBefore = odometer.bridgedDistanceInStoppedTime
    let spreadBefore = odometer.correctionSpread
    let allBridgedBefore = odometer.bridgedDistance
    let sessionsBefore = odometer.sessions
    // The trip as it stood before this fix.
    func before(_ latest: Location) -> Stop {
      Stop(
        location: latest, distance: distanceBefore - distanceAtStart, movingTime: movingTimeBefore - movingTimeAtStart,
        error: latestError, bridged: bridgedBefore - bridgedAtStart, bridgedByOdometer: allBridgedBefore)
    }
    odometer.add(location)
    var ended: MovementEvent?
    if odometer.sessions != sessionsBefore, let latest {
      // Another session (the odometer's decision; logs joined, a clock reset): a trip
      // under way ended where the last session's fixes did, and this one starts at rest.
      if trip != nil {
        ended = end(at: stoppedAt ?? before(latest), restingAt: latest)
      }
      self.latest = location
      forgetRest()
      noteRest(location)
      unconfirmedPeak = nil
      return ended
    }
    if let latest {
      let elapsed = Trip.elapsed(from: latest, to: location)
      guard elapsed > 0 else { return nil }
      // No fix for as long as a stop: the trip ended where the fixes did (a receiver
      // switched off when parked), whatever comes next.
      if trip != nil, elapsed >= stopDuration {
        // (What the odometer bridged across the loss is not part of it.)
        ended = end(at: stoppedAt ?? before(latest), restingAt: latest)
      }
    }
    latest = location
    var peak = location.measuredSpeed
    if odometer.isMoving {
      if let unconfirmedPeak { peak = max(peak ?? unconfirmedPeak, unconfirmedPeak) }
      unconfirmedPeak = nil
    } else if let speed = location.measuredSpeed {
      unconfirmedPeak = speed >= odometer.movingSpeed ? max(unconfirmedPeak ?? speed, speed) : nil
    }
    // A track that begins in motion: its trip begins at its first fix.
    if lastAtRest == nil { noteRest(location) }
    if let ended {
      // The fix after the loss may itself be under way: that is for the next call to say.
      if odometer.isMoving { noteRest(location) }
      return ended
    }

    guard var trip else {
      if !odometer.isMoving {
        if (location.measuredSpeed ?? 0) < odometer.movingSpeed { noteRest(location) }
        return nil
      }
      distanceAtStart = distanceBefore
      movingTimeAtStart = movingTimeBefore
      bridgedAtStart = bridgedBefore
      // The error bar from here (the step that began the trip is in it, as its distance),
      // but for the correction's spread, which adds up linearly: the trip's share is from
      // before this step, whose stretch counted back carries its own.
      let beginning = odometer.distanceError
      spreadAtStart = spreadBefore
      varianceAtStart = beginning * beginning - odometer.correctionSpread * odometer.correctionSpread
      // The moving time the odometer counted before this step: a movement dated back to
      // when it began, which the trip begins with (its moving time never exceeds its
      // duration, and its distance is the movement's since then).
      let step = previous.map { Trip.elapsed(from: $0, to: location) } ?? 0
      let datedBack = odometer.movingTime - movingTimeBefore - step
      // After a loss as long as a stop, the trip begins at the fix after it, without what
      // the odometer bridged (as a trip under way ends before such a loss): a bridge of
      // 887 m across 69 s without fixes, stopped time, made a trip of 887 m/s.
      let afterLoss = step >= stopDuration
      if afterLoss {
        distanceAtStart = odometer.distance
        movingTimeAtStart = odometer.movingTime
        bridgedAtStart = odometer.bridgedDistanceInStoppedTime
        spreadAtStart = odometer.correctionSpread
      }
      latestError = errorSinceStart
      var begun = Trip(
        start: afterLoss ? location : start(before: location, by: step + datedBack), end: location, distance: 0,
        movingTime: 0, maximumSpeed: peak)
      Self.update(&begun, to: soFar(at: location, error: latestError))
      forgetRest()
      self.trip = begun
      stoppedAt = nil
      state = .began
      return MovementEvent(state: .began, trip: begun)
    }

    if odometer.isMoving {
      stoppedAt = nil
      latestError = errorSinceStart
      Self.update(&trip, to: soFar(at: location, error: latestError))
      if let peak { trip.maximumSpeed = max(trip.maximumSpeed ?? peak, peak) }
      self.trip = trip
      state = .changed
      return MovementEvent(state: .changed, trip: trip)
    }
    latestError = errorSinceStart
    let stop = stoppedAt ?? soFar(at: location, error: latestError)
    stoppedAt = stop
    // A slow movement without speeds stands between the links of its chain: the trip
    // goes on while the next link may still come, and ends at the stop after the last.
    guard Trip.elapsed(from: stop.location, to: location) >= stopDuration, !odometer.mayStillBeMovingSlowly else {
      return nil
    }
    return end(at: stoppedWithHeldDistance(stop), restingAt: location)
  }

  /// Notes a fix at rest: where a trip begins, unless its movement is dated back further
  /// (``restHistory``).
  private mutating func noteRest(_ location: Location) {
    lastAtRest = location
    if restHistory.count > restHistoryStart,
      Trip.elapsed(from: restHistory[restHistory.count - 1], to: location) < Self.restSampleSeconds
    {
      return
    }
    restHistory.append(location)
    // Older than the odometer dates back, with one more to cover it.
    while restHistory.count - restHistoryStart > 2,
      Trip.elapsed(from: restHistory[restHistoryStart + 1], to: location) > DopplerMotion.history
    {
      restHistoryStart += 1
    }
    if restHistoryStart >= 256 && 2 * restHistoryStart >= restHistory.count {
      restHistory.removeFirst(restHistoryStart)
      restHistoryStart = 0
    }
  }

  /// Forgets the rest kept so far: a trip began, or a session or a stop begins.
  private mutating func forgetRest() {
    restHistory.removeAll(keepingCapacity: true)
    restHistoryStart = 0
  }

  /// Where a trip that begins at `location` starts: the last fix at rest, or, when the
  /// odometer dated the movement back `seconds` before `location`, the latest fix at rest
  /// at or before then (so at most ``restSampleSeconds`` earlier).
  private func start(before location: Location, by seconds: Double) -> Location {
    guard let lastAtRest else { return location }
    guard Trip.elapsed(from: lastAtRest, to: location) < seconds - 1e-6 else { return lastAtRest }
    var index = restHistory.count - 1
    while index >= restHistoryStart {
      if Trip.elapsed(from: restHistory[index], to: location) >= seconds - 1e-6 { return restHistory[index] }
      index -= 1
    }
    return restHistoryStart < restHistory.count ? restHistory[restHistoryStart] : lastAtRest
  }

  /// `stop` with the distance the odometer has counted since, while standing: what it
  /// held back of the trip until it knew the trip was one (a departure without speeds,
  /// held in case it was the position's excursion). Standing, it adds nothing else but a
  /// bridge across a fix loss the stop outlasted (with a stop duration over the
  /// odometer's ``TrackOdometer/longestMovingGap``), which is after the trip's end and
  /// left out.
  private func stoppedWithHeldDistance(_ stop: Stop) -> Stop {
    var held = stop
    held.distance = odometer.distance - distanceAtStart - (odometer.bridgedDistance - stop.bridgedByOdometer)
    held.error = max(stop.error, errorSinceStart)
    return held
  }

  /// The trip as it stands with the odometer's figures now, were it to end at `location`.
  private func soFar(at location: Location, error: Double) -> Stop {
    Stop(
      location: location, distance: odometer.distance - distanceAtStart,
      movingTime: odometer.movingTime - movingTimeAtStart, error: error,
      bridged: odometer.bridgedDistanceInStoppedTime - bridgedAtStart, bridgedByOdometer: odometer.bridgedDistance)
  }

  /// Ends a trip under way at the end of the track (the end of a log): ``MovementState/ended``
  /// or ``MovementState/cancelled`` with the trip, or `nil` when none was under way.
  public mutating func finish() -> MovementEvent? {
    guard trip != nil, let latest else { return nil }
    return end(
      at: stoppedAt.map(stoppedWithHeldDistance) ?? soFar(at: latest, error: errorSinceStart), restingAt: latest)
  }

  /// `trip` as it stands at `stop`: where it is (or ended), the odometer's figures since
  /// it began, and its bar. Every event's trip is made so.
  private static func update(_ trip: inout Trip, to stop: Stop) {
    trip.end = stop.location
    trip.distance = stop.distance
    trip.distanceError = stop.error
    trip.movingTime = stop.movingTime
    trip.bridgedDistanceInStoppedTime = stop.bridged
  }

  private mutating func end(at stop: Stop, restingAt location: Location) -> MovementEvent? {
    guard var trip else { return nil }
    Self.update(&trip, to: stop)
    let final: MovementState = trip.distance >= minimumDistance ? .ended : .cancelled
    self.trip = nil
    stoppedAt = nil
    // The rest began where the trip stopped: a movement dated back into the stop's first
    // minute begins there.
    forgetRest()
    noteRest(stop.location)
    noteRest(location)
    state = .possible
    return MovementEvent(state: final, trip: trip)
  }
}

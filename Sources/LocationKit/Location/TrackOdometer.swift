import Geodesy
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// Distance travelled along a track, estimated from all the evidence a receiver gives.
///
/// Summing the steps between fixes adds the receiver's position noise: metres a minute for
/// a receiver that never moves, percents on a walk. ``distance`` is the path length with
/// that noise kept out, by one of two methods, chosen fix by fix:
///
/// - **Doppler** (the fix, or one less than ``speedHoldSeconds`` before it, carries a
///   speed): the receiver measures its own velocity from the carrier's Doppler shift, with
///   centimetres per second of noise where positions have metres. Two decisions of
///   movement, both from the receiver's own noise:
///   - *by the speed*: moving once the speed has been at least ``movingSpeed`` for
///     ``confirmationSeconds`` (then the steps that led there count too), stopped below
///     ``stoppedSpeed``; only fixes that carry a speed of their own confirm.
///     ``movingSpeed`` is ``lowestMovingSpeed`` or, for a receiver whose speed at rest is
///     noisier, ``movingSpeedFactor`` times its σ, learned from the speeds while stopped
///     (`RestingSpeedNoise`), so that 0.3 m/s of noise at rest is not movement;
///   - *by the displacement* (fixes with a course): the velocities integrate to a
///     displacement, and one that the receiver's learned velocity noise does not explain
///     (a χ² test at a false-alarm probability of 10⁻⁹) is movement, however slow: a
///     drift of 0.15 m/s. It ends by the same test (`DopplerMotion` derives it), or by
///     the speed once the speed shows the movement.
///   While moving, the distance is the speed integrated over time (trapezoids between
///   fixes), less the noise's bias σ²/2v; while stopped, nothing is added, whatever the
///   positions do. Integrating speed is the minimum-variance estimate of the path length
///   when the speed error is small against the position error: the integral's error grows
///   as the square root of the number of fixes (for 0.1 m/s at 1 Hz, 6 m in an hour).
///   Positions, whose errors wander by metres over tens of seconds, would only add noise.
/// - **Positions** (no speed): fixes are averaged in blocks of ``blockSeconds``. Standing,
///   a block is a departure from the last counted one (the anchor) only when it is more
///   than ``confidenceFactor`` times the two blocks' combined uncertainty away, in two
///   blocks running; then that stretch counts and the receiver is moving. Moving, a chord
///   to the anchor is counted every ``chordSeconds`` (short enough to follow turns), and a
///   chord slower than ``positionsMovingSpeed`` ends the movement; its anchor stays, so
///   that the next departure counts that stretch too (a slow drift is a chain of
///   departures). A departure from a stand is held for ``excursionSeconds``: if it comes
///   back out and back along a line, it was the position error's excursion (multipath)
///   and adds nothing. The uncertainty of a block is the larger of its fixes' mean
///   1-sigma accuracy (``defaultAccuracy`` when a fix has none) and the coordinates' own
///   resolution (the smallest non-zero step seen between two fixes, so that a receiver
///   printing 0.01 minutes, 18 m cells, does not travel by flipping between cells).
///
/// A **fix loss** (no fix for more than ``gapSeconds`` and three fix intervals, a tunnel)
/// is bridged by the straight geodesic between the fixes on either side, when the
/// receiver was moving on either side or the bridge exceeds the fixes' uncertainty;
/// ``bridgedDistance`` says how much. A fix whose time repeats adds nothing.
///
/// A fix whose time goes **backwards** adds nothing either, unless it begins another
/// **session** (``sessions``): logs joined end to end, a receiver's clock reset. That is
/// so when the time goes back more than ``newSessionSeconds``, when the date changes with
/// the step back (a session of the day before joined after one past midnight), or when
/// ``FixPlausibility/recoveryCount`` fixes in a row go back and run forward among
/// themselves (the rule by which the plausibility check follows a receiver that really is
/// elsewhere). A later session is one too: a fix after more than ``longestMovingGap``
/// without any, on another date (the next day's drive joined after today's), and so is a
/// fix the plausibility check would set aside as too fast after the last
/// (``FixPlausibility/speedLimit``; two places' logs joined on one day). The new
/// session is counted on its own from there: nothing across the jump, neither distance
/// nor time; and as it may be another receiver's log, its velocity noise is learned
/// afresh.
/// ``fixesBackInTime`` counts the fixes left out meanwhile.
///
/// The estimate looks only at fixes already seen, so a live source and a file of the
/// same fixes give the same distance, fix by fix.
///
/// ``pathLength`` is the raw sum of every step, and ``displacement`` the straight
/// distance from the first fix (the classic WhereAmI "distance"). All are WGS84 geodesic
/// distances in metres, ignoring altitude.
public struct TrackOdometer: Sendable {
  /// A speed is used for fixes that carry none for this long after it, seconds (for
  /// receivers that send speed in some reporting cycles only).
  public static let speedHoldSeconds = 2.5
  /// The longest a speed is held for a receiver that sends speeds rarely, seconds.
  public static let longestSpeedHold = 10.0
  /// How many combined sigmas a departure from the anchor must exceed, positions only.
  /// The two blocks' errors are both in the distance: for 1-sigma accuracies that are
  /// right, noise exceeds 4 combined sigmas with probability exp(−8) = 3 × 10⁻⁴ per
  /// independent pair (errors decorrelate over about a minute: once in 50 hours).
  public static let confidenceFactor = 4.0
  /// How many combined sigmas a departure must exceed, positions only, when it is the
  /// next link of a slow movement's chain of departures: soon after the last departure
  /// (``chainWindow``), which moved on by no more than three chords, and, for the first
  /// two links, going on rather than back. The body has just shown that it moves, so the
  /// question is no longer whether but how far; at ``confidenceFactor`` each link would
  /// be a chord so long that the turns inside it are lost (a drift at 0.15 m/s with 2 m
  /// of noise correlated over a minute read a third short). A link's turn from the link
  /// before is counted back into the distance, as a moving chord's is. Noise alone
  /// exceeds 2 combined sigmas with probability exp(−2) = 0.14 per independent pair
  /// (exp(−4) = 0.02 where the accuracy is the radial √(σ²lat + σ²lon), as GST and
  /// DOP × UERE give it), so a body that stops after such a chain may add a link or two
  /// before the window closes.
  public static let chainedConfidenceFactor = 2.0
  /// How long after a departure the next one is a link of the same chain, in multiples of
  /// the time that departure took (for a link, at most twice the time the link before it
  /// was taken to take: a link noise makes at rest, long after the last, would otherwise
  /// open a window in which the next is all but certain, and the chain would not end).
  public static let chainWindow = 5.0
  /// While moving without speed, a chord is measured every this many seconds.
  public static let chordSeconds = 8.0
  /// While moving without speed, a chord slower than this ends the movement, m/s.
  public static let positionsMovingSpeed = 0.4
  /// The 1-sigma accuracy assumed for a fix that reports none, metres.
  public static let defaultAccuracy = 5.0
  /// Fixes are averaged over blocks this long when there is no speed, seconds.
  public static let blockSeconds = 2.0
  /// The shortest time without fixes that is a fix loss, seconds.
  public static let gapSeconds = 2.5
  /// A fix loss longer than this counts as stopped time, not moving, seconds.
  public static let longestMovingGap = 60.0
  /// A step back in time longer than this starts a new stretch of track, seconds.
  public static let newSessionSeconds = 600.0
  /// Positions only: a departure from a stand of at least this many seconds that comes
  /// back to it, out and back along a line (``outAndBackRatio``), within this many seconds
  /// is multipath, not a trip, and adds nothing; one that does not is counted in full once
  /// this time has passed.
  ///
  /// Positions cannot tell an excursion of the position error from a walk there and back
  /// along the same line: both leave and return along a line. Multipath from a reflector
  /// moves the position metres to tens of metres for seconds to a minute or two, while
  /// the reflected signal's geometry changes (satellites move 0.5° a minute). So, without
  /// a speed to show it, a trip there and back along a line within two minutes, after
  /// two minutes or more standing, is lost (at walking pace, up to 80 m each way); and
  /// the distance of the two minutes after such a stand is counted only when they have
  /// passed (not at all, if the log ends first). Pauses shorter than this (at a light,
  /// for a look round) are not stands for this rule. At the start of a track (or of its
  /// positions, after speeds or a fix loss) a stand is one that lasted longer than a body
  /// at ``positionsMovingSpeed`` takes to leave the noise. While a departure is held,
  /// ``distanceError`` includes half its distance: the distance shown then lacks all of it
  /// or none.
  public static let excursionSeconds = 120.0
  /// Positions only: a departure that comes back is an excursion only when its path is at
  /// most this many times as long as its farthest point from the stand: out and back
  /// along a line is twice (the chords through the noise add a little), a loop longer (a
  /// circle π times, a square from a corner 2.8 times). A walk round a loop back to where
  /// it began counts.
  public static let outAndBackRatio = 2.5

  /// How many sessions the track has had: 1, and one more each time the time went back
  /// into another (see above).
  public private(set) var sessions = 1
  /// Fixes left out because their time was before the previous fix's, without (yet)
  /// beginning another session.
  public private(set) var fixesBackInTime = 0
  /// The fixes in a row whose time went back: the latest, and how many.
  private var backwardRun: (latest: TrackPoint, count: Int)?

  /// Noise-proof distance travelled, metres. Never decreases: while a chord measured from
  /// positions is still open, it includes the chord so far.
  public private(set) var distance = 0.0
  /// The distance of closed chords and confirmed Doppler movement.
  private var committed = 0.0
  /// The variance of ``committed``'s error, m² (see ``distanceError``).
  private var committedVariance = 0.0
  /// The two measured speeds before the latest and the interval between them, for
  /// ``noteSampling(_:elapsed:moving:)``.
  private var sampledSpeeds: (older: Double?, newer: Double, interval: Double)?

  /// The 1-sigma uncertainty of ``distance``, metres, from the estimator's own terms, each
  /// from what this receiver showed, in quadrature (they are independent):
  /// - the Doppler velocity's noise integrated over the time whose speed is counted
  ///   (variance q·T; q as `integrationRate` bounds it);
  /// - where each movement began and ended: within the step in which the speed crossed
  ///   its threshold (uniform in it: the step's distance over √12), and what a speed
  ///   sampled every few seconds did between its samples (`noteSampling`);
  /// - movement too slow to be decided: the displacement at rest beyond what noise
  ///   explains (`DopplerMotion.restExcess`), so a drift the test found late is in the
  ///   error bar;
  /// - without speed, the chords' noise and the turns they cut (`positionsBiasBound`),
  ///   and a block's sigma for each departure;
  /// - each bridged fix loss, as its own term: how much longer than the straight bridge
  ///   the path may have been (see `bridge`);
  /// - a departure held until it proves not to be the position error's excursion (see
  ///   ``excursionSeconds``): half its distance.
  ///
  /// Worked out afresh at each fix from what is known by then, so it can narrow (a rest
  /// shows the receiver's noise to be less than its bound). Looks at no fix ahead.
  public var distanceError: Double {
    let bridgeWaiting = pendingBridge.map { $0.shortfall * $0.shortfall } ?? 0
    return
      (committedVariance + integrationVariance + positionsBiasBound * positionsBiasBound + correctedCutSquares
      + correctionSpread * correctionSpread + doppler.restExcess()
      + openChordVariance + bridgeWaiting + heldVariance).squareRoot()
  }

  /// A held departure's share of ``distanceError``, m² (``excursionSeconds``): the
  /// distance shown lacks all of the held distance D (its chords, and the one still open)
  /// if it proves a trip, none if it proves an excursion; an error that takes one of two
  /// values differing by D has a standard deviation of at most D/2, and the truth lies
  /// within twice that.
  private var heldVariance: Double {
    guard let pending = excursion else { return 0 }
    let held = pending.distance + chordSoFar
    return held * held / 4
  }

  /// Seconds of this session whose speed is integrated into ``distance``.
  private var integratedSeconds = 0.0
  /// How far the slow movements' distance of this session may be off through the
  /// velocity noise's variance, metres (``DopplerMotion/Step/correctionSpread``). Their
  /// speeds, |v + n|, exceed v by about σ²/2v and are corrected with the σ² learned: at
  /// 0.15 m/s and σ = 0.09 m/s that takes off 20 %, so a σ² a third off moves the
  /// distance by several per cent, the same way at every fix of the receiver. The spread
  /// adds up linearly within a session; sessions (another receiver, maybe) add in
  /// quadrature.
  private(set) var correctionSpread = 0.0
  /// The Doppler noise integrated over ``integratedSeconds``, m²: q·T per axis, the
  /// rate q from what the session's receiver showed (a rest late in a session says what
  /// the noise was before it too). See ``integrationRate``.
  private var integrationVariance: Double {
    integrationRate * integratedSeconds
  }

  /// The rate q at which the integrated speed's error variance grows, m²/s: an upper
  /// bound the data can keep, never an estimate that a short rest can put too low.
  /// - The velocity's variance per axis σ² is what rests show best: at rest the velocity
  ///   is the error (``RestingSpeedNoise``, from every second taken as stopped, a
  ///   walker's pause or a car at a light). Its correlation time τ is not: rests of
  ///   10–60 s cannot resolve it, and fits to them put q anywhere from 0.03 to 4 times
  ///   the true one. So τ is taken at its bound, ``DopplerMotion/longestCorrelationTime``
  ///   (q = 2σ²τmax): at most 10/τ times the true q, 2 to 20 for the 0.5–5 s of receivers'
  ///   navigation filters, so the bar is at most √20 ≈ 4.5 times, and for τ ≥ 1.1 s at most
  ///   3 times, as wide as it needs to be.
  /// - Once a rest of a minute or more has given the decisions a fitted noise, its rate
  ///   (the largest that fits, itself a bound) is taken where it is lower.
  /// - A receiver whose speeds at rest read below their rounding (0.0 knots) shows no σ;
  ///   then the decisions' noise stands (its bound from the changes of speed, at least
  ///   the rounding's).
  private var integrationRate: Double {
    let fromRest = restRate
    guard let consistency = history.velocityNoiseBound else { return fromRest ?? doppler.noise?.rate ?? 0 }
    return min(fromRest ?? consistency, consistency)
  }

  private var restRate: Double? {
    let rounding = doppler.resolutionNoise
    guard restingSpeeds.variance > rounding.variance else { return doppler.noise?.rate }
    let bound = 2 * restingSpeeds.variance * DopplerMotion.longestCorrelationTime
    guard let learned = doppler.learned else { return bound }
    return min(bound, max(learned.rate, rounding.rate))
  }

  /// Before the chords' noise is known (``chordNoise``): their across-track bias from
  /// the fixes' stated accuracies, metres (they add up, not in quadrature).
  private var positionsBias = 0.0
  /// Positions only: the last chord counted, metres east and north, and its seconds.
  private var lastChord: (east: Double, north: Double, seconds: Double)?
  /// The squared second differences of consecutive chords of about equal time, m².
  private var chordDifferences = MedianWindow(capacity: 600, keepsSorted: true)
  /// The variance per axis of the chords' second differences, Var(d), m², from the median
  /// of ``chordDifferences`` (worked out as each comes); `nil` before ten.
  private var chordDifferenceVariance: Double?
  /// Σ 1/2L over the chords counted moving before their noise was known, and after.
  private var inverseChordLengths = (uncorrected: 0.0, corrected: 0.0)
  /// Σ Lθ²/8 over the chords counted but not corrected for it (departures that are not a
  /// chain's links, and moving chords before the chords' noise is known), θ the turn from
  /// the chord before, metres.
  private var cornerCut = 0.0
  /// Σ 1/8L over the chords counted moving whose turn is in ``cornerCut``: the noise's
  /// share of it is Var(d) times this.
  private var turnNoiseWeights = 0.0
  /// The turns' cut not yet counted: a chord's estimate less the noise's share may come
  /// out negative, and waits for the next positive one, so that the sum is unbiased and
  /// the distance never goes back.
  private var turnCarry = 0.0
  /// Σ of the squares of the cuts counted back: each is as uncertain as itself (a turn
  /// at a chord's end cuts nothing, one at its middle up to three times the estimate),
  /// and from chord to chord independently.
  private var correctedCutSquares = 0.0

  /// How the variance of a chord's noise s² (per axis, of the difference of its two
  /// ends' errors) follows from Var(d), the variance per axis of the second difference
  /// of consecutive chords of equal time (d = c₊ − c, which cancels a steady velocity):
  /// Var(d) is 2s² less twice the covariance of consecutive differences, which lies
  /// between 0 (an error correlated over much longer than a chord: a random walk at
  /// that scale) and −s²/2 (a white one), so Var(d)/s² lies between 2 and 3 for any
  /// mixture of the two (3 − ρ for a Gauss-Markov error, ρ its correlation over a
  /// chord). The middle is taken: s² is then right within 20 %.
  static let chordDifferenceRatio = 2.5

  /// The variance per axis of a chord's noise, s², m²; `nil` before ten chords' second
  /// differences are known.
  private var chordNoise: Double? { chordDifferenceVariance.map { $0 / Self.chordDifferenceRatio } }

  /// A chord with its noise's bias taken off (the turns it cut are counted back apart,
  /// in ``noteChord(from:to:length:seconds:moving:)``): a length measured as |c + n| exceeds c by
  /// s²/2c on average (the noise across it), and √(L² − s²) removes that to second
  /// order, as for a speed.
  private func debiased(_ chord: Double) -> Double {
    guard let noise = chordNoise else { return chord }
    return max(0, chord * chord - noise).squareRoot()
  }

  /// The chords' share of ``distanceError``, metres: the bias left in them, in metres
  /// added up.
  /// - **Noise lengthens** a chord by s²/2L; counted before s² is known, by all of it
  ///   (the fixes' accuracies standing for s² until ten second differences are known:
  ///   independent ends, too large where the error is correlated), after, by what
  ///   ``chordDifferenceRatio`` may be off: 20 % of it.
  /// - **Turns are cut:** a chord is shorter than the path it spans where the path
  ///   turned. For a heading that wanders as a random walk (diffusion D), a chord of
  ///   length L and duration T cuts L·DT/12, and consecutive chords differ in direction
  ///   by θ with E[θ²] = 2DT/3, so the cut is about Lθ²/8 (three times what an arc of
  ///   constant curvature cuts, Lθ²/24; a sharp corner cuts that much on average over
  ///   where in the chord it falls). Noise turns consecutive chords too, by Var(d)/L² on
  ///   average, d their second difference, so Var(d)/8L of each moving chord's term is
  ///   the noise's. Once the chords' noise is known, a chord's cut less the noise's share
  ///   is counted back into the distance (``turnCarry``), and the bar keeps each one's
  ///   size as its uncertainty, in quadrature (``correctedCutSquares``), as is a chain's
  ///   link's (``chainedConfidenceFactor``); before, and for other departures, the whole
  ///   cut is in the bias.
  private var positionsBiasBound: Double {
    guard let chordDifferenceVariance else { return positionsBias + cornerCut }
    let upper = chordDifferenceVariance / 2
    let turns = max(0, cornerCut - chordDifferenceVariance * turnNoiseWeights)
    return upper * (inverseChordLengths.uncorrected + 0.2 * inverseChordLengths.corrected) + turns
  }

  /// The open chord's share of ``distanceError``, m².
  private var openChordVariance: Double {
    guard usingPositions, isMoving, let anchor, filling.count > 0 else { return 0 }
    let sigma = combinedSigma(anchor, filling)
    return sigma * sigma
  }
  /// Raw geodesic path length: every step summed, metres.
  public private(set) var pathLength = 0.0
  /// Straight distance from the first fix to the latest, metres.
  public var displacement: Double {
    guard let first, let displacedTo else { return 0 }
    return displacedTo.distance(from: first)
  }
  /// The latest fix ``displacement`` is measured to: worked out when asked, as most
  /// callers want it once per track, not once per fix.
  private var displacedTo: TrackPoint?
  /// The part of ``distance`` added across fix losses, metres.
  public private(set) var bridgedDistance = 0.0
  /// The part of ``bridgedDistance`` across losses longer than ``longestMovingGap``,
  /// whose time counts as stopped: a mean moving speed leaves it out with its time (20
  /// minutes without a fix, after which the receiver stands 670 m on, are not 670 m in
  /// the second of moving time around them).
  public private(set) var bridgedDistanceInStoppedTime = 0.0
  /// How many fix losses were bridged.
  public private(set) var bridges = 0
  /// Whether the receiver is currently taken to be moving.
  public private(set) var isMoving = false
  /// Whether a slow movement without speeds may still be under way while ``isMoving`` is
  /// false: the receiver stands between two links of its chain of departures, and the
  /// next may still come (see ``chainedConfidenceFactor``), or a departure is held until
  /// it proves not to be the position error's excursion (``excursionSeconds``), after
  /// which the chain may go on from it. A drift at 0.15 m/s stands a minute or two
  /// between links; a trip does not end meanwhile.
  public var mayStillBeMovingSlowly: Bool {
    guard usingPositions, !isMoving, let anchor else { return false }
    if excursion != nil { return true }
    // The next block to be tested is the one filling: a link can begin no earlier.
    return chainIsOpen(from: anchor, at: filling.count > 0 ? filling.start : previousSeconds)
  }
  /// Seconds spent moving (the steps that end or begin moving included, and bridged fix
  /// losses), and seconds standing (fix losses that were not bridged included).
  public private(set) var movingTime = 0.0
  /// Seconds standing still (fix losses that were not bridged included).
  public private(set) var stoppedTime = 0.0

  private var first: TrackPoint?
  private var previous: TrackPoint?
  private var previousSeconds = 0.0
  private var clock = TrackClock()
  private var intervals = RecentIntervals()
  /// When the last fix carrying a speed came, and the recent intervals between such fixes.
  private var lastMeasuredSpeedAt: Double?
  private var speedIntervals = RecentIntervals()
  /// The course of the last fix whose speed was ``movingSpeed`` or more: the direction
  /// of travel before a stop (a speed at rest has no direction).
  private var lastMovingCourse: Double?
  /// The last speed seen, the course with it, and when, with the velocity east and north
  /// they make (worked out once: ``record(_:_:)`` keeps it too).
  private var lastSpeed: (speed: Double, course: Double?, seconds: Double, velocity: (east: Double, north: Double)?)?
  /// Doppler: distance of steps above ``movingSpeed`` not yet confirmed, since when, and
  /// the time of those steps before the latest (counted as standing until confirmed),
  /// the first step's distance, and when that step began (the rest ended within it).
  private var pending: (distance: Double, since: Double, elapsed: Double, first: Double, from: Double)?
  /// Whether the movement under way was found by the displacement test (it ends by that
  /// test too), not by the speed.
  private var slowMovement = false
  /// The speeds while stopped, whose scatter is the receiver's speed noise.
  private var restingSpeeds = RestingSpeedNoise()
  /// The velocity noise learned from the velocities' changes, and the displacement test.
  private var doppler = DopplerMotion()
  /// The track's recent past, for the error bar's terms it measures.
  private var history = TrackHistory()
  /// The course the receiver gave with its last speed of 0, until it gives another.
  private var heldCourse: Double?
  /// Positions: the last counted block, the block being filled, and one waiting for its
  /// confirmation.
  private var anchor: Block?
  private var filling = Block()
  private var candidate: Block?
  /// Positions only: a departure from where the receiver stood that is not counted yet
  /// (see ``excursionSeconds``).
  private var excursion: Excursion?
  /// Positions only: the last departure counted.
  private var lastDeparture: Departure?
  /// Positions only: since when the receiver has been standing, seconds, and
  /// ``stoppedTime`` when a movement ended there (a chain's next link makes what it
  /// stood since moving time).
  private var standingSince = 0.0
  private var stoppedTimeAtStand = 0.0
  /// Whether that stand began with the track (or its positions): what came before is not
  /// known.
  private var standingFromStart = true
  private var usingPositions = true
  /// The smallest non-zero coordinate steps seen, degrees of latitude and of longitude.
  private var latitudeQuantum = Double.infinity
  private var longitudeQuantum = Double.infinity

  /// Creates an odometer at zero.
  public init() {}

  /// Adds the next location of the track.
  public mutating func add(_ location: Location) { add(TrackPoint(location)) }

  /// Adds the next point of the track.
  ///
  /// A point without a time (``TrackPoint/hasTime``) is left out: the odometer weighs a
  /// step by the time it took.
  public mutating func add(_ location: TrackPoint) {
    guard location.hasTime else { return }
    guard first != nil, let previous else {
      let seconds = clock.advance(to: location)
      self.first = location
      self.previous = location
      previousSeconds = seconds
      usingPositions = location.measuredSpeed == nil
      startPositions(at: location, seconds)
      startDoppler(location, seconds, moving: false)
      record(location, seconds)
      return
    }
    let elapsed = TrackClock.elapsed(from: previous, to: location)
    if elapsed < 0 {
      if beginsSession(location, elapsed: elapsed, after: previous) {
        // Another session (logs joined, a clock reset): start afresh from here, adding
        // nothing across the jump.
        sessions += 1
        backwardRun = nil
        restart(at: location)
      } else {
        fixesBackInTime += 1
      }
      return
    }
    // A repeat: nothing to add.
    guard elapsed > 0 else { return }
    backwardRun = nil
    if elapsed > Self.longestMovingGap, let date = location.timestamp?.date,
      let previousDate = previous.timestamp?.date, date != previousDate
    {
      // A later session, on another day: its own stretch, not a fix loss to bridge.
      sessions += 1
      restart(at: location)
      return
    }
    let step = location.distance(from: previous)
    // (The check allows at least `speedLimit` times the time: a shorter step is credible
    // without it.)
    if step > FixPlausibility.speedLimit * elapsed, FixPlausibility.isTooFast(location, after: previous) {
      // Logs of two places joined (or a receiver carried off while it was off): the
      // plausibility check follows the receiver there after three agreeing fixes, and the
      // odometer starts another session, adding nothing across the jump.
      sessions += 1
      restart(at: location)
      return
    }
    let seconds = clock.advance(to: location)
    pathLength += step
    displacedTo = location
    noteQuantum(location, previous)
    self.previous = location
    previousSeconds = seconds

    let interval = intervals.median ?? 1
    intervals.append(elapsed)
    let wasMoving = isMoving
    if elapsed > max(Self.gapSeconds, 3 * interval) {
      bridge(step, from: previous, to: location, elapsed: elapsed, seconds)
      return
    }
    defer { if wasMoving || isMoving { movingTime += elapsed } else { stoppedTime += elapsed } }

    if let speed = location.measuredSpeed {
      if let last = lastMeasuredSpeedAt { speedIntervals.append(seconds - last) }
      lastMeasuredSpeedAt = seconds
      if usingPositions {
        // From positions to Doppler: the chord under way counts.
        settlePositions()
        usingPositions = false
        doppler.restart(moving: isMoving)
      }
      addDoppler(speed, course: measuredDirection(of: location), measured: true, elapsed: elapsed, seconds)
    } else if let held = lastSpeed, seconds - held.seconds <= speedHold {
      addDoppler(held.speed, course: held.course, measured: false, elapsed: elapsed, seconds)
    } else {
      lastSpeed = nil
      pending = nil
      if !usingPositions {
        // From Doppler to positions: blocks start at the previous fix, so that this step
        // is in the first chord.
        usingPositions = true
        startPositions(at: previous, seconds - elapsed)
      }
      addPosition(location, seconds)
    }
    distance = max(distance, committed + openChord)
    record(location, seconds)
  }

  /// Keeps the fix in ``history``, with the velocity this step used when it had a
  /// direction.
  private mutating func record(_ location: TrackPoint, _ seconds: Double) {
    let velocity = lastSpeed?.velocity
    history.add(
      time: seconds, distance: distance, latitude: location.latitude, longitude: location.longitude,
      velocity: velocity)
  }

  /// What the speed did between its samples: integrating it by trapezoids assumes it
  /// changed linearly from one to the next. A speed that wanders (a car in traffic)
  /// departs from that line; taken as a random walk between samples, the area between
  /// the two has variance D·Δt³/12 for a walk of diffusion D, and a second difference
  /// d = v₊ − 2v + v₋ of such a walk has variance 2DΔt, so each step adds d²Δt²/24. A
  /// speed that changes smoothly (braking) adds less than that, and noise adds its own
  /// second difference: a bound, which at 1 Hz is centimetres and at a logger's 5 s is
  /// the largest term.
  private mutating func noteSampling(_ speed: Double, elapsed: Double, moving: Bool) {
    defer { sampledSpeeds = (sampledSpeeds?.newer, speed, elapsed) }
    guard moving, let sampled = sampledSpeeds, let older = sampled.older,
      abs(sampled.interval - elapsed) <= 0.1 * elapsed
    else { return }
    let second = speed - 2 * sampled.newer + older
    committedVariance += second * second * elapsed * elapsed / 24
  }

  /// How long a speed stands for fixes without one: ``speedHoldSeconds``, or one and a
  /// half of the receiver's interval between speeds when it sends them in some cycles
  /// only (up to ``longestSpeedHold``).
  private var speedHold: Double {
    min(Self.longestSpeedHold, max(Self.speedHoldSeconds, 1.5 * (speedIntervals.median ?? 0)))
  }

  /// Whether `location`, `elapsed` seconds before `previous`, begins another session.
  private mutating func beginsSession(_ location: TrackPoint, elapsed: Double, after previous: TrackPoint) -> Bool {
    if elapsed < -Self.newSessionSeconds { return true }
    if let date = location.timestamp?.date, let previousDate = previous.timestamp?.date, date != previousDate {
      return true
    }
    if let run = backwardRun, TrackClock.elapsed(from: run.latest, to: location) > 0 {
      backwardRun = (location, run.count + 1)
    } else {
      backwardRun = (location, 1)
    }
    return backwardRun!.count >= FixPlausibility.recoveryCount
  }

  /// Starts a new stretch of track at `location`: what was counted stays.
  private mutating func restart(at location: TrackPoint) {
    settlePositions()
    clock = TrackClock()
    let seconds = clock.advance(to: location)
    previous = location
    previousSeconds = seconds
    intervals = RecentIntervals()
    isMoving = false
    // Another session may be another receiver (logs of several joined end to end): its
    // velocity noise is learned afresh, as is how often it sends speeds.
    // The session's integrated noise is settled with its receiver's rate.
    // So is the rest's displacement beyond the noise (the new session's test starts
    // afresh).
    committedVariance += integrationVariance + correctionSpread * correctionSpread + doppler.restExcess()
    settleBridge()
    integratedSeconds = 0
    correctionSpread = 0
    restingSpeeds = RestingSpeedNoise()
    doppler = DopplerMotion()
    speedIntervals = RecentIntervals()
    lastMeasuredSpeedAt = nil
    heldCourse = nil
    lastMovingCourse = nil
    usingPositions = location.measuredSpeed == nil
    startPositions(at: location, seconds)
    startDoppler(location, seconds, moving: false)
    distance = max(distance, committed)
    history.restartSession()
    record(location, seconds)
  }

  /// Positions only, moving: the chord from the last counted block to the block being
  /// filled, which the next closed chord replaces; in ``distance`` unless a departure is
  /// held (``heldVariance``).
  private var openChord: Double { excursion == nil ? chordSoFar : 0 }

  /// Positions only, moving: the chord so far, from the last counted block to the block
  /// being filled, with the noise's lengthening taken off.
  private var chordSoFar: Double {
    guard usingPositions, isMoving, let anchor, filling.count > 0 else { return 0 }
    return debiased(filling.location.distance(from: anchor.location))
  }

  // MARK: Doppler

  /// The speed one fix must reach, in two fixes running, for the receiver to be moving,
  /// m/s: ``lowestMovingSpeed``, or more for a receiver whose speed at rest is noisier
  /// (``movingSpeedFactor`` times its learned noise σ). A movement slower than this is
  /// found by the displacement test instead (see `DopplerMotion`).
  public var movingSpeed: Double {
    max(Self.lowestMovingSpeed, Self.movingSpeedFactor * restingSpeeds.variance.squareRoot())
  }

  /// Below this Doppler speed a receiver moving faster than ``movingSpeed`` has stopped,
  /// m/s: half of ``movingSpeed``.
  public var stoppedSpeed: Double { movingSpeed / 2 }

  /// The least ``movingSpeed``, m/s: 5.3σ for σ = 0.095 m/s, the noisiest of ordinary
  /// receivers (0.03 to 0.1 m/s per axis). Movement slower than this is not lost: the
  /// displacement test finds it.
  public static let lowestMovingSpeed = 0.5
  /// ``movingSpeed`` in units of the receiver's learned σ. For a velocity error of σ per
  /// axis a speed at rest is Rayleigh, above k·σ with probability e^(−k²/2): k =
  /// √(−2 ln 10⁻⁶) = 5.26. The Doppler error is correlated over seconds, so the two
  /// fixes that confirm a start are not independent: 10⁻⁶ per fix, a false start in
  /// 280 hours at 1 Hz, 28 at 10 Hz.
  public static let movingSpeedFactor = (-2 * log(1e-6)).squareRoot()
  /// How long ``movingSpeed`` must hold before movement is believed, seconds.
  public static let confirmationSeconds = 1.0

  /// A speed (and the course with it, when the receiver gave one) for the Doppler path.
  /// `measured`: the fix carries the speed itself (a held speed neither confirms movement
  /// nor teaches the noise).
  private mutating func addDoppler(
    _ speed: Double, course: Double?, measured: Bool, elapsed: Double, _ seconds: Double
  ) {
    let velocity = course.map { DopplerMotion.velocity(speed: speed, course: $0) }
    defer {
      if measured { lastSpeed = (speed, course, seconds, velocity) }
      if measured, speed >= movingSpeed, let course {
        lastMovingCourse = course
        settleBridge(courseAfter: course)
      }
    }
    // The displacement test needs the velocity's direction: it is fed while there is one.
    var slowStep: DopplerMotion.Step?
    if let velocity {
      slowStep = feedDisplacementTest(velocity, measured: measured, elapsed: elapsed, seconds)
    } else {
      committedVariance += doppler.restExcess()
      doppler.restart(moving: isMoving && !slowMovement)
    }
    // A speed measured as |v + n| exceeds v by σ²/2v on average (the error across the
    // direction of travel); √(s² − σ²) removes that to second order.
    let variance = restingSpeeds.variance
    let previousSpeed = lastSpeed?.speed ?? speed
    let stretch =
      ((max(0, previousSpeed * previousSpeed - variance)).squareRoot() + (max(0, speed * speed - variance)).squareRoot())
      / 2 * elapsed
    if measured {
      noteSampling(speed, elapsed: elapsed, moving: isMoving)
    }
    if isMoving {
      integratedSeconds += elapsed
      if slowMovement, let slowStep {
        commit(slowStep)
        if measured && speed >= movingSpeed {
          // Fast enough for the speed to show: it ends as a movement the speed began,
          // when the speed drops (as soon as the body stops, where the displacement
          // test needs a horizon's time to tell).
          slowMovement = false
          doppler.hold(moving: true, at: seconds)
          return
        }
        if !doppler.isMoving {
          isMoving = false
          slowMovement = false
        }
        return
      }
      slowMovement = false
      committed += stretch
      if speed < stoppedSpeed {
        // It stopped somewhere in this step.
        committedVariance += stretch * stretch / 12
        isMoving = false
        doppler.hold(moving: false, at: seconds)
      }
      return
    }
    if let slowStep, doppler.isMoving {
      // The displacement test found a movement too slow for the speed to show.
      commit(slowStep)
      integratedSeconds += slowStep.startedBefore ?? 0
      committedVariance += slowStep.restExcess
      if let before = slowStep.startedBefore {
        // The stretch that led to the decision was moving, in time as in distance:
        // otherwise a trip's mean speed (distance over moving time) exceeds every speed in
        // it. (This step's own time is counted as moving by the caller.)
        countAsMoving(max(0, before - elapsed))
      }
      isMoving = true
      slowMovement = true
      pending = nil
      restingSpeeds.dropWaiting()
      return
    }
    if measured { restingSpeeds.add(speed, at: seconds, belowThreshold: speed < movingSpeed) }
    guard speed >= movingSpeed else {
      pending = nil
      return
    }
    guard measured else {
      pending?.distance += stretch
      pending?.elapsed += elapsed
      return
    }
    var waiting = pending ?? (0, seconds, 0, stretch, seconds - elapsed)
    waiting.distance += stretch
    if seconds - waiting.since >= Self.confirmationSeconds {
      // The steps that led here count as moving, in time as in distance: otherwise a
      // trip's mean speed (distance over moving time) exceeds every speed in it, by the
      // confirmation time over the trip's (3 % for 30 s at 10 Hz).
      committed += waiting.distance
      // It began somewhere in the first step, and the steps since are the velocity's
      // noise integrated.
      integratedSeconds += waiting.elapsed + elapsed
      committedVariance += waiting.first * waiting.first / 12
      movingTime += waiting.elapsed
      stoppedTime -= waiting.elapsed
      isMoving = true
      slowMovement = false
      restingSpeeds.dropWaiting()
      if let rest = doppler.movementSinceRest(until: waiting.from) {
        // The stop before was a slow movement all along, its speed only below the
        // threshold for a while (0.4 m/s with a speed noise of 0.09 m/s dips under 0.25
        // now and then): its stretch counts, in time as in distance.
        commit(rest)
        integratedSeconds += countAsMoving(rest.startedBefore ?? 0)
      } else {
        // The rest's own displacement, up to the step it ended in (that step is the
        // movement's, counted above).
        committedVariance += doppler.restExcess(until: waiting.from)
      }
      doppler.hold(moving: true, at: seconds)
      pending = nil
    } else {
      waiting.elapsed += elapsed
      pending = waiting
    }
  }

  /// Counts a stretch the displacement test found moving: its distance, and its share of
  /// the correction's spread.
  private mutating func commit(_ step: DopplerMotion.Step) {
    committed += step.distance
    correctionSpread += step.correctionSpread
  }

  /// Moves `seconds` counted as stopped to moving time (no more than were stopped), and
  /// says how many it moved.
  @discardableResult
  private mutating func countAsMoving(_ seconds: Double) -> Double {
    let moved = min(seconds, stoppedTime)
    movingTime += moved
    stoppedTime -= moved
    return moved
  }

  /// Gives the displacement test a fix's velocity (from its speed and course).
  private mutating func feedDisplacementTest(
    _ velocity: (east: Double, north: Double), measured: Bool, elapsed: Double, _ seconds: Double
  ) -> DopplerMotion.Step {
    doppler.add(
      time: seconds, east: velocity.east, north: velocity.north, measured: measured,
      interval: speedIntervals.median ?? intervals.median ?? max(elapsed, 1))
  }

  /// The course of a fix that carries a speed, when it is a measured direction: not when
  /// a speed above 0 comes with the course the receiver gave with a speed of 0. A speed
  /// of 0 has no direction, so a receiver that still gives one is holding the last it had,
  /// and some (the SiRFstar V in the corpus) keep holding it through the small speeds of
  /// their noise at rest: every one of them then points the same way, and they would add
  /// up to a drift. (A velocity of 0 is one, whatever the course.)
  private mutating func measuredDirection(of location: TrackPoint) -> Double? {
    guard let course = location.measuredCourse, let speed = location.measuredSpeed else { return nil }
    if speed == 0 {
      heldCourse = course
      return course
    }
    if course == heldCourse { return nil }
    heldCourse = nil
    return course
  }

  /// The first fix of a stretch (a track's, a session's, after a fix loss): nothing to
  /// integrate yet, and `moving` as the caller decided.
  private mutating func startDoppler(_ location: TrackPoint, _ seconds: Double, moving: Bool) {
    lastSpeed = nil
    sampledSpeeds = nil
    pending = nil
    slowMovement = false
    committedVariance += doppler.restExcess()
    doppler.restart(moving: moving)
    guard let speed = location.measuredSpeed else { return }
    let course = measuredDirection(of: location)
    let velocity = course.map { DopplerMotion.velocity(speed: speed, course: $0) }
    if let velocity {
      _ = feedDisplacementTest(velocity, measured: true, elapsed: 0, seconds)
    }
    if !moving { restingSpeeds.add(speed, at: seconds, belowThreshold: speed < movingSpeed) }
    lastSpeed = (speed, course, seconds, velocity)
  }

  // MARK: Positions only

  /// Fixes averaged over a block of time: their mean position and mean accuracy.
  private struct Block {
    var latitude = 0.0
    var longitude = 0.0
    var sigma = 0.0
    var count = 0
    var start = 0.0

    mutating func add(_ location: TrackPoint, _ seconds: Double) {
      if count == 0 { start = seconds }
      count += 1
      let weight = 1 / Double(count)
      latitude += (location.latitude - latitude) * weight
      // Across the antimeridian too: the mean of 179.9999° E and 179.9999° W is 180°.
      longitude = LocalProjection.wrap(longitude + LocalProjection.wrap(location.longitude - longitude) * weight)
      sigma += ((location.horizontalAccuracy ?? TrackOdometer.defaultAccuracy) - sigma) * weight
    }

    var location: TrackPoint { TrackPoint(latitude: latitude, longitude: longitude) }
  }

  private mutating func startPositions(at location: TrackPoint, _ seconds: Double) {
    lastChord = nil
    lastDeparture = nil
    filling = Block()
    filling.add(location, seconds)
    anchor = nil
    candidate = nil
    excursion = nil
    standingSince = seconds
    standingFromStart = true
  }

  private mutating func addPosition(_ location: TrackPoint, _ seconds: Double) {
    if seconds - filling.start >= Self.blockSeconds, filling.count > 0 {
      close(filling)
      filling = Block()
    }
    filling.add(location, seconds)
  }

  /// Counts what the positions have shown so far: a pending excursion, and the chord
  /// under way, when the positions stop deciding (speeds arrive, a fix loss, a new
  /// session).
  private mutating func settlePositions() {
    commitExcursion()
    committed += openChord
  }

  /// Counts the excursion pending, if any, in full: it proved to be a trip.
  private mutating func commitExcursion() {
    guard let pending = excursion else { return }
    committed += pending.distance
    excursion = nil
  }

  /// Counts `metres` of positions-only movement, or keeps them with the excursion pending.
  private mutating func count(_ metres: Double) {
    if excursion != nil { excursion!.distance += metres } else { committed += metres }
  }

  /// A departure from a stand, not counted until it proves not to be the position error's
  /// excursion (``excursionSeconds``).
  private struct Excursion {
    /// Where the receiver stood.
    var stand: Block
    /// When the departure was seen, seconds.
    var since: Double
    /// The distance counted since the stand, metres.
    var distance: Double
    /// The farthest a block has been from the stand, metres.
    var farthest: Double
    /// ``movingTime`` at the stand.
    var movingTimeBefore: Double
    /// Since when the receiver stood there, and whether that was the track's start.
    var standingSince: Double
    var standingFromStart: Bool
    /// The last departure before this one (``lastDeparture``).
    var departureBefore: Departure?
  }

  /// A departure counted, positions only (``lastDeparture``).
  private struct Departure {
    /// When, seconds.
    var seconds: Double
    /// How long it took from the departure before it (or from the stand it left); for a
    /// link, at most twice what the link before it took (``chainWindow``).
    var took: Double
    /// How many links of a chain came before it (``isChainLink(from:to:)``).
    var links: Int
  }

  /// Whether the receiver had stood at `anchor` long enough, when `block` left it, for the
  /// excursions' rule (``excursionSeconds``): ``excursionSeconds``, or at the start of the
  /// track (where what came before is not known, and a receiver just switched on is more
  /// often standing, in its least accurate minutes) longer than a body at the slowest
  /// movement the chords count (``positionsMovingSpeed``) takes to leave the noise, so
  /// that a track that begins in motion has no stand to come back to.
  @inline(__always)
  private func isStand(_ anchor: Block, leftBy block: Block) -> Bool {
    let stood = block.start - standingSince
    if stood >= Self.excursionSeconds { return true }
    guard standingFromStart else { return false }
    return stood >= Self.confidenceFactor * combinedSigma(anchor, block) / Self.positionsMovingSpeed
  }

  private mutating func close(_ block: Block) {
    guard let anchor else {
      self.anchor = block
      return
    }
    if var pending = excursion {
      let fromStand = block.location.distance(from: pending.stand.location)
      if block.start - pending.since > Self.excursionSeconds {
        commitExcursion()
      } else if !isMoving, fromStand <= Self.confidenceFactor / 2 * combinedSigma(pending.stand, block) {
        // Back where it stood, and standing again (not passing by): within half the
        // departure's distance, so that a departure just past it is not taken back by the
        // next block's noise.
        let path = pending.distance + block.location.distance(from: anchor.location)
        if path <= Self.outAndBackRatio * pending.farthest {
          // Out and back along a line: the position error's excursion, not a trip.
          let moved = movingTime - pending.movingTimeBefore
          movingTime -= moved
          stoppedTime += moved
          excursion = nil
          self.anchor = pending.stand
          standingSince = pending.standingSince
          standingFromStart = pending.standingFromStart
          lastDeparture = pending.departureBefore
          candidate = nil
          isMoving = false
          return
        }
        // A loop: a walk that came back.
        commitExcursion()
      } else {
        pending.farthest = max(pending.farthest, fromStand)
        excursion = pending
      }
    }
    let away = block.location.distance(from: anchor.location)
    if isMoving {
      // Moving: a chord every `chordSeconds`, short enough to follow turns.
      let elapsed = block.start - anchor.start
      guard elapsed >= Self.chordSeconds else { return }
      let sigma = combinedSigma(anchor, block)
      if away >= Self.positionsMovingSpeed * elapsed {
        // The noise across the chord lengthens it on average: taken off once known.
        count(debiased(away))
        positionsBias += sigma * sigma / (2 * max(away, sigma))
        if chordNoise == nil {
          inverseChordLengths.uncorrected += 1 / (2 * max(away, 1))
        } else {
          inverseChordLengths.corrected += 1 / (2 * max(away, 1))
        }
        noteChord(from: anchor, to: block, length: away, seconds: elapsed, moving: true)
        self.anchor = block
      } else {
        // Stopped, or slower than one chord can tell from the noise. The anchor stays:
        // the next departure from it counts this stretch too, so that a slow drift is a
        // chain of departures with nothing lost between them.
        isMoving = false
        standingSince = block.start
        standingFromStart = false
        stoppedTimeAtStand = stoppedTime
      }
      return
    }
    // Standing: only a departure beyond the noise, seen in two blocks running, is movement.
    let chained = isChainLink(from: anchor, to: block)
    let factor = chained ? Self.chainedConfidenceFactor : Self.confidenceFactor
    guard away > factor * combinedSigma(anchor, block) else {
      candidate = nil
      return
    }
    if candidate != nil {
      // A link of a chain left no stand: the body was moving slowly through it.
      if excursion == nil, !chained, isStand(anchor, leftBy: block) {
        excursion = Excursion(
          stand: anchor, since: block.start, distance: away, farthest: away, movingTimeBefore: movingTime,
          standingSince: standingSince, standingFromStart: standingFromStart, departureBefore: lastDeparture)
      } else {
        count(away)
      }
      let sigma = combinedSigma(anchor, block)
      committedVariance += sigma * sigma
      noteChord(
        from: anchor, to: block, length: away, seconds: block.start - anchor.start, moving: false, chained: chained)
      if chained {
        // The stand since the last link was the slow movement's: moving time.
        let waited = stoppedTime - stoppedTimeAtStand
        movingTime += waited
        stoppedTime -= waited
      }
      let links = chained ? (lastDeparture?.links ?? 0) + 1 : 0
      var took = block.start - (lastDeparture?.seconds ?? anchor.start)
      // A link's window follows the time the chain's links took, widening at most twofold
      // from one link to the next: a drift that slows widens it link by link, but a link
      // that noise makes at rest, long after the last, does not open a window five times
      // its own length (``chainWindow``), in which the next such link is all but certain.
      if chained, let last = lastDeparture { took = min(took, 2 * last.took) }
      lastDeparture = Departure(seconds: block.start, took: took, links: links)
      self.anchor = block
      candidate = nil
      isMoving = true
    } else {
      candidate = block
    }
  }

  /// Whether a departure from `anchor` to `block` would be the next link of a slow
  /// movement's chain (``chainedConfidenceFactor``):
  /// - no excursion is pending: its departures are the position error's until it proves
  ///   otherwise;
  /// - the last departure moved on by at most three chords before it stood again: a walk
  ///   that stops had moved for minutes since its departure, a slow drift's noise passes
  ///   a chord's test now and then;
  /// - within ``chainWindow`` times the time the last departure took;
  /// - for the first two links, it goes on from the last chord (a turn of less than 90°):
  ///   an excursion of the position error goes out and comes back.
  @inline(__always)
  private func isChainLink(from anchor: Block, to block: Block) -> Bool {
    guard chainIsOpen(from: anchor, at: block.start), let last = lastDeparture else { return false }
    guard last.links < 2 else { return true }
    guard let lastChord else { return false }
    let chord = chordVector(from: anchor, to: block)
    return chord.east * lastChord.east + chord.north * lastChord.north > 0
  }

  /// Whether a departure from `anchor` at `seconds` may be the next link of a chain
  /// (``isChainLink(from:to:)``, but for the direction of its first links).
  @inline(__always)
  private func chainIsOpen(from anchor: Block, at seconds: Double) -> Bool {
    guard excursion == nil, let last = lastDeparture else { return false }
    return anchor.start - last.seconds <= 3 * Self.chordSeconds + Self.blockSeconds
      && seconds - last.seconds <= Self.chainWindow * last.took
  }

  /// The chord from `start` to `end`, metres east and north, on a sphere of the
  /// ellipsoid's mean radius (its directions and second differences are what count; the
  /// chord's length is the geodesic's), across the antimeridian too.
  @inline(__always)
  private func chordVector(from start: Block, to end: Block) -> (east: Double, north: Double) {
    let metresPerDegree = 111_195.0
    return (
      LocalProjection.wrap(end.longitude - start.longitude) * metresPerDegree * cos(end.latitude * .pi / 180),
      (end.latitude - start.latitude) * metresPerDegree
    )
  }

  /// Keeps a counted chord's turn from the one before (``cornerCut``) and, for
  /// consecutive chords of about equal time while moving, their second difference
  /// (``chordDifferences``).
  private mutating func noteChord(
    from start: Block, to end: Block, length: Double, seconds: Double, moving: Bool, chained: Bool = false
  ) {
    let (east, north) = chordVector(from: start, to: end)
    defer { lastChord = (east, north, seconds) }
    guard let last = lastChord, length > 0 else { return }
    let lastLength = (last.east * last.east + last.north * last.north).squareRoot()
    if lastLength > 0 {
      let cosine = max(-1, min(1, (east * last.east + north * last.north) / (length * lastLength)))
      let turn = acos(cosine)
      let cut = length * turn * turn / 8
      // Var(d) of the noise that turned the chord, where it is known: a moving chord's,
      // learned; a chain's link's, whose ends are far apart in time, that of three
      // independent ends, 6σ² per axis (σ² = a block's accuracy² / 2).
      var noiseVariance: Double?
      if moving {
        noiseVariance = chordDifferenceVariance
      } else if chained {
        let sigma = sigma(start.sigma)
        noiseVariance = 3 * sigma * sigma
      }
      if let noiseVariance {
        // What the chord cut of the path counts too (``turnCarry``), less what noise
        // turned it by.
        turnCarry += cut - noiseVariance / (8 * length)
        if turnCarry > 0 {
          count(turnCarry)
          turnCarry = 0
        }
        correctedCutSquares += cut * cut
      } else {
        cornerCut += cut
        if moving { turnNoiseWeights += 1 / (8 * length) }
      }
    }
    guard moving, seconds > 0, abs(last.seconds - seconds) <= 0.25 * seconds else { return }
    let scale = seconds / last.seconds
    let dEast = east - last.east * scale
    let dNorth = north - last.north * scale
    chordDifferences.append(dEast * dEast + dNorth * dNorth)
    if chordDifferences.count >= 10 { chordDifferenceVariance = chordDifferences.median / (2 * log(2.0)) }
  }

  @inline(__always)
  private func sigma(_ accuracy: Double) -> Double {
    guard latitudeQuantum.isFinite || longitudeQuantum.isFinite else { return accuracy }
    let latitudeCell = latitudeQuantum.isFinite ? latitudeQuantum * 111_000 : 0
    let longitudeCell = longitudeQuantum.isFinite ? longitudeQuantum * 111_000 * cos(latitudeOfTrack * .pi / 180) : 0
    return max(accuracy, latitudeCell, longitudeCell)
  }

  private var latitudeOfTrack: Double { previous?.latitude ?? 0 }

  @inline(__always)
  private func combinedSigma(_ a: Block, _ b: Block) -> Double {
    let sigmaA = sigma(a.sigma)
    let sigmaB = sigma(b.sigma)
    return (sigmaA * sigmaA + sigmaB * sigmaB).squareRoot()
  }

  private mutating func noteQuantum(_ location: TrackPoint, _ previous: TrackPoint) {
    let dLatitude = abs(location.latitude - previous.latitude)
    let dLongitude = abs(location.longitude - previous.longitude)
    // Below a millionth of a minute the coordinate is as fine as a double makes it.
    if dLatitude > 1e-9 { latitudeQuantum = min(latitudeQuantum, dLatitude) }
    if dLongitude > 1e-9 { longitudeQuantum = min(longitudeQuantum, dLongitude) }
  }

  // MARK: Fix losses

  /// A bridged loss whose shortfall waits for the course after it: the shortfall the
  /// other bounds give, the bridge, and the course before the loss.
  private var pendingBridge: (shortfall: Double, step: Double, courseBefore: Double)?

  /// Counts the pending bridge's shortfall in the error bar: bounded by the courses too
  /// when `courseAfter` is known. A path that turned once through θ is at most
  /// 1/cos(θ/2) times its chord (the turn halfway), so a loss in a straight tunnel adds
  /// nothing; a path that turned and turned back (round a block) is not seen in its
  /// courses, and the bar leaves that out.
  private mutating func settleBridge(courseAfter: Double? = nil) {
    guard let bridge = pendingBridge else { return }
    pendingBridge = nil
    var shortfall = bridge.shortfall
    if let courseAfter {
      var turn = abs(courseAfter - bridge.courseBefore).truncatingRemainder(dividingBy: 360)
      if turn > 180 { turn = 360 - turn }
      if turn < 179 { shortfall = min(shortfall, bridge.step * (1 / cos(turn / 2 * .pi / 180) - 1) / 2) }
    }
    committedVariance += shortfall * shortfall
  }

  private mutating func bridge(
    _ step: Double, from previous: TrackPoint, to location: TrackPoint, elapsed: Double, _ seconds: Double
  ) {
    settlePositions()
    let before = previous.horizontalAccuracy ?? Self.defaultAccuracy
    let after = location.horizontalAccuracy ?? Self.defaultAccuracy
    let noise = Self.confidenceFactor * (sigma(before) * sigma(before) + sigma(after) * sigma(after)).squareRoot()
    // Moving after the loss only on the same evidence as anywhere: a held speed of
    // ``movingSpeed``, here from the one fix there is.
    let movingAfter = (location.measuredSpeed ?? 0) >= movingSpeed
    let bridged = isMoving || movingAfter || step > noise
    if bridged {
      committed += step
      bridgedDistance += step
      bridges += 1
      // The true path is longer than the straight bridge where it turned, shorter
      // nowhere. How much longer is bounded three ways, and the least bound is taken:
      // - this track's own stretches as long in time (how much this body turns);
      // - the speeds on either side (how far they would have taken it: a turn shows as a
      //   bridge shorter than that; a stop in the loss shows the same, so this alone
      //   would make every stop in a tunnel a turn);
      // - the courses on either side (``settleBridge(courseAfter:)``).
      let turning = history.chordShortfall(over: elapsed)
      var speedsAllow: Double?
      if let speedBefore = lastSpeed?.speed, let speedAfter = location.measuredSpeed {
        speedsAllow = abs((speedBefore + speedAfter) / 2 * elapsed - step) / 2
      }
      let withoutCourses = [turning, speedsAllow].compactMap { $0 }.min() ?? step / 2
      settleBridge()
      if let courseBefore = lastMovingCourse {
        // Standing when the fix came back, the course after is the next one moving.
        pendingBridge = (withoutCourses, step, courseBefore)
        if (location.measuredSpeed ?? 0) >= movingSpeed, let courseAfter = measuredDirection(of: location) {
          settleBridge(courseAfter: courseAfter)
        }
      } else {
        committedVariance += withoutCourses * withoutCourses
      }
    }
    // A short loss while moving is moving time; a long one (the receiver switched off
    // while parked) is not known to be, and counts as stopped.
    if bridged && elapsed <= Self.longestMovingGap {
      movingTime += elapsed
    } else {
      stoppedTime += elapsed
      if bridged { bridgedDistanceInStoppedTime += step }
    }
    isMoving = movingAfter
    usingPositions = location.measuredSpeed == nil
    startPositions(at: location, seconds)
    startDoppler(location, seconds, moving: movingAfter)
    distance = max(distance, committed)
    history.restart()
    record(location, seconds)
  }

  /// The time of the latest fix on the track's own clock (seconds, continuous across
  /// midnight in logs without dates), for those that follow the odometer.
  public var time: Double { clock.seconds }
}

/// Seconds along a track: the epoch difference between fixes that both have a date, the
/// time-of-day difference (the shorter way round the clock) otherwise, added up, so that
/// a log without dates crossing midnight, or one whose first fixes come before its first
/// date, runs on without a jump.
struct TrackClock: Sendable {
  private(set) var seconds = 0.0
  /// The last fix's time (only that: this runs for every fix).
  private var last: Moment?

  /// When a fix was determined: its timestamp when it has a date, its time of day always.
  struct Moment: Sendable {
    var timestamp: Timestamp?
    var timeOfDay: TimeOfDay

    init(_ point: TrackPoint) {
      timestamp = point.timestamp
      timeOfDay = point.timeOfDay
    }

    init(_ location: borrowing Location) {
      timestamp = location.timestamp
      timeOfDay = location.timeOfDay
    }
  }

  /// Seconds from `earlier` to `later`.
  static func elapsed(from earlier: Location, to later: Location) -> Double {
    elapsed(from: Moment(earlier), to: Moment(later))
  }

  /// Seconds from `earlier` to `later`.
  static func elapsed(from earlier: TrackPoint, to later: TrackPoint) -> Double {
    elapsed(from: Moment(earlier), to: Moment(later))
  }

  static func elapsed(from earlier: Moment, to later: Moment) -> Double {
    // A leap second (23:59:60) has the timestamp of the next midnight, and its time of
    // day wraps as if it were one: the step out of it is a second longer than either
    // says. (A step across one whose fix is missing cannot know, and is a second short.)
    let leap: Double = earlier.timeOfDay.isLeapSecond && !later.timeOfDay.isLeapSecond ? 1 : 0
    if let a = earlier.timestamp, let b = later.timestamp { return b.seconds(since: a) + leap }
    var difference = later.timeOfDay.seconds - earlier.timeOfDay.seconds
    if difference > 43_200 { difference -= 86_400 }
    if difference < -43_200 { difference += 86_400 }
    return difference + leap
  }

  /// Moves the clock to `location`'s time; returns it.
  mutating func advance(to location: TrackPoint) -> Double {
    let moment = Moment(location)
    if let last { seconds += Self.elapsed(from: last, to: moment) }
    last = moment
    return seconds
  }
}

/// The last few intervals between fixes, for the receiver's rate: the median follows a
/// change of rate within a few fixes and ignores a single loss.
struct RecentIntervals: Sendable {
  // Five values in place: this runs for every fix, and must not allocate.
  private var values: (Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0)
  private var count = 0
  private var next = 0
  /// The middle value (the upper one of an even count); `nil` before the first.
  ///
  /// Worked out again only when an append changes the values: a receiver's intervals
  /// are nearly always the same, and the odometer asks for every fix.
  private(set) var median: Double?

  mutating func append(_ value: Double) {
    let replaced = count == 5 ? self.value(next) : nil
    switch next {
    case 0: values.0 = value
    case 1: values.1 = value
    case 2: values.2 = value
    case 3: values.3 = value
    default: values.4 = value
    }
    next = (next + 1) % 5
    count = min(count + 1, 5)
    if replaced != value { median = middleValue() }
  }

  private func value(_ index: Int) -> Double {
    switch index {
    case 0: values.0
    case 1: values.1
    case 2: values.2
    case 3: values.3
    default: values.4
    }
  }

  /// The middle value by rank: no sorting, no array.
  private func middleValue() -> Double? {
    guard count > 0 else { return nil }
    let rank = count / 2
    for i in 0..<count {
      let candidate = value(i)
      var below = 0
      var equal = 0
      for j in 0..<count {
        let other = value(j)
        if other < candidate { below += 1 } else if other == candidate { equal += 1 }
      }
      if below <= rank && rank < below + equal { return candidate }
    }
    return value(0)
  }
}

/// A receiver's speed noise at rest, learned from the speeds while it is taken to be
/// stopped: the speed is then the magnitude of the velocity error, Rayleigh for an error
/// of σ per axis, whose median is σ√(2 ln 2). The median of the last 600 speeds, one a
/// second (at 10 Hz consecutive speeds are nearly the same error, and a start's first
/// second would be ten of them), is robust to the odd spike. Speeds above
/// ``TrackOdometer/movingSpeed`` wait: they are learned when the start they began is
/// not confirmed (leaving them out would bias the median low), and dropped when it is
/// (they were movement).
struct RestingSpeedNoise: Sendable {
  /// The variance per axis, (m/s)²; 0 until ``leastSpeeds`` speeds.
  private(set) var variance = 0.0
  private var squares = MedianWindow(capacity: 600)
  private var waiting: [(seconds: Double, square: Double)] = []
  private var lastSeconds = -Double.infinity
  private var sinceUpdate = 0
  /// Speeds before the first estimate: until then ``TrackOdometer/lowestMovingSpeed``
  /// alone decides.
  static let leastSpeeds = 10
  /// The median is taken at each speed up to this many, then after each
  /// ``updateInterval`` more (it sorts its window).
  static let firstSpeeds = 32
  static let updateInterval = 32

  /// A speed at rest, at `seconds`; `belowThreshold` false for one above the moving
  /// speed, which waits (see above).
  mutating func add(_ speed: Double, at seconds: Double, belowThreshold: Bool) {
    guard seconds - lastSeconds >= 1 - 1e-6 else { return }
    lastSeconds = seconds
    guard belowThreshold else {
      // At most a confirmation's worth waits (one a second).
      if waiting.count < 16 { waiting.append((seconds, speed * speed)) }
      return
    }
    for entry in waiting { learn(entry.square) }
    waiting.removeAll()
    learn(speed * speed)
  }

  /// The speeds waiting were a start's: they are not noise.
  mutating func dropWaiting() { waiting.removeAll() }

  private mutating func learn(_ square: Double) {
    squares.append(square)
    sinceUpdate += 1
    guard squares.count >= Self.leastSpeeds else { return }
    if squares.count <= Self.firstSpeeds || sinceUpdate >= Self.updateInterval {
      sinceUpdate = 0
      variance = squares.median / (2 * log(2.0))
    }
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// Movement and distance from a receiver's Doppler velocities, with every threshold taken
/// from that receiver's own velocity noise, learned from its velocities as they come.
///
/// **The noise.** A receiver's velocity error is modelled per axis as white noise plus a
/// Gauss-Markov process (variance σ², correlation time τ). Its structure function, the
/// variance of the change of velocity over a lag L, is then 2b + 2σ²(1 − e^(−L/τ)); the
/// body's own changes of velocity add a term that grows with L (a heading that wanders,
/// a speed that drifts). While the receiver is taken to be at rest, once a second, the
/// change over 1, 2, 4, 8 and 16 s (or as many fix intervals, for a receiver slower than
/// 1 Hz) is recorded, and learned once the rest has lasted ``restConfirmation`` longer,
/// or when a movement is decided, if it came a piece before the movement's stretch (a
/// movement is decided seconds after it began, and those seconds are not noise).
/// Every 30 s the medians of the last 600 (robust to the odd jump) are fitted by that
/// model, τ searched up to ``longestCorrelationTime``. The fit gives the variance of one
/// fix's velocity error, and the rate q = 2σ²τ + 2b·Δt at which the error of the
/// integrated velocity (a displacement) grows: over T seconds its variance is q·T per
/// axis. The medians of N changes are uncertain (about 1.5/√N each), so q is the largest
/// that any fit within that uncertainty of the best gives, and 3/√N more. Nothing is
/// learned while moving: the body's own turns and changes of speed would be taken for
/// noise, and a noise learned too large would let more of them in. A receiver whose noise
/// changes while it moves is followed from its next rest.
///
/// Before the first fit (the first minute or so), and for a receiver slower than 1 Hz
/// (whose changes over 5 s or more cannot resolve τ), the noise is bounded from the change
/// over one step alone, at rest once there has been rest: for a correlation time of at
/// most ``longestCorrelationTime``, σ² ≤ S(step) / 2(1 − e^(−step/τmax)).
///
/// **Moving or not** is a test on the displacement the velocities integrate to: at rest,
/// the displacement D over a horizon T is noise, each axis normal with variance q·T, so
/// |D|²/qT is χ² with two degrees of freedom and exceeds c = −2 ln α with probability α
/// (``falseAlarmProbability``). A real velocity is consistent: it adds up to a
/// displacement that grows as T, where noise grows as √T. Each second, the displacements
/// over 4, 16, 64, 256 and 1024 s are tested; movement is decided when one exceeds c. The
/// stretch that led there counts too, in pieces of the shortest horizon that shows the
/// movement, back from the decision to the first piece that looks like rest (|D|²/qT below
/// ``restStatistic``, as for a stop) or the decision before: each adds the speed
/// integrated over it, as while moving (its displacement would cut the corners of a body
/// that turned in it: a drift found only after minutes is tested over pieces of 256 s or
/// more). Movement ends
/// when, over the shortest horizon that still showed it, the displacement is no longer
/// distinguishable from rest (|D|²/qT below ``restStatistic``) and its mean speed is below
/// ``stopFactor`` times the noise's σ.
///
/// **Distance while moving** is the speed integrated over time with the noise's bias
/// removed: a speed measured as |v + n| exceeds v on average by σ²/2v (the error across
/// the direction of travel), and √(s² − σ²) removes that to second order. At 0.15 m/s and
/// σ = 0.1 m/s the bias is 22 %; after the correction, what is left is the error of σ²'s
/// estimate over 2v².
///
/// Nothing looks ahead: a live source and a file of the same fixes give the same answers.
struct DopplerMotion: Sendable {
  /// A receiver's velocity noise, per axis.
  struct Noise: Sendable, Equatable {
    /// Variance of one fix's velocity error, (m/s)².
    var variance: Double
    /// Growth rate of the variance of the integrated velocity's error, m²/s.
    var rate: Double
    /// How far ``variance`` may be off, (m/s)²: the farthest of the fits the data allow
    /// (see `fit()`); 0 for a bound.
    var varianceSpread = 0.0
  }

  /// The longest correlation time the noise model allows, seconds. Doppler errors come
  /// from the tracking loops (tens of milliseconds) and the receiver's navigation filter
  /// (a few seconds); a slower error cannot be told from the body's own slow changes.
  static let longestCorrelationTime = 10.0
  /// The probability that noise alone passes one test of movement.
  static let falseAlarmProbability = 1e-9
  /// The test's threshold on |D|²/qT: −2 ln α.
  static let startStatistic = -2 * log(falseAlarmProbability)
  /// Below this |D|²/qT, a displacement is as likely as rest's (86 % of rest's are).
  static let restStatistic = 4.0
  /// The horizons tested, seconds.
  static let horizons: [Double] = [4, 16, 64, 256, 1024]
  /// How far back the displacement is kept, seconds.
  static let history = 2048.0
  /// Changes of velocity kept per lag for the medians.
  static let window = 600
  /// The noise is fitted again after this long at rest, seconds, until the windows are
  /// full.
  static let fitInterval = 30.0
  /// Once the windows are full (ten minutes at rest), after this long at rest, seconds:
  /// a fit weighs 600 changes, so a new one two minutes later moves little.
  static let fullWindowFitInterval = 120.0
  /// Changes at the longest lag needed before the fit replaces the bound.
  static let differencesForFit = 60
  /// Changes over one lag needed for the bound.
  static let differencesForBound = 10
  /// A movement ends only at a mean speed below this many σ.
  static let stopFactor = 3.0
  /// How long a change at rest waits before it is learned, seconds: the longest a
  /// movement that matters goes undecided (one test horizon).
  static let restConfirmation = 64.0
  /// The lags, in units of the sampling step (1 s, or the fix interval when longer).
  static let lagSteps = [1, 2, 4, 8, 16]

  /// The noise learned so far; `nil` until the first fit.
  private(set) var learned: Noise?
  /// Whether the body is taken to be moving.
  private(set) var isMoving = false
  /// Whether ``isMoving`` was decided by the caller (a speed well above the noise), and
  /// the test leaves it alone until the caller decides again.
  private var held = false
  /// While held: the last velocity, for the change over one step.
  private var heldLast: (time: Double, east: Double, north: Double)?
  /// Whether the next velocity begins a track (not only a stretch after a held movement).
  private var restarted = true

  private var velocities = TimedRing(capacity: 1024)
  private var track = TimedRing(capacity: 2100)
  private var changes: [MedianWindow] = DopplerMotion.lagSteps.map { _ in MedianWindow(capacity: window) }
  private var lagSum = [Double](repeating: 0, count: DopplerMotion.lagSteps.count)
  private var lagCount = [Double](repeating: 0, count: DopplerMotion.lagSteps.count)

  /// Changes over one step, for the bound: all of them, and those with both ends at rest.
  private var shortChanges = MedianWindow(capacity: window)
  private var restingShortChanges = MedianWindow(capacity: window)
  private var shortLag = 1.0
  /// Changes at rest not yet learned: learned once ``restConfirmation`` old, dropped when
  /// movement is decided.
  private var pendingRest: [(time: Double, index: Int, lag: Double, squared: Double)] = []
  /// The first of ``pendingRest`` not yet learned: the learned ones are dropped in bulk,
  /// not shifted out one second at a time.
  private var pendingStart = 0
  private var east = 0.0
  private var north = 0.0
  /// The speed integrated with the noise's bias removed (as moving), since the track
  /// began, rest included: what a stretch found to be movement afterwards counts.
  private var path = 0.0
  /// The sum of the steps' ``Step/correctionSpread`` along ``path``, metres.
  private var pathSpread = 0.0
  private var previous: (time: Double, east: Double, north: Double, corrected: Double, spread: Double)?
  private var lastChangeAt = -Double.infinity
  /// Changes at the longest lag learned since the last fit: the noise is fitted again
  /// after a while at rest, not while nothing new was learned.
  private var changesSinceFit = 0
  private var trackStart = 0.0
  private var decidedAt = 0.0
  private var movingHorizon = 4.0
  private var interval = 1.0

  init() {}

  /// The noise the decisions use: the learned one, or the bound before it, and at least
  /// the speed's resolution's (see ``resolutionNoise``).
  var noise: Noise? {
    guard let noise = learned ?? bound else { return nil }
    let floor = resolutionNoise
    return Noise(variance: max(noise.variance, floor.variance), rate: max(noise.rate, floor.rate))
  }

  /// The smallest non-zero speed, or change of speed between fixes, seen: the speed's
  /// resolution (0.1 knot is 0.051 m/s), m/s.
  private var speedQuantum = Double.infinity
  /// No receiver's speed is coarser than 1 knot (0.51 m/s): a speed or change of 1 m/s or
  /// more is not its resolution (a body moving at a steady 10 m/s from its first fix
  /// would otherwise have a noise floor of 10 m/s).
  static let coarsestResolution = 1.0
  private var lastMeasuredSpeed = 0.0

  /// The noise a speed rounded to its resolution Δ has at least, whatever the receiver's
  /// own: a rounding error uniform over Δ (variance Δ²/12 per axis), which at rest (the
  /// true velocity below Δ, read as 0) lasts as long as the error it hides, so it is
  /// taken correlated over ``longestCorrelationTime``. A receiver whose noise is below
  /// its resolution reads 0.0 for minutes and then one step: without this, the learned
  /// noise would be 0 and that step a movement.
  var resolutionNoise: Noise {
    guard speedQuantum.isFinite else { return Noise(variance: 0, rate: 0) }
    let variance = speedQuantum * speedQuantum / 12
    return Noise(variance: variance, rate: 2 * variance * Self.longestCorrelationTime)
  }

  /// A velocity east and north, m/s, from a speed and a course over ground (degrees from
  /// true north).
  static func velocity(speed: Double, course: Double) -> (east: Double, north: Double) {
    let radians = course * .pi / 180
    return (speed * sin(radians), speed * cos(radians))
  }

  /// What one fix changed.
  struct Step: Sendable {
    /// Distance travelled, metres.
    var distance = 0.0
    /// When movement was decided at this fix: how many seconds before it the movement
    /// began (the stretch counted).
    var startedBefore: Double?
    /// When movement was decided at this fix: the square of the displacement of the rest
    /// before the stretch beyond what noise explains, m² (see ``restExcess``).
    var restExcess = 0.0
    /// How far ``distance`` may be off through the noise's variance alone, metres: what
    /// the bias removed would be with the variance ``Noise/varianceSpread`` lower, less
    /// what it would be that much higher, halved. The same for every step of a
    /// receiver, so the steps' spreads add up, not in quadrature.
    var correctionSpread = 0.0
  }

  /// Over the rest since the last decision (up to `end`, the latest sample by default):
  /// how far the squared displacement the velocities integrate to exceeds what noise
  /// gives on average (2qT, two axes), m²; 0 while moving. Movement too slow to pass the
  /// test shows here first: its square root is the distance the rest may have hidden.
  func restExcess(until end: Double? = nil) -> Double {
    guard !isMoving, let noise, let last = track.count > 0 ? track.last : nil,
      let rest = restDisplacement(to: end.flatMap { track.sample(atOrBefore: $0) } ?? last)
    else { return 0 }
    return max(0, rest.squared - 2 * noise.rate * rest.span)
  }

  /// The displacement the velocities integrate to over the rest since the last decision,
  /// from its first sample to `end`: where it starts, its square (m²) and how long it
  /// took (s); `nil` without a sample before `end`.
  private func restDisplacement(to end: TimedRing.Sample) -> (start: TimedRing.Sample, squared: Double, span: Double)? {
    guard let start = track.sample(atOrBefore: max(decidedAt, trackStart)) ?? track.first, end.time > start.time
    else { return nil }
    let dE = end.east - start.east
    let dN = end.north - start.north
    return (start, dE * dE + dN * dN, end.time - start.time)
  }

  /// The caller is about to decide movement on other evidence (its speed), after a rest
  /// it or the test decided: whether the rest, up to `end`, was a movement all along,
  /// its speed only dipping below the caller's threshold. It was when the displacement
  /// the velocities integrate to over it passes the test of movement (|D|²/qT above
  /// ``startStatistic``, which noise alone passes with probability
  /// ``falseAlarmProbability``); then its whole stretch counts: the speed integrated over
  /// it, and how long it lasted (``Step/startedBefore``, seconds before `end`).
  func movementSinceRest(until end: Double) -> Step? {
    guard !isMoving, !track.isEmpty, let noise, noise.rate > 0,
      let last = end < track.last.time ? track.sample(atOrBefore: end) : track.last,
      let rest = restDisplacement(to: last), rest.squared / (noise.rate * rest.span) > Self.startStatistic
    else { return nil }
    return Step(
      distance: last.path - rest.start.path, startedBefore: end - rest.start.time,
      correctionSpread: last.spread - rest.start.spread)
  }

  /// Adds a fix's velocity, metres per second east and north, at `time` seconds on the
  /// track's clock. `measured`: the fix carries it (a held velocity teaches nothing).
  /// `interval`: the receiver's interval between fixes, seconds.
  mutating func add(
    time: Double, east velocityEast: Double, north velocityNorth: Double, measured: Bool, interval: Double
  )
    -> Step
  {
    self.interval = interval
    let speed = (velocityEast * velocityEast + velocityNorth * velocityNorth).squareRoot()
    if measured {
      if speed > 1e-9, speed < Self.coarsestResolution { speedQuantum = min(speedQuantum, speed) }
      let change = abs(speed - lastMeasuredSpeed)
      if change > 1e-9, change < Self.coarsestResolution { speedQuantum = min(speedQuantum, change) }
      lastMeasuredSpeed = speed
    }
    if held {
      // Moving on the caller's evidence: nothing to test or integrate, and nothing at
      // rest to learn; only the change over one step is kept, for the bound before any
      // rest. (The displacement starts afresh when the caller's movement ends.)
      if measured && time - lastChangeAt >= step - 1e-6 {
        if let last = heldLast, abs(time - last.time - step) <= 0.25 * step {
          let dE = velocityEast - last.east
          let dN = velocityNorth - last.north
          shortChanges.append(dE * dE + dN * dN)
          shortLag = time - last.time
          updateBound()
        }
        heldLast = (time, velocityEast, velocityNorth)
        lastChangeAt = time
      }
      return Step()
    }
    let variance = learned?.variance ?? 0
    let squared = speed * speed
    let corrected = (max(0, squared - variance)).squareRoot()
    // The same speed corrected with the variance the farthest fits allow, either way.
    let spread = learned.map { noise in
      ((max(0, squared - max(0, variance - noise.varianceSpread))).squareRoot()
        - (max(0, squared - variance - noise.varianceSpread)).squareRoot()) / 2
    }
    var step = Step()
    if let previous {
      let elapsed = time - previous.time
      east += (previous.east + velocityEast) / 2 * elapsed
      north += (previous.north + velocityNorth) / 2 * elapsed
      let stretch = (previous.corrected + corrected) / 2 * elapsed
      let stretchSpread = (previous.spread + (spread ?? 0)) / 2 * elapsed
      path += stretch
      pathSpread += stretchSpread
      if isMoving {
        step.distance += stretch
        step.correctionSpread += stretchSpread
      }
    } else {
      if restarted { trackStart = time }
      restarted = false
      decidedAt = time
    }
    previous = (time, velocityEast, velocityNorth, corrected, spread ?? 0)
    if measured {
      velocities.append(time, velocityEast, velocityNorth)
      learn(at: time, velocityEast, velocityNorth)
    }
    if track.isEmpty || time - track.last.time >= 1 - 1e-6 {
      track.append(time, east, north, path: path, spread: pathSpread)
      while let first = track.first, time - first.time > Self.history { track.removeFirst() }
      decide(at: time, into: &step)
    }
    return step
  }

  /// Starts the displacement afresh (after a fix loss, a new session, or positions):
  /// what was learned of the noise stays.
  mutating func restart(moving: Bool) {
    restarted = true
    heldLast = nil
    velocities.removeAll()
    track.removeAll()
    previous = nil
    east = 0
    north = 0
    isMoving = moving
    held = moving
    movingHorizon = Self.horizons[0]
  }

  /// The caller decided movement (or its end) on other evidence, at `time`: the test
  /// leaves a movement alone until the caller ends it, and starts again from `time`.
  mutating func hold(moving: Bool, at time: Double) {
    isMoving = moving
    held = moving
    decidedAt = time
    movingHorizon = Self.horizons[0]
    heldLast = nil
    if moving {
      pendingRest.removeAll(keepingCapacity: true)
      pendingStart = 0
    } else {
      // The test starts from here: what came before was the caller's movement.
      velocities.removeAll()
      track.removeAll()
      previous = nil
      east = 0
      north = 0
    }
  }

  // MARK: Learning the noise

  private var step: Double { max(1, interval) }

  /// The bound, worked out again by ``updateBound()``: its medians sort their windows.
  private var bound: Noise?
  private var changesSinceBound = 0

  /// Works the bound out again after each change for the first few dozen (and each of
  /// the first few dozen at rest), then after each 32 more.
  private mutating func updateBound(atRest: Bool = false) {
    // Once the noise is fitted the bound is never used again (``noise``; nothing clears
    // ``learned``): its medians, a selection of 600 values every 32 changes, were a tenth
    // of the odometer's work on a 1 Hz log with speeds.
    guard learned == nil else { return }
    changesSinceBound += 1
    let early = atRest ? restingShortChanges.count <= 32 : shortChanges.count <= 32
    guard early || changesSinceBound >= 32 else { return }
    changesSinceBound = 0
    // At rest when there has been rest: a moving body's own turns inflate the changes.
    let changes = restingShortChanges.count >= Self.differencesForBound ? restingShortChanges : shortChanges
    guard changes.count >= Self.differencesForBound else {
      bound = nil
      return
    }
    let perAxis = changes.median / (2 * log(2.0)) / 2
    let variance = perAxis / (1 - exp(-shortLag / Self.longestCorrelationTime))
    bound = Noise(variance: variance, rate: 2 * variance * Self.longestCorrelationTime)
  }

  private mutating func learn(at time: Double, _ velocityEast: Double, _ velocityNorth: Double) {
    guard time - lastChangeAt >= step - 1e-6 else { return }
    lastChangeAt = time
    // Only what the test takes for rest is learned (see above).
    let atRest = !isMoving
    for (index, steps) in Self.lagSteps.enumerated() {
      // Moving, only the change over one step is kept (for the bound before any rest).
      if index > 0 && !atRest { break }
      let lag = Double(steps) * step
      guard let then = velocities.sample(nearest: time - lag), abs(time - then.time - lag) <= 0.25 * step else {
        continue
      }
      // Both ends at rest: a change that reaches back into the movement before is not noise.
      let bothAtRest = atRest && then.time >= decidedAt
      let dE = velocityEast - then.east
      let dN = velocityNorth - then.north
      let squared = dE * dE + dN * dN
      if index == 0 {
        shortChanges.append(squared)
        updateBound()
        shortLag = time - then.time
      }
      if bothAtRest { pendingRest.append((time, index, time - then.time, squared)) }
    }
    confirmRest(before: time - Self.restConfirmation)
    while let first = velocities.first, time - first.time > Double(Self.lagSteps.last!) * step + step {
      velocities.removeFirst()
    }
    // Slower than 1 Hz, the changes are over 5 s or more, longer than most correlation
    // times: the model cannot be fitted, and the bound (at rest) is the noise.
    let longest = changes[changes.count - 1].count
    let fitInterval = longest >= Self.window ? Self.fullWindowFitInterval : Self.fitInterval
    if interval <= 1, Double(changesSinceFit) * step >= fitInterval, longest >= Self.differencesForFit {
      changesSinceFit = 0
      fit()
    }
  }

  /// Learns the changes at rest recorded before `time`.
  private mutating func confirmRest(before time: Double) {
    var confirmed = pendingStart
    while confirmed < pendingRest.count, pendingRest[confirmed].time <= time {
      let change = pendingRest[confirmed]
      confirmed += 1
      if change.index == 0 {
        restingShortChanges.append(change.squared)
        updateBound(atRest: true)
      }
      changes[change.index].append(change.squared)
      if change.index == changes.count - 1 { changesSinceFit += 1 }
      lagSum[change.index] += change.lag
      lagCount[change.index] += 1
    }
    pendingStart = confirmed
    if pendingStart >= 1024 && 2 * pendingStart >= pendingRest.count {
      pendingRest.removeFirst(pendingStart)
      pendingStart = 0
    }
  }

  /// Fits 2b + 2s(1 − e^(−L/τ)) + aL (b, s, a ≥ 0) to the medians, by least squares
  /// relative to each median, over a grid of τ.
  private mutating func fit() {
    var lags: [Double] = []
    var values: [Double] = []
    for index in changes.indices where changes[index].count >= Self.differencesForBound {
      lags.append(lagSum[index] / lagCount[index])
      values.append(max(changes[index].median / (2 * log(2.0)), 1e-12))
    }
    guard lags.count >= 3 else { return }
    var best: (residual: Double, tau: Double, b: Double, s: Double)?
    var plausible: [(residual: Double, rate: Double, variance: Double)] = []
    plausible.reserveCapacity(Self.tauSteps * Self.activeSets.count)
    for i in 0..<Self.tauSteps {
      let tau = 0.2 * pow(Self.longestCorrelationTime / 0.2, Double(i) / Double(Self.tauSteps - 1))
      let system = NormalEquations(lags, values, tau: tau)
      for active in Self.activeSets {
        guard let solution = system.solve(active) else { continue }
        plausible.append((solution.residual, 2 * solution.s * tau + 2 * solution.b * interval, solution.b + solution.s))
        if best == nil || solution.residual < best!.residual {
          best = (solution.residual, tau, solution.b, solution.s)
        }
      }
    }
    guard let best else { return }
    // The medians of N changes are uncertain by about 1/√N (for the χ² of two degrees of
    // freedom), and the fit compounds it: the rate is taken 3/√N higher, so that a first
    // fit on a minute of data does not understate the noise.
    let samples = Double(changes[changes.count - 1].count)
    // The medians are uncertain (about 1.5/√N relative each, for N changes), so other
    // splits between the Gauss-Markov part and the trend fit them as well: the rate is
    // the largest of any fit within that uncertainty of the best, and 3/√N more.
    // The variance's spread is the farthest any of them puts it from the best's.
    let tolerance = best.residual + Double(lags.count) / samples
    let fits = plausible.filter { $0.residual <= tolerance }
    let rate = fits.map(\.rate).max() ?? 0
    let variance = best.b + best.s
    learned = Noise(
      variance: variance, rate: rate * (1 + 3 / samples.squareRoot()),
      varianceSpread: fits.map { abs($0.variance - variance) }.max() ?? 0)
  }

  private static let activeSets: [(Bool, Bool, Bool)] = [
    (true, true, true), (true, true, false), (false, true, true), (false, true, false), (true, false, true),
    (true, false, false),
  ]

  /// The correlation times tried, from 0.2 s to ``longestCorrelationTime``.
  private static let tauSteps = 30

  /// The weighted least-squares system of the fit for one τ: columns white (2),
  /// Gauss-Markov (2(1 − e^(−L/τ))) and trend (L), each row divided by its median, the
  /// target 1 in every row. Its normal equations (Gram matrix G, right side h, and the
  /// row count n) give each subset of columns' solution, and its residual
  /// Σ(a·c − 1)² = cᵀGc − 2cᵀh + n, without going over the rows again.
  private struct NormalEquations {
    var g = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  // G00, G01, G02, G11, G12, G22
    var h = (0.0, 0.0, 0.0)
    var n = 0.0

    init(_ lags: [Double], _ values: [Double], tau: Double) {
      for row in lags.indices {
        let weight = 1 / values[row]
        let a0 = 2 * weight
        let a1 = 2 * (1 - exp(-lags[row] / tau)) * weight
        let a2 = lags[row] * weight
        g.0 += a0 * a0
        g.1 += a0 * a1
        g.2 += a0 * a2
        g.3 += a1 * a1
        g.4 += a1 * a2
        g.5 += a2 * a2
        h.0 += a0
        h.1 += a1
        h.2 += a2
        n += 1
      }
    }

    private func gram(_ i: Int, _ j: Int) -> Double {
      switch (min(i, j), max(i, j)) {
      case (0, 0): g.0
      case (0, 1): g.1
      case (0, 2): g.2
      case (1, 1): g.3
      case (1, 2): g.4
      default: g.5
      }
    }

    private func right(_ i: Int) -> Double {
      switch i {
      case 0: h.0
      case 1: h.1
      default: h.2
      }
    }

    /// Least squares in the active columns (white, Gauss-Markov, trend), by Cramer's rule
    /// on their normal equations (at most 3 × 3); `nil` when a coefficient comes out
    /// negative or the system is singular.
    ///
    /// In scalars, without an array: a fit solves 180 of these, and building the
    /// matrices as arrays allocated a dozen times for each.
    func solve(_ active: (Bool, Bool, Bool)) -> (residual: Double, b: Double, s: Double)? {
      var used = (0, 0, 0)
      var count = 0
      func use(_ column: Int) {
        switch count {
        case 0: used.0 = column
        case 1: used.1 = column
        default: used.2 = column
        }
        count += 1
      }
      if active.0 { use(0) }
      if active.1 { use(1) }
      if active.2 { use(2) }
      var c = (0.0, 0.0, 0.0)
      func set(_ column: Int, _ value: Double) {
        switch column {
        case 0: c.0 = value
        case 1: c.1 = value
        default: c.2 = value
        }
      }
      switch count {
      case 1:
        let d = gram(used.0, used.0)
        guard abs(d) > 1e-300 else { return nil }
        set(used.0, right(used.0) / d)
      case 2:
        let (i, j) = (used.0, used.1)
        let d = gram(i, i) * gram(j, j) - gram(i, j) * gram(i, j)
        guard abs(d) > 1e-300 else { return nil }
        set(i, (right(i) * gram(j, j) - right(j) * gram(i, j)) / d)
        set(j, (gram(i, i) * right(j) - gram(i, j) * right(i)) / d)
      default:
        // The rows of G are (g0 g1 g2), (g1 g3 g4), (g2 g4 g5); each coefficient is the
        // determinant with its column replaced by h, over G's.
        let d = Self.determinant(g.0, g.1, g.2, g.1, g.3, g.4, g.2, g.4, g.5)
        guard abs(d) > 1e-300 else { return nil }
        c.0 = Self.determinant(h.0, g.1, g.2, h.1, g.3, g.4, h.2, g.4, g.5) / d
        c.1 = Self.determinant(g.0, h.0, g.2, g.1, h.1, g.4, g.2, h.2, g.5) / d
        c.2 = Self.determinant(g.0, g.1, h.0, g.1, g.3, h.1, g.2, g.4, h.2) / d
      }
      guard c.0 >= 0, c.1 >= 0, c.2 >= 0 else { return nil }
      let quadratic =
        c.0 * c.0 * g.0 + c.1 * c.1 * g.3 + c.2 * c.2 * g.5 + 2 * (c.0 * c.1 * g.1 + c.0 * c.2 * g.2 + c.1 * c.2 * g.4)
      let residual = max(0, quadratic - 2 * (c.0 * h.0 + c.1 * h.1 + c.2 * h.2) + n)
      return (residual, c.0, c.1)
    }

    /// The determinant of the 3 × 3 matrix of rows (m00 m01 m02), (m10 m11 m12),
    /// (m20 m21 m22), expanded along the first row.
    private static func determinant(
      _ m00: Double, _ m01: Double, _ m02: Double, _ m10: Double, _ m11: Double, _ m12: Double, _ m20: Double,
      _ m21: Double, _ m22: Double
    ) -> Double {
      m00 * (m11 * m22 - m12 * m21) - m01 * (m10 * m22 - m12 * m20) + m02 * (m10 * m21 - m11 * m20)
    }
  }

  // MARK: Deciding

  private mutating func decide(at time: Double, into result: inout Step) {
    guard !held else { return }

    // The first 20 s of a track are not tested: the bound needs a few changes first.
    guard let noise, noise.rate > 0, learned != nil || time - trackStart >= 20 else { return }
    let since = time - max(decidedAt, trackStart)
    func statistic(_ horizon: Double) -> (z: Double, squared: Double, span: Double)? {
      guard let past = track.sample(atOrBefore: time - horizon) else { return nil }
      let span = time - past.time
      guard span > 0 else { return nil }
      let dE = east - past.east
      let dN = north - past.north
      let squared = dE * dE + dN * dN
      return (squared / (noise.rate * span), squared, span)
    }
    let significant = Self.horizons.filter { horizon in
      guard horizon <= since, let test = statistic(horizon) else { return false }
      return test.z > Self.startStatistic
    }
    if !isMoving {
      guard let shortest = significant.first else { return }
      // The stretch that led here, back to the decision before at most, in pieces of the
      // shortest horizon that shows the movement, back to the first that looks like rest
      // (as a stop is decided).
      let stretch = min(since, Self.history)
      var pieceEnd = (time: time, east: east, north: north, path: path, spread: pathSpread)
      var moved = 0.0
      while time - pieceEnd.time < stretch - 1e-6 {
        let start = max(pieceEnd.time - shortest, time - stretch)
        guard let past = track.sample(atOrBefore: start), past.time < pieceEnd.time else { break }
        let span = pieceEnd.time - past.time
        let dE = pieceEnd.east - past.east
        let dN = pieceEnd.north - past.north
        let squared = dE * dE + dN * dN
        guard squared / (noise.rate * span) >= Self.restStatistic else { break }
        result.distance += pieceEnd.path - past.path
        result.correctionSpread += pieceEnd.spread - past.spread
        moved += span
        pieceEnd = (past.time, past.east, past.north, past.path, past.spread)
      }
      // The movement began within the earliest piece: at its first second whose mean
      // speed reaches ``stopFactor`` σ (the speed at which a movement ends), so that the
      // time counted as moving does not take in the rest before it.
      var began = time - moved
      let noiseSpeed = Self.stopFactor * noise.variance.squareRoot()
      while began + 1 <= time - moved + shortest, began + 1 <= time,
        let from = track.sample(atOrBefore: began), let to = track.sample(atOrBefore: began + 1), to.time > from.time
      {
        let dE = to.east - from.east
        let dN = to.north - from.north
        if (dE * dE + dN * dN).squareRoot() / (to.time - from.time) >= noiseSpeed { break }
        began = to.time
      }
      result.startedBefore = time - began
      result.restExcess = restExcess(until: time - moved)
      // What came before the stretch, and a piece more, was rest.
      confirmRest(before: time - moved - shortest)
      pendingRest.removeAll(keepingCapacity: true)
      pendingStart = 0
      isMoving = true
      movingHorizon = shortest
      decidedAt = time
      return
    }
    // The shortest horizon that has shown this movement: a longer one would still hold
    // the movement's own past for a while after the body stops.
    if let shortest = significant.first { movingHorizon = min(movingHorizon, shortest) }
    guard movingHorizon <= since, let test = statistic(movingHorizon) else { return }
    let meanSpeed = test.squared.squareRoot() / test.span
    if test.z < Self.restStatistic && meanSpeed < Self.stopFactor * noise.variance.squareRoot() {
      isMoving = false
      decidedAt = time
    }
  }
}

/// Samples of a pair of values in time order, the oldest dropped first: a fixed-capacity
/// ring that never allocates after its creation.
struct TimedRing: Sendable {
  struct Sample: Sendable {
    var time: Double
    var east: Double
    var north: Double
    /// A running sum that goes with the pair (the track's: the speed integrated).
    var path = 0.0
    /// Another (the track's: the speed's ``Step/correctionSpread`` integrated).
    var spread = 0.0
  }

  private var samples: [Sample] = []
  private var start = 0
  private(set) var count = 0

  private let capacity: Int

  /// Room for `capacity` samples is reserved, not filled: the storage grows to it as
  /// samples come (an odometer starts a new one for each session of a log, and most
  /// are short).
  init(capacity: Int) {
    self.capacity = capacity
    samples.reserveCapacity(capacity)
  }

  var isEmpty: Bool { count == 0 }
  var first: Sample? { count > 0 ? samples[start] : nil }
  var last: Sample { at(count - 1) }

  /// The sample `index` places after the first. `start` and `index` are both below the
  /// capacity, so one subtraction wraps the position round, where `%` divides (a
  /// division is tens of cycles, and the lookups take several per fix).
  @inline(__always)
  private func at(_ index: Int) -> Sample { samples[wrapped(start + index)] }

  @inline(__always)
  private func wrapped(_ position: Int) -> Int { position >= capacity ? position - capacity : position }

  mutating func append(_ time: Double, _ east: Double, _ north: Double, path: Double = 0, spread: Double = 0) {
    if count == capacity { removeFirst() }
    let sample = Sample(time: time, east: east, north: north, path: path, spread: spread)
    // Samples sit at start, start + 1, ... round the capacity: past the storage's end
    // only while it is still growing, and then exactly at its end.
    let position = wrapped(start + count)
    if position == samples.count { samples.append(sample) } else { samples[position] = sample }
    count += 1
  }

  mutating func removeFirst() {
    guard count > 0 else { return }
    start = wrapped(start + 1)
    count -= 1
  }

  mutating func removeAll() {
    start = 0
    count = 0
  }

  /// How many samples are at or before `time`: the index after the latest of them.
  /// Samples come at nearly even intervals, so the index is first guessed from the
  /// mean interval and checked a few steps either way; a binary search otherwise.
  private func countAtOrBefore(_ time: Double) -> Int {
    guard count > 0 else { return 0 }
    let first = at(0).time
    let lastTime = last.time
    if time + 1e-6 >= lastTime { return count }
    if time + 1e-6 < first { return 0 }
    if count > 1, lastTime > first {
      // The guess: samples at or before `time` if the intervals were even.
      var index = Int(((time - first) / (lastTime - first) * Double(count - 1)).rounded(.down)) + 1
      index = min(max(index, 1), count - 1)
      for _ in 0..<8 {
        // `index` is the answer when the sample before it is at or before `time` and
        // the one at it is after.
        if at(index - 1).time > time + 1e-6 {
          index -= 1
        } else if at(index).time <= time + 1e-6 {
          index += 1
        } else {
          return index
        }
        if index <= 0 || index >= count { break }
      }
    }
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if at(middle).time <= time + 1e-6 { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The latest sample at or before `time`.
  func sample(atOrBefore time: Double) -> Sample? {
    let index = countAtOrBefore(time)
    return index > 0 ? at(index - 1) : nil
  }

  /// The sample nearest in time to `time`.
  func sample(nearest time: Double) -> Sample? {
    guard count > 0 else { return nil }
    let index = countAtOrBefore(time)
    let before = index > 0 ? at(index - 1) : nil
    let after = index < count ? at(index) : nil
    switch (before, after) {
    case (let b?, let a?): return time - b.time <= a.time - time ? b : a
    case (let b?, nil): return b
    case (nil, let a?): return a
    default: return nil
    }
  }
}

import Geodesy

/// The track's last 17 minutes, a sample a second, for the terms of the odometer's error
/// bar that only the track itself can measure:
/// - **how far the integrated Doppler velocity strays from the positions** over 256 and
///   1024 s: an upper bound on the velocity noise's rate that needs no rest (a cyclist or
///   a boat that never stops), since the positions' own error is bounded (metres) where
///   the integrated velocity's grows with time;
/// - **how much longer the path was than its chords**: what a straight bridge across a
///   fix loss of that length leaves out, on this body's roads or paths.
///
/// Positions are kept in metres east and north of the stretch's first fix
/// (``/Geodesy/LocalProjection``). Its scale is exact there and off by about tan φ · d/R
/// at d from it (0.8 % for east-west steps 50 km north of it at 45°): a long stretch
/// without a fix loss inflates what the positions differ by, which only widens the
/// bound on the velocity noise.
struct TrackHistory: Sendable {
  struct Sample: Sendable {
    var time: Double
    /// The odometer's distance at this sample, metres.
    var distance: Double
    var east: Double
    var north: Double
    /// The velocity integrated since ``TrackHistory/velocitySince``, metres.
    var integratedEast: Double
    var integratedNorth: Double
  }

  /// The windows over which the integrated velocity is compared with the positions,
  /// seconds: long, so that the positions' error (bounded) weighs little against the
  /// integrated velocity's (growing with the window).
  static let windows: [Double] = [256, 1024]
  /// A comparison every this many seconds (overlapping windows).
  static let comparisonInterval = 16.0
  /// The fewest independent windows (total compared time over the window) that give a
  /// bound.
  static let leastWindows = 2.0
  /// The stretches measured back from the latest sample for a bridge's shortfall.
  static let shortfallStretches = 8

  private var samples: [Sample] = []
  private var head = 0
  private static let capacity = 1100

  private var reference: LocalProjection?
  /// Since when the positions (and the distance) have run without a break: a fix loss or
  /// another session starts them afresh.
  private var positionsSince = Double.infinity
  /// Since when a velocity has come with every fix (a course, not a speed alone).
  private var velocitySince: Double?
  private var lastVelocity: (time: Double, east: Double, north: Double)?
  private var integrated = (east: 0.0, north: 0.0)
  private var lastComparison = -Double.infinity
  private var squaredResiduals = [Double](repeating: 0, count: TrackHistory.windows.count)
  private var comparisons = [Double](repeating: 0, count: TrackHistory.windows.count)

  init() { samples.reserveCapacity(Self.capacity) }

  private var count: Int { samples.count }
  private func sample(_ index: Int) -> Sample {
    samples[(head + index) % samples.count]
  }

  /// A fix: at `time` seconds on the track's clock, the odometer's `distance` so far, the
  /// position, and the velocity east and north (m/s) when the fix has one with a
  /// direction.
  mutating func add(
    time: Double, distance: Double, latitude: Double, longitude: Double, velocity: (east: Double, north: Double)?
  ) {
    if reference == nil {
      reference = LocalProjection(latitude: latitude, longitude: longitude)
      positionsSince = time
    }
    if let velocity {
      if let last = lastVelocity, velocitySince != nil {
        integrated.east += (last.east + velocity.east) / 2 * (time - last.time)
        integrated.north += (last.north + velocity.north) / 2 * (time - last.time)
      } else {
        velocitySince = time
      }
      lastVelocity = (time, velocity.east, velocity.north)
    } else {
      velocitySince = nil
      lastVelocity = nil
    }
    if count > 0, time - sample(count - 1).time < 1 - 1e-6 { return }
    guard let reference else { return }
    let position = reference.project(latitude: latitude, longitude: longitude)
    let new = Sample(
      time: time, distance: distance, east: position.east, north: position.north, integratedEast: integrated.east,
      integratedNorth: integrated.north)
    if samples.count < Self.capacity {
      samples.append(new)
    } else {
      samples[head] = new
      head = (head + 1) % Self.capacity
    }
    if time - lastComparison >= Self.comparisonInterval - 1e-6 {
      lastComparison = time
      compare(new)
    }
  }

  /// A fix loss: positions and velocity start afresh from the next fix (what was
  /// measured of the noise and the chords stays).
  mutating func restart() {
    reference = nil
    positionsSince = .infinity
    velocitySince = nil
    lastVelocity = nil
  }

  /// Another session: perhaps another receiver, whose clock starts again. Nothing of the
  /// last one is kept.
  mutating func restartSession() {
    self = TrackHistory()
  }

  /// The latest sample at or before `time`, by bisection on the ring.
  private func index(atOrBefore time: Double) -> Int? {
    guard count > 0, sample(0).time <= time else { return nil }
    var low = 0
    var high = count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if sample(middle).time <= time { low = middle } else { high = middle - 1 }
    }
    return low
  }

  private mutating func compare(_ latest: Sample) {
    guard let since = velocitySince else { return }
    let start = max(since, positionsSince)
    for (index, window) in Self.windows.enumerated() where latest.time - window >= start {
      guard let past = self.index(atOrBefore: latest.time - window).map(sample) else { continue }
      // Within a tenth of the window (samples may be several seconds apart).
      guard past.time >= start, latest.time - past.time <= 1.1 * window else { continue }
      let residualEast = (latest.integratedEast - past.integratedEast) - (latest.east - past.east)
      let residualNorth = (latest.integratedNorth - past.integratedNorth) - (latest.north - past.north)
      squaredResiduals[index] +=
        (residualEast * residualEast + residualNorth * residualNorth) / (latest.time - past.time)
      comparisons[index] += 1
    }
  }

  /// An upper bound on the rate q at which the integrated velocity's error variance grows
  /// per axis, m²/s, from the windows compared so far: the mean of |residual|²/2W, which is
  /// q plus the positions' error over W (so a bound, and the longer window the closer),
  /// raised by its standard error, 1/√N for the N independent windows it rests on (a mean
  /// of N χ² terms of two degrees of freedom); the least of the windows' bounds, `nil`
  /// before any window has ``leastWindows``.
  var velocityNoiseBound: Double? {
    var bound: Double?
    for (index, window) in Self.windows.enumerated() {
      let independent = comparisons[index] * Self.comparisonInterval / window
      guard independent >= Self.leastWindows else { continue }
      let rate = squaredResiduals[index] / comparisons[index] / 2 * (1 + 1 / independent.squareRoot())
      bound = min(bound ?? rate, rate)
    }
    return bound
  }

  /// How much longer this track's path was than the straight line over `seconds`: the
  /// root mean square of the odometer's distance less the chord, for up to
  /// ``shortfallStretches`` stretches of that duration back from the latest sample, each
  /// ending where the one after it began; `nil` with fewer than two. Matched in time, not
  /// in chord: a body cannot have turned more in a loss than it does in as long
  /// elsewhere, while a chord-matched stretch may have taken any time to reach its chord.
  func chordShortfall(over seconds: Double) -> Double? {
    guard seconds > 0, count > 1 else { return nil }
    var squares = 0.0
    var stretches = 0
    var end = count - 1
    while stretches < Self.shortfallStretches {
      let last = sample(end)
      guard let begin = index(atOrBefore: last.time - seconds), begin < end else { break }
      let first = sample(begin)
      guard first.time >= positionsSince else { break }
      let straight =
        ((last.east - first.east) * (last.east - first.east)
        + (last.north - first.north) * (last.north - first.north)).squareRoot()
      let excess = last.distance - first.distance - straight
      squares += excess * excess
      stretches += 1
      end = begin
    }
    return stretches >= 2 ? (squares / Double(stretches)).squareRoot() : nil
  }
}

/// Recognises shakes in accelerometer readings, in the shape of a gesture recogniser:
/// began, then ended or cancelled, each reported once and in order.
///
/// - A **peak** is a reading whose user acceleration (gravity removed) exceeds
///   ``Options/lightThreshold`` (1.5 g) on any axis; it lasts until that falls below half
///   the threshold, so one stroke is one peak however many readings it spans. A peak
///   reaching ``Options/strongThreshold`` (2.0 g) makes the shake strong.
/// - A **shake** is more than four peaks (``Options/peaks``, 5) within
///   ``Options/window`` (1.5 s).
/// - **Began** is reported at the second peak within the window: a sequence that may
///   become a shake, dated at its first peak. A lone bump reports nothing.
/// - Once the last peak has been over for ``Options/quietTime`` (0.5 s), a sequence that
///   became a shake has **ended**, unless the device is at rest then, which means it was
///   put down: **cancelled**. A sequence that did not become a shake is cancelled too
///   (peaks stopped too soon; or no shake within twice the window).
/// - **At rest**: over the last ``Options/restDuration`` (0.3 s) the raw acceleration,
///   smoothed over 30 ms, varies by less than ``Options/restDeviation`` (0.004 g standard
///   deviation) on every axis, and the rotation rate, when a gyroscope reports, stays
///   below ``Options/restRotation`` (0.1 rad/s). The smoothing lets a sensor's white noise
///   of up to about 0.006 g RMS, sampled at 50 Hz or faster, read as still; a hand's
///   tremor and sway do not.
public struct ShakeRecognizer: Sendable {
  /// The thresholds and times; every one can be changed.
  public struct Options: Sendable, Equatable {
    /// The user acceleration, g, that starts a peak when exceeded on any axis (1.5); the
    /// peak lasts until it falls below half of it.
    public var lightThreshold = 1.5
    /// The user acceleration, g, at or over which a peak makes the shake strong (2.0).
    public var strongThreshold = 2.0
    /// How many peaks within ``window`` make a sequence a shake (5).
    public var peaks = 5
    /// Seconds within which peaks count together (1.5); a sequence that is not a shake
    /// twice this long after its first peak is cancelled.
    public var window = 1.5
    /// Seconds after the last peak ended at which a sequence ends or is cancelled (0.5).
    public var quietTime = 0.5
    /// The standard deviation, g, on every axis of the smoothed raw acceleration below
    /// which the device counts as at rest (0.004).
    public var restDeviation = 0.004
    /// The rotation rate, rad/s on any axis, below which the device may count as at rest
    /// (0.1), when a gyroscope reports.
    public var restRotation = 0.1
    /// Seconds of readings the rest test looks back over (0.3).
    public var restDuration = 0.3

    /// The default options, as each property states.
    public init() {}
  }

  /// The thresholds and times in use; a change applies from the next reading.
  public var options: Options

  private struct Sequence {
    var start: Double
    var peakTimes: [Double]
    var lastPeak: Double
    var lastPeakEnd: Double?
    var count: Int
    var strongest: Double
    var isShake = false
  }
  private var sequence: Sequence?
  /// Whether a peak is in progress (above the threshold, not yet below half of it).
  private var inPeak = false
  /// Peaks before a sequence began: each one's time and height.
  private var pendingPeaks: [(time: Double, height: Double)] = []
  /// The smoothed raw acceleration over the last rest duration (bounded by the sensor's
  /// rate times that duration), and whether the rotation rate exceeded the rest limit
  /// then.
  private var recent: [(time: Double, value: MotionVector, turning: Bool)] = []
  /// The smoothing's time constant, seconds.
  static let restSmoothing = 0.03

  /// A recogniser with `options` and no sequence under way.
  public init(options: Options = Options()) { self.options = options }

  /// Whether a shake (or a sequence that may become one) is under way.
  public var isActive: Bool { sequence != nil }

  /// Takes one reading: the raw acceleration and the user acceleration (g) and, when a
  /// gyroscope reports, the rotation rate. Returns the transitions it causes, in order.
  public mutating func add(
    time: Double, acceleration: MotionVector, userAcceleration: MotionVector, rotationRate: MotionVector? = nil
  ) -> [ShakeEvent] {
    var events: [ShakeEvent] = []
    let height = userAcceleration.largestComponent
    noteStillness(time, acceleration, rotationRate)
    // Peaks: a rising edge over the threshold, ended below half of it.
    var newPeak = false
    if inPeak {
      if height < options.lightThreshold / 2 {
        inPeak = false
        sequence?.lastPeakEnd = time
      }
    } else if height > options.lightThreshold {
      inPeak = true
      newPeak = true
    }
    if inPeak {
      if sequence != nil {
        sequence!.strongest = max(sequence!.strongest, height)
      } else if !newPeak, !pendingPeaks.isEmpty {
        pendingPeaks[pendingPeaks.count - 1].height = max(pendingPeaks[pendingPeaks.count - 1].height, height)
      }
    }

    if let current = sequence, !inPeak {
      let atRest = isAtRest(time)
      if let end = current.lastPeakEnd, time - end >= options.quietTime {
        if current.isShake && !atRest {
          events.append(event(.ended, current, time: time))
        } else {
          events.append(event(.cancelled, current, time: time, reason: atRest ? .putDown : .incomplete))
        }
        sequence = nil
      } else if !current.isShake, time - current.start > 2 * options.window {
        events.append(event(.cancelled, current, time: time, reason: .incomplete))
        sequence = nil
      }
    }

    guard newPeak else { return events }
    if var current = sequence {
      current.count += 1
      current.lastPeak = time
      current.lastPeakEnd = nil
      current.peakTimes = current.peakTimes.filter { time - $0 <= options.window } + [time]
      if !current.isShake, current.peakTimes.count >= options.peaks { current.isShake = true }
      sequence = current
      return events
    }
    // Not yet a sequence: peaks wait in the window until a second one comes.
    pendingPeaks = pendingPeaks.filter { time - $0.time <= options.window } + [(time, height)]
    if pendingPeaks.count >= 2 {
      let current = Sequence(
        start: pendingPeaks[0].time, peakTimes: pendingPeaks.map(\.time), lastPeak: time, count: pendingPeaks.count,
        strongest: pendingPeaks.map(\.height).max()!, isShake: pendingPeaks.count >= options.peaks)
      pendingPeaks = []
      sequence = current
      events.append(event(.began, current, time: time))
    }
    return events
  }

  /// The source ended: a sequence under way is cancelled.
  public mutating func finish(time: Double) -> ShakeEvent? {
    defer {
      sequence = nil
      pendingPeaks = []
      recent = []
      inPeak = false
    }
    return sequence.map { event(.cancelled, $0, time: time, reason: .sourceEnded) }
  }

  private mutating func noteStillness(_ time: Double, _ acceleration: MotionVector, _ rotationRate: MotionVector?) {
    var value = acceleration
    if let previous = recent.last, time > previous.time, time - previous.time < 1 {
      let step = time - previous.time
      value = previous.value + (acceleration - previous.value) * (step / (Self.restSmoothing + step))
    } else if let previous = recent.last, time <= previous.time || time - previous.time >= 1 {
      recent = []
    }
    let turning = rotationRate.map { $0.largestComponent >= options.restRotation } ?? false
    recent.append((time, value, turning))
    if let first = recent.first, time - first.time > options.restDuration {
      recent.removeFirst(recent.prefix { time - $0.time > options.restDuration }.count)
    }
  }

  private func isAtRest(_ time: Double) -> Bool {
    guard let first = recent.first, recent.count >= 3, time - first.time >= 0.8 * options.restDuration,
      !recent.contains(where: \.turning)
    else { return false }
    let count = Double(recent.count)
    let mean = recent.reduce(MotionVector.zero) { $0 + $1.value } * (1 / count)
    let variance =
      recent.reduce(MotionVector.zero) { total, sample in
        let d = sample.value - mean
        return total + MotionVector(x: d.x * d.x, y: d.y * d.y, z: d.z * d.z)
      } * (1 / count)
    let limit = options.restDeviation * options.restDeviation
    return variance.x < limit && variance.y < limit && variance.z < limit
  }

  private func event(
    _ phase: ShakeEvent.Phase, _ current: Sequence, time: Double, reason: ShakeEvent.CancelReason? = nil
  ) -> ShakeEvent {
    ShakeEvent(
      phase: phase, time: time, start: current.start,
      duration: (phase == .began ? time : current.lastPeak) - current.start, peaks: current.count,
      peakAcceleration: current.strongest,
      strength: current.strongest >= options.strongThreshold ? .strong : .light, cancelReason: reason)
  }
}

/// A shake's transition.
public struct ShakeEvent: Sendable, Equatable {
  /// Which transition it is, as a gesture recogniser's states.
  public enum Phase: String, Sendable, Equatable {
    /// A second peak came within the window: a sequence that may become a shake.
    case began
    /// A sequence that became a shake is over: its peaks stopped and the device is not at
    /// rest.
    case ended
    /// A sequence ended without a shake, or the device was put down, or the source ended
    /// (see ``ShakeEvent/cancelReason``).
    case cancelled
  }
  /// How hard a shake is, by its strongest peak so far.
  public enum Strength: String, Sendable, Equatable {
    /// Every peak under the strong threshold.
    case light
    /// A peak at or over the strong threshold (2.0 g).
    case strong
  }
  /// Why a sequence was cancelled.
  public enum CancelReason: String, Sendable, Equatable {
    /// The peaks stopped before there were enough of them for a shake.
    case incomplete
    /// The device came to rest.
    case putDown = "put down"
    /// The source ended.
    case sourceEnded = "source ended"
  }

  /// Which transition this is.
  public var phase: Phase
  /// When the transition was recognised (the reading's time).
  public var time: Double
  /// The first peak's time.
  public var start: Double
  /// Seconds from the first peak to the last (to now, for began).
  public var duration: Double
  /// The peaks so far.
  public var peaks: Int
  /// The largest user acceleration on any axis, g.
  public var peakAcceleration: Double
  /// Light or strong, by whether a peak so far reached
  /// ``ShakeRecognizer/Options/strongThreshold``.
  public var strength: Strength
  /// Why it was cancelled.
  public var cancelReason: CancelReason?
}

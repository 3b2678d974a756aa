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
/// - **Ended** is reported when a sequence that became a shake has had no peak for
///   ``Options/quietTime`` (0.5 s): duration from its first peak to its last.
/// - **Cancelled** is reported when a sequence that began stops before it became a shake
///   (no peak for the quiet time, or no shake within twice the window), or when the
///   device is put down during it: for ``Options/restDuration`` (0.3 s) every axis of the
///   raw acceleration stays within ``Options/restRange`` (0.02 g, peak to peak) and the
///   rotation rate, when a gyroscope reports, below ``Options/restRotation`` (0.1 rad/s).
///   A hand is never that still; a table is.
public struct ShakeRecognizer: Sendable {
  /// The thresholds and times; every one can be changed.
  public struct Options: Sendable, Equatable {
    public var lightThreshold = 1.5
    public var strongThreshold = 2.0
    public var peaks = 5
    public var window = 1.5
    public var quietTime = 0.5
    public var restRange = 0.02
    public var restRotation = 0.1
    public var restDuration = 0.3

    public init() {}
  }

  public var options: Options

  private struct Sequence {
    var start: Double
    var peakTimes: [Double]
    var lastPeak: Double
    var count: Int
    var strongest: Double
    var isShake = false
  }
  private var sequence: Sequence?
  /// Whether a peak is in progress (above the threshold, not yet below half of it).
  private var inPeak = false
  /// Peaks before a sequence began: each one's time and height.
  private var pendingPeaks: [(time: Double, height: Double)] = []
  /// The raw acceleration's range since the device may have come to rest.
  private var rest: (since: Double, low: MotionVector, high: MotionVector)?

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
    // Peaks: a rising edge over the threshold, ended below half of it.
    var newPeak = false
    if inPeak {
      if height < options.lightThreshold / 2 { inPeak = false }
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

    if let current = sequence {
      if let reason = cancellation(current, time: time, acceleration: acceleration, rotationRate: rotationRate) {
        events.append(event(.cancelled, current, time: time, reason: reason))
        sequence = nil
        rest = nil
      } else if current.isShake, !newPeak, time - current.lastPeak > options.quietTime {
        events.append(event(.ended, current, time: time))
        sequence = nil
        rest = nil
      }
    }

    guard newPeak else { return events }
    rest = nil
    if var current = sequence {
      current.count += 1
      current.lastPeak = time
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
      rest = nil
      inPeak = false
    }
    return sequence.map { event(.cancelled, $0, time: time, reason: .sourceEnded) }
  }

  private mutating func cancellation(
    _ current: Sequence, time: Double, acceleration: MotionVector, rotationRate: MotionVector?
  ) -> ShakeEvent.CancelReason? {
    if !current.isShake {
      if time - current.lastPeak > options.quietTime { return .incomplete }
      if time - current.start > 2 * options.window { return .incomplete }
    }
    // Rest: the raw acceleration's range over the rest duration.
    let still = rotationRate.map { $0.largestComponent < options.restRotation } ?? true
    guard still, !inPeak else {
      rest = nil
      return nil
    }
    guard var range = rest else {
      rest = (time, acceleration, acceleration)
      return nil
    }
    range.low = MotionVector(
      x: min(range.low.x, acceleration.x), y: min(range.low.y, acceleration.y), z: min(range.low.z, acceleration.z))
    range.high = MotionVector(
      x: max(range.high.x, acceleration.x), y: max(range.high.y, acceleration.y), z: max(range.high.z, acceleration.z))
    if (range.high - range.low).largestComponent > options.restRange {
      rest = (time, acceleration, acceleration)
      return nil
    }
    rest = range
    return time - range.since >= options.restDuration ? .putDown : nil
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
  public enum Phase: String, Sendable, Equatable {
    case began, ended, cancelled
  }
  public enum Strength: String, Sendable, Equatable {
    /// Every peak under the strong threshold.
    case light
    /// A peak at or over the strong threshold (2.0 g).
    case strong
  }
  public enum CancelReason: String, Sendable, Equatable {
    /// The peaks stopped before there were enough of them for a shake.
    case incomplete
    /// The device came to rest.
    case putDown = "put down"
    /// The source ended.
    case sourceEnded = "source ended"
  }

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
  public var strength: Strength
  /// Why it was cancelled.
  public var cancelReason: CancelReason?
}

/// What a motion manager makes of each reading: the device motion (``AttitudeEstimator``)
/// and, on every accelerometer reading, the shake recogniser's transitions
/// (``ShakeRecognizer``) from the user acceleration the estimate leaves, whatever the
/// delivery intervals. One value, so that a test or a program reading a log gets exactly
/// what the manager reports.
public struct MotionAnalysis: Sendable {
  /// The estimator every reading goes through, which gives the device motion.
  public var estimator: AttitudeEstimator
  /// The shake recogniser each accelerometer reading goes to, with the estimate's user
  /// acceleration (zero before there is one) and a gyroscope rate at most 0.5 s old,
  /// while ``recognizesShakes``.
  public var recognizer: ShakeRecognizer
  /// Whether shakes are looked for.
  public var recognizesShakes: Bool
  private var lastRotation: (time: Double, rate: MotionVector)?

  /// An analysis through `estimator` and `recognizer` (by default fresh ones with default
  /// settings), looking for shakes unless `recognizesShakes` is `false`.
  public init(
    estimator: AttitudeEstimator = AttitudeEstimator(), recognizer: ShakeRecognizer = ShakeRecognizer(),
    recognizesShakes: Bool = true
  ) {
    self.estimator = estimator
    self.recognizer = recognizer
    self.recognizesShakes = recognizesShakes
  }

  /// Takes one reading (in time order).
  public mutating func add(_ reading: SensorReading) -> (motion: DeviceMotion?, shakes: [ShakeEvent]) {
    if reading.sensor == .gyroscope { lastRotation = (reading.time, reading.vector) }
    let motion = estimator.add(reading)
    guard recognizesShakes, reading.sensor == .accelerometer, reading.vector.isFinite else { return (motion, []) }
    // Before the estimate has gravity, nothing can be told apart from it: no peaks.
    let user = motion?.userAcceleration ?? .zero
    let rotation = lastRotation.flatMap { abs(reading.time - $0.time) <= 0.5 ? $0.rate : nil }
    let shakes = recognizer.add(
      time: reading.time, acceleration: reading.vector, userAcceleration: user, rotationRate: rotation)
    return (motion, shakes)
  }

  /// The source ended: a shake under way is cancelled.
  public mutating func finish(time: Double) -> ShakeEvent? { recognizer.finish(time: time) }
}

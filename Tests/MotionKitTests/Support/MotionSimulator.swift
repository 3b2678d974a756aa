import Foundation
import MotionKit
import TestSupport

/// Generates what an accelerometer (and, in some families, a gyroscope) would read
/// through a scripted sequence of motions, with noise models that differ from family to
/// family (level, correlation time, rate), for testing recognisers on data the code was
/// not tuned to.
struct MotionSimulator {
  /// One stretch of motion.
  enum Segment {
    /// Lying on a table: sensor noise only.
    case table(seconds: Double)
    /// Held in a hand: tremor and a slow sway of the attitude.
    case hand(seconds: Double)
    /// Shaken along `axis`: sinusoidal user acceleration of `amplitude` g on its largest
    /// device axis at `frequency` Hz, the attitude wobbling with it.
    case shake(seconds: Double, frequency: Double, amplitude: Double, axis: MotionVector)
    /// One knock: a half-sine of `amplitude` g lasting `width` seconds, and a rebound.
    case bump(amplitude: Double, width: Double)
    /// Walking with the device in a pocket: vertical steps of `amplitude` g at `cadence` Hz.
    case walk(seconds: Double, cadence: Double, amplitude: Double)
    /// In a car on a rough road: correlated vertical vibration and, every few seconds, a
    /// pothole of `pothole` g.
    case car(seconds: Double, sigma: Double, correlationTime: Double, pothole: Double)
  }

  struct Family: CustomStringConvertible {
    var rate: Double
    var sensorNoise: Double
    var tremor: Double
    var tremorCorrelation: Double
    var hasGyroscope: Bool
    var description: String {
      "\(Int(rate)) Hz, noise \(sensorNoise) g, tremor \(tremor) g / \(tremorCorrelation) s, gyro \(hasGyroscope)"
    }
  }

  var family: Family
  var random: SeededRandom
  private(set) var readings: [SensorReading] = []
  private var time = 1_764_597_600.0
  private var attitude: Quaternion
  private var tremorState = MotionVector.zero

  init(family: Family, seed: UInt64) {
    self.family = family
    random = SeededRandom(seed: seed)
    let pitch = random.uniform(-40...40)
    let roll = random.uniform(-40...40)
    let heading = random.uniform(0...359)
    attitude = MotionAttitude(heading: heading, pitch: pitch, roll: roll, referenceFrame: .magneticNorth).quaternion
  }

  var now: Double { time }

  mutating func gaussianVector(_ sigma: Double) -> MotionVector {
    MotionVector(x: random.gaussian() * sigma, y: random.gaussian() * sigma, z: random.gaussian() * sigma)
  }

  /// Appends one sample: `user` g in the device's axes, turning at `rate` rad/s.
  private mutating func sample(user: MotionVector, rotation: MotionVector, tremor: Bool) {
    let step = 1 / family.rate
    attitude = (attitude * Quaternion(axis: rotation, angle: rotation.magnitude * step)).normalized!
    var user = user
    if tremor {
      let phi = exp(-step / family.tremorCorrelation)
      tremorState = tremorState * phi + gaussianVector(family.tremor * (1 - phi * phi).squareRoot())
      user = user + tremorState
    }
    let gravity = attitude.conjugate.rotate(MotionVector(x: 0, y: 0, z: -1))
    let measured = gravity + user + gaussianVector(family.sensorNoise)
    if family.hasGyroscope {
      readings.append(
        SensorReading(time: time, sensor: .gyroscope, vector: rotation + gaussianVector(0.002)))
    }
    readings.append(SensorReading(time: time, sensor: .accelerometer, vector: measured))
    time += step
  }

  mutating func add(_ segment: Segment) {
    let step = 1 / family.rate
    switch segment {
    case .table(let seconds):
      for _ in 0..<Int(seconds / step) { sample(user: .zero, rotation: .zero, tremor: false) }
    case .hand(let seconds):
      var sway = gaussianVector(0.05)
      for _ in 0..<Int(seconds / step) {
        sway = sway * 0.995 + gaussianVector(0.01)
        sample(user: .zero, rotation: sway, tremor: true)
      }
    case .shake(let seconds, let frequency, let amplitude, let axis):
      // The amplitude is the largest axis's: "1.5 g on any axis" is what makes a peak.
      let direction = axis * (1 / axis.largestComponent)
      let wobbleAxis =
        direction.cross(MotionVector(x: 0.3, y: 0.5, z: 0.8)).normalized ?? MotionVector(x: 1, y: 0, z: 0)
      let wobble = random.uniform(0.1...0.4)
      let phase = random.uniform(0...(2 * Double.pi))
      for index in 0..<Int(seconds / step) {
        let t = Double(index) * step
        let angle = 2 * Double.pi * frequency * t + phase
        let user = direction * (amplitude * sin(angle))
        let rate = wobbleAxis * (wobble * 2 * Double.pi * frequency * cos(angle))
        sample(user: user, rotation: rate, tremor: true)
      }
    case .bump(let amplitude, let width):
      let direction = gaussianVector(1).normalized!
      for index in 0..<Int(0.4 / step) {
        let t = Double(index) * step
        var value = 0.0
        if t < width {
          value = amplitude * sin(Double.pi * t / width)
        } else if t < 2.5 * width {
          value = -0.35 * amplitude * sin(Double.pi * (t - width) / (1.5 * width))
        }
        sample(user: direction * value, rotation: .zero, tremor: true)
      }
    case .walk(let seconds, let cadence, let amplitude):
      for index in 0..<Int(seconds / step) {
        let t = Double(index) * step
        let angle = 2 * Double.pi * cadence * t
        let vertical = amplitude * (sin(angle) + 0.3 * sin(2 * angle + 0.7))
        let lateral = 0.25 * amplitude * sin(angle / 2)
        let world = MotionVector(x: lateral, y: 0.1 * amplitude * cos(angle), z: vertical)
        let sway = MotionVector(x: 0.15 * cos(angle), y: 0.08 * sin(angle / 2), z: 0.05 * cos(angle / 2))
        sample(user: attitude.conjugate.rotate(world), rotation: sway, tremor: true)
      }
    case .car(let seconds, let sigma, let correlationTime, let pothole):
      var vibration = 0.0
      let phi = exp(-step / correlationTime)
      var nextPothole = random.uniform(1.5...4)
      var potholeStart: Double?
      for index in 0..<Int(seconds / step) {
        let t = Double(index) * step
        vibration = vibration * phi + random.gaussian() * sigma * (1 - phi * phi).squareRoot()
        var vertical = vibration
        if t >= nextPothole && potholeStart == nil { potholeStart = t }
        if let start = potholeStart {
          let since = t - start
          if since < 0.05 {
            vertical += pothole * sin(Double.pi * since / 0.05)
          } else if since < 0.15 {
            vertical -= 0.4 * pothole * sin(Double.pi * (since - 0.05) / 0.1)
          } else {
            potholeStart = nil
            nextPothole = t + random.uniform(2...5)
          }
        }
        let world = MotionVector(x: 0.3 * vibration, y: 0.2 * vibration, z: vertical)
        sample(user: attitude.conjugate.rotate(world), rotation: gaussianVector(0.02), tremor: false)
      }
    }
  }
}

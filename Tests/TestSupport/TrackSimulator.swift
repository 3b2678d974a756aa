import Foundation

/// Reproducible random numbers (SplitMix64), so that a generated log, and any "random"
/// test, is the same on every machine for the same seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x1234_5678 }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// Uniform in `range`.
  public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
  }

  /// Standard normal (Box-Muller).
  public mutating func gaussian() -> Double {
    let u = max(uniform(), 1e-300)
    return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * uniform())
  }
}

/// How a simulated receiver errs and what it sends. Deliberately not the fixtures' model
/// (`scripts/make-fixtures.py`: one Gauss-Markov process, white Doppler noise, fixed
/// formats): here the position error is a Gauss-Markov process plus white noise plus, when
/// asked, multipath excursions; the Doppler error is itself correlated; rates, coordinate
/// and speed precisions and the accuracy report vary per receiver.
public struct ReceiverModel: Sendable, CustomStringConvertible {
  /// Fixes per second: 1, 2, 5 or 10.
  public var rate: Int
  /// Seconds between fixes for a logger slower than 1 Hz (it then overrides ``rate``).
  public var loggingInterval: Double?
  /// Seconds between fixes.
  public var epochSeconds: Double { loggingInterval ?? 1 / Double(rate) }
  /// Stationary standard deviation of the correlated position error, per axis, metres.
  public var correlatedSigma: Double
  /// Its correlation time, seconds.
  public var correlationTime: Double
  /// White position noise per axis, metres.
  public var whiteSigma: Double
  /// Doppler velocity error per axis, m/s (first-order Gauss-Markov, `speedCorrelationTime`).
  public var speedSigma: Double
  public var speedCorrelationTime: Double
  /// Decimals of the minutes in latitude and longitude (2 = 0.01 minute, about 18 m).
  public var minuteDecimals: Int
  /// Decimals of the speed in knots.
  public var knotDecimals: Int
  /// Whether RMC (speed and course) is sent; without it, GGA only.
  public var sendsSpeed: Bool
  /// RMC in one cycle of this many (1: every cycle), as receivers configured to send
  /// some sentences less often do.
  public var speedEvery = 1
  /// Whether GST with the true sigmas is sent; without it, only HDOP.
  public var sendsStatistics: Bool
  /// Speeds below this are sent as 0 (a "static hold" receiver), m/s.
  public var zeroSpeedBelow: Double
  /// Multipath excursions per hour: the position walks off by 5 to 25 m and back over 20
  /// to 90 s while the receiver stands.
  public var multipathPerHour: Double

  public init(
    rate: Int = 1, correlatedSigma: Double = 2, correlationTime: Double = 60, whiteSigma: Double = 0.5,
    speedSigma: Double = 0.05, speedCorrelationTime: Double = 2, minuteDecimals: Int = 5, knotDecimals: Int = 2,
    sendsSpeed: Bool = true, sendsStatistics: Bool = false, zeroSpeedBelow: Double = 0, multipathPerHour: Double = 0
  ) {
    self.rate = rate
    self.correlatedSigma = correlatedSigma
    self.correlationTime = correlationTime
    self.whiteSigma = whiteSigma
    self.speedSigma = speedSigma
    self.speedCorrelationTime = speedCorrelationTime
    self.minuteDecimals = minuteDecimals
    self.knotDecimals = knotDecimals
    self.sendsSpeed = sendsSpeed
    self.sendsStatistics = sendsStatistics
    self.zeroSpeedBelow = zeroSpeedBelow
    self.multipathPerHour = multipathPerHour
  }

  /// A receiver drawn from the family the odometer must hold on: position error 1 to 4 m
  /// correlated over 30 to 90 s plus 0.1 to 1 m white, Doppler error 0.03 to 0.1 m/s,
  /// 4 to 7 decimals of minutes, 1 to 3 decimals of knots, with or without GST.
  public static func drawn(_ random: inout SeededRandom, rate: Int = 1, sendsSpeed: Bool = true) -> ReceiverModel {
    ReceiverModel(
      rate: rate,
      correlatedSigma: random.uniform(1...4),
      correlationTime: random.uniform(30...90),
      whiteSigma: random.uniform(0.1...1),
      speedSigma: random.uniform(0.03...0.1),
      speedCorrelationTime: random.uniform(0.5...5),
      minuteDecimals: 4 + Int(random.next() % 4),
      knotDecimals: 1 + Int(random.next() % 3),
      sendsSpeed: sendsSpeed,
      sendsStatistics: random.uniform() < 0.5)
  }

  public var description: String {
    String(
      format: "%@, σ %.1f m/%.0f s + %.1f m white, Doppler σ %.2f m/s over %.1f s, %d decimals, %@%@",
      loggingInterval.map { String(format: "every %g s", $0) } ?? "\(rate) Hz",
      correlatedSigma, correlationTime, whiteSigma, speedSigma, speedCorrelationTime, minuteDecimals,
      sendsSpeed ? "RMC" : "GGA only",
      sendsStatistics ? ", GST" : "")
  }
}

/// What the simulated receiver does: stand, or move at a cruising speed, for a time.
public enum MovementPhase: Sendable {
  case stand(seconds: Double)
  case move(seconds: Double, speed: Double)
}

/// How a moving body turns and accelerates.
public struct MovementStyle: Sendable {
  /// Mean time between turns, seconds.
  public var meanTimeBetweenTurns: Double
  /// Turn rate, degrees per second.
  public var turnRate: Double
  /// Acceleration and braking, m/s².
  public var acceleration: Double
  /// Relative wander of the cruising speed (standard deviation).
  public var speedWander: Double

  public static let walking = MovementStyle(
    meanTimeBetweenTurns: 90, turnRate: 45, acceleration: 0.7, speedWander: 0.1)
  public static let cycling = MovementStyle(
    meanTimeBetweenTurns: 60, turnRate: 25, acceleration: 0.8, speedWander: 0.15)
  public static let driving = MovementStyle(
    meanTimeBetweenTurns: 50, turnRate: 15, acceleration: 2, speedWander: 0.15)
  /// A boat drifting, a shuffle in a crowd: slow, gentle turns, slow changes of speed.
  public static let drifting = MovementStyle(
    meanTimeBetweenTurns: 120, turnRate: 10, acceleration: 0.1, speedWander: 0.1)

  public init(meanTimeBetweenTurns: Double, turnRate: Double, acceleration: Double, speedWander: Double) {
    self.meanTimeBetweenTurns = meanTimeBetweenTurns
    self.turnRate = turnRate
    self.acceleration = acceleration
    self.speedWander = speedWander
  }
}

/// A generated NMEA log and the truth behind it.
public struct SimulatedTrack: Sendable {
  /// The log: GGA (and RMC, GST) per epoch, CRLF line endings.
  public var nmea: [UInt8]
  /// Length of the true path, metres, on the WGS84 ellipsoid (integrated at 50 Hz).
  public var pathLength: Double
  /// The true path length crossed during fix losses, metres.
  public var pathInOutages: Double
  /// Seconds from the start of the log at which the body began and stopped moving.
  public var movements: [(start: Double, end: Double, distance: Double)]
  /// Epochs written with a valid position.
  public var fixes: Int
  /// The true position at each epoch (seconds from the start of the log), when the
  /// simulator ``TrackSimulator/recordsTruth``.
  public var truth: [(second: Double, latitude: Double, longitude: Double)] = []
}

/// Generates NMEA logs of a body moving along a known path, seen by a receiver with a
/// known error model. The true path is integrated on the WGS84 ellipsoid with the local
/// meridian and prime-vertical radii, so its length is exact to the integration step.
public struct TrackSimulator {
  private var epochIndex = 0
  public var receiver: ReceiverModel
  public var style: MovementStyle
  public var phases: [MovementPhase]
  /// Fix losses while moving: the mean time between them (seconds, 0 = none) and their
  /// length range; a loss either sends nothing or sends invalid sentences.
  public var meanTimeBetweenOutages: Double = 0
  public var outageLength: ClosedRange<Double> = 3...60
  /// Whether fix losses also come while the body stands (a car in a garage).
  public var outagesWhileStanding = false
  public var start = (latitude: 48.137, longitude: 11.575, date: (year: 2026, month: 3, day: 14), second: 8 * 3600.0)
  /// Whether the true position of each epoch is kept (``SimulatedTrack/truth``).
  public var recordsTruth = false
  /// The direction the body first moves in, degrees; random unless set.
  public var initialHeading: Double?

  public init(receiver: ReceiverModel, style: MovementStyle = .walking, phases: [MovementPhase]) {
    self.receiver = receiver
    self.style = style
    self.phases = phases
  }

  private static let a = 6_378_137.0
  private static let f = 1 / 298.257_223_563
  private static let e2 = f * (2 - f)

  private static func radii(_ latitude: Double) -> (meridian: Double, primeVertical: Double) {
    let s = sin(latitude * .pi / 180)
    let w = (1 - e2 * s * s).squareRoot()
    return (a * (1 - e2) / (w * w * w), a / w)
  }

  public func generate(seed: UInt64) -> SimulatedTrack {
    var simulator = self
    return simulator.run(seed: seed)
  }

  private mutating func run(seed: UInt64) -> SimulatedTrack {
    var random = SeededRandom(seed: seed)
    let step = 0.02
    let stepsPerEpoch = Int((receiver.epochSeconds / step).rounded())
    var latitude = start.latitude
    var longitude = start.longitude
    var heading = random.uniform(0...360)
    if let initialHeading { heading = initialHeading }
    var truth: [(second: Double, latitude: Double, longitude: Double)] = []
    var speed = 0.0
    var turnLeft = 0.0  // degrees still to turn
    var nextTurn = random.uniform(0...1) * 2 * style.meanTimeBetweenTurns
    var wander = 0.0
    var time = 0.0
    var stepIndex = 0

    var path = 0.0
    var pathInOutages = 0.0
    var movements: [(start: Double, end: Double, distance: Double)] = []
    var movementStart: Double?
    var movementDistance = 0.0

    // Receiver error states.
    var noiseNorth = random.gaussian() * receiver.correlatedSigma
    var noiseEast = random.gaussian() * receiver.correlatedSigma
    var velocityNorthError = random.gaussian() * receiver.speedSigma
    var velocityEastError = random.gaussian() * receiver.speedSigma
    var multipath: (north: Double, east: Double, start: Double, length: Double)?
    var outageEnd = -1.0
    var outageSendsNothing = true
    var nextOutage = meanTimeBetweenOutages > 0 ? random.uniform(0...1) * 2 * meanTimeBetweenOutages : .infinity

    var out: [UInt8] = []
    out.reserveCapacity(Int(phases.totalSeconds / receiver.epochSeconds) * 150)
    var fixes = 0
    let epoch = receiver.epochSeconds
    let totalSeconds = phases.totalSeconds

    for phase in phases {
      let (seconds, cruise): (Double, Double) =
        switch phase {
        case .stand(let seconds): (seconds, 0)
        case .move(let seconds, let speed): (seconds, speed)
        }
      let phaseEnd = time + seconds
      while time < phaseEnd - 1e-9 {
        // Epoch output at the start of each epoch interval.
        if stepIndex % stepsPerEpoch == 0 {
          let moving = speed > 0
          if recordsTruth { truth.append((time, latitude, longitude)) }
          // A loss needs fixes on both sides to be bridged: none in the first or last 70 s.
          if outagesWhileStanding || moving, time >= nextOutage, time > outageEnd, time > 10,
            time < totalSeconds - 70
          {
            outageEnd = time + random.uniform(outageLength)
            outageSendsNothing = random.uniform() < 0.5
            nextOutage = outageEnd + random.uniform(0...1) * 2 * meanTimeBetweenOutages
          }
          // Error processes advance per epoch.
          let phi = exp(-epoch / receiver.correlationTime)
          let q = receiver.correlatedSigma * (1 - phi * phi).squareRoot()
          noiseNorth = phi * noiseNorth + q * random.gaussian()
          noiseEast = phi * noiseEast + q * random.gaussian()
          let phiV = exp(-epoch / receiver.speedCorrelationTime)
          let qV = receiver.speedSigma * (1 - phiV * phiV).squareRoot()
          velocityNorthError = phiV * velocityNorthError + qV * random.gaussian()
          velocityEastError = phiV * velocityEastError + qV * random.gaussian()
          if multipath == nil, speed == 0, receiver.multipathPerHour > 0,
            random.uniform() < receiver.multipathPerHour * epoch / 3600
          {
            let size = random.uniform(5...25)
            let direction = random.uniform(0...(2 * .pi))
            multipath = (size * cos(direction), size * sin(direction), time, random.uniform(20...90))
          }
          var extraNorth = 0.0
          var extraEast = 0.0
          if let excursion = multipath {
            let progress = (time - excursion.start) / excursion.length
            if progress >= 1 {
              multipath = nil
            } else {
              let shape = sin(progress * .pi)
              extraNorth = excursion.north * shape
              extraEast = excursion.east * shape
            }
          }
          let inOutage = time < outageEnd
          if !(inOutage && outageSendsNothing) {
            let northError = noiseNorth + receiver.whiteSigma * random.gaussian() + extraNorth
            let eastError = noiseEast + receiver.whiteSigma * random.gaussian() + extraEast
            let (m, n) = Self.radii(latitude)
            let reportedLatitude = latitude + northError / m * 180 / .pi
            let reportedLongitude = longitude + eastError / (n * cos(latitude * .pi / 180)) * 180 / .pi
            let radians = heading * .pi / 180
            let velocityNorth = speed * cos(radians) + velocityNorthError
            let velocityEast = speed * sin(radians) + velocityEastError
            var reportedSpeed = (velocityNorth * velocityNorth + velocityEast * velocityEast).squareRoot()
            var course = atan2(velocityEast, velocityNorth) * 180 / .pi
            if course < 0 { course += 360 }
            if reportedSpeed < receiver.zeroSpeedBelow { reportedSpeed = 0 }
            let sigma =
              (receiver.correlatedSigma * receiver.correlatedSigma + receiver.whiteSigma * receiver.whiteSigma)
              .squareRoot()
            writeEpoch(
              into: &out, second: start.second + time, valid: !inOutage, latitude: reportedLatitude,
              longitude: reportedLongitude, speed: reportedSpeed, course: course, sigma: sigma)
            if !inOutage { fixes += 1 }
          }
        }
        // Motion over one integration step.
        // A stand begins by braking; the cruising speed wanders (Gauss-Markov, 20 s), never
        // below half the cruise (nor 0.3 m/s, for those faster than 0.6 m/s).
        let goal = cruise > 0 ? max(min(0.3, cruise / 2), cruise * (1 + wander)) : 0
        if speed < goal {
          speed = min(goal, speed + style.acceleration * step)
        } else {
          speed = max(goal, speed - style.acceleration * step)
        }
        wander += -wander * step / 20 + style.speedWander * (2 * step / 20).squareRoot() * random.gaussian()
        // Tunnels are straight: no turns while the fix is lost.
        let straight = time < outageEnd
        if speed > 0 {
          if time >= nextTurn, turnLeft == 0, !straight {
            turnLeft = random.uniform(30...110) * (random.uniform() < 0.5 ? -1 : 1)
            nextTurn = time + random.uniform(0...1) * 2 * style.meanTimeBetweenTurns
          }
          if turnLeft != 0, !straight {
            let delta = min(abs(turnLeft), style.turnRate * step) * (turnLeft > 0 ? 1 : -1)
            heading += delta
            turnLeft -= delta
            if abs(turnLeft) < 1e-9 { turnLeft = 0 }
          }
          if !straight { heading += 2 * random.gaussian() * step.squareRoot() }  // gentle curvature
          let (m, _) = Self.radii(latitude)
          let radians = heading * .pi / 180
          let dNorth = speed * step * cos(radians)
          let dEast = speed * step * sin(radians)
          let midLatitude = latitude + dNorth / 2 / m * 180 / .pi
          let (mm, nm) = Self.radii(midLatitude)
          let dLat = dNorth / mm
          let dLon = dEast / (nm * cos(midLatitude * .pi / 180))
          latitude += dLat * 180 / .pi
          longitude += dLon * 180 / .pi
          // The local metric: exact for a step this short.
          let eastMetres = nm * cos(midLatitude * .pi / 180) * dLon
          let length = ((mm * dLat) * (mm * dLat) + eastMetres * eastMetres).squareRoot()
          path += length
          movementDistance += length
          if time < outageEnd { pathInOutages += length }
          if movementStart == nil { movementStart = time }
        } else if let begun = movementStart {
          movements.append((begun, time, movementDistance))
          movementStart = nil
          movementDistance = 0
        }
        time += step
        stepIndex += 1
      }
    }
    if let begun = movementStart { movements.append((begun, time, movementDistance)) }
    return SimulatedTrack(
      nmea: out, pathLength: path, pathInOutages: pathInOutages, movements: movements, fixes: fixes, truth: truth)
  }

  private mutating func writeEpoch(
    into out: inout [UInt8], second: Double, valid: Bool, latitude: Double, longitude: Double, speed: Double,
    course: Double, sigma: Double
  ) {
    let dayOffset = Int(floor(second / 86400))
    let secondOfDay = second - Double(dayOffset) * 86400
    let centiseconds = Int((secondOfDay * 100).rounded())
    let time = String(
      format: "%02d%02d%02d.%02d", centiseconds / 360_000, centiseconds / 6000 % 60, centiseconds / 100 % 60,
      centiseconds % 100)
    let date = String(format: "%02d%02d%02d", start.date.day + dayOffset, start.date.month, start.date.year % 100)
    let lat = Self.angle(latitude, degreeDigits: 2, decimals: receiver.minuteDecimals, positive: "N", negative: "S")
    let lon = Self.angle(longitude, degreeDigits: 3, decimals: receiver.minuteDecimals, positive: "E", negative: "W")
    let hdop = max(0.6, sigma / 2.5)
    if valid {
      Self.sentence("GPGGA,\(time),\(lat),\(lon),1,09,\(String(format: "%.1f", hdop)),521.3,M,47.2,M,,", into: &out)
    } else {
      Self.sentence("GPGGA,\(time),,,,,0,00,99.9,,,,,,", into: &out)
    }
    if receiver.sendsStatistics, valid {
      // `sigma` is per axis: the latitude and longitude sigmas, and the error ellipse's axes.
      Self.sentence(
        "GPGST,\(time),\(String(format: "%.1f", sigma * 1.5)),\(String(format: "%.1f,%.1f", sigma, sigma)),0.0,"
          + String(format: "%.1f,%.1f,%.1f", sigma, sigma, sigma * 1.6), into: &out)
    }
    epochIndex += 1
    if receiver.sendsSpeed, (epochIndex - 1) % receiver.speedEvery == 0 {
      if valid {
        let knots = String(format: "%.\(receiver.knotDecimals)f", speed / 0.514_444)
        Self.sentence(
          "GPRMC,\(time),A,\(lat),\(lon),\(knots),\(String(format: "%.1f", course)),\(date),,,A", into: &out)
      } else {
        Self.sentence("GPRMC,\(time),V,,,,,,,\(date),,,N", into: &out)
      }
    }
  }

  private static func angle(_ value: Double, degreeDigits: Int, decimals: Int, positive: String, negative: String)
    -> String
  {
    let scale = pow(10.0, Double(decimals))
    let totalMinutes = (abs(value) * 60 * scale).rounded() / scale
    let degrees = Int(totalMinutes / 60)
    let minutes = totalMinutes - Double(degrees) * 60
    let width = decimals == 0 ? 2 : 3 + decimals
    return String(
      format: "%0\(degreeDigits)d%0\(width).\(decimals)f,%@", degrees, minutes, value < 0 ? negative : positive)
  }

  private static func sentence(_ body: String, into out: inout [UInt8]) {
    let bytes = Array(body.utf8)
    let checksum = bytes.reduce(UInt8(0), ^)
    out.append(UInt8(ascii: "$"))
    out.append(contentsOf: bytes)
    out.append(contentsOf: Array(String(format: "*%02X\r\n", checksum).utf8))
  }
}

extension Array where Element == MovementPhase {
  /// Seconds in all phases.
  public var totalSeconds: Double {
    reduce(0) { total, phase in
      switch phase {
      case .stand(let seconds), .move(let seconds, _): total + seconds
      }
    }
  }
}

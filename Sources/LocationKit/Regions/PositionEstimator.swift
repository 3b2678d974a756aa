import Geodesy
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// Where the receiver is, for deciding whether it is inside a region: a robust estimate
/// from its recent fixes, with an uncertainty learned from the receiver's own scatter.
///
/// With Doppler velocities (a measured speed and course in every fix of the window), each
/// fix of the last ``window`` seconds is carried forward to now by the displacement the
/// velocities integrate to since it, and the estimate is the median of those carried
/// fixes, axis by axis. A real movement moves every carried fix alike, so the estimate
/// follows it without delay; a multipath excursion moves positions that the velocities do
/// not follow, so it shifts the median only once it has lasted half the window. Without
/// velocities, the estimate is the median of the fixes of the last ``shortWindow`` seconds
/// (at least three): half of that is its delay, and an excursion is followed.
///
/// The uncertainty (one sigma, along any direction) is the larger of what the fix states
/// (its GST sigmas, or its horizontal accuracy over √2) and what the receiver shows: the
/// spread (see ``scale(_:)``) of the carried fixes about the estimate, or without
/// velocities of the fixes' second differences over √6, which hold the white part of the
/// noise whatever the movement. There is no estimate before ``minimumSamples`` fixes.
struct PositionEstimator: Sendable {
  /// Seconds of fixes carried forward (with velocities).
  static let window = 120.0
  /// Seconds of fixes the median takes without velocities.
  static let shortWindow = 5.0
  /// The most fixes kept: at least ``window`` / this many seconds apart.
  static let capacity = 120
  /// Fixes (a second apart) needed before there is an estimate: the median's and the
  /// spread's least.
  static let minimumSamples = 5

  /// The estimate: where, how sure (metres, one sigma), and from how many fixes.
  struct Estimate: Sendable, Equatable {
    var latitude: Double
    var longitude: Double
    var sigma: Double
    var usesVelocities: Bool
    var samples: Int
  }

  private struct Sample {
    var time: Double
    var east: Double
    var north: Double
    /// The integrated velocities up to this fix.
    var carriedEast: Double
    var carriedNorth: Double
  }

  private var projection: Plane?
  private var samples: [Sample] = []
  private var carried = (east: 0.0, north: 0.0)
  private var last: (location: Location, time: Double, velocity: (east: Double, north: Double)?)?
  /// When the velocities last failed (a fix without one): the window uses them only when
  /// every fix in it has one.
  private var velocitiesMissingAt = -Double.infinity
  private var time = 0.0
  private var intervals = RecentIntervals()
  private var intervalCount = 0
  private var lastEstimate: Estimate?
  /// The most decimals of a minute the receiver's coordinates have shown.
  private var decimals = 0
  private var east: [Double] = []
  private var north: [Double] = []

  private mutating func noteInterval(_ interval: Double) {
    intervals.append(interval)
    intervalCount += 1
  }

  /// Forgets every fix (a fix loss: what comes after is not carried across it).
  mutating func reset() {
    samples = []
    lastEstimate = nil
    decimals = 0
    last = nil
    projection = nil
    carried = (0, 0)
    velocitiesMissingAt = -.infinity
  }

  /// Adds a fix with a time; returns the estimate now, or `nil` while there is no
  /// uncertainty to go by (no stated accuracy and too few fixes).
  mutating func add(_ location: Location) -> Estimate? {
    var velocity = Self.velocity(of: location)
    var elapsed = 0.0
    if let last {
      elapsed = TrackClock.elapsed(from: last.location, to: location)
      // The same epoch again (a repeated cycle, a duplicated datagram): nothing new.
      if elapsed == 0 { return lastEstimate }
      // Time going back, or a gap of more than three of the receiver's cycles: nothing
      // before it is carried across.
      // (The median needs three intervals: before, any gap is carried across.)
      if elapsed < 0 || (intervalCount >= 3 && intervals.median.map({ elapsed > 3 * $0 }) == true) {
        let kept = (intervals, intervalCount)
        reset()
        (intervals, intervalCount) = kept
        if elapsed > 0 { noteInterval(elapsed) }
        return add(location)
      }
      noteInterval(elapsed)
      time += elapsed
    }

    if projection == nil { projection = Plane(latitude: location.latitude, longitude: location.longitude) }
    var here = projection!.project(latitude: location.latitude, longitude: location.longitude)
    // Far from the plane's centre its scale errs: a new plane about here, with the fixes
    // kept moved onto it (the displacements carried are differences, and stay).
    if abs(here.east) > projection!.reach || abs(here.north) > projection!.reach {
      let old = projection!
      let new = Plane(latitude: location.latitude, longitude: location.longitude)
      for index in samples.indices {
        let place = old.unproject(east: samples[index].east, north: samples[index].north)
        (samples[index].east, samples[index].north) = new.project(latitude: place.latitude, longitude: place.longitude)
      }
      projection = new
      here = new.project(latitude: location.latitude, longitude: location.longitude)
    }
    // The velocity is along the fix's own east and north, which turn away from the plane's
    // as the meridians converge (0.3° 13 km east of the centre at 70° N): turned into the
    // plane's, so that what it integrates to is a displacement in the plane.
    if let measured = velocity {
      let turn = projection!.convergence(latitude: location.latitude, longitude: location.longitude, at: here)
      velocity = (
        measured.east * cos(turn) + measured.north * sin(turn), -measured.east * sin(turn) + measured.north * cos(turn)
      )
    }
    if let before = last?.velocity, let velocity, elapsed > 0 {
      carried.east += (before.east + velocity.east) / 2 * elapsed
      carried.north += (before.north + velocity.north) / 2 * elapsed
    }
    if velocity == nil { velocitiesMissingAt = time }
    last = (location, time, velocity)

    let sample = Sample(
      time: time, east: here.east, north: here.north, carriedEast: carried.east, carriedNorth: carried.north)
    while let first = samples.first, first.time < time - Self.window { samples.removeFirst() }
    // The newest fix is always the last sample. The one it follows stays once it is a
    // spacing after the one kept before it; until then each new fix replaces it (a 10 Hz
    // receiver keeps a fix a second).
    if samples.count >= 2,
      samples[samples.count - 1].time - samples[samples.count - 2].time < Self.window / Double(Self.capacity)
    {
      samples[samples.count - 1] = sample
    } else {
      samples.append(sample)
    }

    // A fix or two say little: a receiver's stated accuracy can be absurd (the corpus has
    // one that claims 0.1 m and one that claims nothing), and the spread needs fixes.
    guard samples.count >= Self.minimumSamples else {
      lastEstimate = nil
      return nil
    }
    let usesVelocities = velocity != nil && velocitiesMissingAt < (samples.first?.time ?? time)
    var spread: Double?
    // Two buffers kept from fix to fix: the statistics run for every fix, without
    // allocating.
    east.removeAll(keepingCapacity: true)
    north.removeAll(keepingCapacity: true)
    if usesVelocities {
      for sample in samples {
        east.append(sample.east - sample.carriedEast)
        north.append(sample.north - sample.carriedNorth)
      }
      let middle = (Self.median(&east), Self.median(&north))
      here = (carried.east + middle.0, carried.north + middle.1)
      for index in east.indices {
        east[index] = abs(east[index] - middle.0)
        north[index] = abs(north[index] - middle.1)
      }
      spread = max(Self.scale(&east), Self.scale(&north))
    } else {
      var start = samples.count
      while start > 0, samples[start - 1].time >= time - Self.shortWindow { start -= 1 }
      for sample in samples[min(start, max(0, samples.count - 3))...] {
        east.append(sample.east)
        north.append(sample.north)
      }
      here = (Self.median(&east), Self.median(&north))
      east.removeAll(keepingCapacity: true)
      north.removeAll(keepingCapacity: true)
      for index in 1..<(samples.count - 1) {
        east.append(abs(samples[index + 1].east - 2 * samples[index].east + samples[index - 1].east))
        north.append(abs(samples[index + 1].north - 2 * samples[index].north + samples[index - 1].north))
      }
      spread = max(Self.scale(&east), Self.scale(&north)) / 6.0.squareRoot()
    }
    // Coordinates rounded to cells carry their rounding whatever else is said: uniform
    // over a cell, a sigma of the cell over √12 along each axis. The cell is the finest the
    // receiver has written so far, and at most 0.01 minute (the coarsest receivers of the
    // corpus): a fix that happens to fall on whole minutes says nothing of the receiver.
    decimals = max(decimals, 2, Self.minuteDecimals(location.latitude), Self.minuteDecimals(location.longitude))
    let rounding =
      CoordinateResolution.horizontalBound(decimals: decimals, latitude: location.latitude) / 2.0.squareRoot()
    let stated = Self.statedSigma(of: location)
    guard let measured = stated.map({ max($0, spread ?? 0) }) ?? spread else { return nil }
    let sigma = max(measured, rounding)
    let (latitude, longitude) = projection!.unproject(east: here.east, north: here.north)
    lastEstimate = Estimate(
      latitude: latitude, longitude: longitude, sigma: sigma, usesVelocities: usesVelocities, samples: samples.count)
    return lastEstimate
  }

  /// How many decimals of a minute `degrees` was written with (up to 8): the fewest that
  /// give it back to a millionth of a step.
  static func minuteDecimals(_ degrees: Double) -> Int {
    let minutes = abs(degrees) * 60
    var scale = 1.0
    for places in 0..<8 {
      let scaled = minutes * scale
      if abs(scaled - scaled.rounded()) < 1e-6 * max(1, scaled / 1e6) { return places }
      scale *= 10
    }
    return 8
  }

  /// The fix's own one-sigma error along any direction: the larger of its GST sigmas, or
  /// its horizontal accuracy (the root of the sum of both axes' squares) over √2.
  static func statedSigma(of location: Location) -> Double? {
    if let north = location.latitudeAccuracy, let east = location.longitudeAccuracy { return max(north, east) }
    return location.horizontalAccuracy.map { $0 / 2.0.squareRoot() }
  }

  /// The fix's velocity east and north, m/s, when the receiver measured it: a speed with a
  /// course, or a speed of 0.
  static func velocity(of location: Location) -> (east: Double, north: Double)? {
    guard let speed = location.measuredSpeed, speed.isFinite else { return nil }
    if speed == 0 { return (0, 0) }
    guard let course = location.course, course.isFinite else { return nil }
    return DopplerMotion.velocity(speed: speed, course: course)
  }

  /// The standard deviation of a Gaussian whose absolute deviations are `deviations`
  /// (reordered): 1.4826 × their median, which holds against excursions; when that is 0
  /// (most fixes the same: coordinates rounded to cells of 18 m that the fixes flip
  /// between, as a timing receiver of the corpus sends), 1.2533 × their mean.
  static func scale(_ deviations: inout [Double]) -> Double {
    let robust = 1.4826 * median(&deviations)
    guard robust == 0 else { return robust }
    return 1.2533 * deviations.reduce(0, +) / Double(max(1, deviations.count))
  }

  /// The median of `values` (reordered): ``Median/of(_:)``.
  static func median(_ values: inout [Double]) -> Double { Median.of(&values) }

}

/// The plane the estimator works in: metres east and north of a centre on the plane
/// tangent to the WGS84 ellipsoid there (a rotation of Earth-centred coordinates, so
/// without a seam at the antimeridian or a singularity at a pole). A distance of d in it
/// errs by about (d/R)²/2: 5 ppm at 20 km, its reach, 0.2 ppm at the 4 km a car covers in
/// the window. A few trigonometric calls each way, for every fix.
private struct Plane: Sendable {
  let latitude: Double
  let longitude: Double
  private let origin: (x: Double, y: Double, z: Double)
  private let sines: (latitude: Double, longitude: Double)
  private let cosines: (latitude: Double, longitude: Double)

  private static let a = Ellipsoid.wgs84.semiMajorAxis
  private static let f = Ellipsoid.wgs84.flattening
  private static let e2 = f * (2 - f)
  private static let b = a * (1 - f)

  /// How far from the centre, east or north, the plane is used.
  let reach = 20_000.0

  init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
    origin = Self.cartesian(latitude: latitude, longitude: longitude)
    sines = (sin(latitude * .pi / 180), sin(longitude * .pi / 180))
    cosines = (cos(latitude * .pi / 180), cos(longitude * .pi / 180))
  }

  /// Earth-centred coordinates of a point on the ellipsoid, metres.
  private static func cartesian(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
    let phi = latitude * .pi / 180
    let lambda = longitude * .pi / 180
    let n = a / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
    return (n * cos(phi) * cos(lambda), n * cos(phi) * sin(lambda), n * (1 - e2) * sin(phi))
  }

  func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
    let point = Self.cartesian(latitude: latitude, longitude: longitude)
    let (dx, dy, dz) = (point.x - origin.x, point.y - origin.y, point.z - origin.z)
    let east = -sines.longitude * dx + cosines.longitude * dy
    let north =
      -sines.latitude * cosines.longitude * dx - sines.latitude * sines.longitude * dy + cosines.latitude * dz
    return (east, north)
  }

  /// The angle, radians clockwise, from the plane's north to the north of the point at
  /// (`latitude`, `longitude`), which the plane shows at `point`: from the plane's view of
  /// a step of about a metre along the point's meridian (southwards at the North Pole).
  func convergence(latitude: Double, longitude: Double, at point: (east: Double, north: Double)) -> Double {
    let step = latitude < 89.99 ? 1e-5 : -1e-5
    let moved = project(latitude: latitude + step, longitude: longitude)
    let sign = step > 0 ? 1.0 : -1.0
    return atan2(sign * (moved.east - point.east), sign * (moved.north - point.north))
  }

  /// The point of the ellipsoid below (`east`, `north`) of the plane: down from the plane
  /// by the ellipsoid's curvature, then to latitude and longitude by Bowring's formula
  /// (sub-millimetre near the surface).
  func unproject(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
    let up = -(east * east + north * north) / (2 * Self.a)
    let x =
      origin.x - sines.longitude * east - sines.latitude * cosines.longitude * north
      + cosines.latitude * cosines.longitude * up
    let y =
      origin.y + cosines.longitude * east - sines.latitude * sines.longitude * north
      + cosines.latitude * sines.longitude * up
    let z = origin.z + cosines.latitude * north + sines.latitude * up
    let p = (x * x + y * y).squareRoot()
    let theta = atan2(z * Self.a, p * Self.b)
    let second = Self.e2 / (1 - Self.e2)
    let phi = atan2(
      z + second * Self.b * pow(sin(theta), 3), p - Self.e2 * Self.a * pow(cos(theta), 3))
    return (phi * 180 / .pi, atan2(y, x) * 180 / .pi)
  }
}

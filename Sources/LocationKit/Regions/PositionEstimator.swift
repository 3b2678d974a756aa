import Geodesy

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
/// robust spread (1.4826 × the median absolute deviation) of the carried fixes about the
/// estimate, or without velocities of the fixes' second differences over √6, which hold
/// the white part of the noise whatever the movement.
struct PositionEstimator: Sendable {
  /// Seconds of fixes carried forward (with velocities).
  static let window = 120.0
  /// Seconds of fixes the median takes without velocities.
  static let shortWindow = 5.0
  /// The most fixes kept: at least ``window`` / this many seconds apart.
  static let capacity = 120
  /// Fixes needed before the receiver's own spread counts.
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

  private var projection: AzimuthalProjection?
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
    last = nil
    projection = nil
    carried = (0, 0)
    velocitiesMissingAt = -.infinity
  }

  /// Adds a fix with a time; returns the estimate now, or `nil` while there is no
  /// uncertainty to go by (no stated accuracy and too few fixes).
  mutating func add(_ location: Location) -> Estimate? {
    let velocity = Self.velocity(of: location)
    if let last {
      let elapsed = TrackClock.elapsed(from: last.location, to: location)
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
      if let before = last.velocity, let velocity {
        carried.east += (before.east + velocity.east) / 2 * elapsed
        carried.north += (before.north + velocity.north) / 2 * elapsed
      }
    }
    if velocity == nil { velocitiesMissingAt = time }
    last = (location, time, velocity)

    if projection == nil {
      projection = AzimuthalProjection(latitude: location.latitude, longitude: location.longitude)
    }
    var here = projection!.project(latitude: location.latitude, longitude: location.longitude)
    // Far from the projection's centre its scale errs across the line of sight (by 0.5 ppm
    // at 20 km): start again about here.
    if abs(here.east) > 20_000 || abs(here.north) > 20_000 {
      reset()
      return add(location)
    }
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
      if samples.count >= Self.minimumSamples {
        for index in east.indices {
          east[index] = abs(east[index] - middle.0)
          north[index] = abs(north[index] - middle.1)
        }
        spread = 1.4826 * max(Self.median(&east), Self.median(&north))
      }
    } else {
      var start = samples.count
      while start > 0, samples[start - 1].time >= time - Self.shortWindow { start -= 1 }
      for sample in samples[min(start, max(0, samples.count - 3))...] {
        east.append(sample.east)
        north.append(sample.north)
      }
      here = (Self.median(&east), Self.median(&north))
      if samples.count >= Self.minimumSamples {
        east.removeAll(keepingCapacity: true)
        north.removeAll(keepingCapacity: true)
        for index in 1..<(samples.count - 1) {
          east.append(abs(samples[index + 1].east - 2 * samples[index].east + samples[index - 1].east))
          north.append(abs(samples[index + 1].north - 2 * samples[index].north + samples[index - 1].north))
        }
        spread = 1.4826 * max(Self.median(&east), Self.median(&north)) / 6.0.squareRoot()
      }
    }
    let stated = Self.statedSigma(of: location)
    guard let sigma = stated.map({ max($0, spread ?? 0) }) ?? spread else { return nil }
    let (latitude, longitude) = Self.unproject(here, from: projection!)
    lastEstimate = Estimate(
      latitude: latitude, longitude: longitude, sigma: sigma, usesVelocities: usesVelocities, samples: samples.count)
    return lastEstimate
  }

  /// The place `point` metres east and north of the projection's centre stands for.
  static func unproject(_ point: (east: Double, north: Double), from projection: AzimuthalProjection) -> (
    latitude: Double, longitude: Double
  ) {
    let distance = (point.east * point.east + point.north * point.north).squareRoot()
    guard distance > 0 else { return (projection.latitude, projection.longitude) }
    let end = Geodesic.wgs84.direct(
      latitude: projection.latitude, longitude: projection.longitude,
      azimuth: atan2(point.east, point.north) * 180 / .pi, distance: distance)
    return (end.latitude, end.longitude)
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
    return (speed * sin(course * .pi / 180), speed * cos(course * .pi / 180))
  }

  /// The median of `values` (reordered), the mean of the middle two for an even count: by
  /// selection (Hoare's), in time linear in the count.
  static func median(_ values: inout [Double]) -> Double {
    let count = values.count
    precondition(count > 0)
    return values.withUnsafeMutableBufferPointer { buffer in
      let upper = select(buffer, count / 2)
      guard count % 2 == 0 else { return upper }
      // The lower middle is the largest of the values left of the upper one.
      var lower = buffer[0]
      for index in 1..<(count / 2) where buffer[index] > lower { lower = buffer[index] }
      return (lower + upper) / 2
    }
  }

  /// The value of rank `rank` (from 0) of `buffer`, which is reordered so that every
  /// value before that rank is at most it.
  private static func select(_ buffer: UnsafeMutableBufferPointer<Double>, _ rank: Int) -> Double {
    var low = 0
    var high = buffer.count - 1
    while low < high {
      let pivot = buffer[(low + high) / 2]
      var i = low
      var j = high
      while i <= j {
        while buffer[i] < pivot { i += 1 }
        while buffer[j] > pivot { j -= 1 }
        if i <= j {
          buffer.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if rank <= j {
        high = j
      } else if rank >= i {
        low = i
      } else {
        break
      }
    }
    return buffer[rank]
  }

}

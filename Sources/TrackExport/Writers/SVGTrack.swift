import LocationKit
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// The track as the SVG map needs it, in bounded memory: at most ``capacity`` points.
///
/// A fix closer than `tolerance` metres to the last point kept is merged into it (its
/// speed joins the point's mean), so a standing receiver's hundreds of fixes become one
/// point. When the points reach the capacity, the tolerance doubles and the points kept
/// so far are merged again: on a 1000-pixel-wide map nothing finer than a pixel shows, and
/// 20 000 points leave the tolerance well below a pixel for any track that fits on the
/// map. A fix that starts a segment (after a fix gap) is kept unless it is within the
/// tolerance of the point before, where the gap would not show anyway.
public struct SVGTrack {
  /// One point of the drawn line.
  public struct Point {
    var latitude: Double
    var longitude: Double
    /// The sum and count of the speeds (metres per second) of the fixes merged into the
    /// point, for its mean speed; no count when none of them had a speed.
    var speedSum: Double
    var speedCount: Int
    /// The line does not join this point to the one before: a fix gap.
    var startsSegment: Bool

    /// The mean speed of the fixes the point stands for.
    var speed: Double? { speedCount > 0 ? speedSum / Double(speedCount) : nil }

    /// Takes another point's fixes into this one.
    mutating func merge(_ other: Point) {
      speedSum += other.speedSum
      speedCount += other.speedCount
    }
  }

  /// The most points kept.
  public let capacity: Int
  /// The points kept.
  private(set) var points: [Point] = []
  /// Fixes closer than this many metres to the last point kept are merged into it.
  private(set) var tolerance = 0.25
  /// The first and last fixes, for the markers and the title.
  private(set) var first: ExportFix?
  private(set) var last: ExportFix?
  private(set) var fixes = 0
  private(set) var segments = 0

  /// An empty track that keeps at most `capacity` points (at least 16).
  public init(capacity: Int = 20_000) {
    self.capacity = max(capacity, 16)
    points.reserveCapacity(self.capacity)
  }

  /// Adds the next fix.
  public mutating func add(_ fix: ExportFix) {
    let location = fix.location
    var speed = location.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    if speed == nil, !fix.startsSegment, let last {
      // No Doppler speed from the receiver: the speed from the step since the last fix.
      let seconds = fix.seconds - last.seconds
      if seconds > 0 { speed = location.distance(from: last.location) / seconds }
    }
    let point = Point(
      latitude: location.latitude, longitude: location.longitude, speedSum: speed ?? 0,
      speedCount: speed == nil ? 0 : 1, startsSegment: fix.startsSegment || points.isEmpty)
    if first == nil { first = fix }
    last = fix
    fixes += 1
    if fix.startsSegment { segments += 1 }
    if let previous = points.last, Self.metres(previous, point) < tolerance {
      points[points.count - 1].merge(point)
      return
    }
    points.append(point)
    while points.count >= capacity {
      tolerance *= 2
      points = Self.merged(points, tolerance: tolerance)
    }
  }

  /// `points` with every point closer than `tolerance` metres to the point kept before it
  /// merged into that one; the first point is always kept.
  public static func merged(_ points: [Point], tolerance: Double) -> [Point] {
    var kept: [Point] = []
    kept.reserveCapacity(points.count)
    for point in points {
      if let previous = kept.last, metres(previous, point) < tolerance {
        kept[kept.count - 1].merge(point)
      } else {
        kept.append(point)
      }
    }
    return kept
  }

  /// An approximate distance in metres, good to a percent over the few metres it is asked
  /// for (a merging threshold needs no geodesic).
  public static func metres(_ a: Point, _ b: Point) -> Double {
    let metresPerDegree = 111_195.0
    let cosine = cos((a.latitude + b.latitude) / 2 * .pi / 180)
    var longitudeDifference = b.longitude - a.longitude
    if longitudeDifference > 180 { longitudeDifference -= 360 }
    if longitudeDifference < -180 { longitudeDifference += 360 }
    let dx = longitudeDifference * cosine * metresPerDegree
    let dy = (b.latitude - a.latitude) * metresPerDegree
    return (dx * dx + dy * dy).squareRoot()
  }
}

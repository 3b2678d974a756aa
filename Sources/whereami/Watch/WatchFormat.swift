import LocationKit
import NMEA
import TrackExport

/// How `watch` writes coordinates (`--coords`).
enum CoordinateStyle: String, CaseIterable, Sendable {
  /// `52.5140972° N`
  case decimal
  /// Degrees and decimal minutes: `52°30.85393' N`
  case dm
  /// Degrees, minutes and decimal seconds: `52°30'51.236" N`
  case dms
}

/// The units `watch` shows (`--units`), as gpsd's cgps offers them.
enum UnitSystem: String, CaseIterable, Sendable {
  /// Metres, kilometres, metres per second and kilometres per hour.
  case metric
  /// Feet, miles and miles per hour.
  case imperial
  /// Feet, nautical miles and knots.
  case nautical
}

/// The texts of the watch screen's values. Every function gives `-` for what the receiver
/// did not say, so that unknown never looks like zero.
enum WatchFormat {
  static let unknown = "-"
  private static let metresPerFoot = 0.3048
  private static let metresPerMile = 1609.344
  private static let metresPerNauticalMile = 1852.0

  /// Latitude with its hemisphere, in `style`; precise to about 1 cm in every style.
  static func latitude(_ degrees: Double, _ style: CoordinateStyle) -> String {
    angle(degrees, style) + (degrees < 0 ? " S" : " N")
  }

  /// Longitude with its hemisphere, in `style`.
  static func longitude(_ degrees: Double, _ style: CoordinateStyle) -> String {
    angle(degrees, style) + (degrees < 0 ? " W" : " E")
  }

  private static func angle(_ degrees: Double, _ style: CoordinateStyle) -> String {
    let magnitude = abs(degrees)
    switch style {
    case .decimal:
      return fixed(magnitude, 7) + "°"
    case .dm:
      // Whole hundred-thousandths of a minute, so that rounding carries into the degrees
      // (59.999996' becomes the next degree, never 60.00000').
      let units = Int64((magnitude * 60 * 100_000).rounded())
      let (whole, minutes) = units.quotientAndRemainder(dividingBy: 60 * 100_000)
      return "\(whole)°\(padded(Int(minutes / 100_000), 2)).\(padded(Int(minutes % 100_000), 5))'"
    case .dms:
      let units = Int64((magnitude * 3600 * 1000).rounded())
      let (whole, rest) = units.quotientAndRemainder(dividingBy: 3600 * 1000)
      let (minutes, milliseconds) = rest.quotientAndRemainder(dividingBy: 60 * 1000)
      return
        "\(whole)°\(padded(Int(minutes), 2))'\(padded(Int(milliseconds / 1000), 2)).\(padded(Int(milliseconds % 1000), 3))\""
    }
  }

  /// The 16-point compass name of a course: `N`, `NNE`, ..., `NNW`.
  static func compassPoint(_ degrees: Double) -> String {
    let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
    let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    return points[Int((normalized / 22.5).rounded()) % 16]
  }

  /// A course: `93.8° E`.
  static func course(_ degrees: Double?) -> String {
    guard let degrees, degrees.isFinite else { return unknown }
    return fixed(degrees, 1) + "° " + compassPoint(degrees)
  }

  /// A heading: `274.1°T 270.5°M ±0.6°`, each part where known.
  static func heading(_ heading: Heading) -> String {
    var parts: [String] = []
    if let value = heading.trueHeading { parts.append(fixed(value, 1) + "°T") }
    if let value = heading.magneticHeading { parts.append(fixed(value, 1) + "°M") }
    if let value = heading.accuracy { parts.append("±" + fixed(value, 1) + "°") }
    return parts.isEmpty ? unknown : parts.joined(separator: " ")
  }

  /// Heading and course side by side, with the angle from course to heading when both are
  /// known (positive: the bow points to starboard of the track): `274.1° crs 268.0° Δ+6.1°`.
  /// The row's label says it is the heading; the longest, `359.9° crs 359.9° Δ-179.9°`,
  /// fits the panel's 28 columns of values.
  static func compass(_ heading: Double?, course: Double?) -> String {
    let headingText = heading.map { fixed($0, 1) + "°" } ?? unknown
    let courseText = course.map { fixed($0, 1) + "°" } ?? unknown
    var text = "\(headingText) crs \(courseText)"
    if let heading, let course {
      var delta = (heading - course).truncatingRemainder(dividingBy: 360)
      if delta > 180 { delta -= 360 }
      if delta <= -180 { delta += 360 }
      text += " Δ" + (delta >= 0 ? "+" : "") + fixed(delta, 1) + "°"
    }
    return text
  }

  /// A speed over ground: `1.40 m/s  5.0 km/h`, `3.1 mph`, `2.72 kn`.
  static func speed(_ metresPerSecond: Double?, _ units: UnitSystem) -> String {
    guard let speed = metresPerSecond, speed.isFinite else { return unknown }
    switch units {
    case .metric: return fixed(speed, 2) + " m/s  " + fixed(speed * 3.6, 1) + " km/h"
    case .imperial: return fixed(speed * 3600 / metresPerMile, 1) + " mph"
    case .nautical: return fixed(speed * 3600 / metresPerNauticalMile, 2) + " kn"
    }
  }

  /// A vertical speed with its sign: `+0.12 m/s`, `-25 ft/min`.
  static func climb(_ metresPerSecond: Double?, _ units: UnitSystem) -> String {
    guard let climb = metresPerSecond, climb.isFinite else { return unknown }
    let text =
      units == .metric ? fixed(climb, 2) + " m/s" : fixed(climb * 60 / metresPerFoot, 0) + " ft/min"
    return text.hasPrefix("-") ? text : "+" + text
  }

  /// A height or an accuracy: metres, or feet outside metric.
  static func length(_ metres: Double?, _ units: UnitSystem) -> String {
    guard let metres, metres.isFinite else { return unknown }
    return units == .metric ? fixed(metres, 1) + " m" : fixed(metres / metresPerFoot, 1) + " ft"
  }

  /// A distance over ground: `137.2 m` or `1.624 km`; feet then miles; nautical miles.
  static func distance(_ metres: Double, _ units: UnitSystem) -> String {
    switch units {
    case .metric:
      return metres < 1000 ? fixed(metres, 1) + " m" : fixed(metres / 1000, 3) + " km"
    case .imperial:
      let miles = metres / metresPerMile
      return miles < 0.1 ? fixed(metres / metresPerFoot, 0) + " ft" : fixed(miles, 3) + " mi"
    case .nautical:
      return fixed(metres / metresPerNauticalMile, 3) + " NM"
    }
  }

  /// An elapsed time: `0.4 s`, `12 s`, `3 min 05 s`, `2 h 07 min`.
  static func age(_ seconds: Double) -> String {
    let seconds = max(0, seconds)
    if seconds < 10 { return fixed(seconds, 1) + " s" }
    let total = Int(seconds)
    if total < 60 { return "\(total) s" }
    if total < 3600 { return "\(total / 60) min \(padded(total % 60, 2)) s" }
    return "\(total / 3600) h \(padded(total / 60 % 60, 2)) min"
  }

  /// `2025-06-14 07:43:52.0`, to the tenth of a second.
  static func dateTime(_ timestamp: Timestamp) -> String {
    let date = timestamp.date
    return "\(date) " + time(timestamp.timeOfDay)
  }

  /// `07:43:52.0`
  static func time(_ time: TimeOfDay) -> String {
    let tenths = time.microseconds / 100_000
    let (seconds, tenth) = tenths.quotientAndRemainder(dividingBy: 10)
    return
      "\(padded(Int(seconds / 3600), 2)):\(padded(Int(seconds / 60 % 60), 2)):\(padded(Int(seconds % 60), 2)).\(tenth)"
  }

  /// Zero-padded decimal.
  static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}

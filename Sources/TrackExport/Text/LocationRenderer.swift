import Geodesy
import LocationKit
import NMEA

/// Turns locations into output lines, written straight into an output buffer.
public enum LocationRenderer {
  /// One human-readable line: time, mode, coordinates, accuracies, altitude, motion and
  /// distance travelled (jitter-proof) with its 1-sigma uncertainty (`±`); `-` marks
  /// what the receiver did not say.
  /// With a heading (or a true heading in the fix), the line also has ` heading 274.1°T`,
  /// then the magnetic heading (`270.5°M`) and its 1-sigma accuracy (`±0.6°`) where known.
  public static func text(
    _ location: Location, _ odometer: TrackOdometer, heading: Heading? = nil, into line: inout ByteBuffer
  ) {
    text(
      location, distance: odometer.distance, distanceError: odometer.distanceError, heading: heading, into: &line)
  }

  /// The same line, from the odometer's distance and its 1-sigma uncertainty, metres,
  /// taken already.
  public static func text(
    _ location: Location, distance: Double, distanceError: Double, heading: Heading? = nil,
    into line: inout ByteBuffer
  ) {
    func value(_ number: Double?, _ decimals: Int, _ unit: StaticString, into line: inout ByteBuffer) {
      if let number {
        line.append(number, decimals: decimals)
        line.append(unit)
      } else {
        line.append(UInt8(ascii: "-"))
      }
    }
    if let time = location.timestamp {
      line.append(time, at: location.timeOfDay)
    } else if location.hasTime {
      line.append(location.timeOfDay)
    } else {
      line.append(UInt8(ascii: "-"))
    }
    line.append(location.mode == .threeD ? " 3D" : " 2D")
    line.append(" lat ")
    line.append(location.latitude, decimals: 9)
    line.append(" lon ")
    line.append(location.longitude, decimals: 9)
    line.append(" acc ")
    value(location.horizontalAccuracy, 1, " m", into: &line)
    line.append(" alt ")
    value(location.altitude, 1, " m", into: &line)
    line.append(" vacc ")
    value(location.verticalAccuracy, 1, " m", into: &line)
    // `~`: derived from positions, not measured by the receiver.
    let derived = location.speedSource == .positions
    line.append(derived && location.speed != nil ? " speed ~" : " speed ")
    value(location.speed, 2, " m/s", into: &line)
    line.append(derived && location.course != nil ? " course ~" : " course ")
    value(location.course, 1, "°", into: &line)
    line.append(" distance ")
    line.append(distance, decimals: 1)
    line.append(" m ±")
    line.append(distanceError, decimals: 1)
    line.append(" m")
    if let heading, heading.direction != nil {
      line.append(" heading")
      headingValues(heading, into: &line)
    } else if let trueHeading = location.heading {
      line.append(" heading ")
      line.append(trueHeading, decimals: 1)
      line.append("°T")
    }
    line.append(UInt8(ascii: "\n"))
  }

  /// ` 274.1°T 270.5°M ±0.6°`, each part where known.
  private static func headingValues(_ heading: Heading, into line: inout ByteBuffer) {
    if let trueHeading = heading.trueHeading {
      line.append(UInt8(ascii: " "))
      line.append(trueHeading, decimals: 1)
      line.append("°T")
    }
    if let magnetic = heading.magneticHeading {
      line.append(UInt8(ascii: " "))
      line.append(magnetic, decimals: 1)
      line.append("°M")
    }
    if let accuracy = heading.accuracy {
      line.append(" ±")
      line.append(accuracy, decimals: 1)
      line.append("°")
    }
  }

  /// One line per heading report (`print --heading`): time, headings, accuracy, attitude,
  /// rate of turn and the sentence; `-` for an unknown time.
  public static func headingText(_ heading: Heading, into line: inout ByteBuffer) {
    if let time = heading.timestamp {
      line.append(time)
    } else if let time = heading.timeOfDay {
      line.append(time)
    } else {
      line.append(UInt8(ascii: "-"))
    }
    line.append(" heading")
    if heading.direction == nil { line.append(" -") }
    headingValues(heading, into: &line)
    if let attitude = heading.attitude {
      if let roll = attitude.roll {
        line.append(" roll ")
        line.append(roll, decimals: 2)
        line.append("°")
      }
      if let pitch = attitude.pitch {
        line.append(" pitch ")
        line.append(pitch, decimals: 2)
        line.append("°")
      }
    }
    if let rate = heading.rateOfTurn {
      line.append(" rot ")
      line.append(rate, decimals: 1)
      line.append("°/min")
    }
    line.append(" (")
    line.append(string: heading.source)
    if let source = heading.declinationSource, heading.trueHeading != nil, heading.magneticHeading != nil {
      line.append(string: ", declination from \(source)")
      if let caveat = heading.declinationCaveat { line.append(string: " (\(caveat.rawValue))") }
    }
    line.append(")\n")
  }

  /// One ATT object in gpsd's vocabulary (`heading`, `mheading`, `pitch`, `roll`, `yaw`,
  /// `rot`, `dip`) with camelCase names for ours (`headingAccuracy`, `rollAccuracy`,
  /// `pitchAccuracy`, `heave`, `declination`, `declinationSource`, `source`).
  public static func attitude(_ heading: Heading, into line: inout ByteBuffer) {
    line.append("{\"class\":\"ATT\"")
    if let device = heading.device {
      line.append(",\"device\":")
      line.append(jsonString: device)
    }
    if let time = heading.timestamp {
      line.append(",\"time\":\"")
      line.append(time)
      line.append(UInt8(ascii: "\""))
    }
    number(",\"heading\":", heading.trueHeading, 3, into: &line)
    number(",\"mheading\":", heading.magneticHeading, 3, into: &line)
    number(",\"headingAccuracy\":", heading.accuracy, 3, into: &line)
    if let attitude = heading.attitude {
      number(",\"pitch\":", attitude.pitch, 3, into: &line)
      number(",\"roll\":", attitude.roll, 3, into: &line)
      number(",\"yaw\":", attitude.yaw, 3, into: &line)
      number(",\"pitchAccuracy\":", attitude.pitchAccuracy, 3, into: &line)
      number(",\"rollAccuracy\":", attitude.rollAccuracy, 3, into: &line)
      number(",\"heave\":", attitude.heave, 3, into: &line)
      number(",\"dip\":", attitude.dip, 3, into: &line)
    }
    number(",\"rot\":", heading.rateOfTurn, 3, into: &line)
    if heading.declination != nil, let source = heading.declinationSource {
      number(",\"declination\":", heading.declination, 2, into: &line)
      line.append(",\"declinationSource\":")
      line.append(jsonString: source.description)
      if let caveat = heading.declinationCaveat {
        line.append(",\"declinationCaveat\":")
        line.append(jsonString: caveat.rawValue)
      }
    }
    line.append(",\"source\":")
    line.append(jsonString: heading.source)
    line.append("}\n")
  }

  /// One JSON object in gpsd's TPV vocabulary (`lat`, `lon`, `altMSL`, `eph`, ...) with
  /// camelCase names for what gpsd's TPV lacks (`distance`, `distanceError`, `pathLength`,
  /// `displacement`, ...). Unknown values are omitted.
  public static func json(_ location: Location, _ odometer: TrackOdometer, into line: inout ByteBuffer) {
    json(location, TrackDistances(odometer), into: &line)
  }

  /// The same object, from the figures of an odometer taken already.
  public static func json(_ location: Location, _ odometer: TrackDistances, into line: inout ByteBuffer) {
    // Keys carry their separator: "class" always comes first.
    line.append("{\"class\":\"TPV\"")
    if let device = location.device {
      line.append(",\"device\":")
      line.append(jsonString: device)
    }
    if let time = location.timestamp {
      line.append(",\"time\":\"")
      line.append(time, at: location.timeOfDay)
      line.append(UInt8(ascii: "\""))
    }
    line.append(",\"mode\":")
    line.append(integer: location.mode.rawValue)
    if let status = location.quality?.gpsdStatus {
      line.append(",\"status\":")
      line.append(integer: status)
    }
    number(",\"lat\":", location.latitude, 9, into: &line)
    number(",\"lon\":", location.longitude, 9, into: &line)
    number(",\"altHAE\":", location.ellipsoidalAltitude, 4, into: &line)
    number(",\"altMSL\":", location.altitude, 4, into: &line)
    number(",\"geoidSep\":", location.geoidSeparation, 3, into: &line)
    // Marked only when modelled or derived: absent, they are the receiver's.
    if location.geoidSeparation != nil, location.geoidSource == .egm96 { line.append(",\"geoidSource\":\"EGM96\"") }
    number(",\"speed\":", location.speed, 3, into: &line)
    number(",\"track\":", location.course, 4, into: &line)
    if location.speed != nil, location.speedSource == .positions { line.append(",\"speedSource\":\"positions\"") }
    number(",\"climb\":", location.climb, 3, into: &line)
    number(",\"magvar\":", location.magneticVariation, 1, into: &line)
    number(",\"eph\":", location.horizontalAccuracy, 3, into: &line)
    if let axes = location.axisAccuracies {
      number(",\"epx\":", axes.east, 3, into: &line)
      number(",\"epy\":", axes.north, 3, into: &line)
    }
    number(",\"epv\":", location.verticalAccuracy, 3, into: &line)
    if let source = location.accuracySource {
      line.append(",\"accuracySource\":")
      line.append(jsonString: source.description)
    }
    number(",\"heading\":", location.heading, 2, into: &line)
    number(",\"hdop\":", location.dop.horizontal, 2, into: &line)
    number(",\"vdop\":", location.dop.vertical, 2, into: &line)
    number(",\"pdop\":", location.dop.position, 2, into: &line)
    if let used = location.satellitesUsed {
      line.append(",\"satellitesUsed\":")
      line.append(integer: used)
    }
    if !location.satellites.isEmpty {
      line.append(",\"satellitesVisible\":")
      line.append(integer: location.satellites.count)
    }
    if let quality = location.quality {
      line.append(",\"quality\":")
      line.append(jsonString: quality.description)
    }
    number(",\"dgpsAge\":", location.differentialAge, 1, into: &line)
    if let station = location.differentialStation {
      line.append(",\"dgpsSta\":")
      line.append(integer: station)
    }
    if let locator = Maidenhead.packedSymbols(latitude: location.latitude, longitude: location.longitude) {
      line.append(",\"maidenhead\":\"")
      for shift in stride(from: 0, to: 64, by: 8) { line.append(UInt8(truncatingIfNeeded: locator >> shift)) }
      line.append(UInt8(ascii: "\""))
    }
    number(",\"distance\":", odometer.distance, 3, into: &line)
    number(",\"distanceError\":", odometer.distanceError, 3, into: &line)
    number(",\"pathLength\":", odometer.pathLength, 3, into: &line)
    number(",\"displacement\":", odometer.displacement, 3, into: &line)
    line.append("}\n")
  }

  /// A `key:value` member with `decimals` places; omitted when unknown or not finite.
  @inline(__always)
  private static func number(_ key: StaticString, _ value: Double?, _ decimals: Int, into line: inout ByteBuffer) {
    guard let value, value.isFinite else { return }
    line.append(key)
    line.append(value, decimals: decimals)
  }
}

/// A flat JSON object written field by field, in the order added, with the number and
/// string rendering of every other JSON the package writes (``ByteBuffer``).
public struct JSONObject: ~Copyable {
  private var buffer = ByteBuffer(capacity: 256)
  private var isEmpty = true

  /// An empty object.
  public init() {
    buffer.append(UInt8(ascii: "{"))
  }

  /// A number with `decimals` places; nothing when unknown or not finite.
  public mutating func add(_ key: String, _ value: Double?, _ decimals: Int) {
    guard let value, value.isFinite else { return }
    separate(key)
    buffer.append(value, decimals: decimals)
  }

  /// An integer member.
  public mutating func add(_ key: String, integer value: Int) {
    separate(key)
    buffer.append(integer: value)
  }

  /// A string member, escaped as JSON requires.
  public mutating func add(_ key: String, string value: String) {
    separate(key)
    buffer.append(jsonString: value)
  }

  /// A value that is JSON already (`true`, an object).
  public mutating func add(_ key: String, raw value: String) {
    separate(key)
    buffer.append(string: value)
  }

  private mutating func separate(_ key: String) {
    if !isEmpty { buffer.append(UInt8(ascii: ",")) }
    isEmpty = false
    buffer.append(jsonString: key)
    buffer.append(UInt8(ascii: ":"))
  }

  /// The object's text.
  public consuming func finish() -> String {
    buffer.append(UInt8(ascii: "}"))
    return String(decoding: buffer.bytes, as: UTF8.self)
  }
}

/// A JSON string literal, escaped per RFC 8259 (as ``ByteBuffer/append(jsonString:)``
/// writes it).
public func jsonString(_ value: String) -> String {
  var buffer = ByteBuffer(capacity: value.utf8.count + 2)
  buffer.append(jsonString: value)
  return String(decoding: buffer.bytes, as: UTF8.self)
}

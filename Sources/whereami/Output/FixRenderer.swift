import NMEA

/// Turns fixes into output lines, written straight into an output buffer.
enum FixRenderer {
  /// One human-readable line: time, mode, coordinates, accuracies, altitude, motion and
  /// distance travelled; `-` marks what the receiver did not say.
  static func text(_ fix: Fix, distance: Double, into line: inout ByteBuffer) {
    func value(_ number: Double?, _ decimals: Int, _ unit: StaticString, into line: inout ByteBuffer) {
      if let number {
        line.append(number, decimals: decimals)
        line.append(unit)
      } else {
        line.append(UInt8(ascii: "-"))
      }
    }
    if let time = fix.time { line.append(time) } else { line.append(fix.timeOfDay) }
    line.append(fix.mode == .threeD ? " 3D" : fix.mode == .twoD ? " 2D" : " --")
    line.append(" lat ")
    value(fix.latitude, 9, "", into: &line)
    line.append(" lon ")
    value(fix.longitude, 9, "", into: &line)
    line.append(" acc ")
    value(fix.horizontalAccuracy, 1, " m", into: &line)
    line.append(" alt ")
    value(fix.altitudeMSL, 1, " m", into: &line)
    line.append(" vacc ")
    value(fix.verticalAccuracy, 1, " m", into: &line)
    line.append(" speed ")
    value(fix.speed, 2, " m/s", into: &line)
    line.append(" course ")
    value(fix.course, 1, "°", into: &line)
    line.append(" distance ")
    line.append(distance, decimals: 1)
    line.append(" m\n")
  }

  /// One JSON object in gpsd's TPV vocabulary (`lat`, `lon`, `altMSL`, `eph`, ...) with
  /// camelCase names for what gpsd's TPV lacks. Unknown values are omitted.
  static func json(_ fix: Fix, distance: Double, into line: inout ByteBuffer) {
    // Keys carry their separator: "class" always comes first.
    line.append("{\"class\":\"TPV\"")
    if let time = fix.time {
      line.append(",\"time\":\"")
      line.append(time)
      line.append(UInt8(ascii: "\""))
    }
    line.append(",\"mode\":")
    line.append(integer: fix.mode.rawValue)
    if let status = fix.quality?.gpsdStatus, fix.hasPosition {
      line.append(",\"status\":")
      line.append(integer: status)
    }
    number(",\"lat\":", fix.latitude, 9, into: &line)
    number(",\"lon\":", fix.longitude, 9, into: &line)
    number(",\"altHAE\":", fix.altitudeHAE, 4, into: &line)
    number(",\"altMSL\":", fix.altitudeMSL, 4, into: &line)
    number(",\"geoidSep\":", fix.geoidSeparation, 3, into: &line)
    number(",\"speed\":", fix.speed, 3, into: &line)
    number(",\"track\":", fix.course, 4, into: &line)
    number(",\"climb\":", fix.climb, 3, into: &line)
    number(",\"magvar\":", fix.magneticVariation, 1, into: &line)
    number(",\"eph\":", fix.horizontalAccuracy, 3, into: &line)
    number(",\"epv\":", fix.verticalAccuracy, 3, into: &line)
    if let source = fix.accuracySource {
      line.append(",\"accuracySource\":")
      line.append(jsonString: source.description)
    }
    number(",\"heading\":", fix.heading, 2, into: &line)
    number(",\"hdop\":", fix.dop.horizontal, 2, into: &line)
    number(",\"vdop\":", fix.dop.vertical, 2, into: &line)
    number(",\"pdop\":", fix.dop.position, 2, into: &line)
    if let used = fix.satellitesUsed {
      line.append(",\"satellitesUsed\":")
      line.append(integer: used)
    }
    if !fix.satellites.isEmpty {
      line.append(",\"satellitesVisible\":")
      line.append(integer: fix.satellites.count)
    }
    if let quality = fix.quality {
      line.append(",\"quality\":")
      line.append(jsonString: quality.description)
    }
    number(",\"dgpsAge\":", fix.differentialAge, 1, into: &line)
    if let station = fix.differentialStation {
      line.append(",\"dgpsSta\":")
      line.append(integer: station)
    }
    number(",\"distance\":", distance, 3, into: &line)
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

/// A flat JSON object written field by field, in the order added.
struct JSONObject {
  private var text = "{"

  mutating func add(_ key: String, _ value: Double?, _ decimals: Int) {
    guard let value, value.isFinite else { return }
    separate(key)
    text += fixed(value, decimals)
  }

  mutating func add(_ key: String, integer value: Int) {
    separate(key)
    text += String(value)
  }

  mutating func add(_ key: String, string value: String) {
    separate(key)
    text += jsonString(value)
  }

  mutating func add(_ key: String, raw value: String) {
    separate(key)
    text += value
  }

  private mutating func separate(_ key: String) {
    // `utf8.count` is O(1) for native strings; `count` would walk the whole object.
    if text.utf8.count > 1 { text += "," }
    text += "\"" + key + "\":"
  }

  func finish() -> String { text + "}" }
}

/// A JSON string literal, escaped per RFC 8259.
func jsonString(_ value: String) -> String {
  var result = "\""
  for scalar in value.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case "\t": result += "\\t"
    case let control where control.value < 0x20:
      let hex = String(control.value, radix: 16)
      result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result + "\""
}

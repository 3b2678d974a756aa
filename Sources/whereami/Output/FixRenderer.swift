import NMEA

/// Turns fixes into output lines.
enum FixRenderer {
  /// One human-readable line: time, mode, coordinates, accuracies, altitude, motion and
  /// distance travelled; `-` marks what the receiver did not say.
  static func text(_ fix: Fix, distance: Double) -> String {
    func value(_ number: Double?, _ decimals: Int, _ unit: String) -> String {
      number.map { fixed($0, decimals) + unit } ?? "-"
    }
    var parts: [String] = []
    parts.append(fix.time?.description ?? fix.timeOfDay.description)
    parts.append(fix.mode == .threeD ? "3D" : fix.mode == .twoD ? "2D" : "--")
    parts.append("lat " + value(fix.latitude, 9, ""))
    parts.append("lon " + value(fix.longitude, 9, ""))
    parts.append("acc " + value(fix.horizontalAccuracy, 1, " m"))
    parts.append("alt " + value(fix.altitudeMSL, 1, " m"))
    parts.append("vacc " + value(fix.verticalAccuracy, 1, " m"))
    parts.append("speed " + value(fix.speed, 2, " m/s"))
    parts.append("course " + value(fix.course, 1, "°"))
    parts.append("distance " + fixed(distance, 1) + " m")
    return parts.joined(separator: " ") + "\n"
  }

  /// One JSON object in gpsd's TPV vocabulary (`lat`, `lon`, `altMSL`, `eph`, ...) with
  /// camelCase names for what gpsd's TPV lacks. Unknown values are omitted.
  static func json(_ fix: Fix, distance: Double) -> String {
    var object = JSONObject()
    object.add("class", string: "TPV")
    if let time = fix.time { object.add("time", string: time.description) }
    object.add("mode", integer: fix.mode.rawValue)
    if let status = fix.quality?.gpsdStatus, fix.hasPosition { object.add("status", integer: status) }
    object.add("lat", fix.latitude, 9)
    object.add("lon", fix.longitude, 9)
    object.add("altHAE", fix.altitudeHAE, 4)
    object.add("altMSL", fix.altitudeMSL, 4)
    object.add("geoidSep", fix.geoidSeparation, 3)
    object.add("speed", fix.speed, 3)
    object.add("track", fix.course, 4)
    object.add("climb", fix.climb, 3)
    object.add("magvar", fix.magneticVariation, 1)
    object.add("eph", fix.horizontalAccuracy, 3)
    object.add("epv", fix.verticalAccuracy, 3)
    if let source = fix.accuracySource { object.add("accuracySource", string: source.description) }
    object.add("heading", fix.heading, 2)
    object.add("hdop", fix.dop.horizontal, 2)
    object.add("vdop", fix.dop.vertical, 2)
    object.add("pdop", fix.dop.position, 2)
    if let used = fix.satellitesUsed { object.add("satellitesUsed", integer: used) }
    if !fix.satellites.isEmpty { object.add("satellitesVisible", integer: fix.satellites.count) }
    if let quality = fix.quality { object.add("quality", string: quality.description) }
    object.add("dgpsAge", fix.differentialAge, 1)
    if let station = fix.differentialStation { object.add("dgpsSta", integer: station) }
    object.add("distance", distance, 3)
    return object.finish() + "\n"
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
    if text.count > 1 { text += "," }
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

import LocationKit
import NMEA

/// A value of one field of a fix, typed so that each format can write it its own way
/// (CSV unquoted, JSON with quotes around text).
public enum ExportValue {
  /// The receiver did not give it: an empty CSV cell, an omitted JSON member.
  case missing
  /// A measurement, written with `decimals` places.
  case number(Double, decimals: Int)
  /// A count or a code (satellites, fix mode, segment number).
  case integer(Int)
  /// Text (a device name, a fix quality): quoted in JSON, escaped in CSV.
  case text(String)
  /// A UTC time, written as ISO 8601 with milliseconds.
  case time(Timestamp)
}

/// One field of a fix, by the name CSV headers and GeoJSON properties use.
///
/// The table is the single description of "every field": CSV columns and GeoJSON point
/// properties come from it, so they cannot drift apart. Names and decimals are those of
/// `print --json` (gpsd's TPV names where gpsd has the field).
public struct ExportField: Sendable {
  /// The field's name: the CSV column header and the GeoJSON property.
  public var name: StaticString
  /// The field's value for one exported fix.
  public var value: @Sendable (ExportFix) -> ExportValue

  /// Every field, in CSV column order.
  public static let all: [ExportField] = [
    ExportField(name: "time") { $0.location.timestamp.map { .time($0) } ?? .missing },
    ExportField(name: "segment") { .integer($0.segment) },
    number("lat", 9) { $0.latitude },
    number("lon", 9) { $0.longitude },
    ExportField(name: "mode") { .integer($0.location.mode.rawValue) },
    ExportField(name: "quality") { $0.location.quality.map { .text($0.description) } ?? .missing },
    number("eph", 3) { $0.horizontalAccuracy },
    ExportField(name: "accuracySource") { $0.location.accuracySource.map { .text($0.description) } ?? .missing },
    number("altMSL", 4) { $0.altitude },
    number("altHAE", 4) { $0.ellipsoidalAltitude },
    number("geoidSep", 3) { $0.geoidSeparation },
    number("epv", 3) { $0.verticalAccuracy },
    number("speed", 3) { $0.speed },
    number("track", 4) { $0.course },
    number("climb", 3) { $0.climb },
    number("heading", 2) { $0.heading },
    number("magvar", 1) { $0.magneticVariation },
    number("hdop", 2) { $0.dop.horizontal },
    number("vdop", 2) { $0.dop.vertical },
    number("pdop", 2) { $0.dop.position },
    ExportField(name: "satellitesUsed") { $0.location.satellitesUsed.map { .integer($0) } ?? .missing },
    ExportField(name: "satellitesVisible") {
      $0.location.satellites.isEmpty ? .missing : .integer($0.location.satellites.count)
    },
    number("dgpsAge", 1) { $0.differentialAge },
    ExportField(name: "dgpsSta") { $0.location.differentialStation.map { .integer($0) } ?? .missing },
    ExportField(name: "distance") { .number($0.odometer.distance, decimals: 3) },
    ExportField(name: "pathLength") { .number($0.odometer.pathLength, decimals: 3) },
    ExportField(name: "displacement") { .number($0.odometer.displacement, decimals: 3) },
    // Last, so that the columns before it keep their places: the gpsd device (gpsd's
    // `device`), whose track the row is part of; empty for other sources.
    ExportField(name: "device") { $0.location.device.map { .text($0) } ?? .missing },
    // After it, for the same reason: whether speed and course were measured (`receiver`)
    // or derived from positions (`positions`), and where the geoid separation came from
    // (`receiver`, `EGM96`).
    ExportField(name: "speedSource") { $0.location.speedSource.map { .text($0.description) } ?? .missing },
    ExportField(name: "geoidSource") { $0.location.geoidSource.map { .text($0.description) } ?? .missing },
    // Last, for the same reason: the odometer's moving and standing time up to this fix,
    // which grow as `distance` does, so that a day's share of them is a difference of two
    // rows (a time decided late, when a stop turns out to have been movement, lands in
    // the row that decided it).
    ExportField(name: "movingTime") { .number($0.odometer.movingTime, decimals: 3) },
    ExportField(name: "stoppedTime") { .number($0.odometer.stoppedTime, decimals: 3) },
    // Last, for the same reason: the 1-sigma uncertainty of `distance`.
    ExportField(name: "distanceError") { .number($0.odometer.distanceError, decimals: 3) },
  ]

  /// A number of the location, `missing` when unknown or not finite.
  private static func number(
    _ name: StaticString, _ decimals: Int, _ read: @escaping @Sendable (Location) -> Double?
  ) -> ExportField {
    ExportField(name: name) { fix in
      guard let value = read(fix.location), value.isFinite else { return .missing }
      return .number(value, decimals: decimals)
    }
  }
}

extension ByteBuffer {
  /// Appends a field value as a JSON value; `missing` must be filtered out before.
  public mutating func append(json value: ExportValue) {
    switch value {
    case .missing: append("null")
    case .number(let number, let decimals): append(number, decimals: decimals)
    case .integer(let integer): append(integer: integer)
    case .text(let text): append(jsonString: text)
    case .time(let timestamp):
      append(UInt8(ascii: "\""))
      append(timestamp)
      append(UInt8(ascii: "\""))
    }
  }

  /// Appends text with XML's five special characters escaped, for element content and
  /// attribute values alike.
  public mutating func append(xmlText text: String) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): append("&amp;")
      case UInt8(ascii: "<"): append("&lt;")
      case UInt8(ascii: ">"): append("&gt;")
      case UInt8(ascii: "\""): append("&quot;")
      case UInt8(ascii: "'"): append("&apos;")
      // XML 1.0 forbids most control characters even escaped: a space keeps the text.
      case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D: append(UInt8(ascii: " "))
      default: append(byte)
      }
    }
  }

  /// Appends `<name>value</name>` with `decimals` places when `value` is known and finite.
  public mutating func appendElement(_ open: StaticString, _ value: Double?, _ decimals: Int, _ close: StaticString) {
    guard let value, value.isFinite else { return }
    append(open)
    append(value, decimals: decimals)
    append(close)
  }
}

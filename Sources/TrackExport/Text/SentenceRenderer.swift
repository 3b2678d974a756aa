import NMEA

/// Decoded sentences as JSON objects, for `print --nmea --json`: what pynmea2's users get
/// from `msg.latitude`, `msg.gps_qual`, with every field the decoder reads, named as the
/// sentence's type names it in Swift (`GGA.satellitesUsed`, `RMC.isValid`).
///
/// The fields come from the sentence's own stored properties by reflection, so that a
/// field added to a sentence type shows here without a second list to keep in step; that
/// costs microseconds a sentence, which a reader of sentences does not notice (fixes have
/// their hand-written renderer). Absent values are left out, as in TPV objects.
public enum SentenceRenderer {
  /// `{"class":"NMEA","type":"GGA","talker":"GP",...,"sentence":"$GPGGA,..."}`: the
  /// sentence's type (its address without the talker; the whole address for proprietary
  /// ones), its fields, and the line as it came, without its line end.
  public static func json(_ sentence: Sentence, line: [UInt8], into output: inout ByteBuffer) {
    output.append("{\"class\":\"NMEA\",\"type\":")
    output.append(jsonString: type(ofLine: line))
    if let (_, payload) = Mirror(reflecting: sentence).children.first.map({ ($0.label, $0.value) }),
      !(payload is SentenceAddress)
    {
      for (name, value) in fields(of: payload) {
        output.append(",")
        output.append(jsonString: name)
        output.append(":")
        append(value, into: &output)
      }
    }
    output.append(",\"sentence\":")
    var text = line
    while let last = text.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { text.removeLast() }
    output.append(jsonString: String(decoding: text, as: UTF8.self))
    output.append("}\n")
  }

  /// The type of a sentence's line: `GGA` for `$GPGGA,...`, `PUBX` for `$PUBX,...`.
  public static func type(ofLine line: [UInt8]) -> String {
    let text = address(ofLine: line)
    return text.hasPrefix("P") || text.count <= 3 ? text : String(text.dropFirst(2))
  }

  /// The address of a sentence's line: `GPGGA` for `$GPGGA,...`.
  public static func address(ofLine line: [UInt8]) -> String {
    String(decoding: line.dropFirst().prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "*") }, as: UTF8.self)
  }

  /// The fields worth writing: present values, by name, without the storage that a
  /// computed list stands for.
  private static func fields(of value: Any) -> [(String, Any)] {
    var fields: [(String, Any)] = []
    for child in Mirror(reflecting: value).children {
      guard var name = child.label else { continue }
      // A property wrapper's storage is `_name`.
      if name.hasPrefix("_") { name.removeFirst() }
      // Fixed-size storage and its count: the list they hold is written below instead.
      // (and the decoder's own notes: the coordinates' decimals, a raw count's scaling).
      if ["entries", "entryCount", "used", "usedCount", "coordinateDecimals", "wasRaw"].contains(name) { continue }
      guard let present = unwrapped(child.value) else { continue }
      fields.append((name, present))
    }
    if let gsv = value as? GSV { fields.append(("satellites", gsv.satellites)) }
    if let gsa = value as? GSA { fields.append(("usedSatellites", gsa.usedSatellites)) }
    return fields
  }

  /// The value inside optionals and packed doubles; `nil` when absent.
  private static func unwrapped(_ value: Any) -> Any? {
    if let packed = value as? PackedDouble { return packed.wrappedValue }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let inner = mirror.children.first?.value else { return nil }
      return unwrapped(inner)
    }
    if let number = value as? Double, !number.isFinite { return nil }
    return value
  }

  private static func append(_ value: Any, into output: inout ByteBuffer) {
    switch value {
    case let number as Double:
      // The shortest text that reads back as the same number.
      output.append(string: "\(number)")
    case let number as Int:
      output.append(integer: number)
    case let letter as UInt8:
      // A status or mode letter, as the sentence has it ("A", "N").
      output.append(jsonString: String(UnicodeScalar(letter)))
    case let flag as Bool:
      output.append(flag ? "true" : "false")
    case let text as String:
      output.append(jsonString: text)
    case let time as TimeOfDay:
      output.append(UInt8(ascii: "\""))
      output.append(time)
      output.append(UInt8(ascii: "\""))
    case let list as [Any]:
      output.append("[")
      for (index, element) in list.enumerated() {
        if index > 0 { output.append(",") }
        append(element, into: &output)
      }
      output.append("]")
    default:
      let mirror = Mirror(reflecting: value)
      switch mirror.displayStyle {
      case .struct where !(value is CustomStringConvertible):
        output.append("{")
        for (index, (name, field)) in fields(of: value).enumerated() {
          if index > 0 { output.append(",") }
          output.append(jsonString: name)
          output.append(":")
          append(field, into: &output)
        }
        output.append("}")
      case .collection:
        append(mirror.children.map(\.value), into: &output)
      default:
        // Enums and values with a text of their own (a talker, a date, a fix quality).
        if let described = value as? CustomStringConvertible {
          output.append(jsonString: described.description)
        } else if mirror.displayStyle == .enum, let label = mirror.children.first?.label {
          output.append(jsonString: label)
        } else {
          output.append(jsonString: "\(value)")
        }
      }
    }
  }
}

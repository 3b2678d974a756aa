/// The recorded sensor log: CSV with a header, one reading per line, as
/// `whereami motion --record` writes it and ``RecordedMotionSource`` replays it.
///
/// ```
/// time,sensor,x,y,z,w
/// 1764597600.125,accelerometer,0.012,-0.031,-0.998,
/// 1764597600.125,gyroscope,0.001,0.002,-0.004,
/// 1764597600.125,attitude,0.0123,-0.0045,0.7071,0.7070
/// ```
///
/// `time` is seconds (since the Unix epoch when recorded live; replay only uses the
/// differences), under 10¹¹ in magnitude. `sensor` is `accelerometer` (g), `gyroscope` (rad/s), `magnetometer`
/// (µT) or `attitude` (a quaternion x, y, z, w); `w` is empty for the others. Readings
/// whose unit the source did not know are `accelerometer-device-units` (and so on) and
/// a receiver's attitude is `reported-attitude` (x heading, y pitch, z roll, degrees).
/// Lines starting with `#` are comments. Numbers are written in the shortest form that
/// reads back to the same value, so a replay sees exactly what was recorded.
public enum MotionLog {
  /// The header line.
  public static let header = "time,sensor,x,y,z,w"

  /// One line of a log.
  public enum Line: Equatable, Sendable {
    /// A reading in the platform's units: an `accelerometer`, `gyroscope`, `magnetometer`
    /// or `attitude` line.
    case reading(SensorReading)
    /// A reading in a source's own unit: an `accelerometer-device-units` (and so on) line,
    /// NaN for an empty axis.
    case deviceUnits(SensorReading)
    /// A receiver's heading, pitch and roll in degrees: a `reported-attitude` line (x, y,
    /// z), `nil` for an empty field. The dip is not recorded.
    case reportedAttitude(ReportedAttitude)
  }

  /// The line (without its newline) for `line`.
  public static func format(_ line: Line) -> String {
    // Empty for absent: a device-units rotation has no z (gpsd has no gyro_z).
    func number(_ value: Double?) -> String { value.flatMap { $0.isNaN ? nil : "\($0)" } ?? "" }
    switch line {
    case .reading(let reading):
      return
        "\(reading.time),\(reading.sensor.rawValue),\(reading.vector.x),\(reading.vector.y),\(reading.vector.z),\(number(reading.w))"
    case .deviceUnits(let reading):
      let vector = reading.vector
      return
        "\(reading.time),\(reading.sensor.rawValue)-device-units,\(number(vector.x)),\(number(vector.y)),\(number(vector.z)),"
    case .reportedAttitude(let attitude):
      return
        "\(attitude.time),reported-attitude,\(number(attitude.heading)),\(number(attitude.pitch)),\(number(attitude.roll)),"
    }
  }

  /// Why a line is not a reading.
  public struct LineError: Error, Equatable, Sendable {
    /// What is wrong with the line, as a phrase for a message (`no x`, `the quaternion is
    /// zero`).
    public var reason: String
  }

  /// The header's columns when `text` is a header (`time,sensor,x,y,z` with or without
  /// `w`).
  public static func isHeader(_ text: Substring) -> Bool {
    let columns = text.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmedBlanks.lowercased()
    }
    return columns == ["time", "sensor", "x", "y", "z"] || columns == ["time", "sensor", "x", "y", "z", "w"]
  }

  /// Parses one line (without its newline).
  public static func parse(_ text: Substring, device: String? = nil) throws(LineError) -> Line {
    let fields = text.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmedBlanks
    }
    guard fields.count == 5 || fields.count == 6 else {
      let count = fields.count == 1 ? "1 field" : "\(fields.count) fields"
      throw LineError(reason: "\(count) where 5 or 6 (time,sensor,x,y,z[,w]) belong")
    }
    guard let time = Double(fields[0]), time.isFinite else {
      throw LineError(reason: "the time '\(fields[0].prefix(40))' is not a number")
    }
    // Seconds: more than 10¹¹ (the year 5138) is a log in milli-, micro- or nanoseconds.
    guard abs(time) < 1e11 else {
      throw LineError(reason: "the time \(fields[0].prefix(40)) is not in seconds (too large)")
    }
    func value(_ index: Int, _ name: String, optional: Bool = false) throws(LineError) -> Double? {
      let text = index < fields.count ? fields[index] : ""
      if text.isEmpty {
        if optional { return nil }
        throw LineError(reason: "no \(name)")
      }
      guard let number = Double(text), number.isFinite else {
        throw LineError(reason: "\(name) '\(text.prefix(40))' is not a number")
      }
      return number
    }
    let name = fields[1].lowercased()
    if name == "reported-attitude" {
      return .reportedAttitude(
        ReportedAttitude(
          time: time, heading: try value(2, "x", optional: true), pitch: try value(3, "y", optional: true),
          roll: try value(4, "z", optional: true), device: device))
    }
    let deviceUnits = name.hasSuffix("-device-units")
    let kindName = deviceUnits ? String(name.dropLast("-device-units".count)) : name
    guard let kind = SensorKind(rawValue: kindName) ?? aliases[kindName] else {
      throw LineError(
        reason: "'\(fields[1].prefix(40))' is not a sensor (accelerometer, gyroscope, magnetometer, attitude)")
    }
    let vector = MotionVector(
      x: try value(2, "x", optional: deviceUnits) ?? .nan, y: try value(3, "y", optional: deviceUnits) ?? .nan,
      z: try value(4, "z", optional: deviceUnits) ?? .nan)
    if deviceUnits, vector.x.isNaN, vector.y.isNaN, vector.z.isNaN { throw LineError(reason: "no x, y or z") }
    var reading = SensorReading(time: time, sensor: kind, vector: vector, device: device)
    if kind == .attitude && !deviceUnits {
      reading.w = try value(5, "w")
      guard reading.quaternion != nil else { throw LineError(reason: "the quaternion is zero") }
    }
    return deviceUnits ? .deviceUnits(reading) : .reading(reading)
  }

  private static let aliases: [String: SensorKind] = [
    "accel": .accelerometer, "acc": .accelerometer, "gyro": .gyroscope, "mag": .magnetometer, "magn": .magnetometer,
    "quaternion": .attitude,
  ]
}

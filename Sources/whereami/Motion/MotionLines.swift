import LocationKit
import MotionKit
import NMEA
import TrackExport

/// The lines `whereami motion` prints: text for people, JSON objects for programs.
///
/// JSON uses gpsd's ATT member names where one exists (`heading`, `mheading`, `pitch`,
/// `roll`, `yaw`, degrees; `acc_x`..., `gyro_x`..., `mag_x`...) and says the unit beside
/// the sensor values, since ours are in g, rad/s and µT where gpsd's are the device's.
enum MotionLines {
  static func time(_ seconds: Double) -> String {
    Timestamp(microsecondsSinceEpoch: Int64((seconds * 1e6).rounded())).description
  }

  private static func clock(_ seconds: Double) -> String {
    Timestamp(microsecondsSinceEpoch: Int64((seconds * 1e6).rounded())).timeOfDay.description
  }

  private static func signed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "–" }
    let text = fixed(value, decimals)
    return text.hasPrefix("-") ? text : "+" + text
  }

  private static func axes(_ v: MotionVector, _ decimals: Int) -> String {
    "x \(signed(v.x, decimals)) y \(signed(v.y, decimals)) z \(signed(v.z, decimals))"
  }

  private static func degrees(_ radians: Double) -> Double { radians * 180 / Double.pi }

  // MARK: Text

  static func text(_ event: MotionEvent) -> String? {
    switch event {
    case .accelerometer(let data):
      return
        "\(clock(data.timestamp)) accel    \(axes(data.acceleration, 3)) g  |a| \(fixed(data.acceleration.magnitude, 3)) g"
    case .gyro(let data):
      return "\(clock(data.timestamp)) gyro     \(axes(data.rotationRate, 3)) rad/s"
    case .magnetometer(let data):
      return "\(clock(data.timestamp)) mag      \(axes(data.magneticField, 1)) µT"
    case .deviceMotion(let motion):
      var line =
        "\(clock(motion.timestamp)) attitude roll \(signed(degrees(motion.attitude.roll), 1))° pitch \(signed(degrees(motion.attitude.pitch), 1))° yaw \(signed(degrees(motion.attitude.yaw), 1))°"
      if let user = motion.userAcceleration { line += "  user \(axes(user, 3)) g" }
      line += "  (\(motion.attitudeSource.rawValue)"
      if motion.attitude.referenceFrame == .arbitrary { line += ", arbitrary north" }
      return line + ")"
    case .heading(let heading):
      var parts: [String] = []
      if let value = heading.trueHeading { parts.append("\(fixed(value, 1))°T") }
      if let value = heading.magneticHeading { parts.append("\(fixed(value, 1))°M") }
      let time = heading.timestamp.map { clock($0.secondsSinceEpoch) } ?? "--:--:--"
      return "\(time) heading  \(parts.joined(separator: " ")) (\(heading.source))"
    case .deviceUnits(let reading):
      let name =
        switch reading.sensor {
        case .accelerometer: "accel"
        case .gyroscope: "gyro"
        case .magnetometer: "mag"
        case .attitude: "attitude"
        }
      return "\(clock(reading.time)) \(name.padding(8)) \(axes(reading.vector, 3)) (device units)"
    case .shake(let shake):
      return shakeText(shake)
    case .failure:
      return nil
    }
  }

  static func shakeText(_ shake: ShakeEvent) -> String {
    var line =
      "\(clock(shake.time)) shake    \(shake.phase.rawValue): \(shake.peaks) peak\(shake.peaks == 1 ? "" : "s") in \(fixed(shake.duration, 2)) s, up to \(fixed(shake.peakAcceleration, 2)) g (\(shake.strength.rawValue))"
    if let reason = shake.cancelReason { line += ", \(reason.rawValue)" }
    return line
  }

  // MARK: JSON

  static func json(_ event: MotionEvent) -> String? {
    func number(_ value: Double, _ decimals: Int) -> String { value.isFinite ? fixed(value, decimals) : "null" }
    func vector(_ prefix: String, _ v: MotionVector, _ decimals: Int, unit: String, hasZ: Bool = true) -> String {
      var text = "\"\(prefix)_x\":\(number(v.x, decimals)),\"\(prefix)_y\":\(number(v.y, decimals))"
      if hasZ { text += ",\"\(prefix)_z\":\(number(v.z, decimals))" }
      return text + ",\"\(prefix)_unit\":\(jsonString(unit))"
    }
    switch event {
    case .accelerometer(let data):
      return
        "{\"class\":\"ACC\",\"time\":\"\(time(data.timestamp))\",\(vector("acc", data.acceleration, 5, unit: "g"))}"
    case .gyro(let data):
      return
        "{\"class\":\"GYRO\",\"time\":\"\(time(data.timestamp))\",\(vector("gyro", data.rotationRate, 5, unit: "rad/s"))}"
    case .magnetometer(let data):
      return
        "{\"class\":\"MAG\",\"time\":\"\(time(data.timestamp))\",\(vector("mag", data.magneticField, 3, unit: "uT"))}"
    case .deviceMotion(let motion):
      let q = motion.attitude.quaternion
      var text =
        "{\"class\":\"ATT\",\"time\":\"\(time(motion.timestamp))\",\"roll\":\(number(degrees(motion.attitude.roll), 2)),\"pitch\":\(number(degrees(motion.attitude.pitch), 2)),\"yaw\":\(number(degrees(motion.attitude.yaw), 2))"
      if let heading = motion.heading {
        text += motion.attitude.referenceFrame == .trueNorth ? ",\"heading\":" : ",\"mheading\":"
        text += number(heading, 2)
      }
      text += ",\"quaternion\":[\(number(q.x, 6)),\(number(q.y, 6)),\(number(q.z, 6)),\(number(q.w, 6))]"
      text +=
        ",\"gravity\":[\(number(motion.gravity.x, 4)),\(number(motion.gravity.y, 4)),\(number(motion.gravity.z, 4))]"
      if let user = motion.userAcceleration {
        text += ",\"user_acc\":[\(number(user.x, 4)),\(number(user.y, 4)),\(number(user.z, 4))]"
      }
      text += ",\"frame\":\(jsonString(motion.attitude.referenceFrame.rawValue))"
      text += ",\"attitudeSource\":\(jsonString(motion.attitudeSource.rawValue))}"
      return text
    case .heading(let heading):
      var text = "{\"class\":\"ATT\""
      if let stamp = heading.timestamp { text += ",\"time\":\"\(stamp)\"" }
      if let value = heading.trueHeading { text += ",\"heading\":\(number(value, 2))" }
      if let value = heading.magneticHeading { text += ",\"mheading\":\(number(value, 2))" }
      if let value = heading.declination { text += ",\"declination\":\(number(value, 2))" }
      if let caveat = heading.declinationCaveat { text += ",\"declinationCaveat\":\(jsonString(caveat.rawValue))" }
      return text + ",\"headingSource\":\(jsonString(heading.source))}"
    case .deviceUnits(let reading):
      let prefix =
        switch reading.sensor {
        case .accelerometer: "acc"
        case .gyroscope: "gyro"
        case .magnetometer: "mag"
        case .attitude: "att"
        }
      var text = "{\"class\":\"ATT\",\"time\":\"\(time(reading.time))\""
      if let device = reading.device { text += ",\"device\":\(jsonString(device))" }
      return text + ",\(vector(prefix, reading.vector, 4, unit: "device", hasZ: !reading.vector.z.isNaN))}"
    case .shake(let shake):
      var text =
        "{\"class\":\"SHAKE\",\"time\":\"\(time(shake.time))\",\"phase\":\"\(shake.phase.rawValue)\",\"start\":\"\(time(shake.start))\",\"duration\":\(number(shake.duration, 3)),\"peaks\":\(shake.peaks),\"peak_acc\":\(number(shake.peakAcceleration, 3)),\"strength\":\"\(shake.strength.rawValue)\""
      if let reason = shake.cancelReason { text += ",\"reason\":\(jsonString(reason.rawValue))" }
      return text + "}"
    case .failure:
      return nil
    }
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}

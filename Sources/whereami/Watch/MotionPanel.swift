import LocationKit
import MotionKit
import NMEA
import TrackExport

/// What `watch --motion SOURCE` shows beside the position: the latest acceleration, the
/// attitude and its heading, and the last shake.
struct MotionPanel {
  var acceleration: MotionVector?
  var motion: DeviceMotion?
  var heading: Heading?
  var shake: ShakeEvent?
  /// The motion source's last error, until readings come again.
  var problem: String?

  /// The panel's lines, label and value, for the screen's left column (28 columns of
  /// value).
  var lines: [(String, String)] {
    func signed(_ value: Double, _ decimals: Int) -> String {
      let text = fixed(value, decimals)
      return text.hasPrefix("-") ? text : "+" + text
    }
    let unknown = "–"
    var accel = unknown
    if let a = acceleration { accel = "x\(signed(a.x, 2)) y\(signed(a.y, 2)) z\(signed(a.z, 2)) g" }
    var attitude = unknown
    if let motion {
      let degrees = 180 / Double.pi
      attitude =
        "roll \(signed(motion.attitude.roll * degrees, 1))° pitch \(signed(motion.attitude.pitch * degrees, 1))°"
    }
    var lines = [("Accel", accel), ("Attitude", attitude)]
    if let heading = heading?.trueHeading {
      lines.append(("Facing", "\(fixed(heading, 1))° true"))
    } else if let heading = heading?.magneticHeading {
      lines.append(("Facing", "\(fixed(heading, 1))° magnetic"))
    }
    var shakeText = "none yet"
    if let shake {
      let clock = Timestamp(microsecondsSinceEpoch: Int64((shake.time * 1e6).rounded())).timeOfDay.description
      shakeText = "\(shake.phase.rawValue) \(clock.prefix(8)), "
      shakeText += shake.cancelReason.map(\.rawValue) ?? "\(fixed(shake.peakAcceleration, 1)) g"
    }
    lines.append(("Shake", shakeText))
    if let problem { lines.append(("Sensors", problem)) }
    return lines
  }
}

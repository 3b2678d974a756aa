import Dispatch
import LocationKit
import MotionKit

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami motion [SOURCE]`: accelerometer, gyroscope, magnetometer, attitude and
/// heading lines, or shakes, from the kernel's IIO sensors, gpsd or a recorded log.
enum MotionCommand {
  static let sourceVariable = "WHEREAMI_MOTION_SOURCE"

  static let spec = CommandSpec(
    name: "motion",
    abstract:
      "Print acceleration, rotation rate, magnetic field, attitude and heading from motion sensors (Linux IIO, gpsd, a recorded log), or shakes.",
    arguments: "[SOURCE]",
    minimumArguments: 0,
    maximumArguments: 1,
    options: [
      OptionSpec(
        name: "interval", value: "SECONDS",
        help: "At most one line of each kind per interval (default 0.1); a live sensor is read this often."),
      OptionSpec(name: "json", value: nil, help: "One JSON object per line (ACC, GYRO, MAG, ATT, SHAKE)."),
      OptionSpec(name: "shake", value: nil, help: "Print only shakes: began, ended, cancelled."),
      OptionSpec(
        name: "shake-threshold", value: "G[,G]",
        help: "A peak's user acceleration on any axis, and a strong peak's (default 1.5,2.0)."),
      OptionSpec(
        name: "shake-window", value: "SECONDS", help: "More than four peaks within this time are a shake (default 1.5)."
      ),
      OptionSpec(
        name: "sensors", value: "LIST",
        help:
          "What to print, comma-separated: accel, gyro, mag, attitude, heading (default all the source has; a kind asked for here and missing is an error)."
      ),
      OptionSpec(name: "record", value: "FILE", help: "Also write every reading to FILE as a sensor log (CSV)."),
      OptionSpec(
        name: "speed", value: "X", help: "Replay a log X times faster (default 1; 0 as fast as it reads)."),
      OptionSpec(name: "count", value: "N", help: "Stop after N lines."),
      OptionSpec(
        name: "position", value: "LAT,LON",
        help: "Where the device is, for the declination that gives true headings (WMM2025)."),
      OptionSpec(
        name: "wait", value: nil, help: "Keep trying a gpsd source that does not answer (without it, exit code 69)."),
    ],
    discussion: """
      SOURCE is iio (the kernel's sensors under /sys/bus/iio/devices, the default), iio:DIRECTORY (a directory laid out the same way, or one device's), gpsd://[HOST][:PORT][/DEVICE] (gpsd's ATT reports), a sensor log recorded with --record, or - for standard input. WHEREAMI_MOTION_SOURCE sets the default.
      Units: acceleration in g (gravity included; a device lying face up reads z -1 g), rotation rate in rad/s, magnetic field in µT, angles in degrees. gpsd's acceleration, rotation and field are printed in the device's own units, which gpsd does not state.
      A shake is more than four peaks over 1.5 g (gravity removed) within 1.5 s: began at the second peak, ended 0.5 s after the last one, cancelled when the peaks stop too soon or the device is put down.
      """)

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    var text = arguments.positionals.first
    if text == nil, let fromEnvironment = Environment.value(sourceVariable), !fromEnvironment.isEmpty {
      text = fromEnvironment
    }
    let address: MotionSourceAddress
    do throws(MotionError) {
      address = try MotionSourceAddress(text ?? "iio")
    } catch {
      throw CommandError(message: "motion: \(error.message)", code: .usage)
    }
    var interval = 0.1
    if let value = arguments.value("interval") {
      guard let seconds = Double(value), seconds.isFinite, seconds >= 0.001 else {
        throw CommandError(
          message: "motion: --interval '\(value)' is not a number of seconds from 0.001 up", code: .usage)
      }
      interval = seconds
    }
    var speed: Double? = 1
    if let value = arguments.value("speed") { speed = try WatchCommand.parseSpeed(value, command: "motion") }
    var count: Int?
    if let value = arguments.value("count") {
      guard let number = Int(value), number > 0 else {
        throw CommandError(message: "motion: --count '\(value)' is not a positive whole number", code: .usage)
      }
      count = number
    }
    var updates: Set<MotionUpdate> = [.accelerometer, .gyro, .magnetometer, .deviceMotion, .heading]
    let explicit = arguments.value("sensors") != nil
    if let list = arguments.value("sensors") {
      updates = []
      for name in list.split(separator: ",") {
        switch name.lowercased() {
        case "accel", "accelerometer", "acc": updates.insert(.accelerometer)
        case "gyro", "gyroscope": updates.insert(.gyro)
        case "mag", "magnetometer": updates.insert(.magnetometer)
        case "attitude", "motion", "devicemotion": updates.insert(.deviceMotion)
        case "heading": updates.insert(.heading)
        default:
          throw CommandError(
            message: "motion: --sensors: '\(name)' is not one of \(sensorNames.joined(separator: ", "))", code: .usage)
        }
      }
      guard !updates.isEmpty else { throw CommandError(message: "motion: --sensors is empty", code: .usage) }
    }
    if arguments.has("shake") { updates = [.shake] }
    var shakeOptions = ShakeRecognizer.Options()
    if let value = arguments.value("shake-threshold") {
      let parts = value.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
      guard (1...2).contains(parts.count), let light = parts[0], light > 0, light.isFinite,
        let strong = parts.count == 2 ? parts[1] : max(light, shakeOptions.strongThreshold), strong >= light,
        strong.isFinite
      else {
        throw CommandError(
          message: "motion: --shake-threshold '\(value)' is not G or G,G (g, positive, the strong one not below)",
          code: .usage)
      }
      shakeOptions.lightThreshold = light
      shakeOptions.strongThreshold = strong
    }
    if let value = arguments.value("shake-window") {
      guard let seconds = Double(value), seconds.isFinite, seconds > 0 else {
        throw CommandError(message: "motion: --shake-window '\(value)' is not a number of seconds", code: .usage)
      }
      shakeOptions.window = seconds
    }
    var position: (latitude: Double, longitude: Double)?
    if let value = arguments.value("position") {
      let parts = value.split(separator: ",").map { Double($0.trimmedBlanks) }
      guard parts.count == 2, let latitude = parts[0], let longitude = parts[1], abs(latitude) <= 90,
        abs(longitude) <= 180
      else {
        throw CommandError(message: "motion: --position '\(value)' is not LAT,LON in degrees", code: .usage)
      }
      position = (latitude, longitude)
    }
    var source = address.makeSource(speed: address.isLive ? nil : speed)
    var recorder: MotionRecorder?
    if let path = arguments.value("record") {
      // Recording a log onto itself would replace what is being read by what has been read.
      if case .log(let input) = address, InputFile.isSameFile(input, path) {
        throw CommandError(
          message: "motion: --record \(path) is the log being read; record to another file", code: .usage)
      }
      do throws(SystemError) {
        recorder = try MotionRecorder(source, path: path)
        source = recorder!
      } catch {
        throw CommandError(
          message: "motion: cannot write \(path): \(error.reason)",
          code: error.isPermissionDenied ? .permissionDenied : .ioError)
      }
    }
    let session = MotionSession(
      source: source, json: arguments.has("json"), count: count, reportsMissing: explicit || arguments.has("shake"),
      waits: arguments.has("wait"))
    session.manager.accelerometerUpdateInterval = interval
    session.manager.gyroUpdateInterval = interval
    session.manager.magnetometerUpdateInterval = interval
    session.manager.deviceMotionUpdateInterval = interval
    session.manager.declinationPosition = position
    // A heading line per interval, as for every other kind ("at most one line of each kind
    // per interval"): a still device's heading, filtered to changes of a degree, gave one
    // line and then none, and `--count 5 --sensors heading` never ended.
    session.manager.headingFilter = HeadingFilter.none
    session.manager.shakeOptions = shakeOptions
    // The recording is completed once the manager has stopped, while signals still come to
    // the session (which ignores them by then), so that none can end it half done.
    var code = session.run(updates) { recorder?.finish() }
    if let recorder, let failure = recorder.failure {
      let path = arguments.value("record")!
      let kept = recorder.recordingPath == path ? "" : " (what was recorded is in \(recorder.recordingPath))"
      printError("whereami: cannot write \(path): \(failure.reason)\(kept)")
      code = .ioError
    }
    if code != .success { throw CommandError(message: nil, code: code) }
  }
}

extension MotionCommand {
  /// The kinds `--sensors` takes, as help and completions name them.
  static let sensorNames = ["accel", "gyro", "mag", "attitude", "heading"]
}

/// Runs a motion manager until the source ends, a final error, `--count` lines, or an
/// interrupt, printing each event and each error.
final class MotionSession: MotionManagerDelegate, @unchecked Sendable {
  // @unchecked Sendable: the mutable properties are touched only on `queue`, the
  // manager's callback queue (the signal handler runs on it too).
  let manager: MotionManager
  private let queue = DispatchQueue(label: "whereami.motion")
  private let json: Bool
  private var remaining: Int?
  private let reportsMissing: Bool
  private let waits: Bool
  private var output = OutputStream(descriptor: STDOUT_FILENO, flushingEachLine: true)
  private var exitCode = ExitCode.success
  private var answered = false
  private var finished = false
  private let done = DispatchSemaphore(value: 0)
  /// The caveats of the model's declination said so far.
  private var saidCaveats: Set<String> = []

  init(source: any MotionSource, json: Bool, count: Int?, reportsMissing: Bool, waits: Bool) {
    manager = MotionManager(source: source, callbackQueue: queue)
    self.json = json
    remaining = count
    self.reportsMissing = reportsMissing
    self.waits = waits
    manager.delegate = self
  }

  /// Runs until the end; `completing` runs after the manager has stopped and before a
  /// signal can end the process again.
  func run(_ updates: Set<MotionUpdate>, completing: () -> Void = {}) -> ExitCode {
    queue.sync {
      Interrupts.handle(on: queue) { [self] _ in finish() }
    }
    manager.start(updates)
    done.wait()
    manager.stopUpdates()
    completing()
    Interrupts.reset()
    return queue.sync {
      output.flush()
      if let failure = output.failure {
        printError("whereami: \(failure.message ?? "cannot write output")")
        return .ioError
      }
      return exitCode
    }
  }

  private func finish() {
    guard !finished else { return }
    finished = true
    done.signal()
  }

  private func show(_ event: MotionEvent) {
    guard !finished else { return }
    answered = true
    guard let line = json ? MotionLines.json(event) : MotionLines.text(event) else { return }
    output.write(line + "\n")
    if output.isClosed { return finish() }
    if let left = remaining {
      remaining = left - 1
      if left <= 1 { finish() }
    }
  }

  func motionManager(_ manager: MotionManager, didUpdateAccelerometer data: AccelerometerData) {
    show(.accelerometer(data))
  }
  func motionManager(_ manager: MotionManager, didUpdateGyro data: GyroData) { show(.gyro(data)) }
  func motionManager(_ manager: MotionManager, didUpdateMagnetometer data: MagnetometerData) {
    show(.magnetometer(data))
  }
  func motionManager(_ manager: MotionManager, didUpdateDeviceMotion motion: DeviceMotion) {
    show(.deviceMotion(motion))
  }
  func motionManager(_ manager: MotionManager, didUpdateHeading heading: Heading) {
    if let caveat = heading.declinationCaveat, saidCaveats.insert(caveat.rawValue).inserted {
      printError(DeclinationNotice.message(caveat, source: manager.source.name))
    }
    show(.heading(heading))
  }
  func motionManager(_ manager: MotionManager, didReceiveDeviceUnits reading: SensorReading) {
    show(.deviceUnits(reading))
  }
  func motionBegan(_ manager: MotionManager, shake: ShakeEvent) { show(.shake(shake)) }
  func motionEnded(_ manager: MotionManager, shake: ShakeEvent) { show(.shake(shake)) }
  func motionCancelled(_ manager: MotionManager, shake: ShakeEvent) { show(.shake(shake)) }

  func motionManager(_ manager: MotionManager, didFailWithError error: MotionError) {
    guard !finished else { return }
    switch error.code {
    case .sourceEnded:
      if !error.message.hasPrefix("end of ") || error.message.contains("skipped") || error.message.contains("header") {
        printError("whereami: \(error.message)")
      }
      if error.message.contains("no header") { exitCode = .dataError }
    case .sensorUnavailable where !error.isFinal && !reportsMissing:
      break
    case .cannotConnect where !answered && !waits:
      var message = error.message
      if message.hasSuffix("; retrying") { message.removeLast("; retrying".count) }
      printError("whereami: \(message) (--wait keeps trying)")
      exitCode = .unavailable
      return finish()
    default:
      printError("whereami: \(error.description)")
    }
    if error.code == .sensorUnavailable && reportsMissing && !error.isFinal { exitCode = .unavailable }
    guard error.isFinal else { return }
    switch error.code {
    case .denied: exitCode = .permissionDenied
    case .sourceNotFound: exitCode = .noInput
    case .invalidSource: exitCode = .usage
    case .sensorUnavailable: exitCode = .unavailable
    case .sourceEnded: break
    default: exitCode = .ioError
    }
    finish()
  }
}

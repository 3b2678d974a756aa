import Dispatch
import LocationKit
import MotionKit

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami watch [SOURCE]`: the live position, full screen.
enum WatchCommand {
  /// The SOURCE when none is given: the local gpsd.
  static let defaultSource = "gpsd://localhost:\(SourceAddress.gpsdDefaultPort)"

  static let spec = CommandSpec(
    name: "watch",
    abstract: "Watch the live position full screen: values, satellites, distance travelled and a track map.",
    arguments: "[SOURCE]",
    minimumArguments: 0,
    maximumArguments: 1,
    options: [
      OptionSpec(
        name: "speed", value: "X",
        help: "Replay a log FILE at X times its own pace (default 1; 0 as fast as it reads)."),
      OptionSpec(
        name: "coords", value: "STYLE",
        help:
          "Coordinates as decimal degrees (decimal, the default, or $WHEREAMI_COORDS), degrees and minutes (dm) or dms."
      ),
      OptionSpec(
        name: "units", value: "UNITS", help: "metric (the default, or $WHEREAMI_UNITS), imperial or nautical."),
      OptionSpec(
        name: "motion", value: "SOURCE",
        help: "Also show acceleration, attitude, heading and shakes from a motion source (iio, iio:DIR, a sensor log)."),
      OptionSpec(
        name: "anchor", value: "RADIUS[@LAT,LON]",
        help: "Anchor watch: an alarm (bell and a red line, until the a key) once the boat is outside RADIUS metres "
          + "of the anchor (at LAT,LON, else where the first fix is); the map shows the swing circle."),
    ] + SourceRun.specs,
    discussion: """
      SOURCE is gpsd://HOST[:PORT][/DEVICE] (default $WHEREAMI_SOURCE, else
      \(defaultSource)), a serial device (/dev/ttyUSB0), tcp://HOST:PORT (an NMEA stream),
      udp://[HOST][:PORT] (NMEA datagrams), - for standard input, or an NMEA log FILE,
      replayed at its own pace times --speed. A heading from a compass shows beside the
      course.
      On a terminal the view fills the screen: time, position, accuracy, altitudes, speed,
      course, climb, distance travelled (jitter-proof, with its 1-sigma uncertainty) and
      from the start, fix mode and
      quality, DOPs, the accuracy east-west and north-south, the Maidenhead grid square,
      the age of the fix, the satellites per constellation, and the track around the
      position in braille dots with the accuracy circle and a scale. Errors show on the
      status line. Keys: q quits (as do Ctrl-C and SIGTERM), Ctrl-L redraws, d or Tab
      shows the next device when gpsd has several (the top line then says so), a
      acknowledges the anchor alarm.
      With --anchor the view starts with the distance and bearing to the anchor and the
      watch's state, and the map shows the swing circle; once the boat is outside it by
      more than its position's uncertainty allows (see whereami regions), the terminal
      bell rings every 3 s and the status line says so until a is pressed.
      When standard output is not a terminal, or TERM is dumb or unset, one line per fix is
      written instead, as 'whereami print' does. NO_COLOR turns colours off.
      """)

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    let options = try displayOptions(arguments)
    let address = try SourceRun.address(arguments, defaultSource: defaultSource)
    let speed = try replaySpeed(arguments, replaying: isLogFile(address))
    let source = try SourceRun(
      arguments, address: address, command: spec.name, replaySpeed: speed, label: "whereami.watch")
    source.headings = true
    let display: any WatchDisplay
    if usesFullScreen() {
      let terminal = Terminal(output: STDOUT_FILENO, standardInputIsData: address == .standardInput)
      display = ScreenDisplay(terminal: terminal, style: colorAllowed() ? .colored : .plain)
    } else {
      display = LineDisplay()
    }
    var motion: (any MotionSource)?
    if let text = arguments.value("motion") {
      do throws(MotionError) {
        let address = try MotionSourceAddress(text)
        // A sensor log keeps its own pace (times --speed when given), whatever the position's.
        motion = address.makeSource(speed: address.isLive ? nil : arguments.value("speed") != nil ? speed : 1)
      } catch {
        throw CommandError(message: "watch: --motion: \(error.message)", code: .usage)
      }
    }
    var model = WatchModel(sourceName: source.name, options: options)
    if let text = arguments.value("anchor") {
      let (radius, position) = try RegionArguments.anchor(text, command: spec.name)
      model.anchor = AnchorWatch(radius: radius, position: position)
    }
    let session = WatchSession(source: source, model: model, display: display, motion: motion)
    try session.run()
  }

  /// Whether to draw the full screen: on a terminal that understands cursor movement.
  static func usesFullScreen() -> Bool {
    guard isatty(STDOUT_FILENO) == 1 else { return false }
    let term = Environment.value("TERM") ?? ""
    return !term.isEmpty && term != "dumb"
  }

  /// Colours unless `NO_COLOR` is set and not empty (no-color.org).
  static func colorAllowed() -> Bool {
    (Environment.value("NO_COLOR") ?? "").isEmpty
  }

  /// The environment variables with the defaults of `--coords` and `--units`.
  static let coordinatesVariable = "WHEREAMI_COORDS"
  static let unitsVariable = "WHEREAMI_UNITS"

  /// `--coords` and `--units`, else their environment variables.
  static func displayOptions(_ arguments: ParsedArguments) throws(CommandError) -> WatchModel.Options {
    var options = WatchModel.Options()
    if let text = arguments.value("coords") ?? Environment.value(coordinatesVariable).flatMap({ $0.isEmpty ? nil : $0 })
    {
      guard let style = CoordinateStyle(rawValue: text) else {
        throw CommandError(message: "watch: --coords '\(text)' is not one of decimal, dm, dms", code: .usage)
      }
      options.coordinates = style
    }
    if let text = arguments.value("units") ?? Environment.value(unitsVariable).flatMap({ $0.isEmpty ? nil : $0 }) {
      guard let units = UnitSystem(rawValue: text) else {
        throw CommandError(message: "watch: --units '\(text)' is not one of metric, imperial, nautical", code: .usage)
      }
      options.units = units
    }
    return options
  }

  /// A named regular file is replayed at its own pace; standard input is shown as it comes.
  private static func isLogFile(_ address: SourceAddress) -> Bool {
    if case .file = address { return !address.isLive }
    return false
  }

  /// The replay pace for a log file: `--speed`, 1 by default, `nil` (as fast as it reads)
  /// for 0. Live sources keep their own pace, so `--speed` is refused for them.
  static func replaySpeed(_ arguments: ParsedArguments, replaying: Bool) throws(CommandError) -> Double? {
    guard let text = arguments.value("speed") else { return replaying ? 1 : nil }
    let speed = try parseSpeed(text, command: "watch")
    guard replaying else {
      throw CommandError(message: "watch: --speed replays a log file; this SOURCE is live", code: .usage)
    }
    return speed
  }

  /// The slowest replay: a hundred times slower than the log (a slower one would look
  /// stalled, and below about 1e-308 the pace is no longer a number).
  static let minimumSpeed = 0.01

  /// `--speed X` of `watch` and `replay`: 0 reads as fast as possible (`nil`), otherwise
  /// from ``minimumSpeed`` up.
  static func parseSpeed(_ text: String, command: String) throws(CommandError) -> Double? {
    guard let speed = Double(text), speed.isFinite, speed == 0 || speed >= minimumSpeed else {
      throw CommandError(
        message: "\(command): --speed '\(text)' is not 0 (as fast as it reads) or a number from 0.01 up",
        code: .usage)
    }
    return speed > 0 ? speed : nil
  }
}

/// The `whereami(1)` manual page in roff (the `man` macros), made from the same command and
/// option tables that drive parsing and `--help`, so the two cannot drift apart.
/// `whereami manual` prints it; `scripts/package` installs it.
enum ManualPage {
  /// The environment variables users set once, with what they do.
  static let environment: [(name: String, meaning: String)] = [
    (
      SourceRun.sourceVariable,
      "The SOURCE of now (whereami alone), print, trips and watch when the command line names none "
        + "(gpsd://boat.local, /dev/ttyACM0); without it, gpsd://localhost:2947."
    ),
    (MotionCommand.sourceVariable, "The SOURCE of motion when the command line names none; without it, iio."),
    (WatchCommand.unitsVariable, "The units of watch without --units: metric, imperial or nautical."),
    (WatchCommand.coordinatesVariable, "The coordinates of watch without --coords: decimal, dm or dms."),
    (
      DecodeOptions.geoidVariable,
      "A GTX geoid grid to use instead of EGM96 from /usr/share/proj/egm96_15.gtx, or none for no geoid model."
    ),
    ("NO_COLOR", "Set, watch uses no colours."),
    ("TZ", "The time zone of watch's local time."),
    (
      DecodeOptions.chunkSizeVariable,
      "For tests: the bytes per chunk of parallel decoding, and files of any size decoded in chunks (with --jobs "
        + "above 1)."
    ),
  ]

  /// The exit codes, as the README lists them.
  static let exitCodes: [(code: ExitCode, meaning: String)] = [
    (.success, "Success; rejected input lines are counted (see summary), not fatal."),
    (.anchorAlarm, "print --anchor: the anchor alarm went off (the boat left its swing circle)."),
    (.usage, "Usage error: unknown command or option, missing argument, a SOURCE that is not valid."),
    (
      .dataError,
      "now, print, replay, trips, regions: the input ended without a single fix; regions: a GeoJSON file that "
        + "gives no regions."
    ),
    (.noInput, "The source does not exist (no such file or device; gpsd does not manage the device)."),
    (.unavailable, "A gpsd or TCP source never answered; --wait keeps trying instead."),
    (.ioError, "Reading the source or writing the output failed."),
    (
      .temporaryFailure,
      "now: no fix within --accuracy in --timeout seconds (or in the log); the best one, if any, was printed."
    ),
    (.permissionDenied, "Permission denied on the file or device."),
  ]

  /// The EXAMPLES section: what each line does, and the line.
  static let examples: [(what: String, line: String)] = [
    ("Where am I, from the local gpsd (one answer, then exit):", "whereami"),
    ("The same, waiting up to a minute for a fix within 5 m, as JSON:", "whereami --accuracy 5 --timeout 60 --json"),
    ("Every fix of a USB receiver at 4800 baud:", "whereami print --baud 4800 /dev/ttyUSB0"),
    ("Record what a receiver says, as a log:", "whereami print --nmea /dev/ttyACM0 > drive.nmea"),
    ("Replay it later at ten times its pace:", "whereami replay --speed 10 drive.nmea"),
    ("Watch the live position full screen:", "whereami watch"),
    ("What a log holds, and the trips in it:", "whereami summary drive.nmea; whereami trips drive.nmea"),
    ("A GPX track of a log:", "whereami export --format gpx drive.nmea -o drive.gpx"),
    ("Fixes that a boat's network sends over UDP, as JSON:", "whereami print --json udp://"),
    ("When the receiver enters or leaves a 200 m circle:", "whereami regions --region home=52.5,13.4,200"),
    ("An anchor alarm for a 40 m swing circle:", "whereami watch --anchor 40 udp://"),
  ]

  /// The page.
  static func roff(commands: [CommandSpec], version: String, date: String) -> String {
    var page = [
      ".TH WHEREAMI 1 \"\(date)\" \"whereami \(version)\" \"User Commands\"",
      ".SH NAME",
      "whereami \\- where you are, from a GPS receiver",
      ".SH SYNOPSIS",
      ".B whereami",
      "[\\fIoptions\\fR] [\\fISOURCE\\fR]",
      ".br",
      ".B whereami",
      ".I command",
      "[\\fIoptions\\fR] [\\fISOURCE\\fR|\\fIFILE\\fR...]",
      ".br",
      ".B whereami",
      "\\fB\\-h\\fR|\\fB\\-\\-help\\fR|\\fB\\-V\\fR|\\fB\\-\\-version\\fR",
      ".SH DESCRIPTION",
      text(
        "whereami prints latitude, longitude, accuracy, altitude, speed, course and the distance travelled from "
          + "a GPS receiver's NMEA 0183 output: from gpsd, a serial receiver, a TCP or UDP stream, standard input "
          + "or a log file. It replays, summarises and exports logs, and watches the live position on the terminal. "
          + "Without a command it answers once where you are (the command now)."),
      ".SH COMMANDS",
    ]
    for command in commands {
      page.append(
        ".SS \"\(escaped(command.name + " " + (command.options.isEmpty ? "" : "[OPTIONS] ") + command.arguments))\"")
      page.append(text(command.abstract))
      if !command.discussion.isEmpty {
        page.append(".PP")
        page.append(
          text(command.discussion.split(separator: "\n").map { $0.trimmingPrefix(" ") }.joined(separator: " ")))
      }
      for option in command.options {
        page.append(".TP")
        var label = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        label += "\\fB\\-\\-\(escaped(option.name))\\fR"
        if let value = option.value { label += " \\fI\(escaped(value))\\fR" }
        page.append(label)
        page.append(text(option.help))
      }
      page.append(".TP")
      page.append("\\fB\\-h\\fR, \\fB\\-\\-help\\fR")
      page.append("Show the command's help.")
    }
    page.append(".SH EXAMPLES")
    for (what, line) in examples {
      page += [".PP", text(what), ".PP", ".RS", ".nf", text(line), ".fi", ".RE"]
    }
    page.append(".SH ENVIRONMENT")
    for (name, meaning) in environment {
      page += [".TP", ".B \(name)", text(meaning)]
    }
    page.append(".SH EXIT STATUS")
    for (code, meaning) in exitCodes {
      page += [".TP", ".B \(code.rawValue)", text(meaning)]
    }
    page += [
      ".SH FILES",
      ".TP",
      ".I /usr/share/proj/egm96_15.gtx",
      text("The EGM96 geoid grid (Debian's proj-data) for ellipsoidal heights where the receiver gives none."),
      ".SH SEE ALSO",
      ".BR gpsd (8),",
      ".BR gpspipe (1),",
      ".BR cgps (1)",
    ]
    return page.joined(separator: "\n") + "\n"
  }

  /// Running text, escaped for roff: backslashes, and lines that would start a request.
  static func text(_ text: String) -> String {
    let body = escaped(text)
    return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
  }

  /// `text` with roff's escape character and hyphens written as roff wants them.
  static func escaped(_ text: String) -> String {
    text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
  }
}

extension Substring {
  fileprivate func trimmingPrefix(_ character: Character) -> Substring { drop { $0 == character } }
}

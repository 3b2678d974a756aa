import LocationKit
import NMEA
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami print SOURCE` and `whereami replay FILE`: one line per fix.
enum PrintCommand {
  static let spec = CommandSpec(
    name: "print",
    abstract: "Print one line per fix: time, position, accuracy, altitude, speed, course and distance travelled.",
    arguments: "[SOURCE]",
    minimumArguments: 0,
    maximumArguments: 1,
    options: [
      OptionSpec(
        name: "json", value: nil,
        help: "One JSON object per fix, with gpsd's TPV field names, and per heading report, with its ATT names."),
      OptionSpec(
        name: "heading", value: nil,
        help: "Also print a line for every heading report (compass, dual-antenna receiver), at the sensor's rate."),
      OptionSpec(
        name: "nmea", value: nil,
        help: "Write the accepted NMEA sentences as they come instead (a log that replay reads), like gpspipe -r."),
      OptionSpec(
        name: "all", value: nil,
        help: "With --nmea: also report every rejected line, with its reason, on standard error."),
      OptionSpec(
        name: "sentences", value: "TYPES",
        help: "With --nmea: only these types, comma-separated (GGA,RMC; PUBX for proprietary ones), like "
          + "gpspipe -r | grep. With --json too, each as an object of its decoded fields."),
      OptionSpec(
        name: "count", value: "N",
        help: "End after N fixes printed (with --nmea: N sentences), like gpspipe -n; heading lines do not count."),
      IntervalFilter.spec,
      OptionSpec(
        name: "anchor", value: "RADIUS[@LAT,LON]",
        help: "Anchor watch: end with exit code 3 once the boat is outside RADIUS metres of the anchor (at LAT,LON, "
          + "else where the first fix is), saying so on standard error (and as a REGION object with --json)."),
    ] + SourceRun.specs,
    discussion: """
      SOURCE is an NMEA log file, - for standard input, a serial receiver (/dev/ttyUSB0,
      /dev/ttyACM0, ...), a TCP NMEA stream (tcp://HOST:PORT), NMEA over UDP
      (udp://[HOST][:PORT], default port 10110; HOST a multicast group to join, on the
      interface named by a %IFACE after it, or an address to listen on) or gpsd (gpsd://HOST:PORT, optionally followed by a device
      path). Without SOURCE: $WHEREAMI_SOURCE, else gpsd://localhost:2947. A gpsd or TCP
      source that never answers ends the command (exit code 69) unless --wait.
      Cycles without a position are not printed. Errors are reported on standard error as
      they happen, with their kind (denied, location unknown, ...). Ctrl-C ends a live
      source with a summary line. A pipe's reader that falls more than a second behind a
      receiver gets the newest fix; the fixes in between are said, not printed.
      Text columns: UTC time, fix mode, latitude, longitude (degrees), horizontal accuracy,
      altitude above mean sea level, vertical accuracy, speed, course and the distance
      travelled (jitter-proof) with its 1-sigma uncertainty (±; JSON distanceError; JSON
      also has pathLength, the raw sum, and displacement, the straight distance from the
      first fix), and the heading where a compass or a
      dual-antenna receiver gives one (true °T, magnetic °M, its 1-sigma accuracy). '-'
      marks a value the receiver did not give; '~' a speed or course derived from
      positions. Accuracies are 1-sigma (about 68 %). With --json, heading reports are ATT
      objects between the TPVs.
      """)

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    try follow(arguments, command: spec.name, replaySpeed: nil)
  }

  /// `--sentences`' types (`GGA,RMC`, `PUBX`), upper-cased; `nil` without the option.
  private static func sentenceTypes(_ arguments: ParsedArguments, command: String) throws(CommandError) -> Set<String>?
  {
    guard let text = arguments.value("sentences") else { return nil }
    let types = text.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.filter { $0 != " " }.uppercased()
    }
    guard !types.isEmpty, types.allSatisfy({ type in !type.isEmpty && type.allSatisfy { $0.isLetter || $0.isNumber } })
    else {
      throw CommandError(
        message: "\(command): --sentences '\(text)' is not a list of sentence types such as GGA,RMC", code: .usage)
    }
    return Set(types)
  }

  /// `--count`'s value: a number of lines above 0.
  private static func count(_ arguments: ParsedArguments, command: String) throws(CommandError) -> Int? {
    guard let text = arguments.value("count") else { return nil }
    guard let value = Int(text), value > 0 else {
      throw CommandError(message: "\(command): --count '\(text)' is not a number above 0", code: .usage)
    }
    return value
  }

  /// The SOURCE when none is given: the local gpsd.
  static let defaultSource = "gpsd://localhost:2947"

  /// Prints every location of the SOURCE in `arguments`.
  static func follow(_ arguments: ParsedArguments, command: String, replaySpeed: Double?) throws(CommandError) {
    // A log read at full speed is buffered; anything live (or paced) is written line by
    // line, so that `whereami print /dev/ttyUSB0 | tee track.log` shows fixes as they come.
    let address = try SourceRun.address(arguments, defaultSource: defaultSource)
    // A receiver's reader that falls behind gets the newest fix; a log's (a file, or a
    // pipe: `zcat log.gz | whereami print -`) and a replay's get every one, the reading
    // held back meanwhile.
    var isReceiver: Bool {
      switch address {
      case .serial, .tcp, .udp, .gpsd: true
      case .file, .standardInput: false
      }
    }
    let output = SharedOutput(
      descriptor: STDOUT_FILENO, flushingEachLine: address.isLive || replaySpeed != nil,
      newestFor: isReceiver && replaySpeed == nil ? address.description : nil)
    let nmea = arguments.has("nmea")
    if arguments.has("all") && !nmea {
      throw CommandError(message: "\(command): --all goes with --nmea", code: .usage)
    }
    let count = try Self.count(arguments, command: command)
    var interval = try IntervalFilter.parse(arguments, command: command)
    if interval != nil && nmea {
      throw CommandError(message: "\(command): --interval thins fixes, and --nmea prints sentences", code: .usage)
    }
    // The lines printed so far, for --count: sentences on the reading thread, fixes on
    // the callback queue.
    let printed = Locked(0)
    // The sentences go out from the reading thread, the only writer while --nmea prints no
    // fixes; a reader that went away, or the count reached, ends the run from the
    // callback queue.
    let run = Locked<SourceRun?>(nil)
    let wanted = try Self.sentenceTypes(arguments, command: command)
    if wanted != nil && !nmea {
      throw CommandError(message: "\(command): --sentences goes with --nmea", code: .usage)
    }
    let sentencesAsJSON = nmea && arguments.has("json")
    // One line, raw or decoded, when its type is wanted (a `# Date:` comment always is).
    let pass: @Sendable ([UInt8], Sentence?) -> Void = { bytes, sentence in
      // A type (GGA), or a whole address (GPGGA), as `grep` users type it.
      if let wanted, bytes.first != UInt8(ascii: "#"), !wanted.contains(SentenceRenderer.type(ofLine: bytes)),
        !wanted.contains(SentenceRenderer.address(ofLine: bytes))
      {
        return
      }
      if let count, printed.withLock({ $0 >= count }) { return }
      let open = output.write { line in
        if sentencesAsJSON, let sentence {
          SentenceRenderer.json(sentence, line: bytes, into: &line)
        } else {
          bytes.withUnsafeBufferPointer { line.append($0) }
        }
      }
      // A `# Date:` comment goes into the recording, and is no sentence to count.
      var reached = false
      if let count, bytes.first != UInt8(ascii: "#") {
        reached = printed.withLock { printed in
          printed += 1
          return printed >= count
        }
      }
      if !open || reached, let source = run.withLock({ $0 }) {
        source.queue.async { source.finish() }
      }
    }
    var passThrough: (@Sendable ([UInt8]) -> Void)?
    var decoded: (@Sendable (Sentence, [UInt8]) -> Void)?
    if sentencesAsJSON {
      decoded = { sentence, bytes in pass(bytes, sentence) }
    } else if nmea {
      passThrough = { bytes in pass(bytes, nil) }
    }
    // Checked before the source exists: once it does, the pass-through closure and the run
    // hold each other until the end.
    var parsedAnchor: (radius: Double, position: (latitude: Double, longitude: Double)?)?
    if let text = arguments.value("anchor") {
      if nmea {
        throw CommandError(message: "\(command): --anchor watches fixes, and --nmea prints sentences", code: .usage)
      }
      parsedAnchor = try RegionArguments.anchor(text, command: command)
    }
    let source = try SourceRun(
      arguments, address: address, command: command, replaySpeed: replaySpeed, label: "whereami.print",
      passThrough: passThrough, decoded: decoded)
    run.withLock { $0 = source }
    let json = arguments.has("json")
    let headingLines = arguments.has("heading")
    // The anchor watch: its circle is monitored from the start when its position is
    // given, else from the first fix; the alarm ends the run with its own exit code.
    var anchor: AnchorWatch?
    if let parsedAnchor {
      anchor = AnchorWatch(radius: parsedAnchor.radius, position: parsedAnchor.position)
      anchor!.start(on: source.manager)
    }
    let alarmed = Locked(false)
    let regionEvent: ((RegionEvent, Bool) -> Bool)? =
      anchor == nil
      ? nil
      : { event, _ in
        guard anchor!.handle(event) else { return true }
        alarmed.withLock { $0 = true }
        printError("whereami: \(anchor!.alarmMessage(event))" + (isatty(STDERR_FILENO) == 1 ? "\u{7}" : ""))
        if json { _ = output.write { $0.append(string: RegionLines.json(event) + "\n") } }
        return false
      }
    // JSON carries every heading report as ATT; text only with --heading. Without either,
    // headings still come, for the fix line's heading.
    let renderHeading: (Heading, Bool) -> Bool = { heading, severalDevices in
      guard !nmea, json || headingLines else { return true }
      return output.write(kind: "ATT " + (heading.device ?? "")) { line in
        if json {
          LocationRenderer.attitude(heading, into: &line)
        } else {
          if severalDevices, let device = heading.device {
            line.append(string: device)
            line.append(UInt8(ascii: " "))
          }
          LocationRenderer.headingText(heading, into: &line)
        }
      }
    }
    let session = LocationSession(
      source, verbose: arguments.has("verbose"), renderHeading: renderHeading, regionEvent: regionEvent
    ) {
      location, odometer, severalDevices, heading in
      if nmea { return true }
      if anchor != nil, anchor!.learnPosition(from: source.manager), let position = anchor!.position {
        printError(
          "whereami: anchor dropped at \(fixed(position.latitude, 6)),\(fixed(position.longitude, 6)) (the first "
            + "fix), swing radius \(fixed(anchor!.radius, 0)) m")
      }
      // Thinned for the output only: the odometer has counted the fix already.
      if interval != nil, !interval!.admits(location) { return true }
      // The odometer's figures are taken out here: the closure below, handed the odometer
      // itself, copied all of it (2 KB) for every fix.
      let open: Bool
      if json {
        let distances = TrackDistances(odometer)
        open = output.write(kind: location.device ?? "") { line in
          LocationRenderer.json(location, distances, into: &line)
        }
      } else {
        let (distance, distanceError) = (odometer.distance, odometer.distanceError)
        open = output.write(kind: location.device ?? "") { line in
          // With several gpsd devices, each line says whose it is.
          if severalDevices, let device = location.device {
            line.append(string: device)
            line.append(UInt8(ascii: " "))
          }
          LocationRenderer.text(
            location, distance: distance, distanceError: distanceError, heading: heading, into: &line)
        }
      }
      guard let count else { return open }
      // The last one asked for ends the run as a closed output does.
      return open
        && printed.withLock {
          $0 += 1; return $0 < count
        }
    }
    session.outputsHeadings = nmea || json || headingLines
    let code = session.run()
    // The pass-through closure, held by the source, holds the run: break that cycle.
    run.withLock { $0 = nil }
    output.sayUnprinted(total: true)
    if let failure = output.finish() { throw failure }
    if code != .success { throw CommandError(message: nil, code: code) }
    if alarmed.withLock({ $0 }) { throw CommandError(message: nil, code: .anchorAlarm) }
  }
}

/// `whereami replay FILE`: a log printed at the pace of its own timestamps.
enum ReplayCommand {
  static let spec = CommandSpec(
    name: "replay",
    abstract: "Print a log's fixes at the pace of its own timestamps, as if the receiver were live.",
    arguments: "FILE",
    minimumArguments: 1,
    maximumArguments: 1,
    options: [
      OptionSpec(
        name: "speed", value: "X",
        help: "Replay X times faster (default 1; 0.5 is half speed, 0.01 the slowest; 0 as fast as it reads).")
    ] + PrintCommand.spec.options.filter { ["json", "heading", "count", "interval"].contains($0.name) }
      + SourceRun.specs.filter { $0.name != "baud" },
    discussion: "The output is that of whereami print.")

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    var speed: Double? = 1
    if let text = arguments.value("speed") { speed = try WatchCommand.parseSpeed(text, command: "replay") }
    try PrintCommand.follow(arguments, command: spec.name, replaySpeed: speed)
  }
}

/// Standard output shared with the session's callbacks.
///
/// For a receiver's fixes on a pipe, a reader slower than the receiver gets the newest
/// fix, not one minutes old. While the reader keeps up, within ``allowedLag`` of what was
/// written (a reader busy for a moment, `tee` on a loaded machine), every line is written
/// and the reading is held back as for a log. Once a line has waited longer, the reader
/// is behind: a line is then written only once the reader has taken the previous line of
/// its kind (a device's fixes, its headings), as the pipe's count of unread bytes tells,
/// and the fixes in between are counted and said, once a minute; three lines taken in a
/// row, with the pipe empty, and it keeps up again. Without this, the pipe's 64 KiB and
/// the source held back behind it gave a reader of a line a second from a 10 Hz source
/// positions 269 s old after five minutes. Every fix still reaches the session: its
/// distance counts them all.
final class SharedOutput: @unchecked Sendable {
  // @unchecked Sendable: `stream` and the counts are touched only from the location
  // session's serial callback queue while the session runs, or (`print --nmea`, which
  // renders no fixes) only from the source's reading thread; and from the main thread
  // (the last lines of `trips`, then finishing) after it has ended: stopUpdating waits
  // for the queue and for the reading thread to end, so no two writers ever overlap.
  private var stream: OutputStream
  private let descriptor: Int32
  /// The source's name when a receiver's lines are written to a pipe, else `nil`.
  private let newestFor: String?
  /// Bytes written so far, and where each kind's last line ends among them.
  private var written = 0
  private var lineEnds: [String: Int] = [:]
  /// The lines the reader may not have taken yet: where each ends, and when it was
  /// written (monotonic seconds), oldest first, from `firstRecent` on.
  private var recent: [(end: Int, time: Double)] = []
  private var firstRecent = 0
  /// Whether the reader is behind, and how many lines in a row it has taken since.
  private var behind = false
  private var takenInARow = 0
  /// Fixes not printed, in all and since the last notice, and when that was; headings not
  /// printed.
  private var unprinted = 0
  private var unprintedHeadings = 0
  private var unprintedSinceNotice = 0
  private var lastNotice: Double?

  /// How long a line may wait for the reader before it is behind, seconds: what a reader
  /// that keeps up on average may lag (a scheduler's hiccup on a loaded machine), and the
  /// most a line written while it kept up can be older than its fix when it is read, plus
  /// the reader's own pace.
  static let allowedLag = 1.0

  /// Output on `descriptor`; with `newestFor` (a receiver's name), a reader on a pipe that
  /// falls behind gets the newest lines.
  init(descriptor: Int32, flushingEachLine: Bool, newestFor sourceName: String? = nil) {
    self.descriptor = descriptor
    stream = OutputStream(descriptor: descriptor, flushingEachLine: flushingEachLine)
    var info = stat()
    let isPipe = fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
    newestFor = isPipe ? sourceName : nil
  }

  /// Writes a rendered line; `false` once the output is closed.
  func write(_ render: (inout ByteBuffer) -> Void) -> Bool {
    stream.write(render)
    return !stream.isClosed
  }

  /// Writes a rendered line of `kind`, unless the reader is behind and has not yet taken
  /// the previous line of that kind (then it is counted as not printed); `false` once the
  /// output is closed.
  func write(kind: String, _ render: (inout ByteBuffer) -> Void) -> Bool {
    guard newestFor != nil else { return write(render) }
    var unread: Int32 = 0
    guard ioctl(descriptor, UInt(FIONREAD), &unread) == 0 else { return write(render) }
    let taken = written - Int(unread)
    while firstRecent < recent.count, recent[firstRecent].end <= taken { firstRecent += 1 }
    if firstRecent > 1024 {
      recent.removeFirst(firstRecent)
      firstRecent = 0
    }
    let now = SystemClock.monotonic()
    if !behind, firstRecent < recent.count, now - recent[firstRecent].time > Self.allowedLag {
      behind = true
      takenInARow = 0
    }
    if behind {
      if let end = lineEnds[kind], end > taken {
        takenInARow = 0
        // Headings are not fixes: counted in all, said at the end.
        if kind.hasPrefix("ATT ") {
          unprintedHeadings += 1
          return !stream.isClosed
        }
        unprinted += 1
        unprintedSinceNotice += 1
        if lastNotice.map({ now - $0 >= RepeatedMessages.interval }) ?? true {
          sayUnprinted(total: false)
          lastNotice = now
        }
        return !stream.isClosed
      }
      takenInARow += 1
      if takenInARow >= 3, unread == 0 { behind = false }
    }
    written += stream.writeCounting(render)
    // Bounded whatever the senders: the kinds whose last line the reader has taken go.
    if lineEnds.count >= 1024 { lineEnds = lineEnds.filter { $0.value > taken } }
    lineEnds[kind] = written
    recent.append((written, now))
    return !stream.isClosed
  }

  /// Says how many fixes were not printed since the last notice, or in all.
  func sayUnprinted(total: Bool) {
    guard let name = newestFor else { return }
    if total {
      if unprintedHeadings > 0 {
        printError(
          "whereami: \(name): \(unprintedHeadings) headings in all not printed: standard output was read slower "
            + "than they came")
      }
      guard unprinted > 0 else { return }
      printError(
        "whereami: \(name): \(unprinted) fixes in all not printed: standard output was read slower than they "
          + "came, and each line was the newest (the distance counts them all)")
    } else {
      printError(
        "whereami: \(name): \(unprintedSinceNotice) fixes not printed \(lastNotice == nil ? "so far" : "in the last minute"): "
          + "standard output is read slower than they come; each line is the newest")
    }
    unprintedSinceNotice = 0
  }

  /// Flushes; the write failure, if any.
  func finish() -> CommandError? {
    stream.flush()
    return stream.failure
  }
}

extension Rejection {
  /// The reason with the offending sentence, field, checksums and text, for messages.
  var explanation: String {
    var text = reason.description
    if let address { text += ": \(address)" }
    if let fieldError { text += " \(fieldError)" }
    if let detail = self.detail {
      if let stated = detail.statedChecksum, let computed = detail.computedChecksum {
        text += " (it says \(Self.hex(stated)), its bytes give \(Self.hex(computed)))"
      }
      text += ": " + detail.text
    }
    return text
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }
}

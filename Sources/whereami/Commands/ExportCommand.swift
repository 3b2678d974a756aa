import LocationKit
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami export SOURCE --format FORMAT [-o FILE]`: the track as GPX, GeoJSON, KML,
/// CSV, JSON lines or an SVG map, written as the fixes come (constant memory).
enum ExportCommand {
  static let spec = CommandSpec(
    name: "export",
    abstract: "Export the track as GPX, GeoJSON, KML, CSV, JSON lines or an SVG map.",
    arguments: "SOURCE",
    minimumArguments: 1,
    maximumArguments: 1,
    options: [
      OptionSpec(
        name: "format", value: "FORMAT",
        help: "gpx, geojson, kml, csv, jsonl or svg (default: from the extension of -o FILE)."),
      OptionSpec(
        name: "output", short: "o", value: "FILE",
        help: "Write FILE, complete or not at all, instead of standard output."),
      OptionSpec(
        name: "gap", value: "SECONDS",
        help: "Start a new track segment after a fix gap longer than this (default 10; 0 never)."),
      OptionSpec(
        name: "split", value: "gaps|trips",
        help: "Segments at fix gaps (default), or one per trip, stops left out (GPX: a track each)."),
      OptionSpec(name: "points", value: nil, help: "GeoJSON: one Point feature per fix instead of lines."),
      OptionSpec(name: "name", value: "NAME", help: "The track's name (default: the SOURCE's file name)."),
      IntervalFilter.spec,
    ] + SourceRun.specs,
    discussion: """
      SOURCE is what print takes: a log file, - for standard input, a serial receiver,
      tcp://HOST:PORT or gpsd://HOST:PORT. A live source is recorded until Ctrl-C or
      SIGTERM, and the export is then completed; interrupting the export of a log file
      leaves no output file.
      Formats: gpx (GPX 1.1, a segment per continuous span, gpxlogger's fields), geojson
      (RFC 7946: a LineString feature per segment, or Point features with --points), kml
      (KML 2.2: timestamped fixes and the track's lines), csv (RFC 4180, every field),
      jsonl (the lines of print --json) and svg (a map of the track coloured by speed, with
      a scale bar, a north arrow, start and end markers and a legend).
      --split trips writes one segment per trip (as whereami trips finds them: a stop of a
      minute or more ends a trip), and leaves out the stops between them; --gap does not
      apply then.
      A gpsd source with several devices gives a track per device, each with its own
      segments and distance: csv and jsonl rows name their device as they come; gpx
      writes a trk per device (its src the device), geojson and kml a device's features
      after another's, svg a map per device.
      With -o FILE the export is written to FILE.partial-PID and renamed to FILE when it is
      complete; on an error or an interruption the partial file is removed. A FILE that
      cannot be created or written gives exit code 74.
      """)

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    let format = try format(arguments)
    let gap = try gap(arguments)
    let points = arguments.has("points")
    if points && format != .geojson {
      throw CommandError(message: "export: --points is for --format geojson", code: .usage)
    }
    let source = arguments.positionals[0]
    let address = try SourceRun.address(arguments, defaultSource: "-", usesEnvironment: false)
    let splitTrips: Bool
    switch arguments.value("split") {
    case nil, "gaps": splitTrips = false
    case "trips": splitTrips = true
    case let other?: throw CommandError(message: "export: --split '\(other)' is not gaps or trips", code: .usage)
    }
    var header = ExportHeader(name: arguments.value("name") ?? trackName(address), source: source, gap: gap)
    header.segmentsAreTrips = splitTrips
    // Renaming the export over its own log would lose the log; so would standard input
    // redirected from it (`export - -o walk.gpx < walk.gpx`).
    if let file = arguments.value("output"), InputFile.isSameFile(source, file) {
      throw CommandError(message: "export: -o '\(file)' is the SOURCE itself", code: .usage)
    }
    let run = try SourceRun(arguments, address: address, command: spec.name, label: "whereami.export")
    let interval = try IntervalFilter.parse(arguments, command: "export")
    let session = ExportSession(
      run, output: arguments.value("output"), gap: gap, splitTrips: splitTrips, interval: interval)
    let output = try ExportOutput.open(arguments.value("output"), partial: session.partialFile)
    let writer: any ExportWriter
    do throws(ExportError) {
      writer = try format.makeWriter(header, points: points)
    } catch {
      output.discard()
      throw CommandError(error)
    }
    let further = { (device: String) throws(ExportError) -> any ExportWriter in
      var continued = header
      continued.continuedDevice = device
      return try format.makeWriter(continued, points: points)
    }
    let outcome = session.run(writer: writer, furtherWriter: further, output: output)
    // Read once: the session is over, and each read waits for its queue.
    let recorded = session.recorded
    let untimed = recorded.untimed
    if untimed > 0, outcome.isWritten {
      printError(
        "whereami: \(untimed) fixes from \(session.sourceName) had no time (gpsd gave none with them) "
          + "and are not in the export")
    }
    // A time of day without a date is no time a GPX, KML or CSV reader takes: said, with
    // the way to give one, rather than a track whose times are silently missing.
    let undated = recorded.undated
    if undated > 0, outcome.isWritten {
      printError(
        "whereami: \(undated) fixes from \(session.sourceName) had no date (no RMC or ZDA gave one) "
          + "and have no time in the export; --date YYYY-MM-DD gives the first one its date")
    }
    switch outcome {
    case .ended:
      try output.commit()
      if recorded.fixes == 0 {
        printError(
          "whereami: no fixes in \(session.sourceName); the export has "
            + (recorded.headings > 0 ? "its \(recorded.headings) heading reports only" : "no track"))
      }
    case .recordingStopped:
      try output.commit()
      let distances =
        recorded.distances.count <= 1
        ? "distance \(fixed(recorded.distances.first?.distance ?? 0, 1)) m ±\(fixed(recorded.distances.first?.error ?? 0, 1)) m"
        : "distances "
          + recorded.distances.map {
            "\(fixed($0.distance, 1)) m ±\(fixed($0.error, 1)) m (\($0.device ?? "no device"))"
          }
          .joined(separator: ", ")
      printError(
        "whereami: \(recorded.fixes) fixes from \(session.sourceName) written to \(output.name); \(distances)")
    case .outputClosed:
      output.discard()
    case .failed(let error):
      output.discard()
      throw error
    }
  }

  /// `--format`, or the format `-o FILE`'s extension names.
  static func format(_ arguments: ParsedArguments) throws(CommandError) -> ExportFormat {
    let names = ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
    if let text = arguments.value("format") {
      guard let format = ExportFormat(rawValue: text.lowercased()) else {
        throw CommandError(message: "export: --format '\(text)' is not one of \(names)", code: .usage)
      }
      return format
    }
    if let file = arguments.value("output"), let format = ExportFormat(fileName: file) {
      return format
    }
    throw CommandError(message: "export: --format is missing (\(names))", code: .usage)
  }

  /// `--gap` in seconds (default 10; 0 never splits).
  static func gap(_ arguments: ParsedArguments) throws(CommandError) -> Double {
    guard let text = arguments.value("gap") else { return 10 }
    guard let value = Double(text), value >= 0, value.isFinite else {
      throw CommandError(message: "export: --gap '\(text)' is not a number of seconds", code: .usage)
    }
    return value
  }

  /// The default track name: a log file's name without its extension, otherwise the
  /// source's description (`gpsd://localhost:2947`, `standard input`).
  static func trackName(_ address: SourceAddress) -> String {
    guard case .file(let path) = address else { return address.description }
    let file = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
    return String(file[..<dot])
  }
}

import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami print SOURCE`: one line per fix.
enum PrintCommand {
  static let spec = CommandSpec(
    name: "print",
    abstract: "Print one line per fix: time, position, accuracy, altitude, speed, course and distance travelled.",
    arguments: "SOURCE",
    minimumArguments: 1,
    maximumArguments: 1,
    options: [
      OptionSpec(name: "json", value: nil, help: "One JSON object per fix, with gpsd's TPV field names."),
      OptionSpec(
        name: "verbose", short: "v", value: nil,
        help: "Report every rejected line on standard error (source, line and reason)."),
    ] + DecodeOptions.specs,
    discussion: """
      SOURCE is an NMEA log file, or - for standard input. Cycles without a position are not
      printed; the distance is the geodesic path length since the first fix (WGS84).
      Text columns: UTC time, fix mode, latitude, longitude (degrees), horizontal accuracy,
      altitude above mean sea level, vertical accuracy, speed, course, distance. '-' marks a
      value the receiver did not give. Accuracies are 1-sigma (about 68 %).
      """)

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    let options = try DecodeOptions.decoderOptions(arguments, command: spec.name)
    let input = try InputFile(path: arguments.positionals[0])
    let json = arguments.has("json")
    let verbose = arguments.has("verbose")
    var output = OutputStream(descriptor: STDOUT_FILENO)
    var decoder = NMEADecoder(options: options)
    var odometer = Odometer()
    let sourceName = input.name
    let handle: (DecoderEvent) -> Void = { event in
      switch event {
      case .fix(let fix):
        guard fix.hasPosition else { return }
        let distance = odometer.add(fix)
        output.write { line in
          if json {
            FixRenderer.json(fix, distance: distance, into: &line)
          } else {
            FixRenderer.text(fix, distance: distance, into: &line)
          }
        }
      case .rejected(let rejection):
        if verbose { printError("whereami: \(sourceName):\(rejection.line): \(rejection.detail)") }
      case .sentence:
        break
      }
    }
    try input.forEachChunk { chunk in
      decoder.decode(chunk, handle)
      return !output.isClosed
    }
    decoder.finish(handle)
    output.flush()
    if let failure = output.failure { throw failure }
  }
}

extension Rejection {
  /// The reason with the offending sentence and field, for messages.
  var detail: String {
    var text = reason.description
    if let address { text += ": \(address)" }
    if let fieldError { text += " \(fieldError)" }
    return text
  }
}

import LocationKit
import NMEA
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami summary FILE...`: what a log holds, and what was wrong with it.
enum SummaryCommand {
  static let spec = CommandSpec(
    name: "summary",
    abstract:
      "Summarise logs: fixes, time span, distance, speeds, fix modes and qualities, sentence and rejection counts.",
    arguments: "FILE...",
    minimumArguments: 1,
    maximumArguments: nil,
    options: [
      OptionSpec(name: "json", value: nil, help: "One JSON object per file (and a total for several files)."),
      OptionSpec(
        name: "verbose", short: "v", value: nil,
        help:
          "Say on standard error how each file was split across threads, and why chunks were decoded again in order."
      ),
    ] + DecodeOptions.specs,
    discussion:
      "FILE may be - for standard input. Each file is summarised on its own; with several files a total follows.")

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    var options = try DecodeOptions.decoderOptions(arguments, command: spec.name)
    // A summary reads no satellite lists: building them was a tenth of its work.
    options.tracksSatellites = false
    let parallelism = try DecodeOptions.parallelism(arguments, command: spec.name)
    var output = OutputStream(descriptor: STDOUT_FILENO)
    var total = TrackSummary()
    let json = arguments.has("json")
    // No file has an empty name (an unset shell variable): a usage error, as for a SOURCE.
    if arguments.positionals.contains("") {
      throw CommandError(message: "summary: '' is not a FILE (a path, or - for standard input)", code: .usage)
    }
    for path in arguments.positionals {
      let input = try InputFile(path: path)
      var summary = TrackSummary()
      let split: ((String) -> Void)? = arguments.has("verbose") ? { printError("whereami: \(input.name): \($0)") } : nil
      summary.statistics = try input.decode(options, parallelism, split: split) { event in
        // Taken out of the event, not copied.
        if case .fix(let fix) = consume event { summary.add(fix) }
      }
      output.write(json ? summary.json(name: input.name) : summary.text(name: input.name))
      if let first = summary.first, let address = try? SourceAddress(path),
        let reference = WeekRolloverNotice.reference(for: address),
        let message = WeekRolloverNotice.message(first, source: input.name, reference: reference)
      {
        output.flush()
        printError(message)
      }
      total.merge(summary)
    }
    if arguments.positionals.count > 1 {
      output.write(json ? total.json(name: nil) : total.text(name: "total"))
    }
    output.flush()
    if let failure = output.failure { throw failure }
  }
}

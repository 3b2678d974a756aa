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
      "FILE may be - for standard input. Each file is summarised on its own; with several files a total follows. "
      + "A file that cannot be read is said and skipped; the exit code is then the first such file's.")

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
    // A file that cannot be read is said and skipped, as cat and wc do: the others are
    // still summarised, and the command exits with the first such file's code.
    var failure: ExitCode?
    var summarised = 0
    for path in arguments.positionals {
      var summary = TrackSummary()
      let name: String
      do throws(CommandError) {
        let input = try InputFile(path: path)
        name = input.name
        let split: ((String) -> Void)? =
          arguments.has("verbose") ? { printError("whereami: \(input.name): \($0)") } : nil
        summary.statistics = try input.decode(options, parallelism, split: split) { event in
          // Taken out of the event, not copied.
          if case .fix(let fix) = consume event { summary.add(fix) }
        }
      } catch {
        output.flush()
        if let message = error.message { printError("whereami: \(message)") }
        failure = failure ?? error.code
        continue
      }
      output.write(json ? summary.json(name: name) : summary.text(name: name))
      if let first = summary.first, let address = try? SourceAddress(path),
        let reference = WeekRolloverNotice.reference(for: address),
        let message = WeekRolloverNotice.message(first, source: name, reference: reference)
      {
        output.flush()
        printError(message)
      }
      total.merge(summary)
      summarised += 1
    }
    // The total of the files summarised, when there were several.
    if summarised > 1 {
      output.write(json ? total.json(name: nil) : total.text(name: "total"))
    }
    output.flush()
    if let failure = output.failure { throw failure }
    if let failure { throw CommandError(message: nil, code: failure) }
  }
}

import Geodesy
import LocationKit
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// Options shared by every command that decodes NMEA.
enum DecodeOptions {
  static let specs: [OptionSpec] = [
    OptionSpec(
      name: "strict", value: nil,
      help: "Reject sentences without a *HH checksum (by default they are accepted and counted as unchecked)."),
    OptionSpec(
      name: "date", value: "YYYY-MM-DD",
      help: "Date of the first fix, for logs with no RMC/ZDA date (a '# Date:' comment in the log is used otherwise)."),
    OptionSpec(
      name: "week-rollover", value: "N",
      help:
        "Add N × 1,024 weeks to the receiver's dates: one whose GPS week number rolled over dates its fixes "
        + "19.6 years early (whereami says so when it sees it)."),
    OptionSpec(
      name: "jobs", value: "N",
      help:
        "Decode a log file of 8 MB or more on N threads (default: the processors this process may use). "
        + "The output is the same for every N."),
  ]

  /// Sets the chunk size of parallel decoding, in bytes, and decodes files of any size in
  /// chunks: for tests, which need many cuts in small logs.
  static let chunkSizeVariable = "WHEREAMI_CHUNK_SIZE"

  /// How to decode a log file: on how many threads, in chunks of what size, from what size.
  struct Parallelism: Sendable {
    var jobs: Int
    var chunkSize: Int?

    /// A decoder for these settings.
    func decoder(_ options: NMEADecoder.Options) -> ParallelLogDecoder {
      ParallelLogDecoder(options: options, jobs: jobs, chunkSize: chunkSize)
    }
  }

  /// `--jobs` (and ``chunkSizeVariable``).
  static func parallelism(_ arguments: ParsedArguments, command: String) throws(CommandError) -> Parallelism {
    var jobs = ParallelLogDecoder.availableCores
    if let text = arguments.value("jobs") {
      guard let value = Int(text), (1...1024).contains(value) else {
        throw CommandError(
          message: "\(command): --jobs '\(text)' is not a number of threads from 1 to 1024", code: .usage)
      }
      jobs = value
    }
    let chunkSize = Environment.value(chunkSizeVariable).flatMap(Int.init).flatMap {
      $0 > 0 ? $0 : nil
    }
    return Parallelism(jobs: jobs, chunkSize: chunkSize)
  }

  /// The decoder's options; `decodes` is false for a source that gives fixes already
  /// decoded (gpsd), which needs no geoid model.
  static func decoderOptions(
    _ arguments: ParsedArguments, command: String, decodes: Bool = true
  ) throws(CommandError) -> NMEADecoder.Options {
    var options = NMEADecoder.Options(requiresChecksum: arguments.has("strict"))
    if let text = arguments.value("date") {
      guard let date = CalendarDate(iso8601: text) else {
        throw CommandError(message: "\(command): --date '\(text)' is not a date of the form YYYY-MM-DD", code: .usage)
      }
      options.date = date
    }
    options.geoid = decodes ? geoid(command: command) : nil
    if let text = arguments.value("week-rollover") {
      guard let value = Int(text), (0...4).contains(value) else {
        throw CommandError(message: "\(command): --week-rollover '\(text)' is not a number from 0 to 4", code: .usage)
      }
      options.weekRollovers = value
    }
    return options
  }

  /// The environment variable that names another GTX geoid grid, or `none` for none.
  static let geoidVariable = "WHEREAMI_GEOID_GRID"

  /// The geoid model for receivers that send no separation: EGM96 from Debian's
  /// `proj-data`, or the grid ``geoidVariable`` names. When it cannot be read, standard
  /// error says so once and heights stay as the receiver gave them.
  static func geoid(command: String) -> GeoidGrid? {
    let result: Result<GeoidGrid, GeoidGridError>
    switch Environment.value(geoidVariable) {
    case "none": return nil
    case let path? where !path.isEmpty:
      result = Result { () throws(GeoidGridError) -> GeoidGrid in try GeoidGrid(gtxPath: path, name: "EGM96") }
    default: result = GeoidGrid.installedEGM96
    }
    switch result {
    case .success(let grid): return grid
    case .failure(let error):
      printError(
        "whereami \(command): no geoid model (\(error); Debian's proj-data has it): ellipsoidal heights "
          + "only where the receiver sends its geoid separation")
      return nil
    }
  }
}

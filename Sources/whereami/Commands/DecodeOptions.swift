import NMEA

/// Options shared by every command that decodes NMEA.
enum DecodeOptions {
  static let specs: [OptionSpec] = [
    OptionSpec(
      name: "strict", value: nil,
      help: "Reject sentences without a *HH checksum (by default they are accepted and counted as unchecked)."),
    OptionSpec(
      name: "date", value: "YYYY-MM-DD",
      help: "Date of the first fix, for logs with no RMC/ZDA date (a '# Date:' comment in the log is used otherwise)."),
  ]

  static func decoderOptions(_ arguments: ParsedArguments, command: String) throws(CommandError) -> NMEADecoder.Options
  {
    var options = NMEADecoder.Options(requiresChecksum: arguments.has("strict"))
    if let text = arguments.value("date") {
      guard let date = CalendarDate(iso8601: text) else {
        throw CommandError(message: "\(command): --date '\(text)' is not a date of the form YYYY-MM-DD", code: .usage)
      }
      options.date = date
    }
    return options
  }
}

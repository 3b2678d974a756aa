import TrackExport

extension IntervalFilter {
  /// `--interval`'s value: seconds above 0.
  static func parse(_ arguments: ParsedArguments, command: String) throws(CommandError) -> IntervalFilter? {
    guard let text = arguments.value("interval") else { return nil }
    guard let value = Double(text), value > 0, value.isFinite else {
      throw CommandError(message: "\(command): --interval '\(text)' is not a number of seconds above 0", code: .usage)
    }
    return IntervalFilter(interval: value)
  }

  /// The option, for the commands that take it.
  static let spec = OptionSpec(
    name: "interval", value: "SECONDS",
    help: "One fix per SECONDS of the receiver's time, like gpxlogger -i (the distance still counts every fix).")
}

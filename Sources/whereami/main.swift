#if canImport(Glibc)
  import Glibc
#endif

/// The version printed by `whereami --version`.
let version = "0.1.0"

let commands: [(spec: CommandSpec, run: (ParsedArguments) throws(CommandError) -> Void)] = [
  (PrintCommand.spec, PrintCommand.run),
  (ReplayCommand.spec, ReplayCommand.run),
  (SummaryCommand.spec, SummaryCommand.run),
  (TripsCommand.spec, TripsCommand.run),
  (WatchCommand.spec, WatchCommand.run),
  (ExportCommand.spec, ExportCommand.run),
]

let overview = """
  OVERVIEW: whereami tells you where you are from a GPS receiver's NMEA 0183 output.

  USAGE: whereami <command> [OPTIONS] ...

  COMMANDS:
  \(commands.map { "  " + $0.spec.name.padding(9) + $0.spec.abstract }.joined(separator: "\n"))

  OPTIONS:
    -h, --help     Show this help (or a command's: whereami <command> --help).
    --version      Show the version.

  EXIT CODES:
    0 success (rejected input lines are counted, not fatal), 64 usage error,
    65 no fix in the input (print, replay, trips), 66 source not found,
    74 read or write error, 77 permission denied.
  """

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}

// Before anything starts a thread, so that every thread blocks them (see Interrupts).
// The commands that follow a source handle them; until they do, the signals wait.
Interrupts.install(
  holding: ["print", "replay", "trips", "watch", "export"].contains(CommandLine.arguments.dropFirst().first ?? ""))
// A closed pipe (`| head`) shows up as EPIPE on write, which ends output quietly.
signal(SIGPIPE, SIG_IGN)

@MainActor func runMain() -> ExitCode {
  let arguments = Array(CommandLine.arguments.dropFirst())
  guard let first = arguments.first else {
    printError(overview)
    return .usage
  }
  if first == "--help" || first == "-h" || first == "help" {
    // `whereami help print` is `whereami print --help`.
    if first == "help", arguments.count > 1, let command = commands.first(where: { $0.spec.name == arguments[1] }) {
      print(command.spec.help)
    } else {
      print(overview)
    }
    return .success
  }
  if first == "--version" {
    print("whereami \(version)")
    return .success
  }
  guard let command = commands.first(where: { $0.spec.name == first }) else {
    printError("whereami: unknown command '\(first)' (see whereami --help)")
    return .usage
  }
  do {
    let parsed = try command.spec.parse(Array(arguments.dropFirst()))
    if parsed.has("help") {
      print(command.spec.help)
      return .success
    }
    try command.run(parsed)
    return .success
  } catch let error as UsageError {
    printError("whereami \(error.command ?? ""): \(error.message)\nUsage: whereami \(command.spec.name) --help")
    return .usage
  } catch let error as CommandError {
    if let message = error.message { printError("whereami: \(message)") }
    return error.code
  } catch {
    printError("whereami: \(error)")
    return .ioError
  }
}

exit(runMain().rawValue)

#if canImport(Glibc)
  import Glibc
#endif

/// The version printed by `whereami --version`, and the date of its manual page.
let version = "0.1.0"
let releaseDate = "2026-12-01"

let commands: [(spec: CommandSpec, run: (ParsedArguments) throws(CommandError) -> Void)] = [
  (NowCommand.spec, NowCommand.run),
  (PrintCommand.spec, PrintCommand.run),
  (ReplayCommand.spec, ReplayCommand.run),
  (SummaryCommand.spec, SummaryCommand.run),
  (TripsCommand.spec, TripsCommand.run),
  (RegionsCommand.spec, RegionsCommand.run),
  (WatchCommand.spec, WatchCommand.run),
  (ExportCommand.spec, ExportCommand.run),
  (MotionCommand.spec, MotionCommand.run),
]

// Computed when asked for: a global `let` in this file is built on every run, and wrapping
// every command's abstract was 1.8 million instructions of each command's start-up.
var overview: String {
  """
  OVERVIEW: whereami tells you where you are from a GPS receiver's NMEA output.

  USAGE: whereami [<command>] [OPTIONS] ...

  Without a command, whereami answers once where you are: 'whereami' is
  'whereami now' (from gpsd on this machine), and so are 'whereami /dev/ttyACM0'
  and 'whereami --accuracy 5'.

  COMMANDS:
  \((commands.map { ($0.spec.name, $0.spec.abstract) } + packagingCommands).map { name, abstract in
    var lines = HelpText.wrap(abstract, indent: 14)
    lines[0] = "  " + name.padding(12) + lines[0].dropFirst(14)
    return lines.joined(separator: "\n")
  }.joined(separator: "\n"))

  OPTIONS:
    -h, --help     Show this help (or a command's: whereami <command> --help).
    -V, --version  Show the version.

  EXIT CODES:
    0 success (rejected input lines are counted, not fatal), 3 print --anchor:
    the anchor alarm went off, 64 usage error, 65 no fix in the input (now,
    print, replay, trips, regions) or a GeoJSON file without regions, 66 source
    not found, 69 a gpsd or TCP source never answered (motion: or a sensor
    asked for is missing), 74 read or write error, 75 now: no fix good enough
    within --timeout (the best one, if any, was printed), 77 permission denied.
  """
}

/// The commands for packagers, which take no source: their names and what they print.
let packagingCommands = [
  ("manual", "Print the manual page (roff, for man(1)): whereami manual > whereami.1"),
  ("completions", "Print the shell completions for bash, zsh or fish: whereami completions bash"),
]

/// The command line as a command and its arguments: a first argument that is an option or
/// a source (not a command's name) runs `now`, as no argument at all does.
@MainActor func commandLine(_ arguments: [String]) -> [String] {
  guard let first = arguments.first else { return ["now"] }
  let named = ["help", "--help", "-h", "--version", "-V"] + packagingCommands.map(\.0)
  if named.contains(first) || commands.contains(where: { $0.spec.name == first }) { return arguments }
  var info = stat()
  if first.hasPrefix("-") || first.contains("/") || first.contains("://") || first == "gpsd" || first == "gpsd:"
    || stat(first, &info) == 0
  {
    return ["now"] + arguments
  }
  return arguments
}

/// The command whose name is closest to `typed` (at most two edits away), for "did you
/// mean".
@MainActor func closestCommand(to typed: String) -> String? {
  func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j] + (x == y ? 0 : 1), previous[j + 1] + 1, current[j] + 1))
      }
      previous = current
    }
    return previous[b.count]
  }
  let scored = commands.map { ($0.spec.name, distance(Array(typed.lowercased()), Array($0.spec.name))) }
  guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
  return best.0
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}

// Before anything starts a thread, so that every thread blocks them (see Interrupts).
// The commands that follow a source handle them; until they do, the signals wait.
let followsSource = ["now", "print", "replay", "trips", "regions", "watch", "export", "motion"]
Interrupts.install(holding: followsSource.contains(commandLine(Array(CommandLine.arguments.dropFirst())).first!))
// A closed pipe (`| head`) shows up as EPIPE on write, which ends output quietly.
signal(SIGPIPE, SIG_IGN)

@MainActor func runMain() -> ExitCode {
  let arguments = commandLine(Array(CommandLine.arguments.dropFirst()))
  let first = arguments[0]
  if first == "--help" || first == "-h" || first == "help" {
    // `whereami help print` is `whereami print --help`.
    if first == "help", arguments.count > 1, let command = commands.first(where: { $0.spec.name == arguments[1] }) {
      return writeOutput(command.spec.help + "\n")
    }
    return writeOutput(overview + "\n")
  }
  if first == "--version" || first == "-V" {
    return writeOutput("whereami \(version)\n")
  }
  // For packagers: the manual page and the shell completions, made from the tables above.
  if first == "manual" {
    if arguments.count == 2, arguments[1] == "--help" || arguments[1] == "-h" {
      return writeOutput(
        """
        USAGE: whereami manual

        Prints the manual page (roff, made from the commands' tables), for man(1):
        whereami manual > whereami.1; man ./whereami.1.

        """)
    }
    guard arguments.count == 1 else {
      printError("whereami: usage: whereami manual (it takes no arguments)")
      return .usage
    }
    return writeOutput(ManualPage.roff(commands: commands.map(\.spec), version: version, date: releaseDate))
  }
  if first == "completions" {
    if arguments.count == 2, arguments[1] == "--help" || arguments[1] == "-h" {
      return writeOutput(
        """
        USAGE: whereami completions bash|zsh|fish

        Prints the completion script for the shell, made from the commands' tables.
        Save it where the shell looks for completions. bash:
          whereami completions bash > /usr/share/bash-completion/completions/whereami
        zsh: a file _whereami on $fpath; fish: ~/.config/fish/completions/whereami.fish.

        """)
    }
    guard arguments.count == 2, let shell = ShellCompletions.Shell(rawValue: arguments[1]) else {
      printError("whereami: usage: whereami completions bash|zsh|fish")
      return .usage
    }
    return writeOutput(ShellCompletions.script(shell, commands: commands.map(\.spec)))
  }
  guard let command = commands.first(where: { $0.spec.name == first }) else {
    let suggestion = closestCommand(to: first).map { "; did you mean '\($0)'?" } ?? " (see whereami --help)"
    printError("whereami: unknown command '\(first)'\(suggestion)")
    return .usage
  }
  do {
    let parsed = try command.spec.parse(Array(arguments.dropFirst()))
    if parsed.has("help") { return writeOutput(command.spec.help + "\n") }
    try command.run(parsed)
    return .success
  } catch let error as UsageError {
    // One style for every message: "whereami: " and then what it is about.
    printError(
      "whereami: \(error.command.map { "\($0): " } ?? "")\(error.message)\nUsage: whereami \(command.spec.name) --help")
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

import LocationKit
import NMEA
import TrackExport

/// Completion scripts for bash, zsh and fish, made from the command and option tables that
/// drive parsing and `--help`. `whereami completions SHELL` prints one; `scripts/package`
/// installs all three where those shells look.
enum ShellCompletions {
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  static func script(_ shell: Shell, commands: [CommandSpec]) -> String {
    switch shell {
    case .bash: bash(commands)
    case .zsh: zsh(commands)
    case .fish: fish(commands)
    }
  }

  /// What a shell completes for an option's value.
  enum Completion: Equatable {
    /// These words.
    case words([String])
    /// File names.
    case files
    /// Nothing: a number, a date, a name.
    case nothing
  }

  /// The completion of `option`'s value, from the tables its parsing uses: the export
  /// formats, unit systems and coordinate styles, the sentence types the decoder knows,
  /// the motion sensors, the serial port's baud rates; a value named `FILE` is a file.
  static func completion(_ option: OptionSpec) -> Completion? {
    guard let value = option.value else { return nil }
    switch option.name {
    case "format": return .words(ExportFormat.allCases.map(\.rawValue))
    case "split": return .words(["gaps", "trips"])
    case "units": return .words(UnitSystem.allCases.map(\.rawValue))
    case "coords": return .words(CoordinateStyle.allCases.map(\.rawValue))
    case "sentences": return .words(sentenceTypes)
    case "sensors": return .words(MotionCommand.sensorNames)
    case "baud": return .words(SerialPort.baudRates.keys.sorted().map(String.init))
    default: return value == "FILE" ? .files : .nothing
    }
  }

  /// The types `--sentences` takes: every kind the decoder reads, by its address without
  /// a talker (`GGA`; `PUBX` for `$PUBX,00`).
  static var sentenceTypes: [String] {
    var seen: [String] = []
    for kind in Sentence.Kind.allCases {
      let name = String(kind.description.prefix { $0 != "," })
      if !seen.contains(name) { seen.append(name) }
    }
    return seen
  }

  /// What a command's positional arguments complete to besides file names: the source
  /// forms, for the commands that follow one.
  static func sources(_ command: CommandSpec) -> [String] {
    switch command.name {
    case "now", "print", "trips", "regions", "watch", "export": ["gpsd://localhost:2947", "tcp://", "udp://", "-"]
    case "motion": ["iio", "iio:", "gpsd://localhost:2947", "-"]
    case "summary", "replay": ["-"]
    default: []
    }
  }

  private static func flags(_ command: CommandSpec) -> [String] {
    var flags: [String] = []
    for option in command.options {
      flags.append("--" + option.name)
      if let short = option.short { flags.append("-\(short)") }
    }
    return flags + ["--help"]
  }

  private static func bash(_ commands: [CommandSpec]) -> String {
    var cases = ""
    var values = ""
    for command in commands {
      cases +=
        "    \(command.name)) options='\(flags(command).joined(separator: " "))'"
        + " sources='\(sources(command).joined(separator: " "))' ;;\n"
      for option in command.options {
        guard let completion = completion(option) else { continue }
        let patterns = (["--" + option.name] + (option.short.map { ["-\($0)"] } ?? [])).map {
          "'\(command.name) \($0)'"
        }
        let reply =
          switch completion {
          case .words(let words): "COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$current\"))"
          case .files: "COMPREPLY=($(compgen -f -- \"$current\"))"
          case .nothing: "COMPREPLY=()"
          }
        values += "    \(patterns.joined(separator: "|"))) \(reply); return ;;\n"
      }
    }
    return """
      # bash completion for whereami(1), made by 'whereami completions bash'
      _whereami() {
        local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD-1]} options='' sources=''
        if [ "$COMP_CWORD" -eq 1 ]; then
          # A path or a source runs 'now' (whereami /dev/ttyACM0).
          if [[ $current == */* ]]; then COMPREPLY=($(compgen -f -- "$current")); return; fi
          COMPREPLY=($(compgen -W '\(commands.map(\.name).joined(separator: " ")) manual completions help --help --version' -- "$current"))
          return
        fi
        # An option's value: its words, files, or nothing.
        case "${COMP_WORDS[1]} $previous" in
      \(values)    'completions '*) COMPREPLY=($(compgen -W '\(Shell.allCases.map(\.rawValue).joined(separator: " "))' -- "$current")); return ;;
        esac
        case ${COMP_WORDS[1]} in
      \(cases)  esac
        if [[ $current == -* ]]; then
          COMPREPLY=($(compgen -W "$options" -- "$current"))
        else
          COMPREPLY=($(compgen -W "$sources" -- "$current") $(compgen -f -- "$current"))
        fi
      }
      complete -o filenames -F _whereami whereami

      """
  }

  /// `text` inside single quotes for zsh's `_arguments` and `_describe`.
  private static func zshQuoted(_ text: String) -> String {
    text.replacing("'", with: "'\\''").replacing("[", with: "\\[")
      .replacing("]", with: "\\]").replacing(":", with: "\\:")
  }

  private static func zsh(_ commands: [CommandSpec]) -> String {
    var cases = ""
    for command in commands {
      var specs = command.options.map { option in
        let name = "--" + option.name
        let value: String =
          switch completion(option) {
          case nil: ""
          case .words(let words)?: ":\(zshQuoted(option.value!)):(\(words.joined(separator: " ")))"
          case .files?: ":\(zshQuoted(option.value!)):_files"
          case .nothing?: ":\(zshQuoted(option.value!)): "
          }
        return "'\(name)[\(zshQuoted(option.help))]\(value)'"
      }
      specs.append("'--help[Show the help.]'")
      specs.append("'*:file:_files'")
      cases += "    \(command.name)) _arguments \\\n        \(specs.joined(separator: " \\\n        ")) ;;\n"
    }
    let described = commands.map { "    '\($0.name):\(zshQuoted($0.abstract))'" }.joined(separator: "\n")
    return """
      #compdef whereami
      # zsh completion for whereami(1), made by 'whereami completions zsh'
      _whereami() {
        local -a commands
        commands=(
      \(described)
        )
        if (( CURRENT == 2 )); then
          _describe 'command' commands
          return
        fi
        local command=$words[2]
        shift words
        (( CURRENT-- ))
        case $command in
      \(cases)  esac
      }
      _whereami "$@"

      """
  }

  private static func fishQuoted(_ text: String) -> String {
    "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
  }

  private static func fish(_ commands: [CommandSpec]) -> String {
    var lines = [
      "# fish completion for whereami(1), made by 'whereami completions fish'",
      "complete -c whereami -f",
    ]
    for command in commands {
      lines.append(
        "complete -c whereami -n __fish_use_subcommand -a \(command.name) -d \(fishQuoted(command.abstract))")
    }
    for command in commands {
      let condition = "'__fish_seen_subcommand_from \(command.name)'"
      lines.append("complete -c whereami -n \(condition) -F")
      if !sources(command).isEmpty {
        lines.append("complete -c whereami -n \(condition) -a \(fishQuoted(sources(command).joined(separator: " ")))")
      }
      for option in command.options {
        var line = "complete -c whereami -n \(condition) -l \(option.name)"
        if let short = option.short { line += " -s \(short)" }
        switch completion(option) {
        case nil: break
        case .words(let words)?: line += " -r -f -a \(fishQuoted(words.joined(separator: " ")))"
        case .files?: line += " -r -F"
        case .nothing?: line += " -r -f"
        }
        line += " -d \(fishQuoted(option.help))"
        lines.append(line)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

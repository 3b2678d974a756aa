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

  private static func flags(_ command: CommandSpec) -> [String] {
    command.options.flatMap { option in ["--" + option.name] + (option.short.map { ["-\($0)"] } ?? []) } + ["--help"]
  }

  private static func bash(_ commands: [CommandSpec]) -> String {
    var cases = ""
    for command in commands {
      cases += "    \(command.name)) options='\(flags(command).joined(separator: " "))' ;;\n"
    }
    return """
      # bash completion for whereami(1), made by 'whereami completions bash'
      _whereami() {
        local current=${COMP_WORDS[COMP_CWORD]} options=''
        if [ "$COMP_CWORD" -eq 1 ]; then
          COMPREPLY=($(compgen -W '\(commands.map(\.name).joined(separator: " ")) help --help --version' -- "$current"))
          return
        fi
        case ${COMP_WORDS[1]} in
      \(cases)  esac
        if [[ $current == -* ]]; then
          COMPREPLY=($(compgen -W "$options" -- "$current"))
        else
          COMPREPLY=($(compgen -f -- "$current"))
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
        let value = option.value.map { ":\(zshQuoted($0)):" } ?? ""
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
      for option in command.options {
        var line = "complete -c whereami -n \(condition) -l \(option.name)"
        if let short = option.short { line += " -s \(short)" }
        if option.value != nil { line += " -r" }
        line += " -d \(fishQuoted(option.help))"
        lines.append(line)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

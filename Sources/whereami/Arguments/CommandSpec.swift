/// One option of a subcommand: the single description that drives parsing, `--help` and
/// error messages alike, so they cannot drift apart.
struct OptionSpec {
  /// The long name without dashes (`json`), and an optional one-letter short name.
  var name: String
  var short: Character?
  /// The placeholder of the option's value (`METRES`); `nil` for a flag.
  var value: String?
  var help: String
}

/// A subcommand: its name, what it does, its positional arguments and its options.
struct CommandSpec {
  var name: String
  var abstract: String
  /// The positional arguments as shown in the usage line (`SOURCE`, `FILE...`).
  var arguments: String
  var minimumArguments: Int
  var maximumArguments: Int?
  var options: [OptionSpec]
  var discussion: String

  /// The `--help` text, within ``HelpText/columns`` columns.
  var help: String {
    var lines = ["USAGE: whereami \(name) \(options.isEmpty ? "" : "[OPTIONS] ")\(arguments)", ""]
    lines += HelpText.wrap(abstract, indent: 0)
    if !discussion.isEmpty { lines += [""] + HelpText.wrap(discussion, indent: 0) }
    lines += ["", "OPTIONS:"]
    let shown = options + [OptionSpec(name: "help", short: "h", value: nil, help: "Show this help.")]
    let labels = shown.map { option in
      (option.short.map { "-\($0), " } ?? "    ") + "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
    }
    // Help texts start in one column, after the longest label, unless that leaves them too
    // little room: then each starts on the line below its label.
    let width = (labels.map(\.count).max() ?? 0) + 4
    let column = width <= 30 ? width : 8
    for (label, option) in zip(labels, shown) {
      var wrapped = HelpText.wrap(option.help, indent: column)
      let first = "  " + label
      if first.count + 2 <= column {
        wrapped[0] = first + String(repeating: " ", count: column - first.count) + wrapped[0].dropFirst(column)
      } else {
        wrapped.insert(first, at: 0)
      }
      lines += wrapped
    }
    return lines.joined(separator: "\n")
  }
}

/// Help text laid out for a terminal of ``columns`` columns.
enum HelpText {
  /// The width `--help` keeps within.
  static let columns = 80

  /// `text` (paragraphs separated by newlines) as lines of at most ``columns`` characters,
  /// each indented by `indent` spaces plus the paragraph's own leading spaces; words longer
  /// than a line stay whole.
  static func wrap(_ text: String, indent: Int) -> [String] {
    var lines: [String] = []
    // The source's line breaks are its own layout: a line continues the one before unless
    // that one ended a sentence.
    var paragraphs: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if let last = paragraphs.last, !last.isEmpty, !last.hasSuffix("."), !last.hasSuffix(":"), !line.isEmpty {
        paragraphs[paragraphs.count - 1] += " " + line.drop { $0 == " " }
      } else {
        paragraphs.append(String(line))
      }
    }
    for paragraph in paragraphs {
      let own = paragraph.prefix { $0 == " " }.count
      let prefix = String(repeating: " ", count: indent + own)
      var line = prefix
      for word in paragraph.split(separator: " ") {
        if line.count > prefix.count && line.count + 1 + word.count > columns {
          lines.append(line)
          line = prefix
        }
        line += (line.count > prefix.count ? " " : "") + word
      }
      lines.append(line)
    }
    return lines
  }
}

/// Parsed command-line arguments of one subcommand.
struct ParsedArguments {
  var flags: Set<String> = []
  var values: [String: String] = [:]
  /// Every value of each option, in order, for the options that may repeat (`--region`).
  var repeated: [String: [String]] = [:]
  var positionals: [String] = []

  func has(_ flag: String) -> Bool { flags.contains(flag) }
  /// The option's value; the last one when it was given more than once.
  func value(_ name: String) -> String? { values[name] }
  /// Every value the option was given, in order.
  func allValues(_ name: String) -> [String] { repeated[name] ?? [] }
}

/// A command line that does not fit its command's description.
struct UsageError: Error {
  var message: String
  var command: String?
}

extension CommandSpec {
  /// Parses `arguments` (after the subcommand's name). `--help` is reported as the flag
  /// `help` and skips the positional-count check.
  func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    func option(named name: Substring) -> OptionSpec? {
      options.first { $0.name == name }
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument == "--help" || argument == "-h" {
        parsed.flags.insert("help")
        continue
      }
      let spec: OptionSpec
      var inlineValue: String?
      if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let name = body.split(separator: "=", maxSplits: 1).first ?? body
        guard let found = option(named: name) else {
          throw UsageError(message: "unknown option '--\(name)'", command: self.name)
        }
        spec = found
        if let equals = body.firstIndex(of: "=") { inlineValue = String(body[body.index(after: equals)...]) }
      } else {
        let letter = argument.dropFirst().first!
        guard argument.count == 2, let found = options.first(where: { $0.short == letter }) else {
          throw UsageError(message: "unknown option '\(argument)'", command: self.name)
        }
        spec = found
      }
      if let placeholder = spec.value {
        if inlineValue == nil {
          guard index < arguments.count else {
            throw UsageError(message: "option '--\(spec.name)' needs a value (\(placeholder))", command: self.name)
          }
          inlineValue = arguments[index]
          index += 1
        }
        parsed.values[spec.name] = inlineValue
        parsed.repeated[spec.name, default: []].append(inlineValue!)
      } else {
        if inlineValue != nil {
          throw UsageError(message: "option '--\(spec.name)' takes no value", command: self.name)
        }
        parsed.flags.insert(spec.name)
      }
    }
    if parsed.has("help") { return parsed }
    if parsed.positionals.count < minimumArguments {
      throw UsageError(message: "missing \(self.arguments)", command: self.name)
    }
    if let maximum = maximumArguments, parsed.positionals.count > maximum {
      throw UsageError(message: "unexpected argument '\(parsed.positionals[maximum])'", command: self.name)
    }
    return parsed
  }
}

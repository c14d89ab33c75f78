/// The tool's help, usage lines and usage errors, written from the commands' declarations (CLI-003, CLI-130):
/// OVERVIEW / USAGE / ARGUMENTS / OPTIONS, as swift-argument-parser lays them out.
enum HelpText {
  /// The smallest width of the left column of ARGUMENTS, OPTIONS and COMMANDS.
  static let minimumColumn = 12

  /// `keyed help`: what the tool does and the list of its commands.
  static func overview(_ commands: [any Command.Type]) -> String {
    let names = commands.map { $0.configuration.name }
    let column = max(minimumColumn, (names.map(\.count).max() ?? 0) + 1)
    var text = """
      OVERVIEW: Read, write and inspect Apple keyed archives, property lists, XIBs and nibs.

      USAGE: keyed <command> [options] FILE

      COMMANDS:

      """
    for command in commands {
      text += "  " + padded(command.configuration.name, column) + command.configuration.abstract + "\n"
    }
    text += "\nRun 'keyed help <command>' or 'keyed <command> --help' for details. "
    text += "'keyed --version' prints the version.\n"
    return text
  }

  /// `keyed VERB --help`.
  static func help<C: Command>(_ type: C.Type) -> String {
    let configuration = C.configuration
    let inputs = CommandParser.inputs(of: C()).map(\.definition)
    let arguments = inputs.filter { $0.kind == .positional }
    let options =
      inputs.filter { $0.kind != .positional }
      + [ArgumentDefinition(kind: .flag, names: ["-h", "--help"], arity: .optional, help: "Show this help.")]
    let widest = (arguments + options).map(\.label.count).max() ?? 0
    let column = max(minimumColumn, (widest + 2 + 3) / 4 * 4)
    var text = "OVERVIEW: \(configuration.overview ?? configuration.abstract)\n\n"
    text += "USAGE: \(usage(type))\n\n"
    if !arguments.isEmpty { text += "ARGUMENTS:\n" + arguments.map { entry($0, column) }.joined() + "\n" }
    text += "OPTIONS:\n" + options.map { entry($0, column) }.joined()
    if let notes = configuration.notes { text += "\n\(notes)\n" }
    return text
  }

  /// The usage line of a verb, from its declarations in order: `keyed convert FILE -o OUT [--format binary|xml]`.
  static func usage<C: Command>(_ type: C.Type) -> String {
    var words = ["keyed", C.configuration.name]
    var group: (name: String, members: [String])?
    func closeGroup() {
      if let members = group?.members { words.append("[" + members.joined(separator: " | ") + "]") }
      group = nil
    }
    for definition in CommandParser.inputs(of: C()).map(\.definition) {
      if let name = definition.group, definition.kind == .flag {
        if group?.name != name { closeGroup() }
        group = (name, (group?.members ?? []) + [definition.displayName])
        continue
      }
      closeGroup()
      words.append(definition.usage)
    }
    closeGroup()
    return words.joined(separator: " ")
  }

  /// A usage error: the message, the verb's usage line and where to read more.
  static func usageError<C: Command>(_ message: String, _ type: C.Type) -> String {
    "keyed: \(message)\nUSAGE: \(usage(type))\nRun 'keyed \(C.configuration.name) --help' for details.\n"
  }

  /// One entry of ARGUMENTS or OPTIONS: the label in its column, then the help, its later lines under its first.
  private static func entry(_ definition: ArgumentDefinition, _ column: Int) -> String {
    let indent = String(repeating: " ", count: 2 + column)
    let lines = definition.help.split(separator: "\n", omittingEmptySubsequences: false)
    var text = "  " + padded(definition.label, column) + (lines.first.map(String.init) ?? "") + "\n"
    for line in lines.dropFirst() { text += indent + line + "\n" }
    return text
  }

  private static func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
  }
}

/// `keyed help [COMMAND]` (CLI-003): the list of commands, or one command's help.
struct HelpCommand: Command {
  static var configuration: CommandConfiguration {
    CommandConfiguration(name: "help", abstract: "Show help for a command.")
  }

  @Argument("COMMAND", help: "A command name.")
  var topic: String?

  func run(_ context: inout Context) throws {
    guard let topic else {
      context.output += HelpText.overview(KeyedTool.commands)
      return
    }
    guard let command = KeyedTool.command(named: topic) else { throw UsageError(message: "unknown command '\(topic)'") }
    context.output += HelpText.help(command)
  }
}

import Foundation
import Testing

@testable import KeyedCommands

/// Each verb's options, help and usage errors come from one declaration, its command type (CLI-130).
@Suite("Commands declared once")
struct CommandDeclarationTests {
  static var verbs: [String] { KeyedTool.commands.map { $0.configuration.name } }

  /// The declarations of a verb, read from its type.
  static func declarations(_ verb: String) throws -> [ArgumentDefinition] {
    let type = try #require(KeyedTool.command(named: verb))
    return declarations(of: type)
  }

  static func declarations<C: Command>(of type: C.Type) -> [ArgumentDefinition] {
    CommandParser.inputs(of: C()).map(\.definition)
  }

  /// Arguments that satisfy every positional argument and required option of a verb, with nothing else.
  static func minimalArguments(_ declarations: [ArgumentDefinition]) -> [String] {
    var arguments: [String] = []
    for definition in declarations {
      switch (definition.kind, definition.arity) {
      case (.positional, .one), (.positional, .many): arguments.append("input-\(definition.displayName)")
      case (.option, .one): arguments += [definition.displayName, definition.choices?.first ?? "value"]
      default: break
      }
    }
    return arguments
  }

  /// `true` when `arguments` parse for the verb; the usage error's message otherwise.
  static func parses(_ verb: String, _ arguments: [String]) throws -> String? {
    let type = try #require(KeyedTool.command(named: verb))
    return parses(type, arguments)
  }

  static func parses<C: Command>(_ type: C.Type, _ arguments: [String]) -> String? {
    do {
      _ = try CommandParser.parse(type, arguments)
      return nil
    } catch let error as UsageError {
      return error.message
    } catch {
      return "\(error)"
    }
  }

  /// The names in the OPTIONS section of a help text (`-o, --output OUT` gives `-o` and `--output`).
  static func optionNames(inHelp help: String) -> Set<String> {
    guard let section = help.components(separatedBy: "\nOPTIONS:\n").last else { return [] }
    var names: Set<String> = []
    for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("  -") else {
        if line.isEmpty { break }
        continue
      }
      let label = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
      for part in label.split(separator: ",") {
        if let name = part.split(separator: " ").first { names.insert(String(name)) }
      }
    }
    return names
  }

  @Test("CLI-130: every verb's help lists exactly the options its declaration holds, and the parser takes each of them")
  func helpListsWhatIsParsed() throws {
    #expect(
      Set(Self.verbs) == ["demo", "dump", "convert", "validate", "instantiate", "compile", "diff", "render", "help"])
    for verb in Self.verbs {
      let declarations = try Self.declarations(verb)
      let declared = Set(declarations.filter { $0.kind != .positional }.flatMap(\.names))
      let help = keyed(verb, "--help")
      #expect(help.status == 0)
      #expect(Self.optionNames(inHelp: help.output) == declared.union(["-h", "--help"]), "\(verb)")
      // Each positional argument has its line in ARGUMENTS, and the usage line shows every declaration.
      for argument in declarations where argument.kind == .positional {
        #expect(help.output.contains("\n  \(argument.displayName) "), "\(verb): \(argument.displayName)")
      }
      let usage = try #require(help.output.split(separator: "\n").first { $0.hasPrefix("USAGE: ") })
      for definition in declarations {
        #expect(usage.contains(definition.displayName), "\(verb): \(definition.displayName) in \(usage)")
      }
      // The parser takes every declared name (a value after an option), and nothing else.
      let minimal = Self.minimalArguments(declarations)
      #expect(try Self.parses(verb, minimal) == nil, "\(verb) \(minimal)")
      for definition in declarations where definition.kind != .positional {
        for name in definition.names {
          let value = definition.kind == .option ? [definition.choices?.last ?? "value"] : []
          #expect(try Self.parses(verb, [name] + value + minimal) == nil, "\(verb) \(name)")
          // Options and arguments in any order (CLI-001).
          #expect(try Self.parses(verb, minimal + [name] + value) == nil, "\(verb) … \(name)")
        }
      }
      #expect(try Self.parses(verb, minimal + ["--not-declared"]) == "unknown option '--not-declared'", "\(verb)")
    }
  }

  @Test("CLI-130: a flag or option reads its value from the command line into the command's property")
  func valuesReachTheCommand() throws {
    let convert = try CommandParser.parse(ConvertCommand.self, ["--format=xml", "in.plist", "--output", "out.xml"])
    #expect(convert.path == "in.plist" && convert.out == "out.xml" && convert.format == "xml")
    let dump = try CommandParser.parse(DumpCommand.self, ["a", "--json", "-r", "--", "-b", "--raw"])
    #expect(dump.json && dump.recursive && !dump.raw && !dump.pretty)
    #expect(dump.files == ["a", "-b", "--raw"])
    let help = try CommandParser.parse(HelpCommand.self, [])
    #expect(help.topic == nil)
  }

  @Test(
    "CLI-130: an unknown option, a missing argument, a missing or bad option value give the generated usage error (64)",
    arguments: ["demo", "dump", "convert", "validate", "instantiate", "compile", "diff", "render", "help"])
  func usageErrors(verb: String) throws {
    let declarations = try Self.declarations(verb)
    let help = keyed(verb, "--help").output
    let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") })
    func expectUsageError(_ arguments: [String], _ message: String) {
      let result = KeyedTool.run([verb] + arguments)
      #expect(result.status == 64, "\(verb) \(arguments)")
      #expect(result.output.isEmpty)
      #expect(
        result.errors == "keyed: \(message)\n\(usage)\nRun 'keyed \(verb) --help' for details.\n",
        "\(verb) \(arguments)")
    }
    let minimal = Self.minimalArguments(declarations)
    expectUsageError(minimal + ["--no-such-option"], "unknown option '--no-such-option'")
    for definition in declarations {
      switch (definition.kind, definition.arity) {
      case (.positional, .one), (.positional, .many):
        // Everything but this argument: the ones declared before it stay, so it is the first one missing.
        let before = declarations.prefix { $0.displayName != definition.displayName }
        expectUsageError(
          Self.minimalArguments(Array(before)) + minimal.filter { !$0.hasPrefix("input-") },
          "missing \(definition.displayName) argument")
      case (.option, .one):
        let others = minimal.split(separator: definition.displayName, omittingEmptySubsequences: false)
        expectUsageError(
          Array(others[0]) + Array(others[1].dropFirst()),
          "missing \(definition.displayName) \(definition.usageValue)")
      case (.option, _):
        expectUsageError(minimal + [definition.displayName], "\(definition.displayName) needs a value")
      default: break
      }
      if let choices = definition.choices {
        expectUsageError(
          minimal + [definition.displayName, "nonsense"],
          "unknown \(definition.valueName.lowercased()) 'nonsense' (expected \(CommandParser.list(choices)))")
      }
    }
    // One positional argument more than the declarations take (an optional one filled first).
    if !declarations.contains(where: { $0.kind == .positional && $0.arity == .many }) {
      let optional = declarations.contains { $0.kind == .positional && $0.arity == .optional }
      expectUsageError(
        minimal + (optional ? ["dump"] : []) + ["extra-argument"], "unexpected argument 'extra-argument'")
    }
  }

  @Test("CLI-003, CLI-130: 'keyed help' lists every verb with its abstract; 'keyed help VERB' is 'keyed VERB --help'")
  func overviewListsEveryVerb() throws {
    let overview = keyed("help")
    #expect(overview.status == 0)
    for command in KeyedTool.commands {
      let line = "\n  \(command.configuration.name)"
      #expect(overview.output.contains(line), "\(command.configuration.name)")
      #expect(overview.output.contains(command.configuration.abstract))
      #expect(keyed("help", command.configuration.name).output == keyed(command.configuration.name, "--help").output)
    }
    #expect(keyed("--help").output == overview.output)
    let unknown = keyed("help", "frobnicate")
    #expect(unknown.status == 64)
    #expect(unknown.errors.hasPrefix("keyed: unknown command 'frobnicate'\nUSAGE: keyed help [COMMAND]\n"))
  }
}

/// Reads a command line into a ``Command`` from the command's own declarations (CLI-001, CLI-130).
///
/// Options and positional arguments may come in any order; an option's value follows it (`-o OUT`) or, for a long
/// name, is attached (`--output=OUT`); `-` is a positional argument (standard input) and everything after `--` is
/// positional. Anything that does not fit the declarations is a ``UsageError``.
enum CommandParser {
  /// The declarations of `command`'s inputs, in the order its properties declare them.
  static func inputs(of command: some Command) -> [CommandInput] {
    Mirror(reflecting: command).children.compactMap { $0.value as? CommandInput }
  }

  /// A new `C` with the values of `arguments` (the words after the verb).
  /// - Throws: ``UsageError`` for an unknown option, an option without its value or with a value outside its
  ///   choices, a missing or extra positional argument, or a required option that is missing.
  static func parse<C: Command>(_ type: C.Type, _ arguments: [String]) throws -> C {
    let command = C()
    let inputs = inputs(of: command)
    var named: [String: Int] = [:]
    for (index, input) in inputs.enumerated() where input.definition.kind != .positional {
      for name in input.definition.names { named[name] = index }
    }
    var values = [[String]](repeating: [], count: inputs.count)
    var positional: [String] = []
    var position = 0
    var onlyPositional = false
    while position < arguments.count {
      let argument = arguments[position]
      position += 1
      if onlyPositional || argument == "-" || !argument.hasPrefix("-") {
        positional.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositional = true
        continue
      }
      var name = argument
      var attached: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        attached = String(argument[argument.index(after: equals)...])
      }
      guard let index = named[name] else { throw UsageError(message: "unknown option '\(name)'") }
      let definition = inputs[index].definition
      guard definition.kind == .option else {
        guard attached == nil else { throw UsageError(message: "\(name) takes no value") }
        values[index].append(name)
        continue
      }
      let value: String
      if let attached {
        value = attached
      } else {
        guard position < arguments.count else { throw UsageError(message: "\(name) needs a value") }
        value = arguments[position]
        position += 1
      }
      if let choices = definition.choices, !choices.contains(value) {
        throw UsageError(
          message: "unknown \(definition.valueName.lowercased()) '\(value)' (expected \(Self.list(choices)))")
      }
      values[index].append(value)
    }
    var remaining = positional[...]
    for (index, input) in inputs.enumerated() where input.definition.kind == .positional {
      let definition = input.definition
      switch definition.arity {
      case .one:
        guard let first = remaining.popFirst() else {
          throw UsageError(message: "missing \(definition.displayName) argument")
        }
        values[index] = [first]
      case .optional:
        if let first = remaining.popFirst() { values[index] = [first] }
      case .many:
        guard !remaining.isEmpty else { throw UsageError(message: "missing \(definition.displayName) argument") }
        values[index] = Array(remaining)
        remaining = []
      }
    }
    if let extra = remaining.first { throw UsageError(message: "unexpected argument '\(extra)'") }
    for (index, input) in inputs.enumerated()
    where input.definition.kind == .option && input.definition.arity == .one && values[index].isEmpty {
      throw UsageError(message: "missing \(input.definition.displayName) \(input.definition.usageValue)")
    }
    for (index, input) in inputs.enumerated() { input.bind(values[index]) }
    return command
  }

  /// `a`, `a or b`, `a, b or c`.
  static func list(_ words: [String]) -> String {
    guard let last = words.last, words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + last
  }
}

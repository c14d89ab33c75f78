/// An option of a ``Command`` and its value: `String` is required, `String?` optional, `[String]` every occurrence.
///
/// ```swift
/// @Option("-o", "--output", value: "OUT", help: "The output file.") var output: String
/// @Option("--format", value: "FORMAT", choices: ["binary", "xml"], help: "binary (default) or xml.")
/// var format: String?
/// ```
@propertyWrapper
final class Option<Value: ArgumentValue>: CommandInput {
  let definition: ArgumentDefinition
  /// The value parsed.
  private(set) var wrappedValue = Value(values: [])

  /// Declares an option.
  /// - Parameters:
  ///   - names: its spellings, the first shown in the usage line.
  ///   - value: its value's name in the OPTIONS section.
  ///   - choices: the values it accepts (shown in the usage line), or `nil` for any.
  ///   - usage: its value as the usage line shows it, when neither its choices nor its name say it well.
  ///   - help: its line in the help (`\n` breaks it).
  init(_ names: String..., value: String, choices: [String]? = nil, usage: String? = nil, help: String) {
    definition = ArgumentDefinition(
      kind: .option, names: names, arity: Value.arity, help: help, valueName: value, choices: choices,
      usageValue: usage ?? choices?.joined(separator: "|") ?? value)
  }

  func bind(_ values: [String]) { wrappedValue = Value(values: values) }
}

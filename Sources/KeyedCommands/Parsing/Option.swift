/// An option of a ``Command`` and its value: a `String` option is required, a `String?` one optional.
///
/// ```swift
/// @Option("-o", "--output", value: "OUT", help: "The output file.") var output: String
/// @Option("--format", value: "FORMAT", choices: ["binary", "xml"], help: "binary (default) or xml.")
/// var format: String?
/// ```
@propertyWrapper
final class Option<Value>: CommandInput {
  /// The value parsed.
  private(set) var wrappedValue: Value
  /// The value of the command line's values for the option (the last one wins).
  private let value: ([String]) -> Value

  private init(
    _ names: [String], arity: ArgumentDefinition.Arity, value name: String, choices: [String]?, usage: String?,
    help: String, _ value: @escaping ([String]) -> Value
  ) {
    wrappedValue = value([])
    self.value = value
    super.init(
      ArgumentDefinition(
        kind: .option, names: names, arity: arity, help: help, valueName: name, choices: choices,
        usageValue: usage ?? choices?.joined(separator: "|") ?? name))
  }

  override func bind(_ values: [String]) { wrappedValue = value(values) }
}

extension Option where Value == String {
  /// Declares a required option.
  /// - Parameters:
  ///   - names: its spellings, the first shown in the usage line.
  ///   - value: its value's name in the OPTIONS section.
  ///   - choices: the values it accepts (shown in the usage line), or `nil` for any.
  ///   - usage: its value as the usage line shows it, when neither its choices nor its name say it well.
  ///   - help: its line in the help (`\n` breaks it).
  convenience init(_ names: String..., value: String, choices: [String]? = nil, usage: String? = nil, help: String) {
    self.init(names, arity: .one, value: value, choices: choices, usage: usage, help: help) { $0.last ?? "" }
  }
}

extension Option where Value == String? {
  /// Declares an optional option (`nil` when it is not given), with the parameters of the required one.
  convenience init(_ names: String..., value: String, choices: [String]? = nil, usage: String? = nil, help: String) {
    self.init(names, arity: .optional, value: value, choices: choices, usage: usage, help: help) { $0.last }
  }
}

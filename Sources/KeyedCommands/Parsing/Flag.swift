/// A flag of a ``Command``: `true` when any of its names is on the command line.
///
/// ```swift
/// @Flag("--json", help: "Print canonical JSON.") var json: Bool
/// ```
@propertyWrapper
final class Flag: CommandInput {
  /// Whether the flag was given.
  private(set) var wrappedValue = false

  /// Declares a flag.
  /// - Parameters:
  ///   - names: its spellings, the first shown in the usage line.
  ///   - help: its line in the help (`\n` breaks it).
  ///   - group: flags of one group are shown as alternatives in the usage line (`[--trace | --trace-all]`).
  init(_ names: String..., help: String, group: String? = nil) {
    super.init(
      ArgumentDefinition(kind: .flag, names: names, arity: .optional, help: help, group: group))
  }

  override func bind(_ values: [String]) { wrappedValue = !values.isEmpty }
}

/// A positional argument of a ``Command``: `String` (exactly one), `String?` (at most one) or `[String]` (one or
/// more, every positional argument left).
///
/// ```swift
/// @Argument("FILE", help: "The input file, or - for standard input.") var file: String
/// ```
@propertyWrapper
final class Argument<Value: ArgumentValue>: CommandInput {
  let definition: ArgumentDefinition
  /// The value parsed.
  private(set) var wrappedValue = Value(values: [])

  /// Declares a positional argument.
  /// - Parameters:
  ///   - name: its name in the usage line and the ARGUMENTS section (`FILE`).
  ///   - help: its line in the help (`\n` breaks it).
  init(_ name: String, help: String) {
    definition = ArgumentDefinition(kind: .positional, names: [name], arity: Value.arity, help: help)
  }

  func bind(_ values: [String]) { wrappedValue = Value(values: values) }
}

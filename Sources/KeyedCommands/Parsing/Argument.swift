/// A positional argument of a ``Command``: `String` (exactly one), `String?` (at most one) or `[String]` (one or
/// more, every positional argument left).
///
/// ```swift
/// @Argument("FILE", help: "The input file, or - for standard input.") var file: String
/// ```
@propertyWrapper
final class Argument<Value>: CommandInput {
  /// The value parsed.
  private(set) var wrappedValue: Value
  /// The value of the command line's values for the argument.
  private let value: ([String]) -> Value

  private init(_ name: String, arity: ArgumentDefinition.Arity, help: String, _ value: @escaping ([String]) -> Value) {
    wrappedValue = value([])
    self.value = value
    super.init(ArgumentDefinition(kind: .positional, names: [name], arity: arity, help: help))
  }

  override func bind(_ values: [String]) { wrappedValue = value(values) }
}

extension Argument where Value == String {
  /// Declares a positional argument that must be there.
  /// - Parameters:
  ///   - name: its name in the usage line and the ARGUMENTS section (`FILE`).
  ///   - help: its line in the help (`\n` breaks it).
  convenience init(_ name: String, help: String) { self.init(name, arity: .one, help: help) { $0.first ?? "" } }
}

extension Argument where Value == String? {
  /// Declares a positional argument that may be left out.
  convenience init(_ name: String, help: String) { self.init(name, arity: .optional, help: help) { $0.first } }
}

extension Argument where Value == [String] {
  /// Declares one or more positional arguments: every one left after the others.
  convenience init(_ name: String, help: String) { self.init(name, arity: .many, help: help) { $0 } }
}

/// What one property of a ``Command`` reads from the command line, as ``CommandParser`` and ``HelpText`` see it.
struct ArgumentDefinition {
  /// The three shapes of command-line input.
  enum Kind {
    /// Present or not (`--json`).
    case flag
    /// A name and the value after it (`-o OUT`, or `--output=OUT`).
    case option
    /// A value by its position (`FILE`).
    case positional
  }

  /// How many values a declaration takes.
  enum Arity {
    /// Exactly one: a required option, or a positional argument that must be there.
    case one
    /// At most one.
    case optional
    /// One or more positional arguments (all the ones left), or every occurrence of an option.
    case many
  }

  var kind: Kind
  /// An option's or flag's names, the first one shown in the usage line (`-o`, `--output`); a positional
  /// argument's name (`FILE`).
  var names: [String]
  var arity: Arity
  /// The help text; lines break where it has `\n`.
  var help: String
  /// An option's value as the OPTIONS section names it (`OUT`, `FORMAT`).
  var valueName = ""
  /// The values an option accepts, or `nil` for any: another one is a usage error naming them.
  var choices: [String]?
  /// An option's value as the usage line shows it: its choices (`binary|xml`), else its value name.
  var usageValue = ""
  /// Flags of one group are alternatives, shown together in the usage line: `[--trace | --trace-all]`.
  var group: String?

  /// The first name: what the usage line and the messages show.
  var displayName: String { names.first ?? "" }

  /// The left column of the help's ARGUMENTS or OPTIONS section: `FILE`, `-o, --output OUT`, `--json`.
  var label: String {
    switch kind {
    case .flag: names.joined(separator: ", ")
    case .option: names.joined(separator: ", ") + " " + valueName
    case .positional: displayName
    }
  }

  /// This declaration in the usage line: `[--json]`, `-o OUT`, `[--format binary|xml]`, `FILE`, `FILE…`,
  /// `[COMMAND]`.
  var usage: String {
    switch (kind, arity) {
    case (.flag, _): "[\(displayName)]"
    case (.option, .one): "\(displayName) \(usageValue)"
    case (.option, _): "[\(displayName) \(usageValue)]"
    case (.positional, .one): displayName
    case (.positional, .optional): "[\(displayName)]"
    case (.positional, .many): "\(displayName)…"
    }
  }
}

/// What the property wrappers that declare one input of a ``Command`` share: ``Flag``, ``Option`` and
/// ``Argument``.
///
/// The wrappers are classes so that ``CommandParser`` can give a parsed value to the declaration it finds among an
/// instance's properties (through `Mirror`, which reads properties but cannot assign them), and subclasses of this
/// one so that finding them is a class cast, which costs nothing at start-up, where a cast to a protocol would
/// search the conformances of every loaded library.
class CommandInput {
  /// The declaration.
  let definition: ArgumentDefinition

  init(_ definition: ArgumentDefinition) { self.definition = definition }

  /// Takes the values the command line gave this declaration, in order (for a flag, one per occurrence).
  func bind(_ values: [String]) {}
}

/// A verb of `keyed`: its options and arguments, its help and its run, in one type (the shape of
/// swift-argument-parser's `ParsableCommand`, CLI-130).
///
/// The options and arguments are the type's ``Flag``, ``Option`` and ``Argument`` properties, in the order they are
/// declared: ``CommandParser`` reads them from the command line into a new instance, and ``HelpText`` writes the
/// verb's help, its usage line and its usage errors from the same declarations.
///
/// ```swift
/// struct ValidateCommand: Command {
///   static var configuration: CommandConfiguration {
///     CommandConfiguration(name: "validate", abstract: "Check a file fully without printing it.")
///   }
///   @Argument("FILE", help: "The input file, or - for standard input.") var files: [String]
///   func run(_ context: inout Context) throws { … }
/// }
/// ```
protocol Command {
  /// The verb's name and the texts of its help.
  static var configuration: CommandConfiguration { get }

  /// An instance whose properties hold their declarations and no parsed value yet.
  init()

  /// Runs the verb with the values parsed into the properties, printing through `context`. Not `mutating`: a verb
  /// only reads its values, and a verb without options is an empty struct, which has no address for the runner's
  /// generic call to access (Decision 0073).
  /// - Throws: ``UsageError`` for arguments the declarations cannot reject alone (exit 64, with the usage line),
  ///   ``CommandExit`` to end with a status after printing, or what reading and decoding throw.
  func run(_ context: inout Context) throws
}

/// A verb's name and the texts of its help (``HelpText``).
struct CommandConfiguration {
  /// The verb, as typed after `keyed`.
  var name: String
  /// One line for the list of commands in `keyed help`.
  var abstract: String
  /// The OVERVIEW of the verb's own help; the abstract when `nil`. Lines break where the text has `\n`.
  var overview: String?
  /// Text printed after the OPTIONS section (exit statuses, examples), or `nil`.
  var notes: String?

  init(name: String, abstract: String, overview: String? = nil, notes: String? = nil) {
    self.name = name
    self.abstract = abstract
    self.overview = overview
    self.notes = notes
  }
}

/// Ends a command with `status` after what it printed (a `diff` that found differences, several files of which one
/// failed).
struct CommandExit: Error {
  /// The exit status.
  var status: Int32
}

/// Arguments that do not fit the command (exit 64): printed with the verb's usage line.
struct UsageError: Error {
  /// What is wrong, without the tool's name.
  var message: String
}

/// `keyed validate [-r] FILE…` (CLI-021): checks each file fully without printing it; several files (or `-r` and
/// directories) one after another, each with its usual line (CLI-132).
struct ValidateCommand: Command {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "validate", abstract: "Check a file fully without printing it.",
      overview: "Check a file fully (every object decoded) without printing it.")
  }

  @Flag(
    "-r", "--recursive",
    help: """
      Check every regular file below each directory argument, in path order (symbolic links
      below it are not followed).
      """)
  var recursive: Bool
  @Argument(
    "FILE",
    help: """
      The input file, or - for standard input. Several files are checked one after another,
      each with its line: the summary on standard output, or the diagnostic on standard error.
      """)
  var files: [String]

  func run(_ context: inout Context) throws {
    if files.count == 1, !recursive, let path = files.first {
      try context.validate(path)
      return
    }
    var failed = false
    for entry in InputFiles.expand(files, recursive: recursive) {
      do {
        if let error = entry.error { throw error }
        try context.validate(entry.path)
      } catch {
        context.errors += "keyed: \(Context.diagnostic(error).message)\n"
        failed = true
      }
      context.flush()
    }
    if failed { throw CommandExit(status: KeyedTool.ExitCode.dataError) }
  }
}

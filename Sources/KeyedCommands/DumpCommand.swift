import FoundationForms

/// `keyed dump [--json] [--raw] [--pretty] [--dot] [-r] FILE…` (CLI-010 to CLI-015): one file as a tree or in the
/// canonical JSON; several files (or `-r` and directories) as JSON lines, one per file (CLI-131).
struct DumpCommand: Command {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "dump",
      abstract: "Print a property list, keyed archive, typedstream, XIB or nib (tree, or canonical JSON).",
      overview: "Print a property list, keyed archive, typedstream (NSArchiver), XIB or nib.")
  }

  @Flag("--json", help: "Print canonical JSON (one line unless --pretty).")
  var json: Bool
  @Flag(
    "--raw",
    help: """
      Print the property list itself, before any archive interpretation; for a typedstream,
      the stream's own values (classes, typed fields, shared references).
      """)
  var raw: Bool
  @Flag("--pretty", help: "Indent JSON output.")
  var pretty: Bool
  @Flag(
    "--dot",
    help: """
      Print a Graphviz graph of a XIB's or nib's objects: the hierarchy as solid edges, outlets,
      actions and segues as dashed edges (render with: dot -Tpng).
      """)
  var dot: Bool
  @Flag(
    "-r", "--recursive",
    help: """
      Read every regular file below each directory argument, in path order (symbolic links
      below it are not followed).
      """)
  var recursive: Bool
  @Argument(
    "FILE",
    help: """
      The input file, or - for standard input. With several files, or with -r, --json prints
      one line per file: {"file": PATH, "value": ...} or {"file": PATH, "error": MESSAGE}.
      """)
  var files: [String]

  func run(_ context: inout Context) throws {
    if files.count == 1, !recursive, let path = files.first {
      try context.dump(path, json: json, raw: raw, pretty: pretty, dot: dot)
      return
    }
    guard json, !pretty, !dot else {
      throw UsageError(
        message: "several files are dumped as JSON lines, one per file: --json, without --pretty or --dot")
    }
    var failed = false
    for entry in InputFiles.expand(files, recursive: recursive) {
      let file = CanonicalJSON.string(entry.path)
      do {
        if let error = entry.error { throw error }
        let value = try context.captured { try $0.dump(entry.path, json: true, raw: raw, pretty: false, dot: false) }
        context.output += "{\"file\":\(file),\"value\":\(value.dropLast(value.hasSuffix("\n") ? 1 : 0))}\n"
      } catch {
        let (message, _) = Context.diagnostic(error)
        context.output += "{\"file\":\(file),\"error\":\(CanonicalJSON.string(message))}\n"
        context.errors += "keyed: \(message)\n"
        failed = true
      }
      context.flush()
    }
    if failed { throw CommandExit(status: KeyedTool.ExitCode.dataError) }
  }
}

import ArchiveCoding
import ArchiveComparison
import Foundation
import FoundationForms
import InterfaceComparison

/// `keyed diff A B [--json] [--pretty]` (CLI-080…CLI-084): the differences by meaning, one a line or as a JSON
/// array; the exit status says whether there were any (0 equal, 1 different).
struct DiffCommand: Command {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "diff", abstract: "Compare two archives, property lists, XIBs or nibs by meaning.",
      overview: """
        Compare two keyed archives, property lists, XIBs, storyboards or nibs by meaning, not bytes:
        XIB objects matched by their id, archive and compiled-nib objects by their position in the graph.
        Prints one line per difference, <path>: <what A has> -> <what B has>.
        """,
      notes: """
        Exit status: 0 when A and B are equal, 1 when they differ, 65 when either is malformed.
        As git's difftool: git difftool -x 'keyed diff' -- FILE.xib
        """)
  }

  @Flag(
    "--json",
    help: """
      Print the differences as a JSON array of {"path": ..., "a": ..., "b": ...}, values in
      canonical JSON (null where a side has nothing).
      """)
  var json: Bool
  @Flag("--pretty", help: "Indent JSON output.")
  var pretty: Bool
  @Option(
    "--identity", value: "CLASS=KEY,...",
    help: """
      Align array elements of CLASS by their field KEY (an id), so that an object
      that moved or changed is matched with itself (ARC-305).
      """)
  var identity: String?
  @Argument("A", help: "The first file (or .nib directory), or - for standard input.")
  var first: String
  @Argument("B", help: "The second file (or .nib directory).")
  var second: String

  func run(_ context: inout Context) throws {
    let options = ArchiveComparison.Options(identityKeys: try Self.identityKeys(identity))
    let first = try context.comparedDocument(first)
    let second = try context.comparedDocument(second)
    let differences: [ArchiveDifference]
    do {
      differences = try ArchiveComparison.differences(between: first, and: second, options: options)
    } catch let error as ArchiveError {
      throw Context.InputError(message: "cannot compare: \(error.message)", status: KeyedTool.ExitCode.dataError)
    }
    if json {
      context.output += CanonicalJSON.text(.array(differences.map(\.json)), pretty: pretty) + "\n"
    } else {
      for difference in differences { context.output += "\(difference)\n" }
    }
    if !differences.isEmpty { throw CommandExit(status: KeyedTool.ExitCode.failure) }
  }

  /// The identity keys of `--identity CLASS=KEY,...`, by class name.
  static func identityKeys(_ text: String?) throws -> [String: String] {
    guard let text else { return [:] }
    var keys: [String: String] = [:]
    for entry in text.split(separator: ",") {
      let parts = entry.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw UsageError(message: "--identity expects CLASS=KEY[,CLASS=KEY...], found '\(entry)'")
      }
      keys[String(parts[0])] = String(parts[1])
    }
    return keys
  }
}

extension Context {
  /// One input of `diff`: a file, standard input, or a `.nib` directory, with one-line diagnostics naming it. A
  /// typedstream is compared as its decoded values (`dump --json`'s).
  func comparedDocument(_ path: String) throws -> ComparedDocument {
    var isDirectory: ObjCBool = false
    if path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      return ComparedDocument(table: try readObjectTable(path))
    }
    let data = try read(path)
    do {
      if TypedstreamCommand.isTypedstream(data) {
        return ComparedDocument(tree: try TypedstreamCommand.decodedGraph(data), kind: .typedstream)
      }
      return try ComparedDocument(interfaceData: data, fileName: name(path))
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
  }
}

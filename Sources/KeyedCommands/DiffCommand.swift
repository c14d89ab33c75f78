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
    "--identity", value: "CLASS=KEY",
    help: """
      Align array elements of CLASS by their field KEY (an id), so that an object
      that moved or changed is matched with itself; several pairs separated by commas.
      """)
  var identity: String?
  @Argument("A", help: "The first file (or .nib directory), or - for standard input.")
  var first: String
  @Argument("B", help: "The second file (or .nib directory).")
  var second: String

  func run(_ context: inout Context) throws {
    let options = ArchiveComparison.Options(identityKeys: try Self.identityKeys(identity))
    // Both inputs are read first (an unreadable file is reported before anything is compared). Two keyed archives
    // stored alike are checked, not walked (ARC-315). Otherwise the first is walked into its tree and its bytes are
    // let go; the second is then checked against that tree as it is walked, and gets a tree of its own only when
    // the two differ: one input's bytes and walk are held at a time.
    var inputs = [try context.diffInput(first), try context.diffInput(second)]
    let differences: [ArchiveDifference]
    if let alike = DiffInput.storedAlike(inputs[0], inputs[1]) {
      // Two keyed archives stored alike (ARC-315): nothing differs; only their checks can fail.
      if case .failure(let error) = alike.first { throw context.inputError(first, error) }
      if case .failure(let error) = alike.second { throw context.inputError(second, error) }
      differences = []
    } else {
      let first = try context.comparedDocument(inputs[0].document(), path: first)
      inputs.removeFirst()
      let second = try context.comparedDocument(inputs[0].document(comparedWith: { first }), path: second)
      do {
        differences = try ArchiveComparison.differences(between: first, and: second, options: options)
      } catch let error as ArchiveError {
        throw Context.InputError(message: "cannot compare: \(error.message)", status: KeyedTool.ExitCode.dataError)
      }
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

/// One input of `diff`, read: a compiled nib directory's table, or the bytes of a file or of standard input.
struct DiffInput: Sendable {
  var table: ObjectTable?
  var data: Data
  var fileName: String

  /// The input as compared: a typedstream as its decoded values (`dump --json`'s), else by its format (a keyed
  /// archive checked against `first` as it is walked, ``ComparedDocument/init(data:fileName:comparedWith:)``).
  func document(comparedWith first: () -> ComparedDocument? = { nil }) -> Result<ComparedDocument, ArchiveError> {
    if let table { return .success(ComparedDocument(table: table)) }
    return Self.outcome {
      if TypedstreamCommand.isTypedstream(data) {
        return ComparedDocument(tree: try TypedstreamCommand.decodedGraph(data), kind: .typedstream)
      }
      return try ComparedDocument(interfaceData: data, fileName: fileName, comparedWith: first)
    }
  }

  /// The checks of two files that store one keyed archive alike (no `.nib` directory, no keyed-archive nib), each
  /// as ``document(comparedWith:)`` reports its errors; `nil` for any other pair.
  static func storedAlike(
    _ a: DiffInput, _ b: DiffInput
  ) -> (first: Result<Void, ArchiveError>, second: Result<Void, ArchiveError>)? {
    guard a.table == nil, b.table == nil,
      let alike = ComparedDocument.storedAlike(interfaceData: a.data, b.data, fileNames: (a.fileName, b.fileName))
    else { return nil }
    return (outcome { try alike.first.get() }, outcome { try alike.second.get() })
  }

  /// What `body` returns, or its error as an ``/ArchiveCoding/ArchiveError``.
  private static func outcome<Value>(_ body: () throws -> Value) -> Result<Value, ArchiveError> {
    do {
      return .success(try body())
    } catch let error as ArchiveError {
      return .failure(error)
    } catch {
      return .failure(ArchiveError(.corruptData, "\(error)"))
    }
  }
}

extension Context {
  /// One input of `diff`, read: a file, standard input, or a `.nib` directory, with one-line diagnostics naming it.
  func diffInput(_ path: String) throws -> DiffInput {
    var isDirectory: ObjCBool = false
    if path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      return DiffInput(table: try readObjectTable(path), data: Data(), fileName: name(path))
    }
    return DiffInput(table: nil, data: try read(path), fileName: name(path))
  }

  /// The document of an input of `diff`, or its error as a one-line diagnostic naming `path`.
  func comparedDocument(_ read: Result<ComparedDocument, ArchiveError>, path: String) throws -> ComparedDocument {
    switch read {
    case .success(let document): return document
    case .failure(let error): throw inputError(path, error)
    }
  }
}

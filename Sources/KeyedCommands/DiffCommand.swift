import ArchiveCoding
import ArchiveComparison
import Foundation
import FoundationForms

extension Context {
  /// `keyed diff A B [--json] [--pretty]` (CLI-080…CLI-084): the differences by meaning, one a line or as a JSON
  /// array; the exit status says whether there were any.
  /// - Returns: ``KeyedTool/ExitCode/success`` when the inputs are equal, ``KeyedTool/ExitCode/failure`` when they
  ///   differ.
  mutating func diff(_ arguments: [String]) throws -> Int32 {
    let parsed = try parse(arguments, flags: ["--json", "--pretty"], valued: [])
    guard parsed.positional.count == 2 else {
      throw UsageError(message: parsed.positional.count < 2 ? "expected two files, A and B" : "expected two files only")
    }
    let first = try comparedDocument(parsed.positional[0])
    let second = try comparedDocument(parsed.positional[1])
    let differences: [ArchiveDifference]
    do {
      differences = try ArchiveComparison.differences(between: first, and: second)
    } catch let error as ArchiveError {
      throw InputError(message: "cannot compare: \(error.message)", status: KeyedTool.ExitCode.dataError)
    }
    if parsed.flags.contains("--json") {
      output += CanonicalJSON.text(.array(differences.map(\.json)), pretty: parsed.flags.contains("--pretty")) + "\n"
    } else {
      for difference in differences { output += "\(difference)\n" }
    }
    return differences.isEmpty ? KeyedTool.ExitCode.success : KeyedTool.ExitCode.failure
  }

  /// One input of `diff`: a file, standard input, or a `.nib` directory, with one-line diagnostics naming it. A
  /// typedstream is compared as its decoded values (`dump --json`'s).
  private func comparedDocument(_ path: String) throws -> ComparedDocument {
    var isDirectory: ObjCBool = false
    if path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      return ComparedDocument(table: try readObjectTable(path))
    }
    let data = try read(path)
    do {
      if TypedstreamCommand.isTypedstream(data) {
        return ComparedDocument(tree: try TypedstreamCommand.decodedGraph(data), kind: .typedstream)
      }
      return try ComparedDocument(data: data, fileName: name(path))
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
  }
}

import Foundation

/// The file list of a `../shared/corpus` folder's MANIFEST.md: each table row whose first cell is a file name in
/// backticks, with the kind in its second cell (`valid` or `negative`).
public enum CorpusManifest {
  /// The rows of `directory/MANIFEST.md`; none when the folder or its manifest is absent.
  public static func rows(in directory: URL?) -> [(file: String, kind: String)] {
    guard let directory,
      let text = try? String(contentsOf: directory.appendingPathComponent("MANIFEST.md"), encoding: .utf8)
    else { return [] }
    var rows: [(file: String, kind: String)] = []
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count > 2 else { continue }
      rows.append((cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[1]))
    }
    return rows
  }
}

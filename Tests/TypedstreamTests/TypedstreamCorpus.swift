import Foundation

/// The real typedstreams of `../shared/corpus/typedstream` (third-party data, read in place, never copied into the
/// repository). `TYPEDSTREAM_CORPUS` names another folder holding the same files, for checkouts placed elsewhere.
enum TypedstreamCorpus {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let directory: URL? = {
    var candidates = [packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/typedstream")]
    if let override = ProcessInfo.processInfo.environment["TYPEDSTREAM_CORPUS"] {
      candidates.insert(URL(fileURLWithPath: override), at: 0)
    }
    return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("MANIFEST.md").path) }
  }()

  static var isPresent: Bool { directory != nil }

  static let skipMessage = "../shared/corpus/typedstream is absent: corpus tests skipped"

  /// The files the MANIFEST lists, with their kind (`valid` or `negative`).
  static let manifest: [(file: String, kind: String)] = {
    guard let directory,
      let text = try? String(contentsOf: directory.appendingPathComponent("MANIFEST.md"), encoding: .utf8)
    else { return [] }
    var rows: [(String, String)] = []
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count > 2 else { continue }
      rows.append((cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[1]))
    }
    return rows
  }()

  static var valid: [String] { manifest.filter { $0.kind == "valid" }.map(\.file) }
  static var negative: [String] { manifest.filter { $0.kind == "negative" }.map(\.file) }

  static func data(_ name: String) throws -> Data {
    guard let directory else { throw CocoaError(.fileNoSuchFile) }
    return try Data(contentsOf: directory.appendingPathComponent(name))
  }
}

import Foundation
import TestSupport

/// The real typedstreams of `../shared/corpus/typedstream` (third-party data, read in place, never copied into the
/// repository).
enum TypedstreamCorpus {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let directory: URL? = {
    let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/typedstream")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.md").path) ? url : nil
  }()

  static var isPresent: Bool { directory != nil }

  static let skipMessage = "../shared/corpus/typedstream is absent: corpus tests skipped"

  /// The files the MANIFEST lists, with their kind (`valid` or `negative`).
  static let manifest = CorpusManifest.rows(in: directory)

  static var valid: [String] { manifest.filter { $0.kind == "valid" }.map(\.file) }
  static var negative: [String] { manifest.filter { $0.kind == "negative" }.map(\.file) }

  static func data(_ name: String) throws -> Data {
    guard let directory else { throw CocoaError(.fileNoSuchFile) }
    return try Data(contentsOf: directory.appendingPathComponent(name))
  }
}

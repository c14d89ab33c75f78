import Foundation
import Testing

/// The shared corpus of real Interface Builder documents, read in place (never copied into the repository).
///
/// It lives at `../shared/corpus` relative to the package root; tests that need it are disabled, with a message
/// saying so, when it is absent.
enum Corpus {
  /// The package root, found from this file's path (`Tests/XIBTests/Support/Corpus.swift`).
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/corpus`.
  static let root: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

  /// `true` when the corpus folder exists.
  static let isAvailable: Bool = FileManager.default.fileExists(atPath: root.appendingPathComponent("xib").path)

  /// The message shown for tests skipped because the corpus is absent.
  static let absenceNote: Comment = "the shared corpus (../shared/corpus from the package root) is absent"

  /// Every `.xib` and `.storyboard` file of the corpus (`xib/` and `nib/`), as paths relative to ``root``, sorted.
  static let interfaceBuilderFiles: [String] = {
    guard isAvailable, let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var files: [String] = []
    while let path = enumerator.nextObject() as? String {
      if path.hasSuffix(".xib") || path.hasSuffix(".storyboard") { files.append(path) }
    }
    return files.sorted()
  }()

  /// The absolute path of a corpus file.
  static func path(_ relative: String) -> String {
    root.appendingPathComponent(relative).path
  }

  /// The bytes of a corpus file.
  static func bytes(_ relative: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: root.appendingPathComponent(relative)))
  }

  /// The largest corpus file, by size.
  static var largestFile: String? {
    interfaceBuilderFiles.max { size($0) < size($1) }
  }

  private static func size(_ relative: String) -> Int {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path(relative))
    return (attributes?[.size] as? NSNumber)?.intValue ?? 0
  }
}

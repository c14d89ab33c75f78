import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// The repository root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// `../shared/corpus` beside the repository, or `nil` (with a note) when it is absent, as on a user's machine.
let corpusRoot: URL? = {
  let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
  return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

/// Every regular file under a corpus folder, sorted.
func corpusFiles(_ folder: String) -> [URL] {
  guard let root = corpusRoot?.appendingPathComponent(folder),
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
  else { return [] }
  var files: [URL] = []
  for case let url as URL in enumerator {
    if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { files.append(url) }
  }
  return files.sorted { $0.path < $1.path }
}

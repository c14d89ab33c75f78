import Foundation
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

/// A small deterministic generator for seeded tests.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

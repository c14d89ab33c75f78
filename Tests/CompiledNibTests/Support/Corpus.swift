import Foundation
import TestSupport

/// Locates the shared real-world corpus (never copied into the repository) and the test scripts.
enum Corpus {
  /// The package root, derived from this file's path (Tests/CompiledNibTests/Support/Corpus.swift).
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/corpus/nib` relative to the package root.
  static let nibDirectory: URL = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/nib", isDirectory: true)

  /// `true` when the corpus folder exists.
  static let isAvailable: Bool = FileManager.default.fileExists(atPath: nibDirectory.path)

  /// The message shown when corpus tests are skipped.
  static let absentMessage = "corpus absent: expected real nibs at ../shared/corpus/nib relative to the package root"

  /// The independent counting script.
  static let countsScript: URL = packageRoot.appendingPathComponent("Tests/Scripts/nibarchive_counts.py")

  /// Every regular file under the corpus whose first 10 bytes are `NIBArchive`, with its path relative to the
  /// corpus folder, sorted by path.
  static let nibArchiveFiles: [(relativePath: String, url: URL)] = {
    guard isAvailable else { return [] }
    return regularFiles(under: nibDirectory).filter { url in
      guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
      defer { try? handle.close() }
      let head = (try? handle.read(upToCount: 10)) ?? Data()
      return head == Data("NIBArchive".utf8)
    }.map { (relativePath(of: $0), $0) }.sorted { $0.relativePath < $1.relativePath }
  }()

  /// Every directory under the corpus whose name ends in `suffix`, sorted by path.
  static func directories(withSuffix suffix: String) -> [URL] {
    guard isAvailable, let enumerator = FileManager.default.enumerator(atPath: nibDirectory.path) else { return [] }
    var found: [URL] = []
    while let relative = enumerator.nextObject() as? String {
      let url = nibDirectory.appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      if relative.hasSuffix(suffix), FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        isDirectory.boolValue
      {
        found.append(url)
      }
    }
    return found.sorted { $0.path < $1.path }
  }

  static func relativePath(of url: URL) -> String {
    String(url.standardizedFileURL.path.dropFirst(nibDirectory.standardizedFileURL.path.count + 1))
  }

  static func regularFiles(under directory: URL) -> [URL] {
    guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
    var files: [URL] = []
    while let relative = enumerator.nextObject() as? String {
      let url = directory.appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files.append(url)
      }
    }
    return files
  }

  /// Reads a corpus file's bytes.
  static func bytes(_ url: URL) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: url))
  }
}

/// Finds `python3` on the PATH.
enum Python {
  static let executable: URL? = ProcessRunner.program(named: "python3")
}

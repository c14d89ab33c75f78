import Foundation
import KeyedCommands
import Testing

@Suite("keyed on Apple's compiled NIBArchive files")
struct NIBArchiveCommandTests {
  /// Every file of the corpus that starts with the NIBArchive magic.
  static var files: [URL] {
    corpusFiles("nib", extensions: ["nib"]).filter { url in
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
        let handle = FileHandle(forReadingAtPath: url.path)
      else { return false }
      defer { try? handle.close() }
      return handle.readData(ofLength: 10) == Data("NIBArchive".utf8)
    }
  }

  @Test(
    "NIBA-061, CLI-021, CLI-031: every NIBArchive file validates, and instantiate --stats --json with the catalog counts what an independent walk counts"
  )
  func everyFile() throws {
    let files = Self.files
    guard !files.isEmpty else {
      print("skipped: ../shared/corpus is absent")
      return
    }
    #expect(files.count == 214)
    let oracle =
      try runPython("compiled_nib_table_counts.py", ["--with-application"] + files.map(\.path))
      .flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["files"] as? [String: Any]
    for url in files {
      #expect(keyed("validate", url.path).status == 0, "\(url.path)")
      let result = keyed("instantiate", "--stats", "--json", url.path)
      #expect(result.status == 0, "\(url.path): \(result.errors)")
      guard let stats = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Int] else {
        Issue.record("\(url.path): no JSON")
        continue
      }
      #expect(stats["awakened"] == stats["objects"])
      guard let expected = (oracle?[url.path] as? [String: Any])?["stats"] as? [String: Int] else { continue }
      #expect(stats == expected, "\(url.lastPathComponent)")
    }
    if oracle == nil { print("python3 is not available: counts not cross-checked") }
  }
}

import Foundation
import InterfaceObjects
import KeyedCommands
import NibLoading
import Testing

@Suite("keyed compile")
struct CompileTests {
  static func stats(_ path: String) throws -> [String: Int] {
    let result = keyed("instantiate", "--stats", "--json", path)
    guard result.status == 0,
      let stats = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Int]
    else { throw CocoaError(.coderReadCorrupt) }
    return stats
  }

  static var documents: [URL] {
    (ScenarioResources.url.map { url in
      ((try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []).filter {
        $0.pathExtension == "xib"
      }
    } ?? []) + InstantiateCorpusTests.documents
  }

  @Test("CLI-040, NIB-070: compiling then loading gives the same counts as loading the document (XIBs and storyboards)")
  func sameCounts() throws {
    let directory = try makeTemporaryDirectory("compile")
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(!Self.documents.isEmpty)
    for document in Self.documents {
      let out = directory.appendingPathComponent(document.deletingPathExtension().lastPathComponent + ".out")
      let compiled = keyed("compile", document.path, "-o", out.path)
      #expect(compiled.status == 0, "\(document.lastPathComponent): \(compiled.errors)")
      let expected = try Self.stats(document.path)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: out.path, isDirectory: &isDirectory) else { continue }
      var actual: [String: Int] = [:]
      if isDirectory.boolValue {
        let nibs = try FileManager.default.contentsOfDirectory(at: out, includingPropertiesForKeys: nil).filter {
          $0.pathExtension == "nib"
        }
        for nib in nibs { actual.merge(try Self.stats(nib.path), uniquingKeysWith: +) }
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("Info.plist").path))
      } else {
        actual = try Self.stats(out.path)
      }
      #expect(actual == expected, "\(document.lastPathComponent)")
    }
  }

  @Test(
    "NIB-070, NIB-040: a compiled scenario nib instantiates into the same working cell (XIB keys and compiled keys)")
  func compiledCellWorks() throws {
    ScenarioResources.register()
    let source = try #require(ScenarioResources.url).appendingPathComponent("TableViewCell.xib")
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("cell-\(UUID().uuidString).nib")
    defer { try? FileManager.default.removeItem(at: out) }
    #expect(keyed("compile", source.path, "-o", out.path).status == 0)
    for url in [source, out] {
      let cell = try #require(try Nib(contentsOf: url).instantiate(owner: nil).first as? ScenarioTableViewCell)
      #expect(cell.lb1?.text == "Label 1", "\(url.lastPathComponent)")
      #expect(cell.lb2?.text == "Label 2")
      #expect(cell.frame == Rect(x: 0, y: 0, width: 320, height: 60))
      #expect(cell.reuseIdentifier == "TableViewCell")
      let button = try #require(cell.contentView.subviews.compactMap { $0 as? Button }.first)
      #expect(button.title(for: .normal) == "Button")
      button.sendActions(for: .touchUpInside)
      #expect(cell.taps == 1)
    }
  }
}

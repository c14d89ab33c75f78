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

  @Test("CLI-040: scenes whose identifiers differ only by \"/\" and \"_\" compile to two nibs; duplicates are refused")
  func sceneFileNames() throws {
    func storyboard(_ first: String, _ second: String) -> Data {
      let scenes = [(first, "vc1", "s1"), (second, "vc2", "s2")].map { identifier, controller, scene in
        """
        <scene sceneID="\(scene)"><objects>
        <viewController storyboardIdentifier="\(identifier)" id="\(controller)" sceneMemberID="viewController">
        <view key="view" contentMode="scaleToFill" id="v\(controller)"><rect key="frame" x="0" y="0" width="10" height="10"/></view>
        </viewController></objects></scene>
        """
      }
      return Data(
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><document type=\"com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB\" "
          + "version=\"3.0\" initialViewController=\"vc1\"><scenes>" + scenes.joined() + "</scenes></document>").utf8)
    }
    let directory = try makeTemporaryDirectory("scene-names")
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = directory.appendingPathComponent("Names.storyboard")
    try storyboard("a/b", "a_b").write(to: source)
    let folder = directory.appendingPathComponent("Names.storyboardc")
    let result = keyed("compile", source.path, "-o", folder.path)
    #expect(result.status == 0, "\(result.errors)")
    let members = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(members == ["Info.plist", "a_b-2.nib", "a_b.nib"])
    let compiled = try Storyboard(contentsOf: folder)
    #expect(compiled.identifiers == ["a/b", "a_b"])
    for identifier in compiled.identifiers { _ = try compiled.instantiateViewController(withIdentifier: identifier) }
    let info = try PropertyListSerialization.propertyList(
      from: Data(contentsOf: folder.appendingPathComponent("Info.plist")), format: nil)
    let names = (info as? [String: Any])?["UIViewControllerIdentifiersToNibNames"] as? [String: String]
    #expect(names == ["a/b": "a_b", "a_b": "a_b-2"])
    try storyboard("dup", "dup").write(to: source)
    let refused = keyed("compile", source.path, "-o", directory.appendingPathComponent("Dup.storyboardc").path)
    #expect(refused.status == 65 && refused.errors.contains("both have the identifier \"dup\""), "\(refused.errors)")
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

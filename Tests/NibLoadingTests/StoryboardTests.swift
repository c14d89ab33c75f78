import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing
import XIB

@Suite("Storyboards")
struct StoryboardTests {
  static let storyboard = Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" initialViewController="vc1">
        <scenes>
            <scene sceneID="s1">
                <objects>
                    <viewController storyboardIdentifier="First" id="vc1" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="v1">
                            <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                            <subviews>
                                <label text="first" id="l1">
                                    <rect key="frame" x="10" y="10" width="100" height="20"/>
                                </label>
                            </subviews>
                        </view>
                        <connections>
                            <segue destination="vc2" kind="show" identifier="next" id="sg1"/>
                        </connections>
                    </viewController>
                    <placeholder placeholderIdentifier="IBFirstResponder" id="fr1" sceneMemberID="firstResponder"/>
                </objects>
            </scene>
            <scene sceneID="s2">
                <objects>
                    <viewController storyboardIdentifier="Second" id="vc2" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="v2">
                            <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                        </view>
                    </viewController>
                    <placeholder placeholderIdentifier="IBFirstResponder" id="fr2" sceneMemberID="firstResponder"/>
                </objects>
            </scene>
        </scenes>
    </document>
    """.utf8)

  func write() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("Main-\(UUID().uuidString).storyboard")
    try Self.storyboard.write(to: url)
    return url
  }

  @Test("NIB-080: a storyboard instantiates its initial view controller and each scene by identifier, fresh each time")
  func document() throws {
    let url = try write()
    defer { try? FileManager.default.removeItem(at: url) }
    let storyboard = try Storyboard(contentsOf: url, registry: testRegistry)
    #expect(storyboard.identifiers == ["First", "Second"])
    #expect(storyboard.initialViewControllerIdentifier == "First")
    let first = try #require(try storyboard.instantiateInitialViewController() as? ViewController)
    #expect((first.view.subviews.first as? Label)?.text == "first")
    #expect(first.segues.map { $0.identifier } == ["next"], "segues are recorded on their source")
    let second = try #require(try storyboard.instantiateViewController(withIdentifier: "Second") as? ViewController)
    #expect(second.view.frame.width == 375)
    let again = try storyboard.instantiateViewController(withIdentifier: "Second")
    #expect(ObjectIdentifier(again) != ObjectIdentifier(second))
    #expect(throws: ArchiveError.self) { try storyboard.instantiateViewController(withIdentifier: "Nope") }
  }

  @Test("NIB-080, CLI-040: the storyboard compiled to a .storyboardc folder instantiates the same controllers")
  func compiled() throws {
    let url = try write()
    let table = try NibReader.objectTable(contentsOf: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Main-\(UUID().uuidString).storyboardc")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // What `keyed compile` writes: one nib per scene and an Info.plist.
    let document = try XIBFixture.document(url)
    var names: [String: String] = [:]
    for (identifier, _, indexes) in try Storyboard.scenes(of: document, table: table) {
      try NibCompiler.compile(table.restricted(to: indexes)).write(
        to: folder.appendingPathComponent("\(identifier).nib"))
      names[identifier] = identifier
    }
    let info: [String: Any] = [
      "UIViewControllerIdentifiersToNibNames": names, "UIStoryboardDesignatedEntryPointIdentifier": "First",
    ]
    try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0).write(
      to: folder.appendingPathComponent("Info.plist"))
    let storyboard = try Storyboard(contentsOf: folder, registry: testRegistry)
    #expect(storyboard.initialViewControllerIdentifier == "First")
    let first = try #require(try storyboard.instantiateInitialViewController() as? ViewController)
    #expect((first.view.subviews.first as? Label)?.text == "first")
    #expect(first.segues.count == 1)
  }

  @Test("NIB-080: an empty storyboard identifier names the scene by its controller; two scenes may not share one")
  func sceneIdentifiers() throws {
    func document(_ first: String, _ second: String) throws -> XIBDocument {
      let text = String(decoding: Self.storyboard, as: UTF8.self)
        .replacingOccurrences(of: "storyboardIdentifier=\"First\"", with: "storyboardIdentifier=\"\(first)\"")
        .replacingOccurrences(of: "storyboardIdentifier=\"Second\"", with: "storyboardIdentifier=\"\(second)\"")
      return try XIBDocument(parsing: Array(text.utf8), fileName: "Odd.storyboard")
    }
    let empty = try document("", "Second")
    let names = try Storyboard.scenes(of: empty, table: empty.objectTable()).map(\.0)
    #expect(names == ["UIViewController-vc1", "Second"])
    let twice = try document("dup", "dup")
    #expect {
      try Storyboard.scenes(of: twice, table: twice.objectTable())
    } throws: { error in
      let error = error as? ArchiveError
      return error?.code == .corruptData && error?.message.contains("both have the identifier \"dup\"") == true
        && error?.message.contains("lines 4 and 22") == true && error?.location.line == 22
    }
  }

  @Test("NIB-080: Apple's compiled storyboards of the corpus instantiate their entry point")
  func appleCompiled() throws {
    guard let root = corpusURL?.appendingPathComponent("nib") else {
      print("skipped: ../shared/corpus is absent")
      return
    }
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    var folders: [URL] = []
    while let url = enumerator?.nextObject() as? URL {
      if url.pathExtension == "storyboardc" { folders.append(url) }
    }
    #expect(!folders.isEmpty)
    var instantiated = 0
    for folder in folders.sorted(by: { $0.path < $1.path }) {
      let storyboard = try Storyboard(contentsOf: folder, registry: testRegistry)
      for identifier in storyboard.identifiers {
        _ = try storyboard.instantiateViewController(withIdentifier: identifier)
        instantiated += 1
      }
    }
    #expect(instantiated > 0)
  }
}

let corpusURL: URL? = {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")
  return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

enum XIBFixture {
  static func document(_ url: URL) throws -> XIBDocument { try XIBDocument(contentsOfFile: url.path) }
}

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

  @Test("NIB-080: each scene's table keeps its own references, connections and attributes, and cuts the others")
  func scenesCutFromTheTable() {
    // Objects 0-1 are scene A, 2-3 scene B. 0 refers to 1 and 2; 3 to 2 and 0.
    let table = ObjectTable(
      objects: [
        ObjectRecord(
          id: "a0", className: "UIViewController",
          fields: [ObjectField(key: "own", value: .object(1)), ObjectField(key: "other", value: .object(2))]),
        ObjectRecord(id: "a1", className: "UIView"),
        ObjectRecord(id: "b0", className: "UIViewController"),
        ObjectRecord(
          id: "b1", className: "UIView",
          fields: [ObjectField(key: "list", value: .array([.object(2), .object(0)]))]),
      ], topLevel: [0, 2],
      connections: [
        ConnectionRecord(kind: .outlet, source: 0, destination: 1, label: "view"),
        ConnectionRecord(kind: .outlet, source: 0, destination: 3, label: "crossing"),
        ConnectionRecord(kind: .segue, source: 0, destination: 2, label: "show"),
        ConnectionRecord(kind: .action, source: 3, destination: 2, label: "tap:"),
      ],
      runtimeAttributes: [RuntimeAttributeRecord(object: 3, keyPath: "peer", value: .object(0))])
    let parts = table.restricted(toEach: [[0, 1], [2, 3]])
    #expect(parts.count == 2)
    let (a, b) = (parts[0], parts[1])
    #expect(a.objects.map(\.id) == ["a0", "a1"] && b.objects.map(\.id) == ["b0", "b1"])
    #expect(a.objects[0].fields.map(\.value) == [.object(1), .null])
    #expect(b.objects[1].fields.map(\.value) == [.array([.object(0), .null])])
    #expect(a.topLevel == [0] && b.topLevel == [0])
    // The crossing outlet is dropped; the segue stays with no destination; B's action is B's.
    #expect(
      a.connections.map { "\($0.label) \($0.source) \($0.destination.map(String.init) ?? "nil")" } == [
        "view 0 1", "show 0 nil",
      ])
    #expect(
      b.connections.map { "\($0.label) \($0.source) \($0.destination.map(String.init) ?? "nil")" } == [
        "tap: 1 0"
      ])
    #expect(a.runtimeAttributes.isEmpty)
    #expect(b.runtimeAttributes.map(\.object) == [1] && b.runtimeAttributes.map(\.value) == [.null])
    // One part alone is the same cut.
    #expect(table.restricted(to: [2, 3]) == b)
    // Parts that share objects (two scenes with one sceneID) are each cut whole, as one part alone would be.
    let shared = table.restricted(toEach: [[0, 1], [0, 1]])
    #expect(shared == [table.restricted(to: [0, 1]), table.restricted(to: [0, 1])])
    #expect(shared[0] == a)
  }

  @Test("NIB-080: a storyboard of 20,000 scenes opens in time linear in its size")
  func manyScenes() throws {
    // Cutting each scene from the whole table walked every connection and object of the table per scene: 20,000
    // scenes took 22 s to compile in a release build, minutes in a debug one.
    let scenes = (0..<20_000).map { i in
      #"<scene sceneID="s\#(i)"><objects><viewController storyboardIdentifier="c\#(i)" id="vc\#(i)" "#
        + #"sceneMemberID="viewController"><view key="view" id="v\#(i)"/></viewController></objects></scene>"#
    }
    let document =
      #"<?xml version="1.0" encoding="UTF-8"?><document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" "#
      + #"version="3.0" targetRuntime="iOS.CocoaTouch" initialViewController="vc0"><scenes>"#
      + scenes.joined() + "</scenes></document>"
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("many-\(UUID().uuidString).storyboard")
    try Data(document.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let started = ContinuousClock.now
    let storyboard = try Storyboard(contentsOf: url)
    // About 1 s in a debug build; cut scene by scene it took over a minute.
    #expect(ContinuousClock.now - started < .seconds(20))
    #expect(storyboard.identifiers.count == 20_000)
    #expect(storyboard.initialViewControllerIdentifier == "c0")
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

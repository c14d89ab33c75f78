import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

/// A controller that records what its segues do.
final class RoutingController: ViewController {
  var prepared: [(identifier: String?, destination: ViewController, sender: String?)] = []
  var allowed = true
  override func prepare(for segue: StoryboardSegue, sender: Any?) {
    prepared.append((segue.identifier, segue.destination, sender as? String))
    segue.destination.title = "prepared by \(title ?? "?")"
  }
  override func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool { allowed }
}

private let navigationRegistry = catalogRegistry(with: [RoutingController.self])

@Suite("Storyboard navigation")
struct StoryboardNavigationTests {
  static let main = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" initialViewController="vc1">
        <scenes>
            <scene sceneID="s1">
                <objects>
                    <viewController title="Home" id="vc1" customClass="RoutingController" sceneMemberID="viewController">
                        <view key="view" id="v1"/>
                        <connections>
                            <segue destination="vc2" kind="show" identifier="detail" id="sg1"/>
                            <segue destination="ref1" kind="presentation" identifier="settings" id="sg2"/>
                            <segue destination="vc3" kind="embed" identifier="panel" id="sg3"/>
                        </connections>
                    </viewController>
                </objects>
            </scene>
            <scene sceneID="s2">
                <objects>
                    <viewController storyboardIdentifier="Detail" id="vc2" sceneMemberID="viewController">
                        <view key="view" id="v2"><subviews><label text="detail" id="l2"/></subviews></view>
                    </viewController>
                </objects>
            </scene>
            <scene sceneID="s3">
                <objects>
                    <viewController storyboardIdentifier="Panel" id="vc3" sceneMemberID="viewController">
                        <view key="view" id="v3"/>
                    </viewController>
                </objects>
            </scene>
            <scene sceneID="s4">
                <objects>
                    <viewControllerPlaceholder storyboardName="Settings" referencedIdentifier="Prefs" id="ref1" sceneMemberID="viewController"/>
                </objects>
            </scene>
        </scenes>
    </document>
    """
  static let settings = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
        <scenes>
            <scene sceneID="p1">
                <objects>
                    <viewController storyboardIdentifier="Prefs" title="Preferences" id="pv1" sceneMemberID="viewController">
                        <view key="view" id="pw1"/>
                    </viewController>
                </objects>
            </scene>
        </scenes>
    </document>
    """

  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("Navigation-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try Data(Self.main.utf8).write(to: url.appendingPathComponent("Main.storyboard"))
    try Data(Self.settings.utf8).write(to: url.appendingPathComponent("Settings.storyboard"))
    return url
  }

  @Test("NIB-100: performSegue instantiates the destination scene, calls prepare(for:sender:), then presents it")
  func performSegue() throws {
    let url = try folder()
    defer { try? FileManager.default.removeItem(at: url) }
    let storyboard = try Storyboard(
      contentsOf: url.appendingPathComponent("Main.storyboard"), registry: navigationRegistry)
    let home = try #require(try storyboard.instantiateInitialViewController() as? RoutingController)
    #expect(home.sceneIdentifier == "UIViewController-vc1")
    try home.performSegue(withIdentifier: "detail", sender: "button")
    let detail = try #require(home.presentedViewController)
    #expect(detail.presentingViewController === home)
    #expect(detail.title == "prepared by Home")
    #expect(home.prepared.map(\.identifier) == ["detail"], "the embed segue waits for the view (NIB-313)")
    _ = home.view
    #expect(home.prepared.map(\.identifier) == ["detail", "panel"], "the embed segue is prepared as the view loads")
    #expect(home.prepared.first?.sender == "button")
    #expect((detail.view.subviews.first as? Label)?.text == "detail")
    try home.performSegue(withIdentifier: "detail", sender: nil)
    #expect(home.presentedViewController !== detail, "each segue instantiates a fresh destination")
  }

  @Test("NIB-100: a segue through a storyboard reference opens the other storyboard next to this one")
  func storyboardReference() throws {
    let url = try folder()
    defer { try? FileManager.default.removeItem(at: url) }
    let storyboard = try Storyboard(
      contentsOf: url.appendingPathComponent("Main.storyboard"), registry: navigationRegistry)
    #expect(
      storyboard.destination(ofSegue: "settings", fromScene: "UIViewController-vc1")
        == .reference(storyboardName: "Settings", identifier: "Prefs"))
    let home = try #require(try storyboard.instantiateInitialViewController() as? RoutingController)
    try home.performSegue(withIdentifier: "settings", sender: nil)
    #expect(home.presentedViewController?.title == "prepared by Home")
    #expect(home.presentedViewController?.sceneIdentifier == "Prefs")
  }

  @Test(
    "NIB-100, NIB-313: an embed segue adds a child as the view loads; shouldPerformSegue vetoes a triggered segue; unknown ones throw"
  )
  func embedVetoAndUnknown() throws {
    let url = try folder()
    defer { try? FileManager.default.removeItem(at: url) }
    let storyboard = try Storyboard(
      contentsOf: url.appendingPathComponent("Main.storyboard"), registry: navigationRegistry)
    let home = try #require(try storyboard.instantiateInitialViewController() as? RoutingController)
    #expect(home.children.isEmpty)
    _ = home.view
    #expect(home.children.count == 1)
    #expect(home.children.first?.parent === home)
    home.allowed = false
    #expect(try home.triggerSegue(withIdentifier: "detail", sender: nil) == false)
    #expect(home.presentedViewController == nil)
    home.allowed = true
    #expect(try home.triggerSegue(withIdentifier: "detail", sender: nil))
    do {
      try home.performSegue(withIdentifier: "nowhere", sender: nil)
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.message.contains("no segue \"nowhere\""), "\(error)")
      #expect(error.message.contains("detail, settings, panel"), "\(error)")
    }
  }

  @Test("NIB-097, NIB-100: a storyboard by name in a bundle, its scenes by identifier")
  func identifiedScenes() throws {
    let url = try folder()
    defer { try? FileManager.default.removeItem(at: url) }
    let bundle = try #require(Bundle(path: url.path))
    let storyboard = try Storyboard(name: "Settings", bundle: bundle, registry: navigationRegistry)
    let prefs = try #require(try storyboard.instantiateViewController(withIdentifier: "Prefs") as? ViewController)
    #expect(prefs.title == "Preferences")
    #expect(prefs.storyboard === storyboard)
  }
}

@Suite("Storyboard prototype cells")
struct StoryboardPrototypeTests {
  static let list = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" initialViewController="tc1">
        <scenes>
            <scene sceneID="s1">
                <objects>
                    <viewController id="tc1" sceneMemberID="viewController">
                        <view key="view" id="v1">
                            <subviews>
                                <tableView dataMode="prototypes" id="tv1">
                                    <prototypes>
                                        <tableViewCell reuseIdentifier="Book" id="cell1">
                                            <tableViewCellContentView key="contentView" id="cv1">
                                                <subviews><label text="title" id="lb1"/></subviews>
                                            </tableViewCellContentView>
                                        </tableViewCell>
                                        <tableViewCell reuseIdentifier="Author" id="cell2">
                                            <tableViewCellContentView key="contentView" id="cv2"/>
                                        </tableViewCell>
                                    </prototypes>
                                </tableView>
                            </subviews>
                        </view>
                    </viewController>
                </objects>
            </scene>
        </scenes>
    </document>
    """

  @Test("NIB-102: a scene's table view has its prototype cells registered, each dequeue a fresh cell")
  func prototypesRegistered() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("List-\(UUID().uuidString).storyboard")
    try Data(Self.list.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let storyboard = try Storyboard(contentsOf: url, registry: testRegistry)
    let controller = try #require(try storyboard.instantiateInitialViewController() as? ViewController)
    let table = try #require(controller.view.subviews.first as? TableView)
    let first = try table.dequeueReusableCell(withIdentifier: "Book", for: IndexPath(row: 0, section: 0))
    let second = try table.dequeueReusableCell(withIdentifier: "Book", for: IndexPath(row: 1, section: 0))
    #expect(first !== second)
    #expect(first.reuseIdentifier == "Book")
    #expect((first.contentView.subviews.first as? Label)?.text == "title")
    #expect(try table.dequeueReusableCell(withIdentifier: "Author")?.reuseIdentifier == "Author")
    #expect(try table.dequeueReusableCell(withIdentifier: "Publisher") == nil)
  }

  @Test("NIB-102: the scenes keyed compile writes keep their prototype cells, registered on each instantiation")
  func compiledPrototypesRegistered() throws {
    let folder = try compileStoryboard(Self.list, entryPoint: "UIViewController-tc1", name: "List")
    defer { try? FileManager.default.removeItem(at: folder) }
    let storyboard = try Storyboard(contentsOf: folder, registry: testRegistry)
    for _ in 0..<2 {
      let controller = try #require(try storyboard.instantiateInitialViewController() as? ViewController)
      let table = try #require(controller.view.subviews.first as? TableView)
      #expect(table.registeredNibIdentifiers == ["Author", "Book"])
      let first = try table.dequeueReusableCell(withIdentifier: "Book", for: IndexPath(row: 0, section: 0))
      #expect(first !== (try table.dequeueReusableCell(withIdentifier: "Book", for: IndexPath(row: 1, section: 0))))
      #expect((first.contentView.subviews.first as? Label)?.text == "title")
      #expect(try table.dequeueReusableCell(withIdentifier: "Publisher") == nil)
    }
  }
}

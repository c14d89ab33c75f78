import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing
import XIB

/// A controller that declares an unwind action, as `@IBAction func unwindToHome(_ segue: UIStoryboardSegue)`.
final class UnwindHomeController: ViewController {
  var unwound: [StoryboardSegue] = []
  var asked: [String] = []
  var allowed = true
  var senders: [Any?] = []
  func unwindToHome(_ segue: StoryboardSegue) { unwound.append(segue) }
  override class var actions: [Action] { [Action("unwindToHome:", unwindToHome)] }
  override func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool {
    asked.append(identifier)
    return allowed
  }
  override func prepare(for segue: StoryboardSegue, sender: Any?) { senders.append(sender) }
}

/// A controller that records the segues it prepares.
final class UnwindDetailController: ViewController {
  var prepared: [StoryboardSegue] = []
  override func prepare(for segue: StoryboardSegue, sender: Any?) { prepared.append(segue) }
}

private let unwindRegistry = catalogRegistry(with: [UnwindHomeController.self, UnwindDetailController.self])

@Suite("Storyboard unwind and triggered segues")
struct StoryboardUnwindTests {
  /// Home presents Detail from a button (a segue without identifier) and from a prototype cell's selection;
  /// Detail presents Deep; Detail and Deep unwind to Home through their scenes' exits.
  static let main = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" initialViewController="home">
        <scenes>
            <scene sceneID="s1">
                <objects>
                    <viewController title="Home" id="home" customClass="UnwindHomeController" sceneMemberID="viewController">
                        <view key="view" id="hv">
                            <subviews>
                                <button id="open">
                                    <connections>
                                        <segue destination="detail" kind="presentation" id="sgOpen"/>
                                    </connections>
                                </button>
                                <tableView dataMode="prototypes" id="list">
                                    <prototypes>
                                        <tableViewCell reuseIdentifier="Row" id="row">
                                            <tableViewCellContentView key="contentView" id="rowContent"/>
                                            <connections>
                                                <segue destination="detail" kind="show" id="sgRow"/>
                                            </connections>
                                        </tableViewCell>
                                    </prototypes>
                                </tableView>
                            </subviews>
                        </view>
                    </viewController>
                    <exit id="homeExit" userLabel="Exit" sceneMemberID="exit"/>
                </objects>
            </scene>
            <scene sceneID="s2">
                <objects>
                    <viewController storyboardIdentifier="Detail" id="detail" customClass="UnwindDetailController" sceneMemberID="viewController">
                        <view key="view" id="dv">
                            <subviews>
                                <button id="done">
                                    <connections>
                                        <segue destination="detailExit" kind="unwind" unwindAction="unwindToHome:" id="sgDone"/>
                                    </connections>
                                </button>
                                <button id="lost">
                                    <connections>
                                        <segue destination="detailExit" kind="unwind" unwindAction="unwindToNowhere:" id="sgLost"/>
                                    </connections>
                                </button>
                            </subviews>
                        </view>
                        <connections>
                            <segue destination="detailExit" kind="unwind" identifier="backHome" unwindAction="unwindToHome:" id="sgBack"/>
                            <segue destination="deep" kind="presentation" identifier="deeper" id="sgDeeper"/>
                            <segue destination="detailExit" kind="unwind" identifier="nowhere" unwindAction="unwindToNowhere:" id="sgNowhere"/>
                        </connections>
                    </viewController>
                    <exit id="detailExit" userLabel="Exit" sceneMemberID="exit"/>
                </objects>
            </scene>
            <scene sceneID="s3">
                <objects>
                    <viewController storyboardIdentifier="Deep" id="deep" customClass="UnwindDetailController" sceneMemberID="viewController">
                        <view key="view" id="deepView"/>
                        <connections>
                            <segue destination="deepExit" kind="unwind" identifier="backHome" unwindAction="unwindToHome:" id="sgDeepBack"/>
                        </connections>
                    </viewController>
                    <exit id="deepExit" userLabel="Exit" sceneMemberID="exit"/>
                </objects>
            </scene>
        </scenes>
    </document>
    """

  func storyboard() throws -> Storyboard { try openStoryboard(Self.main, registry: unwindRegistry) }

  /// Home, and the Detail its button presented.
  func presentedDetail(_ storyboard: Storyboard) throws -> (UnwindHomeController, UnwindDetailController) {
    let home = try #require(try storyboard.instantiateInitialViewController() as? UnwindHomeController)
    let open = try #require(home.view.subviews.first as? Button)
    open.sendActions(for: .touchUpInside)
    let detail = try #require(home.presentedViewController as? UnwindDetailController)
    return (home, detail)
  }

  @Test("NIB-130: the XIB front end keeps an unwind segue's action, its exit destination and its kind")
  func unwindActionKept() throws {
    let document = try XIBDocument(parsing: Array(Self.main.utf8), fileName: "Main.storyboard")
    let back = try #require(document.connections.first { $0.id == "sgBack" })
    #expect(back.kind == .segue)
    #expect(back.segueKind == "unwind")
    #expect(back.unwindAction == "unwindToHome:")
    #expect(back.destinationID == "detailExit")
    #expect(document.connections.first { $0.id == "sgDeeper" }?.unwindAction == nil)
    let table = document.objectTable()
    let record = try #require(table.connections.first { $0.id == "sgDone" })
    #expect(record.unwindAction == "unwindToHome:")
    #expect(record.eventName == "unwind")
    #expect(table.objects[record.source].id == "done")
    let detail = try #require(
      try self.storyboard().instantiateViewController(withIdentifier: "Detail") as? ViewController)
    #expect(
      detail.segueTemplates.filter(\.isUnwind).map(\.unwindAction) == ["unwindToHome:", "unwindToNowhere:"])
    #expect(detail.segueTemplates.first?.id == "sgBack")
    let done = try #require(detail.view.subviews.first)
    #expect(
      done.triggeredSegues == [
        SegueTemplate(identifier: nil, kind: "unwind", unwindAction: "unwindToHome:", id: "sgDone")
      ])
  }

  @Test("NIB-131: a button's segue without identifier is performed when it sends its action, after shouldPerformSegue")
  func buttonTriggersSegue() throws {
    let storyboard = try storyboard()
    let home = try #require(try storyboard.instantiateInitialViewController() as? UnwindHomeController)
    let open = try #require(home.view.subviews.first as? Button)
    #expect(open.triggeredSegues.map(\.id) == ["sgOpen"])
    open.sendActions(for: .valueChanged)
    #expect(home.presentedViewController == nil, "a button's segue follows its tap, not other events")
    #expect(home.asked.isEmpty)
    home.allowed = false
    open.sendActions(for: .touchUpInside)
    #expect(home.asked == [""], "a segue without identifier is asked about with an empty one")
    #expect(home.presentedViewController == nil)
    home.allowed = true
    open.sendActions(for: .touchUpInside)
    let detail = try #require(home.presentedViewController as? UnwindDetailController)
    #expect(detail.presentingViewController === home)
    #expect(detail.sceneIdentifier == "Detail")
    #expect(home.senders.count == 1)
    #expect((home.senders.first as? Button) === open, "the control is the sender")
  }

  @Test("NIB-132, NIB-133: a presented controller's button unwinds: prepare, then the unwind action, then dismissal")
  func buttonUnwinds() throws {
    let (home, detail) = try presentedDetail(try storyboard())
    let done = try #require(detail.view.subviews.first as? Button)
    done.sendActions(for: .touchUpInside)
    #expect(detail.prepared.count == 1)
    let segue = try #require(home.unwound.first)
    #expect(home.unwound.count == 1)
    #expect(segue === detail.prepared.first, "the unwind action gets the segue the source prepared")
    #expect(segue.source === detail)
    #expect(segue.destination === home)
    #expect(segue.kind == "unwind")
    #expect(home.presentedViewController == nil)
    #expect(detail.presentingViewController == nil)
  }

  @Test("NIB-132: a manual unwind segue from two presentations up dismisses both")
  func unwindThroughStack() throws {
    let (home, detail) = try presentedDetail(try storyboard())
    try detail.performSegue(withIdentifier: "deeper", sender: nil)
    let deep = try #require(detail.presentedViewController as? UnwindDetailController)
    try deep.performSegue(withIdentifier: "backHome", sender: "back")
    #expect(home.unwound.map { ObjectIdentifier($0.source) } == [ObjectIdentifier(deep)])
    #expect(home.unwound.first?.identifier == "backHome")
    #expect(deep.prepared.map { ObjectIdentifier($0.destination) } == [ObjectIdentifier(home)])
    #expect(home.presentedViewController == nil)
    #expect(detail.presentingViewController == nil)
    #expect(detail.presentedViewController == nil, "the controllers presented above are dismissed too")
    #expect(deep.presentingViewController == nil)
  }

  @Test("NIB-132: a child controller unwinds through its parent to the controller presenting the parent")
  func childUnwinds() throws {
    let storyboard = try storyboard()
    let (home, detail) = try presentedDetail(storyboard)
    let child = try #require(try storyboard.instantiateViewController(withIdentifier: "Deep") as? ViewController)
    detail.addChild(child)
    try child.performSegue(withIdentifier: "backHome", sender: nil)
    #expect(home.unwound.map { ObjectIdentifier($0.source) } == [ObjectIdentifier(child)])
    #expect(home.presentedViewController == nil)
    #expect(child.parent === detail, "a child stays its parent's child")
  }

  @Test("NIB-132: an unwind action no controller up the chain declares is an error naming it; nothing is dismissed")
  func unwindNowhere() throws {
    let (home, detail) = try presentedDetail(try storyboard())
    do {
      try detail.performSegue(withIdentifier: "nowhere", sender: nil)
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.code == .valueNotFound)
      #expect(error.message.contains("\"unwindToNowhere:\""), "\(error)")
      #expect(error.message.contains("UnwindHomeController"), "\(error)")
    }
    #expect(detail.prepared.isEmpty)
    #expect(home.presentedViewController === detail)
    var warnings: [String] = []
    detail.nibOptions.warning = { warnings.append($0) }
    let lost = try #require(detail.view.subviews.last as? Button)
    lost.sendActions(for: .touchUpInside)
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("Button triggered the segue \"sgLost\"") == true, "\(warnings)")
    #expect(home.presentedViewController === detail)
  }

  @Test("NIB-133: an unwind action declared with a segue parameter does not run for another sender")
  func unwindActionNeedsSegue() throws {
    let home = UnwindHomeController()
    #expect(home.responds(toAction: "unwindToHome:"))
    home.perform(action: "unwindToHome:", sender: "not a segue")
    #expect(home.unwound.isEmpty)
  }

  @Test("NIB-134: selecting a prototype cell's row performs the cell's selection segue from the table's controller")
  func cellSelectionTriggersSegue() throws {
    let storyboard = try storyboard()
    let home = try #require(try storyboard.instantiateInitialViewController() as? UnwindHomeController)
    let table = try #require(home.view.subviews.last as? TableView)
    let cell = try table.dequeueReusableCell(withIdentifier: "Row", for: IndexPath(row: 0, section: 0))
    #expect(cell.triggeredSegues.map(\.kind) == ["show"])
    table.selectRow(with: cell)
    #expect(home.presentedViewController is UnwindDetailController)
    #expect((home.senders.first as? TableViewCell) === cell, "the cell is the sender")
  }
}

@Suite("Compiled storyboard unwind segues")
struct CompiledStoryboardUnwindTests {
  /// The unwind fixture compiled as `keyed compile` does: one nib per scene and an Info.plist.
  func compiledStoryboard() throws -> (Storyboard, URL) {
    let folder = try compileStoryboard(
      StoryboardUnwindTests.main, entryPoint: "UIViewController-home", name: "Unwind")
    return (try Storyboard(contentsOf: folder, registry: unwindRegistry), folder)
  }

  @Test("NIB-135: a storyboard compiled by keyed compile keeps its segues' kinds and unwind actions, and unwinds")
  func compiledUnwind() throws {
    let (storyboard, folder) = try compiledStoryboard()
    defer { try? FileManager.default.removeItem(at: folder) }
    let home = try #require(try storyboard.instantiateInitialViewController() as? UnwindHomeController)
    let detail = try #require(
      try storyboard.instantiateViewController(withIdentifier: "Detail") as? UnwindDetailController)
    #expect(
      detail.segueTemplates.map(\.kind) == ["unwind", "presentation", "unwind"],
      "the kind survives compilation")
    #expect(detail.segueTemplates.first?.unwindAction == "unwindToHome:")
    home.present(detail)
    let done = try #require(detail.view.subviews.first as? Button)
    #expect(done.triggeredSegues.map(\.unwindAction) == ["unwindToHome:"])
    done.sendActions(for: .touchUpInside)
    #expect(home.unwound.map { ObjectIdentifier($0.source) } == [ObjectIdentifier(detail)])
    #expect(home.presentedViewController == nil)
  }

  @Test("NIB-136: a compiled scene keeps where its segues to other scenes lead; a button and a cell still present them")
  func compiledDestinations() throws {
    let (storyboard, folder) = try compiledStoryboard()
    defer { try? FileManager.default.removeItem(at: folder) }
    let home = try #require(try storyboard.instantiateInitialViewController() as? UnwindHomeController)
    let open = try #require(home.view.subviews.first as? Button)
    #expect(open.triggeredSegues.map(\.destinationIdentifier) == ["Detail"])
    open.sendActions(for: .touchUpInside)
    let detail = try #require(home.presentedViewController as? UnwindDetailController)
    #expect(detail.sceneIdentifier == "Detail")
    try detail.performSegue(withIdentifier: "deeper", sender: nil)
    #expect(detail.presentedViewController?.sceneIdentifier == "Deep")
  }
}

import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

/// A controller that records the segues it prepares.
class PreparingController: ViewController {
  var prepared: [String] = []
  override func prepare(for segue: StoryboardSegue, sender: Any?) { prepared.append(segue.identifier ?? segue.kind) }
}

/// A controller pushed onto the stack, with a container view whose child is embedded.
final class NavigationDetail: PreparingController {}

/// The root of a navigation stack: declares the unwind action.
final class NavigationHome: PreparingController {
  var unwound = 0
  func backHome(_ segue: StoryboardSegue) { unwound += 1 }
  override class var actions: [Action] { [Action("backHome:", backHome)] }
}

private let navigationTestRegistry = catalogRegistry(with: [NavigationHome.self, NavigationDetail.self])

@Suite("Navigation controllers")
struct NavigationControllerTests {
  /// A navigation controller whose root is Home; Home shows Detail (pushed), which embeds Info and unwinds home.
  static let main = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" initialViewController="nav">
        <scenes>
            <scene sceneID="s0">
                <objects>
                    <navigationController id="nav" sceneMemberID="viewController">
                        <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar"/>
                        <connections>
                            <segue destination="home" kind="relationship" relationship="rootViewController" id="root"/>
                        </connections>
                    </navigationController>
                </objects>
            </scene>
            <scene sceneID="s1">
                <objects>
                    <viewController storyboardIdentifier="Home" title="Home" id="home" customClass="NavigationHome" sceneMemberID="viewController">
                        <view key="view" id="hv"/>
                        <connections>
                            <segue destination="detail" kind="show" identifier="detail" id="toDetail"/>
                            <segue destination="detail" kind="presentation" identifier="modal" id="toModal"/>
                        </connections>
                    </viewController>
                </objects>
            </scene>
            <scene sceneID="s2">
                <objects>
                    <viewController storyboardIdentifier="Detail" title="Detail" id="detail" customClass="NavigationDetail" sceneMemberID="viewController">
                        <view key="view" id="dv">
                            <subviews>
                                <containerView id="box">
                                    <connections>
                                        <segue destination="info" kind="embed" identifier="embedInfo" id="toInfo"/>
                                    </connections>
                                </containerView>
                            </subviews>
                        </view>
                        <connections>
                            <segue destination="detailExit" kind="unwind" identifier="back" unwindAction="backHome:" id="back"/>
                            <segue destination="detail" kind="show" identifier="again" id="again"/>
                        </connections>
                    </viewController>
                    <exit id="detailExit" userLabel="Exit" sceneMemberID="exit"/>
                </objects>
            </scene>
            <scene sceneID="s3">
                <objects>
                    <viewController storyboardIdentifier="Info" title="Info" id="info" sceneMemberID="viewController">
                        <view key="view" id="iv"/>
                    </viewController>
                </objects>
            </scene>
        </scenes>
    </document>
    """

  static func storyboard(_ text: String = main) throws -> Storyboard {
    try openStoryboard(text, registry: navigationTestRegistry)
  }

  /// Checks the whole journey on a storyboard of ``main``: root loaded with the scene, push, embed, unwind.
  static func journey(_ storyboard: Storyboard) throws {
    let nav = try #require(try storyboard.instantiateInitialViewController() as? NavigationController)
    #expect(nav.navigationBar != nil)
    let home = try #require(nav.topViewController as? NavigationHome, "the relationship segue loads the root")
    #expect(nav.viewControllers.count == 1)
    #expect(home.navigationController === nav)
    #expect(home.prepared.isEmpty, "a relationship segue is not prepared")
    try home.performSegue(withIdentifier: "detail", sender: nil)
    let detail = try #require(nav.topViewController as? NavigationDetail, "show pushes onto the stack")
    #expect(nav.viewControllers.count == 2 && home.presentedViewController == nil)
    #expect(home.prepared == ["detail"])
    #expect(detail.children.isEmpty, "a container's embed segue waits for the view (NIB-313)")
    _ = detail.view
    #expect(detail.children.map(\.title) == ["Info"], "the embed segue loads the container's child")
    #expect(detail.prepared == ["embedInfo"], "an embed segue is prepared")
    #expect(detail.children.first?.navigationController === nav)
    try detail.performSegue(withIdentifier: "again", sender: nil)
    let second = try #require(nav.topViewController as? NavigationDetail)
    #expect(nav.viewControllers.count == 3 && second !== detail)
    try second.performSegue(withIdentifier: "back", sender: nil)
    #expect(home.unwound == 1)
    #expect(nav.viewControllers.count == 1 && nav.topViewController === home, "the unwind pops to the root")
    #expect(detail.parent == nil && second.parent == nil)
    try home.performSegue(withIdentifier: "modal", sender: nil)
    #expect(home.presentedViewController is NavigationDetail && nav.viewControllers.count == 1)
  }

  @Test("NIB-137: a storyboard's navigation controller loads its root; show pushes, embed loads, unwind pops")
  func documentJourney() throws {
    try Self.journey(try Self.storyboard())
  }

  @Test("NIB-137: the same journey through the scenes keyed compile writes")
  func compiledJourney() throws {
    let folder = try compileStoryboard(Self.main, entryPoint: "UINavigationController-nav", name: "Nav")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.journey(try Storyboard(contentsOf: folder, registry: navigationTestRegistry))
  }

  @Test("NIB-137: scenes whose relationship segues form a cycle fail with a limit error, not a stack overflow")
  func relationshipCycle() throws {
    let cyclic = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" initialViewController="a">
          <scenes>
              <scene sceneID="s0"><objects>
                  <navigationController storyboardIdentifier="A" id="a" sceneMemberID="viewController">
                      <connections><segue destination="b" kind="relationship" relationship="rootViewController" id="ab"/></connections>
                  </navigationController>
              </objects></scene>
              <scene sceneID="s1"><objects>
                  <navigationController storyboardIdentifier="B" id="b" sceneMemberID="viewController">
                      <connections><segue destination="a" kind="relationship" relationship="rootViewController" id="ba"/></connections>
                  </navigationController>
              </objects></scene>
          </scenes>
      </document>
      """
    let storyboard = try Self.storyboard(cyclic)
    #expect {
      try storyboard.instantiateInitialViewController()
    } throws: { error in
      (error as? ArchiveError)?.code == .limitExceeded && "\(error)".contains("cycle")
    }
  }

  @Test("NIB-137: a navigation stack made in code pushes, pops and shows")
  func stackInCode() {
    let root = ViewController()
    let nav = NavigationController(rootViewController: root)
    let second = ViewController()
    root.show(second, sender: nil)
    #expect(nav.viewControllers.map(ObjectIdentifier.init) == [root, second].map(ObjectIdentifier.init))
    #expect(nav.popViewController() === second && second.parent == nil)
    #expect(nav.popViewController() == nil, "the root stays")
    let third = ViewController()
    nav.viewControllers = [root, second, third]
    #expect(nav.popToRootViewController().map(ObjectIdentifier.init) == [second, third].map(ObjectIdentifier.init))
    let lone = ViewController()
    lone.show(third, sender: nil)
    #expect(lone.presentedViewController === third, "outside a stack, show presents")
  }
}

@Suite(
  "Navigation controllers: corpus",
  .enabled(if: CompiledNibCorpus.isAvailable, Comment(rawValue: CompiledNibCorpus.absentMessage)))
struct NavigationControllerCorpusTests {
  @Test("NIB-137: Apple's compiled navigation controllers come with the stack their nibs archive")
  func compiledStacks() throws {
    for year in ["2019", "2023"] {
      let folder = CompiledNibCorpus.nibDirectory.appendingPathComponent(
        "appium-ios-uicatalog/\(year)/Base.lproj/Main.storyboardc")
      var options = NibOptions()
      options.warning = nil
      let storyboard = try Storyboard(contentsOf: folder, registry: navigationTestRegistry)
      let nav = try #require(
        try storyboard.instantiateViewController(withIdentifier: "navInitialDetail", options: options)
          as? NavigationController)
      #expect(nav.viewControllers.count == 1, "\(year)")
      #expect(nav.topViewController?.navigationController === nav)
      #expect(nav.navigationBar != nil)
    }
  }
}

import ArchiveCoding
import Foundation
import InterfaceObjects
import KeyedArchive
import NibLoading
import PropertyList
import Testing

/// A controller that keeps what a segue prepared it with and applies it in `viewDidLoad()`, as UIKit code does.
final class LifecycleController: ViewController {
  @Outlet var label: Label?
  /// Set by the source's `prepare(for:sender:)`; applied in `viewDidLoad()`.
  var message: String?
  /// What `viewDidLoad()` saw of the outlet.
  var labelAtLoad: String?
  /// The controller's own record of its calls.
  var calls: [String] = []
  override func viewDidLoad() {
    super.viewDidLoad()
    labelAtLoad = label?.text
    if let message { label?.text = message }
    calls.append("viewDidLoad")
  }
  override func viewWillAppear(_ animated: Bool) { calls.append("viewWillAppear") }
  override func viewDidAppear(_ animated: Bool) { calls.append("viewDidAppear") }
  override func viewWillDisappear(_ animated: Bool) { calls.append("viewWillDisappear") }
  override func viewDidDisappear(_ animated: Bool) { calls.append("viewDidDisappear") }
  override func prepare(for segue: StoryboardSegue, sender: Any?) {
    (segue.destination as? LifecycleController)?.message = "from \(title ?? "?")"
  }
}

/// A tab bar delegate that refuses one tab and records what it is told.
final class TabsDelegate: TabBarControllerDelegate {
  var refused: String?
  var told: [String] = []
  func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: ViewController) -> Bool {
    told.append("should \(viewController.title ?? "?")")
    return viewController.title != refused
  }
  func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController) {
    told.append("did \(viewController.title ?? "?")")
  }
}

/// A trace of a navigation, as `NibOptions.trace` sees it.
final class TraceLog {
  var lines: [String] = []
  var options: NibOptions {
    NibOptions(trace: { [unowned self] in self.lines.append("\($0)") }, warning: nil)
  }
  /// The life-cycle lines only (those that start with a controller's name, not a pipeline event's).
  var lifecycle: [String] {
    let pipeline = ["decode ", "outlet ", "collection ", "action ", "segue ", "attribute ", "awake "]
    return lines.filter { line in !pipeline.contains { line.hasPrefix($0) } }
  }
  /// The lines that mention one controller.
  func of(_ name: String) -> [String] { lifecycle.filter { $0.hasPrefix(name + " ") } }
}

private let lifecycleRegistry = catalogRegistry(with: [LifecycleController.self])

/// NIB-310 to NIB-322: the life cycle of UIKit and AppKit view controllers, for every controller source and every
/// transition, as a trace shows it.
@Suite("View controller life cycle")
struct ViewControllerLifecycleTests {
  /// A storyboard of a navigation controller whose root shows a detail, and a tab bar controller with two tabs.
  static let storyboard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" initialViewController="nav">
        <scenes>
            <scene sceneID="s0"><objects>
                <navigationController storyboardIdentifier="Nav" id="nav" sceneMemberID="viewController">
                    <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar"/>
                    <connections><segue destination="home" kind="relationship" relationship="rootViewController" id="r1"/></connections>
                </navigationController>
            </objects></scene>
            <scene sceneID="s1"><objects>
                <viewController storyboardIdentifier="Home" title="Home" id="home" customClass="LifecycleController" sceneMemberID="viewController">
                    <view key="view" id="hv">
                        <subviews>
                            <label text="home" id="hl"/>
                            <button id="hb"><connections><segue destination="detail" kind="show" identifier="showDetail" id="g1"/></connections></button>
                            <containerView id="box"><connections><segue destination="panel" kind="embed" identifier="embedPanel" id="g2"/></connections></containerView>
                        </subviews>
                    </view>
                    <navigationItem key="navigationItem" title="Home" id="item"/>
                    <connections>
                        <outlet property="label" destination="hl" id="o1"/>
                        <segue destination="detail" kind="presentation" identifier="present" id="g3"/>
                    </connections>
                </viewController>
            </objects></scene>
            <scene sceneID="s2"><objects>
                <viewController storyboardIdentifier="Detail" title="Detail" id="detail" customClass="LifecycleController" sceneMemberID="viewController">
                    <view key="view" id="dv"><subviews><label text="storyboard text" id="dl"/></subviews></view>
                    <connections><outlet property="label" destination="dl" id="o2"/></connections>
                </viewController>
            </objects></scene>
            <scene sceneID="s3"><objects>
                <viewController storyboardIdentifier="Panel" title="Panel" id="panel" customClass="LifecycleController" sceneMemberID="viewController">
                    <view key="view" id="pv"/>
                </viewController>
            </objects></scene>
            <scene sceneID="s4"><objects>
                <tabBarController storyboardIdentifier="Tabs" id="tabs" sceneMemberID="viewController">
                    <connections>
                        <segue destination="first" kind="relationship" relationship="viewControllers" id="t1"/>
                        <segue destination="second" kind="relationship" relationship="viewControllers" id="t2"/>
                    </connections>
                </tabBarController>
            </objects></scene>
            <scene sceneID="s5"><objects>
                <viewController storyboardIdentifier="First" title="First" id="first" customClass="LifecycleController" sceneMemberID="viewController">
                    <view key="view" id="fv"/>
                </viewController>
            </objects></scene>
            <scene sceneID="s6"><objects>
                <viewController storyboardIdentifier="Second" title="Second" id="second" customClass="LifecycleController" sceneMemberID="viewController">
                    <view key="view" id="sv"/>
                </viewController>
            </objects></scene>
        </scenes>
    </document>
    """

  private func open() throws -> Storyboard { try openStoryboard(Self.storyboard, registry: lifecycleRegistry) }

  @Test("NIB-310, NIB-316: a nib's controller: loadView, the nib's outlets, viewDidLoad once, on first access of view")
  func nibController() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Lifecycle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try xib(
      #"""
      <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="LifecycleController">
          <connections>
              <outlet property="view" destination="v1" id="o1"/>
              <outlet property="label" destination="l1" id="o2"/>
          </connections>
      </placeholder>
      <view id="v1"><subviews><label text="from the nib" id="l1"/></subviews></view>
      """#
    ).write(to: folder.appendingPathComponent("Card.xib"))
    ClassRegistry.shared.register(LifecycleController.self, as: "LifecycleController")
    InterfaceCatalog.register()
    let log = TraceLog()
    let controller = LifecycleController(nibName: "Card", nibBundle: NibBundle(resourceURL: folder))
    controller.nibOptions = log.options
    #expect(!controller.isViewLoaded && log.lines.isEmpty, "nothing loads before view is asked for")
    let view = controller.view
    #expect(log.lines.first == "LifecycleController loadView" && log.lines.last == "LifecycleController viewDidLoad")
    #expect(
      log.lines.filter { $0.hasPrefix("outlet") } == ["outlet -1 view v1", "outlet -1 label l1"],
      "the nib's outlets are connected between loadView and viewDidLoad")
    #expect(log.lines.count == 8, "\(log.lines)")
    #expect(controller.labelAtLoad == "from the nib", "the outlets are set when viewDidLoad runs")
    #expect(controller.view === view && controller.viewDidLoadCount == 1 && controller.calls == ["viewDidLoad"])
  }

  @Test("NIB-310, NIB-311: a storyboard scene's view loads after prepare(for:sender:), so viewDidLoad applies it")
  func storyboardScenePreparedBeforeLoad() throws {
    let log = TraceLog()
    let storyboard = try open()
    let home = try #require(
      try storyboard.instantiateViewController(withIdentifier: "Home", options: log.options) as? LifecycleController)
    #expect(!home.isViewLoaded, "a scene's view is not decoded with its controller")
    #expect(home.navigationItem is StandInObject, "the controller's own objects are")
    try home.performSegue(withIdentifier: "showDetail", sender: nil)
    let detail = try #require(home.presentedViewController as? LifecycleController)
    #expect(!detail.isViewLoaded && detail.label == nil, "outlets wait for the view, as in UIKit")
    try detail.loadViewIfNeeded()
    #expect(detail.label?.text == "from Home", "prepared, then loaded: viewDidLoad applied what prepare passed")
    #expect(detail.labelAtLoad == "storyboard text" && detail.viewDidLoadCount == 1)
    let lines = log.lifecycle
    let prepared = try #require(lines.firstIndex(of: #"Home prepare(for: "showDetail") → Detail"#))
    let loaded = try #require(lines.firstIndex(of: "Detail viewDidLoad"))
    #expect(prepared < loaded)
    // The detail's outlets are connected between its loadView and its viewDidLoad.
    let detailLines = log.lines.drop { $0 != "Detail loadView" }.prefix { $0 != "Detail viewDidLoad" }
    #expect(detailLines.contains("outlet detail label dl"))
  }

  @Test("NIB-313: embed segues are performed as the container's view loads, before its viewDidLoad")
  func embedAtViewLoad() throws {
    let log = TraceLog()
    let home = try #require(
      try open().instantiateViewController(withIdentifier: "Home", options: log.options) as? LifecycleController)
    #expect(home.children.isEmpty)
    _ = home.view
    let panel = try #require(home.children.first as? LifecycleController)
    #expect(panel.view.superview?.superview === home.view, "the child's view is in the container view")
    #expect(panel.message == "from Home", "an embed segue is prepared")
    #expect(
      log.of("Home") + log.of("Panel")
        == [
          "Home loadView", #"Home prepare(for: "embedPanel") → Panel"#, "Home viewDidLoad", "Panel loadView",
          "Panel viewDidLoad",
        ].sorted { ($0.hasPrefix("Home") ? 0 : 1) < ($1.hasPrefix("Home") ? 0 : 1) })
    let order = log.lifecycle
    #expect(
      try #require(order.firstIndex(of: "Panel viewDidLoad")) < #require(order.firstIndex(of: "Home viewDidLoad")))
  }

  @Test("NIB-314, NIB-315, NIB-316: a window shows a navigation controller; push, pop, present and dismiss in order")
  func navigationTransitions() throws {
    let log = TraceLog()
    let nav = try #require(
      try open().instantiateInitialViewController(options: log.options) as? NavigationController)
    let home = try #require(nav.topViewController as? LifecycleController)
    let window = Window(frame: .zero)
    window.rootViewController = nav
    window.makeKeyAndVisible()
    #expect(home.calls == ["viewDidLoad", "viewWillAppear", "viewDidAppear"])
    log.lines.removeAll()
    try home.performSegue(withIdentifier: "showDetail", sender: nil)
    let detail = try #require(nav.topViewController as? LifecycleController)
    // Home's embedded panel goes off and on screen with it.
    #expect(
      log.lifecycle == [
        #"Home prepare(for: "showDetail") → Detail"#, "Detail loadView", "Detail viewDidLoad",
        "Home viewWillDisappear", "Panel viewWillDisappear", "Detail viewWillAppear", "Home viewDidDisappear",
        "Panel viewDidDisappear", "Detail viewDidAppear",
      ])
    #expect(detail.label?.text == "from Home")
    log.lines.removeAll()
    nav.popViewController()
    #expect(
      log.lifecycle == [
        "Detail viewWillDisappear", "Home viewWillAppear", "Panel viewWillAppear", "Detail viewDidDisappear",
        "Home viewDidAppear", "Panel viewDidAppear",
      ])
    log.lines.removeAll()
    try home.performSegue(withIdentifier: "present", sender: nil)
    let presented = try #require(home.presentedViewController as? LifecycleController)
    #expect(presented !== detail)
    #expect(
      log.lifecycle == [
        #"Home prepare(for: "present") → Detail"#, "Detail loadView", "Detail viewDidLoad", "Nav viewWillDisappear",
        "Home viewWillDisappear", "Panel viewWillDisappear", "Detail viewWillAppear", "Nav viewDidDisappear",
        "Home viewDidDisappear", "Panel viewDidDisappear", "Detail viewDidAppear",
      ])
    log.lines.removeAll()
    home.dismiss()
    #expect(
      log.lifecycle == [
        "Detail viewWillDisappear", "Nav viewWillAppear", "Home viewWillAppear", "Panel viewWillAppear",
        "Detail viewDidDisappear", "Nav viewDidAppear", "Home viewDidAppear", "Panel viewDidAppear",
      ])
    #expect(home.calls.filter { $0 == "viewDidLoad" }.count == 1, "viewDidLoad runs once whatever appears")
  }

  @Test("NIB-320, NIB-321, NIB-314: a tab bar controller's selection: in code, by a tap the delegate may refuse")
  func tabBarSelection() throws {
    let log = TraceLog()
    let tabs = try #require(
      try open().instantiateViewController(withIdentifier: "Tabs", options: log.options) as? TabBarController)
    let first = try #require(tabs.viewControllers?.first as? LifecycleController)
    let second = try #require(tabs.viewControllers?.last as? LifecycleController)
    #expect(tabs.viewControllers?.count == 2 && tabs.selectedIndex == 0 && tabs.selectedViewController === first)
    #expect(first.tabBarController === tabs)
    let window = Window(frame: .zero)
    window.rootViewController = tabs
    window.makeKeyAndVisible()
    #expect(first.calls == ["viewDidLoad", "viewWillAppear", "viewDidAppear"])
    #expect(!second.isViewLoaded, "an unselected tab's view is not loaded")
    let delegate = TabsDelegate()
    tabs.delegate = delegate
    delegate.refused = "Second"
    #expect(!tabs.tapTab(at: 1))
    #expect(tabs.selectedIndex == 0 && delegate.told == ["should Second"])
    delegate.refused = nil
    log.lines.removeAll()
    #expect(tabs.tapTab(at: 1))
    #expect(delegate.told == ["should Second", "should Second", "did Second"])
    #expect(tabs.selectedViewController === second)
    #expect(
      log.lifecycle == [
        "Tabs tabBarController(shouldSelect: Second) → true", "Tabs selectedIndex = 1 (Second)", "Second loadView",
        "Second viewDidLoad", "First viewWillDisappear", "Second viewWillAppear", "First viewDidDisappear",
        "Second viewDidAppear", "Tabs tabBarController(didSelect: Second)",
      ])
    // In code, as UIKit does, the delegate is not asked.
    tabs.selectedIndex = 0
    #expect(delegate.told.count == 3 && tabs.selectedViewController === first)
    #expect(first.calls.suffix(2) == ["viewWillAppear", "viewDidAppear"])
    tabs.selectedIndex = 7
    #expect(tabs.selectedIndex == 0, "an index outside the tabs is ignored")
    #expect(TabBarController().selectedIndex == NSNotFound && TabBarController().viewControllers == nil)
  }

  @Test("NIB-322, NIB-314: a split view controller shows a detail in its secondary column, or in its primary collapsed")
  func splitView() {
    let primary = NavigationController(rootViewController: LifecycleController())
    let secondary = LifecycleController()
    let split = SplitViewController()
    split.viewControllers = [primary, secondary]
    let window = Window(frame: .zero)
    window.rootViewController = split
    window.makeKeyAndVisible()
    #expect(secondary.calls == ["viewDidLoad", "viewWillAppear", "viewDidAppear"])
    let detail = LifecycleController()
    split.showDetailViewController(detail, sender: nil)
    #expect(split.viewControllers.last === detail && secondary.parent == nil)
    #expect(secondary.calls.suffix(2) == ["viewWillDisappear", "viewDidDisappear"])
    #expect(detail.calls == ["viewDidLoad", "viewWillAppear", "viewDidAppear"])
    split.isCollapsed = true
    #expect(detail.calls.suffix(2) == ["viewWillDisappear", "viewDidDisappear"])
    let pushed = LifecycleController()
    split.showDetailViewController(pushed, sender: nil)
    #expect(primary.topViewController === pushed && pushed.calls.suffix(2) == ["viewWillAppear", "viewDidAppear"])
    #expect(pushed.splitViewController === split)
  }

  @Test("NIB-314: appearance is forwarded to embedded children, and a child leaving disappears")
  func embeddedChildren() {
    let parent = LifecycleController()
    let child = LifecycleController()
    parent.addChild(child)
    parent.beginAppearanceTransition(true, animated: false)
    parent.endAppearanceTransition()
    #expect(child.calls == ["viewDidLoad", "viewWillAppear", "viewDidAppear"])
    child.removeFromParent()
    #expect(child.calls.suffix(2) == ["viewWillDisappear", "viewDidDisappear"])
    let late = LifecycleController()
    parent.addChild(late)
    #expect(late.calls == ["viewDidLoad", "viewWillAppear", "viewDidAppear"], "a child added on screen appears")
    parent.beginAppearanceTransition(false, animated: false)
    parent.endAppearanceTransition()
    #expect(late.calls.suffix(2) == ["viewWillDisappear", "viewDidDisappear"])
  }

  @Test("NIB-311: the scenes keyed compile writes load their view as a document's do")
  func compiledScenes() throws {
    let folder = try compileStoryboard(Self.storyboard, entryPoint: "Nav", name: "Lifecycle")
    defer { try? FileManager.default.removeItem(at: folder) }
    let storyboard = try Storyboard(contentsOf: folder, registry: lifecycleRegistry)
    let log = TraceLog()
    let home = try #require(
      try storyboard.instantiateViewController(withIdentifier: "Home", options: log.options) as? LifecycleController)
    #expect(!home.isViewLoaded)
    try home.performSegue(withIdentifier: "showDetail", sender: nil)
    let detail = try #require(home.presentedViewController as? LifecycleController)
    #expect(!detail.isViewLoaded)
    try detail.loadViewIfNeeded()
    #expect(detail.label?.text == "from Home")
    _ = home.view
    #expect(home.children.first?.title == "Panel", "the embed segue of a compiled scene's container view")
  }
}

@Suite("View controller life cycle: a view archived with its controller")
struct InlineViewLifecycleTests {
  @Test("NIB-310: a controller a nib archives with its view gets viewDidLoad once, on first access, outlets set")
  func inlineView() throws {
    let nib = Nib(
      data: xib(
        #"""
        <viewController id="vc" customClass="LifecycleController">
            <view key="view" id="v1"><subviews><label text="inline" id="l1"/></subviews></view>
            <connections><outlet property="label" destination="l1" id="o1"/></connections>
        </viewController>
        """#),
      registry: catalogRegistry(with: [LifecycleController.self]))
    let controller = try #require(try nib.instantiate(owner: nil).first as? LifecycleController)
    #expect(controller.isViewLoaded && controller.viewDidLoadCount == 0, "nothing runs before view is asked for")
    let view = controller.view
    #expect(controller.viewDidLoadCount == 1 && controller.labelAtLoad == "inline")
    #expect(controller.view === view && controller.viewDidLoadCount == 1)
  }
}

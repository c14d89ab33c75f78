import ArchiveCoding
import Foundation
import InterfaceObjects
import KeyedArchive
import NibLoading
import Testing

/// A `.storyboardc` folder in the layout of Apple's storyboard compiler, written for the tests: a scene's
/// controller in a nib of its own naming its view's nib (`UINibName`) and handing it its objects
/// (`UIExternalObjectsTableForViewLoading`), the view in `<controller>-view-<view>.nib` whose File's Owner is the
/// controller, with an outlet from an upstream placeholder and a container view's `UIStoryboardEmbedSegueTemplate`.
enum AppleCompiledStoryboard {
  static func proxy(_ identifier: String) -> ArchivedObject {
    ArchivedObject(
      className: "UIProxyObject", classChain: ["UIProxyObject", "NSObject"],
      fields: [.init(key: "UIProxiedObjectIdentifier", value: .object(identifier))])
  }

  static func object(_ className: String, _ fields: [(String, ArchivedObject.Field)]) -> ArchivedObject {
    ArchivedObject(
      className: className, classChain: [className, "NSObject"],
      fields: fields.map { ArchivedObject.Entry(key: $0.0, value: $0.1) })
  }

  static func connection(_ className: String, _ fields: [(String, ArchivedObject.Field)]) -> ArchivedObject {
    object(className, fields)
  }

  static func nib(objects: [ArchivedObject], topLevel: [ArchivedObject], connections: [ArchivedObject]) throws -> Data {
    let archiver = KeyedArchiver()
    archiver.encodeObject(objects, forKey: "UINibObjectsKey")
    archiver.encodeObject(topLevel, forKey: "UINibTopLevelObjectsKey")
    archiver.encodeObject(connections, forKey: "UINibConnectionsKey")
    archiver.encodeObject([Any](), forKey: "UINibVisibleWindowsKey")
    archiver.encodeObject([Any](), forKey: "UINibKeyValuePairsKey")
    archiver.encodeObject([Any](), forKey: "UINibAccessibilityConfigurationsKey")
    return try archiver.finishEncoding()
  }

  static func controller(_ title: String, viewNib: String?) -> ArchivedObject {
    var fields: [(String, ArchivedObject.Field)] = [
      ("UIClassName", .object("LifecycleController")), ("UIOriginalClassName", .object("UIViewController")),
      ("UITitle", .object(title)), ("UIStoryboardIdentifier", .object(title)),
    ]
    if let viewNib { fields.append(("UINibName", .object(viewNib))) }
    return object("UIClassSwapper", fields)
  }

  /// Writes the folder; the caller removes it.
  static func write() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Apple-\(UUID().uuidString).storyboardc")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // The controller's nib.
    let owner = proxy("IBFilesOwner")
    let storyboardProxy = proxy("UIStoryboardPlaceholder")
    let item = object("UINavigationItem", [("UITitle", .object("Home"))])
    let home = controller("Home", viewNib: "hc-view-hv")
    home.fields.append(.init(key: "UINavigationItem", value: .object(item)))
    home.fields.append(
      .init(
        key: "UIExternalObjectsTableForViewLoading",
        value: .object(["UpstreamPlaceholder-hc": home, "UpstreamPlaceholder-item": item])))
    try nib(
      objects: [owner, home, item, storyboardProxy], topLevel: [owner, home],
      connections: [
        connection(
          "UIRuntimeOutletConnection",
          [
            ("UILabel", .object("storyboard")), ("UISource", .object(home)),
            ("UIDestination", .object(storyboardProxy)),
          ])
      ]
    ).write(to: folder.appendingPathComponent("Home.nib"))
    // The view's nib: File's Owner is the controller; the label outlet comes from the upstream placeholder.
    let viewOwner = proxy("IBFilesOwner")
    let upstream = proxy("UpstreamPlaceholder-hc")
    let label = object("UILabel", [("UIText", .object("compiled"))])
    let container = object("UIView", [])
    let view = object("UIView", [("UISubviews", .object([label, container]))])
    try nib(
      objects: [viewOwner, upstream, view, label, container], topLevel: [viewOwner, view],
      connections: [
        connection(
          "UIRuntimeOutletConnection",
          [("UILabel", .object("view")), ("UISource", .object(viewOwner)), ("UIDestination", .object(view))]),
        connection(
          "UIRuntimeOutletConnection",
          [("UILabel", .object("label")), ("UISource", .object(upstream)), ("UIDestination", .object(label))]),
        connection(
          "UIStoryboardEmbedSegueTemplate",
          [
            ("UIIdentifier", .object("embedPanel")), ("UISource", .object(container)),
            ("UIDestinationViewControllerIdentifier", .object("Panel")),
          ]),
      ]
    ).write(to: folder.appendingPathComponent("hc-view-hv.nib"))
    // The embedded scene: a controller without a view of its own (UIKit makes an empty one).
    let panel = controller("Panel", viewNib: nil)
    try nib(objects: [proxy("IBFilesOwner"), panel], topLevel: [panel], connections: []).write(
      to: folder.appendingPathComponent("Panel.nib"))
    let info: [String: Any] = [
      "UIViewControllerIdentifiersToNibNames": ["Home": "Home", "Panel": "Panel"],
      "UIStoryboardDesignatedEntryPointIdentifier": "Home", "UIStoryboardVersion": 1,
    ]
    try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0).write(
      to: folder.appendingPathComponent("Info.plist"))
    return folder
  }
}

private let appleRegistry = catalogRegistry(with: [LifecycleController.self])

@Suite("Apple-compiled storyboard scenes")
struct AppleCompiledSceneTests {
  @Test("NIB-312, NIB-313: an Apple-compiled scene loads its view nib on first access, and performs its embed segue")
  func viewNibAndEmbed() throws {
    let folder = try AppleCompiledStoryboard.write()
    defer { try? FileManager.default.removeItem(at: folder) }
    let storyboard = try Storyboard(contentsOf: folder, registry: appleRegistry)
    let log = TraceLog()
    let home = try #require(
      try storyboard.instantiateInitialViewController(options: log.options) as? LifecycleController)
    #expect(!home.isViewLoaded && home.title == "Home")
    #expect(home.navigationItem != nil)
    let view = home.view
    #expect(home.label?.text == "compiled", "the upstream placeholder is the controller: its outlet is set")
    #expect(home.labelAtLoad == "compiled")
    let panel = try #require(home.children.first as? LifecycleController, "the compiled embed segue is performed")
    #expect(panel.title == "Panel" && panel.message == "from Home")
    #expect(panel.view.superview?.superview === view)
    let lines = log.lifecycle
    #expect(lines.first == "Home loadView" && lines.last == "Home viewDidLoad", "\(lines)")
    #expect(lines.contains(#"Home prepare(for: "embedPanel") → Panel"#))
    // The view's nib is instantiated between loadView and viewDidLoad, its outlets included.
    let loading = log.lines.drop { $0 != "Home loadView" }.prefix { $0 != "Home viewDidLoad" }
    #expect(loading.contains { $0.hasPrefix("outlet ") && $0.contains(" label ") }, "\(log.lines)")
    #expect(loading.contains { $0.hasPrefix("outlet ") && $0.contains(" view ") })
  }

  @Test("NIB-312, NIB-330: a view nib name that leaves the storyboard's folder is refused, and reported once")
  func viewNibNameStaysInFolder() throws {
    let folder = try AppleCompiledStoryboard.write()
    defer { try? FileManager.default.removeItem(at: folder) }
    let evil = AppleCompiledStoryboard.controller("Home", viewNib: "../elsewhere")
    try AppleCompiledStoryboard.nib(objects: [evil], topLevel: [evil], connections: []).write(
      to: folder.appendingPathComponent("Home.nib"))
    let storyboard = try Storyboard(contentsOf: folder, registry: appleRegistry)
    var options = NibOptions()
    var reports: [String] = []
    options.failureReport = { reports.append($0) }
    let home = try #require(try storyboard.instantiateInitialViewController(options: options) as? ViewController)
    #expect {
      try home.loadViewIfNeeded()
    } throws: { error in
      (error as? ArchiveError)?.code == .corruptData && "\(error)".contains("single path component")
    }
    #expect(reports.count == 1 && reports[0].contains("../elsewhere"), "\(reports)")
  }
}

@Suite(
  "Apple-compiled storyboard scenes: corpus",
  .enabled(if: CompiledNibCorpus.isAvailable, Comment(rawValue: CompiledNibCorpus.absentMessage)))
struct AppleCompiledSceneCorpusTests {
  @Test("NIB-312, NIB-320, NIB-322: UIKitCatalog's scenes load their view nibs; its split view has its two columns")
  func uiKitCatalog() throws {
    for year in ["2019", "2023"] {
      let folder = CompiledNibCorpus.nibDirectory.appendingPathComponent(
        "appium-ios-uicatalog/\(year)/Base.lproj/Main.storyboardc")
      var options = NibOptions()
      options.warning = nil
      var failures: [String] = []
      options.failureReport = { failures.append($0) }
      let storyboard = try Storyboard(contentsOf: folder, registry: appleRegistry)
      let split = try #require(
        try storyboard.instantiateViewController(withIdentifier: "splitView", options: options)
          as? SplitViewController, "\(year)")
      #expect(split.viewControllers.count == 2, "\(year)")
      #expect(split.viewControllers.allSatisfy { $0 is NavigationController })
      let nav = try #require(
        try storyboard.instantiateViewController(withIdentifier: "navInitialDetail", options: options)
          as? NavigationController)
      let top = try #require(nav.topViewController)
      #expect(!top.isViewLoaded)
      try top.loadViewIfNeeded()
      #expect(!top.view.subviews.isEmpty, "\(year): the view comes from the scene's view nib")
      #expect(failures.isEmpty, "\(failures)")
    }
  }
}

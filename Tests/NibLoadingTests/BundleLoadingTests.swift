import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

/// A controller whose view comes from `Greeting.xib` in the test bundle.
final class GreetingController: ViewController {
  @Outlet var message: Label?
}

/// A self-loading view whose XIB ships in the test target's resources.
final class BundledBadge: XIBView {
  @Outlet var caption: Label?
  override class var nibBundle: NibBundle? { NibBundle(bundle: .module) }
  override class var nibRegistry: ClassRegistry { bundleRegistry }
}

let bundleRegistry: ClassRegistry = {
  let registry = ClassRegistry()
  InterfaceCatalog.register(in: registry)
  registry.register(GreetingController.self, as: "GreetingController")
  registry.register(BundledBadge.self, as: "BundledBadge")
  return registry
}()

@Suite("Foundation bundles")
struct BundleLoadingTests {
  @Test("NIB-097: Bundle.loadNibNamed and Nib(nibName:bundle:) find a nib among a package's resources")
  func moduleBundle() throws {
    let owner = GreetingController(nibName: nil, bundle: nil)
    let objects = try Bundle.module.loadNibNamed("Greeting", owner: owner, registry: bundleRegistry)
    #expect(objects.count == 1)
    #expect(owner.message?.text == "Hello" || owner.message?.text == "Bonjour")
    let nib = try Nib(nibName: "Greeting", bundle: .module, registry: bundleRegistry)
    let second = GreetingController(nibName: nil, bundle: nil)
    _ = try nib.instantiate(owner: second)
    #expect(second.message?.text == owner.message?.text)
    #expect(throws: ArchiveError.self) { try Nib(nibName: "Nowhere", bundle: .module, registry: bundleRegistry) }
  }

  @Test("NIB-097: a bundle's localisations are tried first, then the top level")
  func localisedVariant() throws {
    var bundle = NibBundle(bundle: .module)
    bundle.preferredLocalizations = ["fr"]
    let french = GreetingController(nibName: nil, bundle: nil)
    _ = try bundle.loadNibNamed("Greeting", owner: french, registry: bundleRegistry)
    #expect(french.message?.text == "Bonjour")
    bundle.preferredLocalizations = ["de"]
    let fallback = GreetingController(nibName: nil, bundle: nil)
    _ = try bundle.loadNibNamed("Greeting", owner: fallback, registry: bundleRegistry)
    #expect(fallback.message?.text == "Hello")
  }

  @Test("NIB-097: nil is the main bundle, as in UIKit")
  func mainBundle() {
    #expect(NibBundle(bundle: nil).resourceURL == (Bundle.main.resourceURL ?? Bundle.main.bundleURL))
  }

  @Test("NIB-097: Storyboard(name:bundle:) opens a storyboard among a package's resources")
  func storyboardByName() throws {
    let storyboard = try Storyboard(name: "Flow", bundle: .module, registry: bundleRegistry)
    #expect(storyboard.identifiers == ["First", "Second"])
    #expect(try storyboard.instantiateInitialViewController() is ViewController)
  }

  @Test("NIB-098: a view controller made with (nibName:bundle:) loads its view on first access, once")
  func lazyView() throws {
    ClassRegistry.shared.register(GreetingController.self, as: "GreetingController")
    InterfaceCatalog.register()
    let controller = GreetingController(nibName: "Greeting", bundle: .module)
    #expect(!controller.isViewLoaded)
    let view = controller.view
    #expect(controller.isViewLoaded)
    #expect(controller.message?.superview === view)
    #expect(controller.viewDidLoadCount == 1)
    try controller.loadViewIfNeeded()
    #expect(controller.view === view)
    #expect(controller.viewDidLoadCount == 1)
  }

  @Test("NIB-098: a view controller whose nib fails to load reports it instead of leaving an empty view silently")
  func failedViewLoad() throws {
    ClassRegistry.shared.register(GreetingController.self, as: "GreetingController")
    InterfaceCatalog.register()
    let mistyped = GreetingController(nibName: "MistypedGreeting", bundle: .module)
    do {
      try mistyped.loadViewIfNeeded()
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.message.contains("\"mesage\""), "\(error)")
      #expect(error.description.contains("MistypedGreeting.xib:"), "\(error)")
    }
    #expect(mistyped.viewLoadError != nil)
    let missing = GreetingController(nibName: "Nowhere", bundle: .module)
    #expect(throws: ArchiveError.self) { try missing.loadViewIfNeeded() }
  }

  @Test("NIB-060: a library XIBView subclass loads its XIB from its bundle, in code and inside another XIB")
  func selfLoadingView() throws {
    let inCode = BundledBadge(frame: Rect(x: 0, y: 0, width: 300, height: 90))
    #expect(inCode.viewLoadError == nil)
    #expect(inCode.initializer == "init(frame:)")
    #expect(inCode.caption?.text == "Badge")
    #expect(inCode.base?.frame == Rect(x: 0, y: 0, width: 300, height: 90))
    #expect(inCode.base?.autoresizingMask == [.flexibleWidth, .flexibleHeight])
    let objects = try Bundle.module.loadNibNamed("BundledBadgeHost", owner: nil, registry: bundleRegistry)
    let host = try #require(objects.first as? View)
    let nested = try #require(host.subviews.first as? BundledBadge)
    #expect(nested.initializer == "init(coder:)")
    #expect(nested.caption?.text == "Badge")
    #expect(nested.subviews.count == 1, "the XIB's root view once: no recursion")
  }
}

@Suite("Load warnings")
struct LoadWarningTests {
  @Test("NIB-103: a registry without the interface catalog is one warning to the sink; the instance lists each object")
  func catalogMissing() throws {
    var warnings: [String] = []
    let data = xib(#"<view id="v1"><subviews><label text="x" id="l1"/></subviews></view>"#)
    let instance = try Nib(data: data, registry: ClassRegistry()).instantiateGraph(
      owner: nil, options: NibOptions(warning: { warnings.append($0) }))
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("InterfaceCatalog.register()") == true)
    #expect(instance.warnings.filter { $0.contains("InterfaceCatalog.register()") }.count == 1)
    #expect(instance.warnings.contains { $0.contains("unknown class UILabel for object l1") })
    #expect(instance.warnings.contains { $0.contains("unknown class UIView for object v1") })
  }

  @Test("NIB-103: warnings of table views' and view controllers' loads can be collected, and are by default printed")
  func entryPoints() throws {
    #expect(NibOptions().warning != nil, "standard error by default")
    var warnings: [String] = []
    let table = TableView(frame: .zero)
    table.nibOptions.warning = { warnings.append($0) }
    let cell = xib(#"<tableViewCell reuseIdentifier="Row" id="c1" customClass="GoneCell"/>"#)
    table.register(Nib(data: cell, registry: testRegistry), forCellReuseIdentifier: "Row")
    _ = try table.dequeueReusableCell(withIdentifier: "Row")
    #expect(warnings.contains { $0.contains("unknown class GoneCell") })
    let controller = GreetingController(nibName: "Greeting", bundle: .module)
    var controllerWarnings: [String] = []
    controller.nibOptions.warning = { controllerWarnings.append($0) }
    ClassRegistry.shared.register(GreetingController.self, as: "GreetingController")
    InterfaceCatalog.register()
    try controller.loadViewIfNeeded()
    #expect(controllerWarnings.isEmpty)
  }
}

/// A controller whose nib is named after its class.
final class ClassNamedController: ViewController {
  @Outlet var message: Label?
}

@Suite("View controllers by class name")
struct ClassNamedControllerTests {
  @Test("NIB-098: (nibName: nil, bundle:) loads the nib named after the class, or makes an empty view without one")
  func nibNamedAfterClass() throws {
    ClassRegistry.shared.register(ClassNamedController.self, as: "ClassNamedController")
    InterfaceCatalog.register()
    let controller = ClassNamedController(nibName: nil, bundle: .module)
    try controller.loadViewIfNeeded()
    #expect(controller.message?.text == "By class name")
    let plain = GreetingController(nibName: nil, bundle: .module)
    try plain.loadViewIfNeeded()
    #expect(plain.message == nil, "no GreetingController nib: an empty view, and no error")
  }
}

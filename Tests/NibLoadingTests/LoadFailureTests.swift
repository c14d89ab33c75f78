import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Synchronization
import Testing

/// Where the test views' load errors go.
private let reports = Mutex<[String]>([])

/// A self-loading view with no XIB of its name anywhere: the mistake of a port that forgot to add it.
final class ForgottenBadge: XIBView {
  override class var nibRegistry: ClassRegistry { bundleRegistry }
  override class var nibOptions: NibOptions {
    var options = NibOptions()
    options.failureReport = { message in reports.withLock { $0.append(message) } }
    return options
  }
}

/// A self-loading view that names the test target's `BundledBadge.xib` and says nothing of where it is: the module's
/// resources are found from its class (NIB-332).
final class ModuleBadge: XIBView {
  @Outlet var caption: Label?
  override class var nibName: String { "BundledBadge" }
  override class var nibRegistry: ClassRegistry { bundleRegistry }
}

@Suite("Load failures are reported", .serialized)
struct LoadFailureTests {
  @Test("NIB-330: a controller's view whose nib does not exist is empty, and the error is kept and reported once")
  func mistypedNibName() throws {
    var collected: [String] = []
    let controller = ViewController(nibName: "Typo", nibBundle: NibBundle(bundle: .module))
    controller.nibOptions.failureReport = { collected.append($0) }
    let view = controller.view
    #expect(view.subviews.isEmpty && controller.isViewLoaded)
    #expect(collected.count == 1)
    #expect(collected.first?.contains("could not load its view from the nib \"Typo\"") == true, "\(collected)")
    #expect(collected.first?.contains("no nib named \"Typo\"") == true)
    #expect(controller.viewLoadError != nil)
    #expect(throws: ArchiveError.self) { try controller.loadViewIfNeeded() }
    _ = controller.view
    #expect(collected.count == 1, "once")
  }

  @Test("NIB-330: a nil bundle is the controller's module, and a name it lacks is reported, never silent")
  func nilBundle() {
    var collected: [String] = []
    let controller = ViewController(nibName: "Typo", bundle: nil)
    controller.nibOptions.failureReport = { collected.append($0) }
    _ = controller.view
    #expect(collected.count == 1 && controller.viewLoadError != nil)
    #expect(NibOptions().failureReport != nil && !NibOptions().stopsOnLoadFailure, "standard error, no stop")
  }

  @Test("NIB-330: told to stop, a controller whose nib does not load ends the process, as UIKit's exception does")
  func stopsWhenTold() async {
    await #expect(processExitsWith: .failure) {
      let controller = ViewController(nibName: "Typo", nibBundle: NibBundle(bundle: .module))
      controller.nibOptions.failureReport = nil
      controller.nibOptions.stopsOnLoadFailure = true
      _ = controller.view
    }
    await #expect(processExitsWith: .success) {
      let controller = ViewController(nibName: "Typo", nibBundle: NibBundle(bundle: .module))
      controller.nibOptions.failureReport = nil
      _ = controller.view
    }
  }

  @Test("NIB-331: XIBView.init(frame:) without its XIB keeps the error and reports it once")
  func forgottenXIB() {
    reports.withLock { $0.removeAll() }
    let badge = ForgottenBadge(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    #expect(badge.base == nil && badge.subviews.isEmpty)
    #expect(badge.viewLoadError != nil)
    let lines = reports.withLock { $0 }
    #expect(lines.count == 1)
    #expect(lines.first?.contains("ForgottenBadge could not load its XIB \"ForgottenBadge\"") == true, "\(lines)")
  }

  @Test("NIB-332: Bundle.moduleResources(for:) is the module's Bundle.module; XIBView and view controllers use it")
  func moduleResources() throws {
    let found = try #require(Bundle.moduleResources(for: ModuleBadge.self))
    #expect(found.bundleURL.standardizedFileURL == Bundle.module.bundleURL.standardizedFileURL)
    #expect(Bundle.moduleResources(for: View.self) == nil, "the catalog's module has no resources")
    #expect(NibBundle(for: ModuleBadge.self).resourceURL == NibBundle(bundle: .module).resourceURL)
    let badge = ModuleBadge(frame: Rect(x: 0, y: 0, width: 200, height: 60))
    #expect(badge.viewLoadError == nil)
    #expect(badge.caption?.text == "Badge")
    ClassRegistry.shared.register(ClassNamedController.self, as: "ClassNamedController")
    InterfaceCatalog.register()
    let controller = ClassNamedController()
    try controller.loadViewIfNeeded()
    #expect(controller.message != nil, "the nib named after the class, found in the module's resources")
  }
}

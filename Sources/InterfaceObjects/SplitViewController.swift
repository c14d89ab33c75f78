import ArchiveCoding
import NibLoading

/// What a split view controller asks about showing a detail controller, in the role of
/// `UISplitViewControllerDelegate` (NIB-322). The method has a default.
public protocol SplitViewControllerDelegate: AnyObject {
  /// Whether the delegate showed `detail` itself; `false` lets the split view controller show it. Default: `false`.
  func splitViewController(
    _ splitViewController: SplitViewController, showDetail detail: ViewController, sender: Any?
  ) -> Bool
}

extension SplitViewControllerDelegate {
  /// Leaves showing to the split view controller.
  public func splitViewController(
    _ splitViewController: SplitViewController, showDetail detail: ViewController, sender: Any?
  ) -> Bool { false }
}

/// A primary and a secondary controller side by side, in the role of `UISplitViewController` /
/// `NSSplitViewController` (NIB-322): its ``viewControllers`` are its children, a storyboard gives it its columns by
/// relationship segues, in order. ``showDetailViewController(_:sender:)`` (what a `showDetail` segue does) replaces the
/// secondary, unless the ``delegate`` shows it; collapsed (``isCollapsed``), only the primary is on screen and a new
/// detail is shown by the primary (pushed onto its navigation stack). On screen, both columns appear with it
/// (NIB-314).
open class SplitViewController: ViewController {
  /// The object asked about showing details (an outlet).
  public weak var delegate: (any SplitViewControllerDelegate)? {
    willSet { propertyWillChange("delegate") }
    didSet { propertyDidChange("delegate") }
  }

  /// Creates a split view controller in code.
  public override init(nibName: String? = nil, nibBundle: NibBundle? = nil) {
    super.init(nibName: nibName, nibBundle: nibBundle)
  }

  /// Reads the controller's keys and the columns a compiled storyboard archives (`UIChildViewControllers`).
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }

  /// The columns, the primary first.
  public var viewControllers: [ViewController] {
    get { children }
    set {
      let shown = appearingChildren
      for child in children where !newValue.contains(where: { $0 === child }) { dropChild(child) }
      for (index, controller) in newValue.enumerated() { placeChild(controller, at: index) }
      guard isOnScreen else { return }
      for old in shown where !appearingChildren.contains(where: { $0 === old }) { old.disappear() }
      for new in appearingChildren where !shown.contains(where: { $0 === new }) { new.appear() }
    }
  }

  /// Whether only the primary column is on screen (a compact width). Collapsing makes the secondary go off screen,
  /// expanding brings it back.
  public var isCollapsed = false {
    didSet {
      guard isCollapsed != oldValue, isOnScreen, viewControllers.count > 1 else { return }
      let secondary = viewControllers[1]
      if isCollapsed { secondary.disappear() } else { secondary.appear() }
    }
  }

  /// Shows a detail controller, as UIKit's `showDetailViewController(_:sender:)`: the delegate may show it itself;
  /// else, collapsed, the primary shows it (``ViewController/show(_:sender:)``, a push onto its navigation stack);
  /// else it replaces the secondary column (NIB-322).
  open func showDetailViewController(_ detail: ViewController, sender: Any?) {
    if let delegate {
      let handled = delegate.splitViewController(self, showDetail: detail, sender: sender)
      trace("splitViewController(showDetail: \(detail.traceName)) → \(handled)")
      if handled { return }
    }
    if isCollapsed, let primary = viewControllers.first {
      if let navigation = primary as? NavigationController {
        navigation.pushViewController(detail)
      } else {
        primary.show(detail, sender: sender)
      }
      return
    }
    var columns = viewControllers
    if columns.count > 1 { columns[1] = detail } else { columns.append(detail) }
    viewControllers = columns
  }

  /// Both columns go on and off screen with the split view controller; collapsed, the primary only.
  override var appearingChildren: [ViewController] { isCollapsed ? Array(children.prefix(1)) : children }

  /// `delegate`, with the view controller's keys.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      ["delegate": .observedProperty(\SplitViewController.delegate)], uniquingKeysWith: { $1 })
  }
}

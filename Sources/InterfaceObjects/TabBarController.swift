import ArchiveCoding
import Foundation
import NibLoading

/// What a tab bar controller asks and tells about a user's selection, in the role of
/// `UITabBarControllerDelegate` (NIB-321). Both methods have defaults.
public protocol TabBarControllerDelegate: AnyObject {
  /// Whether the tab the user tapped may be selected. Default: `true`.
  func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: ViewController) -> Bool
  /// The user selected a tab (also when it was already selected, as UIKit tells it). Default: nothing.
  func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController)
}

extension TabBarControllerDelegate {
  /// Allows every selection.
  public func tabBarController(
    _ tabBarController: TabBarController, shouldSelect viewController: ViewController
  )
    -> Bool
  { true }
  /// Does nothing.
  public func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController) {}
}

/// Tabs of view controllers of which one is selected, in the role of `UITabBarController` / `NSTabViewController`
/// (NIB-320): its ``viewControllers`` are its children, a storyboard gives it one per relationship segue, in order;
/// ``selectedIndex`` and ``selectedViewController`` select one in code, ``tapTab(at:)`` as a user does, asking the
/// ``delegate`` first (NIB-321). On screen, it shows its selected controller: selecting another makes the old one go
/// off screen and the new one on, in UIKit's order (NIB-314).
open class TabBarController: ViewController {
  /// The object told about the user's selections (an outlet).
  public weak var delegate: (any TabBarControllerDelegate)? {
    willSet { propertyWillChange("delegate") }
    didSet { propertyDidChange("delegate") }
  }
  /// The index of the selected tab, or `nil` when there is none.
  private var selection: Int?

  /// Creates a tab bar controller in code.
  public override init(nibName: String? = nil, nibBundle: NibBundle? = nil) {
    super.init(nibName: nibName, nibBundle: nibBundle)
  }

  /// Reads the controller's keys and the tabs a compiled storyboard archives (`UIChildViewControllers`), and selects
  /// the first.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    if !children.isEmpty { selection = 0 }
  }

  /// The tabs' controllers, in order; `nil` when there are none, as in UIKit.
  public var viewControllers: [ViewController]? {
    get { children.isEmpty ? nil : children }
    set { setViewControllers(newValue) }
  }

  /// Replaces the tabs. The selected controller stays selected when it is among them, else the first tab is; on
  /// screen, a change of selected controller makes the old one go off screen and the new one on.
  public func setViewControllers(_ controllers: [ViewController]?, animated: Bool = false) {
    let controllers = controllers ?? []
    let selected = selectedViewController
    for child in children where !controllers.contains(where: { $0 === child }) { dropChild(child) }
    for (index, controller) in controllers.enumerated() { placeChild(controller, at: index) }
    selection = controllers.isEmpty ? nil : selected.flatMap { index(of: $0) } ?? 0
    if isOnScreen { Self.transition(from: selected, to: selectedViewController) }
  }

  /// The index of the selected tab (`NSNotFound` when there are no tabs). Setting it selects the tab in code,
  /// without asking the delegate, as UIKit does; an index outside the tabs is ignored.
  public var selectedIndex: Int {
    get { selection ?? NSNotFound }
    set {
      guard children.indices.contains(newValue) else { return }
      select(newValue)
    }
  }

  /// The selected tab's controller. Setting it selects that tab in code, without asking the delegate; a
  /// controller that is not a tab is ignored.
  public var selectedViewController: ViewController? {
    get { selection.flatMap { children.indices.contains($0) ? children[$0] : nil } }
    set {
      guard let newValue, let index = index(of: newValue) else { return }
      select(index)
    }
  }

  /// Selects a tab as a user's tap on its item does: asks the delegate's
  /// `tabBarController(_:shouldSelect:)`, selects it, then tells `tabBarController(_:didSelect:)` (NIB-321).
  /// - Returns: `true` when the tab was selected; `false` when the delegate refused it or there is no such tab.
  @discardableResult
  public func tapTab(at index: Int) -> Bool {
    guard children.indices.contains(index) else { return false }
    let controller = children[index]
    if let delegate {
      let allowed = delegate.tabBarController(self, shouldSelect: controller)
      trace("tabBarController(shouldSelect: \(controller.traceName)) → \(allowed)")
      guard allowed else { return false }
    }
    select(index)
    if let delegate {
      trace("tabBarController(didSelect: \(controller.traceName))")
      delegate.tabBarController(self, didSelect: controller)
    }
    return true
  }

  /// Makes the tab at `index` the selected one; on screen, the old one goes off screen and the new one on.
  private func select(_ index: Int) {
    let old = selectedViewController
    selection = index
    guard old !== children[index] else { return }
    trace("selectedIndex = \(index) (\(children[index].traceName))")
    if isOnScreen { Self.transition(from: old, to: children[index]) }
  }

  private func index(of controller: ViewController) -> Int? { children.firstIndex { $0 === controller } }

  /// The selected controller goes on and off screen with the tab bar controller.
  override var appearingChildren: [ViewController] { selectedViewController.map { [$0] } ?? [] }

  /// `delegate`, with the view controller's keys.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      ["delegate": .observedProperty(\TabBarController.delegate)], uniquingKeysWith: { $1 })
  }
}

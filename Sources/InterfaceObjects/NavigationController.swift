import ArchiveCoding
import NibLoading

/// A stack of view controllers, in the role of `UINavigationController`: ``ViewController/show(_:sender:)`` and `show` segues
/// from its controllers push onto it, unwind segues pop it, and a storyboard gives it its root through its
/// relationship segue (NIB-137). On screen, it shows its top controller: a push or a pop makes the old top go off
/// screen and the new one on, in UIKit's order (NIB-314).
///
/// The stack is the controller's ``ViewController/children``, the root first.
open class NavigationController: ViewController {
  /// The navigation bar (`navigationBar`, a compiled nib's `UINavigationBar`).
  public private(set) var navigationBar: View?

  /// Creates a navigation controller in code with a root controller.
  public init(rootViewController: ViewController) {
    super.init(nibName: nil, nibBundle: nil)
    pushViewController(rootViewController)
  }

  /// Creates an empty navigation controller in code.
  public override init(nibName: String? = nil, nibBundle: NibBundle? = nil) {
    super.init(nibName: nibName, nibBundle: nibBundle)
  }

  /// Reads the controller's keys, its navigation bar, and the stack a compiled storyboard archives.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    if let key = coder.firstKey(["navigationBar", "UINavigationBar"]) {
      navigationBar = try coder.decodeObject(forKey: key) as? View
    }
  }

  /// The stack, the root first.
  public var viewControllers: [ViewController] {
    get { children }
    set { setViewControllers(newValue) }
  }

  /// The controller at the top of the stack.
  public var topViewController: ViewController? { children.last }

  /// The top controller goes on and off screen with the navigation controller.
  override var appearingChildren: [ViewController] { topViewController.map { [$0] } ?? [] }

  /// Replaces the stack; on screen, the old top goes off screen and the new one on.
  public func setViewControllers(_ controllers: [ViewController]) {
    let top = topViewController
    for child in children where !controllers.contains(where: { $0 === child }) { dropChild(child) }
    for (index, controller) in controllers.enumerated() { placeChild(controller, at: index) }
    if isOnScreen { Self.transition(from: top, to: topViewController) }
  }

  /// Pushes a controller onto the stack (a controller already in it moves to the top); on screen, the old top goes
  /// off screen and the pushed one on.
  public func pushViewController(_ controller: ViewController) {
    let top = topViewController
    placeChild(controller, at: children.count)
    if isOnScreen { Self.transition(from: top, to: controller) }
  }

  /// Pops the top controller, unless it is the root; on screen, it goes off screen and the one below it on.
  /// - Returns: the controller popped, or `nil` when only the root is left.
  @discardableResult
  public func popViewController() -> ViewController? {
    guard children.count > 1, let top = children.last else { return nil }
    dropChild(top)
    if isOnScreen { Self.transition(from: top, to: topViewController) }
    return top
  }

  /// Pops the controllers above `controller`.
  /// - Returns: the controllers popped, top last; `nil` when `controller` is not in the stack.
  @discardableResult
  public func popToViewController(_ controller: ViewController) -> [ViewController]? {
    guard let index = children.firstIndex(where: { $0 === controller }) else { return nil }
    let popped = Array(children[(index + 1)...])
    guard let top = popped.last else { return [] }
    for child in popped { dropChild(child) }
    if isOnScreen { Self.transition(from: top, to: controller) }
    return popped
  }

  /// Pops every controller above the root.
  /// - Returns: the controllers popped, top last.
  @discardableResult
  public func popToRootViewController() -> [ViewController] {
    guard let root = children.first else { return [] }
    return popToViewController(root) ?? []
  }
}

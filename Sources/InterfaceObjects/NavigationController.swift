import ArchiveCoding
import NibLoading

/// A stack of view controllers, in the role of `UINavigationController`: ``ViewController/show(_:sender:)`` and `show`
/// segues from its controllers push onto it, unwind segues pop it, and a storyboard gives it its root through its
/// relationship segue (NIB-137).
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

  /// Replaces the stack.
  public func setViewControllers(_ controllers: [ViewController]) {
    for child in children where !controllers.contains(where: { $0 === child }) { child.removeFromParent() }
    for controller in controllers { addChild(controller) }
  }

  /// Pushes a controller onto the stack (a controller already in it moves to the top).
  public func pushViewController(_ controller: ViewController) { addChild(controller) }

  /// Pops the top controller, unless it is the root.
  /// - Returns: the controller popped, or `nil` when only the root is left.
  @discardableResult
  public func popViewController() -> ViewController? {
    guard children.count > 1, let top = children.last else { return nil }
    top.removeFromParent()
    return top
  }

  /// Pops the controllers above `controller`.
  /// - Returns: the controllers popped, top last; `nil` when `controller` is not in the stack.
  @discardableResult
  public func popToViewController(_ controller: ViewController) -> [ViewController]? {
    guard let index = children.firstIndex(where: { $0 === controller }) else { return nil }
    let popped = Array(children[(index + 1)...])
    for child in popped { child.removeFromParent() }
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

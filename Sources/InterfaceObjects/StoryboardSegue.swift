import NibLoading

/// A transition from one view controller to another, in the role of `UIStoryboardSegue`: made by
/// ``ViewController/performSegue(withIdentifier:sender:)``, handed to the source's
/// ``ViewController/prepare(for:sender:)``, then performed (NIB-100).
public final class StoryboardSegue {
  /// The segue's identifier.
  public let identifier: String?
  /// The kind the storyboard gives it (`show`, `presentation`, `embed`…).
  public let kind: String
  /// The view an embed segue puts the destination's view in (a container view), or `nil`.
  let container: View?

  init(identifier: String?, kind: String, source: ViewController, destination: ViewController, container: View? = nil) {
    (self.identifier, self.kind, self.source, self.destination) = (identifier, kind, source, destination)
    self.container = container
  }

  /// The controller the segue starts from.
  public let source: ViewController
  /// The controller it leads to, instantiated fresh.
  public let destination: ViewController

  /// Performs the transition by its kind (NIB-137, NIB-313): `show` and `push` show the destination
  /// (``ViewController/show(_:sender:)``: pushed onto the source's navigation stack, else presented); `showDetail`
  /// shows it as a split view controller's secondary; `embed` makes it a child of the source and puts its view in
  /// the container view; `relationship` makes it a navigation controller's root, a tab bar controller's next tab, a
  /// split view controller's next column, or another container's child; every other kind presents it
  /// (``ViewController/presentedViewController``).
  func perform(sender: Any?) {
    switch kind {
    case "show", "push": source.show(destination, sender: sender)
    case "showDetail", "replace":
      if let split = source as? SplitViewController ?? source.splitViewController {
        split.showDetailViewController(destination, sender: sender)
      } else {
        source.show(destination, sender: sender)
      }
    case SegueTemplate.embedKind:
      source.addChild(destination)
      if let container {
        let view = destination.view
        view.frame = container.bounds
        container.addSubview(view)
      }
    case SegueTemplate.relationshipKind:
      switch source {
      case let navigation as NavigationController: navigation.setViewControllers([destination])
      case let tabs as TabBarController: tabs.setViewControllers((tabs.viewControllers ?? []) + [destination])
      case let split as SplitViewController: split.viewControllers += [destination]
      default: source.addChild(destination)
      }
    default: source.present(destination)
    }
  }
}

import NibLoading

/// A transition from one view controller to another, in the role of `UIStoryboardSegue`: made by
/// ``ViewController/performSegue(withIdentifier:sender:)``, handed to the source's
/// ``ViewController/prepare(for:sender:)``, then performed (NIB-100).
public final class StoryboardSegue {
  /// The segue's identifier.
  public let identifier: String?
  /// The kind the storyboard gives it (`show`, `presentation`, `embed`…).
  public let kind: String

  init(identifier: String?, kind: String, source: ViewController, destination: ViewController) {
    (self.identifier, self.kind, self.source, self.destination) = (identifier, kind, source, destination)
  }

  /// The controller the segue starts from.
  public let source: ViewController
  /// The controller it leads to, instantiated fresh.
  public let destination: ViewController

  /// Performs the transition by its kind (NIB-137): `show` and `push` show the destination
  /// (``ViewController/show(_:sender:)``: pushed onto the source's navigation stack, else presented); `embed` makes
  /// it a child of the source; `relationship` makes it a navigation controller's root, or another container's
  /// child; every other kind presents it (``ViewController/presentedViewController``).
  func perform(sender: Any?) {
    switch kind {
    case "show", "push": source.show(destination, sender: sender)
    case SegueTemplate.embedKind: source.addChild(destination)
    case SegueTemplate.relationshipKind:
      if let navigation = source as? NavigationController {
        navigation.setViewControllers([destination])
      } else {
        source.addChild(destination)
      }
    default: source.present(destination)
    }
  }
}

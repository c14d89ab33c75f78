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

  /// Performs the transition: the source presents the destination (``ViewController/presentedViewController``);
  /// an `embed` or `relationship` segue makes the destination a child of the source instead.
  func perform() {
    if kind == "embed" || kind == "relationship" {
      source.addChild(destination)
    } else {
      source.present(destination)
    }
  }
}

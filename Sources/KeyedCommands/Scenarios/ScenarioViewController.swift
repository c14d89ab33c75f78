import ArchiveCoding
import InterfaceObjects

/// The controller of the first ways of loading a view: File's Owner of `ReferencedView.xib` and
/// `ConnectedActionsView.xib`.
public final class ScenarioViewController: ViewController {
  /// Set by `ReferencedView.xib` (way 2).
  @Outlet public var referencedView: View?
  /// Set by `ConnectedActionsView.xib` (way 3).
  @Outlet public var connectedActionsView: View?
  /// The actions received, in order, with their senders' classes.
  public private(set) var receivedActions: [String] = []

  /// Creates a controller with a 320×480 root view.
  public init() {
    super.init()
    view = View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
  }

  /// Creates a controller from a nib.
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }

  /// The action of way 3: the button's tap removes the connected view from its superview.
  public func connectedActionsViewTouchedUp(_ sender: Any?) {
    receivedActions.append("connectedActionsViewTouchedUp: from \(sender.map { "\(type(of: $0))" } ?? "nil")")
    connectedActionsView?.removeFromSuperview()
  }

  /// `connectedActionsViewTouchedUp:`.
  public override class var actions: [Action] {
    [Action("connectedActionsViewTouchedUp:", connectedActionsViewTouchedUp)]
  }
}

/// Way 1: a plain view, loaded with no owner and no connections.
public final class PlainView: View {}

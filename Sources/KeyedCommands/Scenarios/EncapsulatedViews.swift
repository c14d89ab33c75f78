import ArchiveCoding
import InterfaceObjects
import NibLoading

/// The owner `SubclassedView.present(in:)` makes only to receive the view through an outlet (way 4).
public final class SubclassedViewOwner: Responder {
  /// Set by the XIB.
  @Outlet public var subclassedView: SubclassedView?
  /// Creates an owner.
  public override init() { super.init() }
  /// Not made from nibs.
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
}

/// Way 4: a view that hides its own loading behind `present(in:)`; its `dismiss:` action is connected in the XIB
/// to the view itself.
public final class SubclassedView: View {
  /// Loads `SubclassedView.xib` with a fresh owner and adds the view to the controller's view.
  @discardableResult
  public static func present(in controller: ViewController, bundle: NibBundle) throws -> SubclassedView {
    let owner = SubclassedViewOwner()
    _ = try bundle.loadNibNamed("SubclassedView", owner: owner)
    guard let view = owner.subclassedView else {
      throw ArchiveError(.connectionFailed, "SubclassedView.xib did not connect the owner's subclassedView outlet")
    }
    controller.view.addSubview(view)
    return view
  }

  /// Removes the view.
  public func dismiss(_ sender: Any?) { removeFromSuperview() }

  /// `dismiss:`.
  public override class var actions: [Action] { [Action("dismiss:", dismiss)] }
}

/// What a decoupled view tells its presenter (way 5).
public protocol DecoupledViewDelegate: AnyObject {
  /// The view's main button was tapped.
  func decoupledViewTouchedUp(_ view: DecoupledView)
  /// The view removed itself.
  func decoupledViewDidDismiss(_ view: DecoupledView)
}

/// The owner `DecoupledView.present(in:)` makes to receive the view.
public final class DecoupledViewOwner: Responder {
  /// Set by the XIB.
  @Outlet public var decoupledView: DecoupledView?
  /// Creates an owner.
  public override init() { super.init() }
  /// Not made from nibs.
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
}

/// Way 5: as way 4, and the view's actions go to a weakly held delegate; the XIB knows nothing of the presenter.
public final class DecoupledView: View {
  /// The presenter, held weakly.
  public weak var delegate: (any DecoupledViewDelegate)?

  /// Loads `DecoupledView.xib`, adds the view to the controller's view and makes the controller its delegate.
  @discardableResult
  public static func present(
    in controller: some ViewController & DecoupledViewDelegate, bundle: NibBundle
  ) throws
    -> DecoupledView
  {
    let owner = DecoupledViewOwner()
    _ = try bundle.loadNibNamed("DecoupledView", owner: owner)
    guard let view = owner.decoupledView else {
      throw ArchiveError(.connectionFailed, "DecoupledView.xib did not connect the owner's decoupledView outlet")
    }
    view.delegate = controller
    controller.view.addSubview(view)
    return view
  }

  /// Forwards the tap to the delegate.
  public func touchedUp(_ sender: Any?) { delegate?.decoupledViewTouchedUp(self) }

  /// Removes the view and tells the delegate.
  public func dismiss(_ sender: Any?) {
    removeFromSuperview()
    delegate?.decoupledViewDidDismiss(self)
  }

  /// `touchedUp:`, `dismiss:`.
  public override class var actions: [Action] { [Action("touchedUp:", touchedUp), Action("dismiss:", dismiss)] }
}

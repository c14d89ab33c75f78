import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

// The examples of `Sources/InterfaceObjects/InterfaceObjects.docc/LoadingViewsFromXIBs.md` and of the
// InterfaceObjects landing page, loading the XIBs of `Tests/DocumentationTests/Resources`.

/// File's Owner of `ReferencedCard.xib` and `ActionCard.xib`, and the presenter of the decoupled card.
final class CardsViewController: ViewController, DecoupledCardDelegate {
  @Outlet var referencedView: View?
  @Outlet var actionView: View?
  var events: [String] = []

  func closeCard(_ sender: Any?) {
    actionView?.removeFromSuperview()
  }

  override class var actions: [Action] { [Action("closeCard:", closeCard)] }

  func decoupledCardTouchedUp(_ card: DecoupledCard) { events.append("touched up") }
  func decoupledCardDidDismiss(_ card: DecoupledCard) { events.append("dismissed") }
}

final class EncapsulatedCardOwner: Responder {
  @Outlet var card: EncapsulatedCard?
}

final class EncapsulatedCard: View {
  @discardableResult
  static func present(in controller: ViewController) throws -> EncapsulatedCard {
    let owner = EncapsulatedCardOwner()
    _ = try Bundle.module.loadNibNamed("EncapsulatedCard", owner: owner)
    guard let card = owner.card else {
      throw ArchiveError(.connectionFailed, "EncapsulatedCard.xib did not connect the owner's card outlet")
    }
    controller.view.addSubview(card)
    return card
  }

  func dismiss(_ sender: Any?) { removeFromSuperview() }

  override class var actions: [Action] { [Action("dismiss:", dismiss)] }
}

protocol DecoupledCardDelegate: AnyObject {
  func decoupledCardTouchedUp(_ card: DecoupledCard)
  func decoupledCardDidDismiss(_ card: DecoupledCard)
}

final class DecoupledCardOwner: Responder {
  @Outlet var card: DecoupledCard?
}

final class DecoupledCard: View {
  weak var delegate: (any DecoupledCardDelegate)?

  @discardableResult
  static func present(in controller: some ViewController & DecoupledCardDelegate) throws -> DecoupledCard {
    let owner = DecoupledCardOwner()
    _ = try Bundle.module.loadNibNamed("DecoupledCard", owner: owner)
    guard let card = owner.card else {
      throw ArchiveError(.connectionFailed, "DecoupledCard.xib did not connect the owner's card outlet")
    }
    card.delegate = controller
    controller.view.addSubview(card)
    return card
  }

  func touchedUp(_ sender: Any?) { delegate?.decoupledCardTouchedUp(self) }

  func dismiss(_ sender: Any?) {
    removeFromSuperview()
    delegate?.decoupledCardDidDismiss(self)
  }

  override class var actions: [Action] { [Action("touchedUp:", touchedUp), Action("dismiss:", dismiss)] }
}

final class NameBadge: XIBView {
  @Outlet var nameLabel: Label?
  override class var nibBundle: NibBundle? { NibBundle(bundle: .module) }
}

final class DetailViewController: ViewController {
  @Outlet var titleLabel: Label?
  func close(_ sender: Any?) { view.removeFromSuperview() }
  override class var actions: [Action] { [Action("close:", close)] }
}

func registerCardClasses() {
  InterfaceCatalog.register()
  for type: any Coding.Type in [
    CardsViewController.self, EncapsulatedCardOwner.self, EncapsulatedCard.self, DecoupledCardOwner.self,
    DecoupledCard.self, NameBadge.self,
  ] {
    ClassRegistry.shared.register(type, as: String(describing: type))
  }
}

/// The first button among `view`'s descendants whose title is `title`.
func button(titled title: String, in view: View) -> Button? {
  for subview in view.subviews {
    if let button = subview as? Button, button.title(for: .normal) == title { return button }
    if let found = button(titled: title, in: subview) { return found }
  }
  return nil
}

@Suite("Documentation: loading views from XIBs", .serialized)
struct LoadingViewsExamples {
  init() { registerCardClasses() }

  @Test("DOC-033: way 1, plain: no owner, the top-level view taken from the result")
  func plain() throws {
    let controller = CardsViewController()

    let card = try Bundle.module.loadNibNamed("Card", owner: nil).last as? View
    card?.frame = Rect(x: 40, y: 100, width: 240, height: 120)
    if let card { controller.view.addSubview(card) }

    #expect(card?.superview === controller.view)
    #expect((card?.subviews.first as? Label)?.text == "A card from a XIB")
  }

  @Test("DOC-033: way 2, referenced: the controller is File's Owner and receives the view through an outlet")
  func referenced() throws {
    let controller = CardsViewController()

    _ = try Bundle.module.loadNibNamed("ReferencedCard", owner: controller)
    if let card = controller.referencedView { controller.view.addSubview(card) }

    #expect(controller.referencedView?.superview === controller.view)
  }

  @Test("DOC-033: way 3, connected actions: a button inside sends its action to File's Owner")
  func connectedActions() throws {
    let controller = CardsViewController()
    _ = try Bundle.module.loadNibNamed("ActionCard", owner: controller)
    let card = try #require(controller.actionView)
    controller.view.addSubview(card)

    let close = try #require(button(titled: "Close", in: card))
    close.sendActions(for: .touchUpInside)  // closeCard(_:) removes the card

    #expect(card.superview == nil)
  }

  @Test("DOC-033: way 4, encapsulated: the view loads itself through a private owner and dismisses itself")
  func encapsulated() throws {
    let controller = CardsViewController()

    let card = try EncapsulatedCard.present(in: controller)
    #expect(card.superview === controller.view)

    try #require(button(titled: "Dismiss", in: card)).sendActions(for: .touchUpInside)
    #expect(card.superview == nil)
  }

  @Test("DOC-033: way 5, decoupled: as 4, and the view's actions go to a weakly held delegate")
  func decoupled() throws {
    let controller = CardsViewController()

    let card = try DecoupledCard.present(in: controller)
    try #require(button(titled: "Tap", in: card)).sendActions(for: .touchUpInside)
    try #require(button(titled: "Dismiss", in: card)).sendActions(for: .touchUpInside)

    #expect(controller.events == ["touched up", "dismissed"])
    #expect(card.superview == nil && card.delegate === controller)
  }

  @Test("DOC-033: a view that loads its own XIB, in code and inside another XIB, without recursing")
  func selfLoadingView() throws {
    let badge = NameBadge(frame: Rect(x: 0, y: 0, width: 200, height: 60))
    badge.nameLabel?.text = "Ada"

    #expect(badge.xibLoadError == nil)
    #expect(badge.base?.superview === badge && badge.base?.frame == badge.bounds)
    #expect(badge.nameLabel?.text == "Ada")

    let host = try Bundle.module.loadNibNamed("NameBadgeHost", owner: nil).last as? View
    let inner = try #require(host?.subviews.first as? NameBadge)
    #expect(inner.nameLabel?.text == "Name")
    #expect(inner.base?.superview === inner)
  }

  @Test("DOC-033: the landing page's controller declares an outlet and an action in one line each")
  func landingPageController() throws {
    ClassRegistry.shared.register(DetailViewController.self, as: "DetailViewController")
    let detail = DetailViewController()
    detail.titleLabel = Label(frame: .zero)
    let parent = View(frame: .zero)
    parent.addSubview(detail.view)
    #expect(detail.responds(toAction: "close:"))
    #expect(detail.perform(action: "close:", sender: nil))
    #expect(detail.view.superview == nil)
  }
}

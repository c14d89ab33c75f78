import ArchiveCoding
import Foundation
import InterfaceObjects
import KeyedCommands
import NibLoading
import Testing

/// Records pipeline events for assertions about their order.
final class EventTrace: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [NibEvent] = []
  var events: [NibEvent] { lock.withLock { storage } }
  func record(_ event: NibEvent) { lock.withLock { storage.append(event) } }
  var options: NibOptions { NibOptions(trace: { [self] in record($0) }) }
}

@Suite("Scenarios of scenarios.md")
struct ScenarioTests {
  let bundle: NibBundle

  init() throws {
    ScenarioResources.register()
    bundle = try ScenarioResources.bundle()
  }

  @Test("NIB-005: way 1, plain: no owner, the top-level view is returned and placed in code")
  func plain() throws {
    let objects = try bundle.loadNibNamed("PlainView", owner: nil)
    #expect(objects.count == 1, "placeholders are not returned")
    let view = try #require(objects.last as? PlainView)
    #expect((view.subviews.first as? Label)?.text == "A plain view from a XIB")
    let controller = ScenarioViewController()
    view.frame = Rect(x: 40, y: 100, width: 240, height: 120)
    controller.view.addSubview(view)
    #expect(view.superview === controller.view)
    #expect(view.awakeFromNibCount == 1)
  }

  @Test("NIB-010: way 2, referenced: the owner's outlet receives the view")
  func referenced() throws {
    let controller = ScenarioViewController()
    _ = try bundle.loadNibNamed("ReferencedView", owner: controller)
    let view = try #require(controller.referencedView)
    controller.view.addSubview(view)
    #expect(controller.view.subviews.contains { $0 === view })
    #expect(controller.awakeFromNibCount == 0, "File's Owner is a placeholder: never awakened")
  }

  @Test("NIB-003: way 3, connected actions: the button's tap reaches File's Owner, which removes the view")
  func connectedActions() throws {
    let controller = ScenarioViewController()
    _ = try bundle.loadNibNamed("ConnectedActionsView", owner: controller)
    let view = try #require(controller.connectedActionsView)
    controller.view.addSubview(view)
    let button = try #require(view.subviews.first as? Button)
    #expect(button.title(for: .normal) == "Close")
    #expect(button.targetActions.count == 1)
    #expect(button.targetActions.first?.events == .touchUpInside)
    button.sendActions(for: .touchUpInside)
    #expect(controller.receivedActions == ["connectedActionsViewTouchedUp: from Button"])
    #expect(view.superview == nil)
  }

  @Test("NIB-010: way 4, encapsulated: present(in:) loads through a private owner; dismiss: removes the view")
  func encapsulated() throws {
    let controller = ScenarioViewController()
    let view = try SubclassedView.present(in: controller, bundle: bundle)
    #expect(view.superview === controller.view)
    let button = try #require(view.subviews.first as? Button)
    button.sendActions(for: .touchUpInside)
    #expect(view.superview == nil)
  }

  @Test("NIB-010: way 5, decoupled: actions reach a weakly held delegate")
  func decoupled() throws {
    final class Presenter: ViewController, DecoupledViewDelegate {
      var calls: [String] = []
      func decoupledViewTouchedUp(_ view: DecoupledView) { calls.append("touchedUp") }
      func decoupledViewDidDismiss(_ view: DecoupledView) { calls.append("didDismiss") }
    }
    let presenter = Presenter()
    presenter.view = View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    let view = try DecoupledView.present(in: presenter, bundle: bundle)
    let buttons = view.subviews.compactMap { $0 as? Button }
    #expect(buttons.count == 2)
    buttons[0].sendActions(for: .touchUpInside)
    buttons[1].sendActions(for: .touchUpInside)
    #expect(presenter.calls == ["touchedUp", "didDismiss"])
    #expect(view.superview == nil)
    weak var weakPresenter: Presenter?
    do {
      let temporary = Presenter()
      temporary.view = View(frame: .zero)
      weakPresenter = temporary
      _ = try DecoupledView.present(in: temporary, bundle: bundle)
    }
    #expect(weakPresenter == nil, "the view holds its delegate weakly")
  }

  @Test("NIB-060: a self-loading view loads its XIB from init(frame:) and init(coder:), nested without recursion")
  func selfLoading() throws {
    let inCode = ProfileBadgeView(frame: Rect(x: 0, y: 0, width: 300, height: 90))
    #expect(inCode.initializer == "init(frame:)")
    let base = try #require(inCode.base)
    #expect(base.superview === inCode)
    #expect(base.frame == inCode.bounds)
    #expect(base.autoresizingMask == [.flexibleWidth, .flexibleHeight])
    #expect(inCode.nameLabel?.text == "Badge")
    inCode.frame.size = Size(width: 400, height: 120)
    #expect(base.frame.size == Size(width: 400, height: 120), "the base view follows through its autoresizing mask")

    let host = try #require(try bundle.loadNibNamed("BadgeHost", owner: nil).first as? View)
    let nested = try #require(host.subviews.first as? ProfileBadgeView)
    #expect(nested.initializer == "init(coder:)")
    #expect(nested.frame == Rect(x: 20, y: 20, width: 280, height: 80))
    #expect(nested.base?.frame == nested.bounds)
    #expect(nested.nameLabel?.text == "Badge")
  }

  @Test("NIB-061: a code-built and a XIB-built card: different initialisers, one setup each, equivalent views")
  func codeVersusXIB() throws {
    let book = Book(title: "Dune", coverName: "dune-cover")
    let coded = BookCardView(frame: Rect(x: 0, y: 0, width: 120, height: 200))
    let loaded = try BookCardView.make(bundle: bundle)
    #expect(coded.initializer == "init(frame:)")
    #expect(loaded.initializer == "init(coder:)")
    #expect(coded.setupCount == 1)
    #expect(loaded.setupCount == 1, "setup runs once, in awakeFromNib, after the outlets are connected")
    coded.book = book
    loaded.book = book
    coded.layoutIfNeeded()
    loaded.layoutIfNeeded()
    #expect(coded.titleLabel?.text == loaded.titleLabel?.text)
    #expect(coded.coverImageView?.image == loaded.coverImageView?.image)
    #expect(coded.coverImageView?.frame == loaded.coverImageView?.frame)
    #expect(coded.titleLabel?.frame == loaded.titleLabel?.frame)
    #expect(coded.titleLabel?.numberOfLines == loaded.titleLabel?.numberOfLines)
    #expect(coded.layer.cornerRadius == loaded.layer.cornerRadius)
  }

  @Test("NIB-062: table cells from one cached Nib, reused through the table, and from a registered nib")
  func tableCells() throws {
    let nib = Nib(contentsOf: try bundle.url(forNibNamed: "TableViewCell"))
    let source = ScenarioDataSource(sections: [["a", "b", "c"], ["d", "e"]], nib: nib)
    let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    var cells: [ScenarioTableViewCell] = []
    for section in source.sections.indices {
      for row in source.sections[section].indices {
        cells.append(try source.cell(section: section, row: row, in: table))
      }
    }
    #expect(cells.map { $0.lb2?.text } == ["a", "b", "c", "d", "e"])
    #expect(cells.map { $0.lb1?.text } == ["Section 0", "Section 0", "Section 0", "Section 1", "Section 1"])
    #expect(source.instantiated == 5)
    #expect(Set(cells.map { ObjectIdentifier($0) }).count == 5, "each instantiation is a new graph")
    let button = try #require(cells[0].contentView.subviews.compactMap { $0 as? Button }.first)
    button.sendActions(for: .touchUpInside)
    #expect(cells[0].taps == 1)
    table.enqueueReusableCell(cells[4])
    let reused = try source.cell(section: 0, row: 0, in: table)
    #expect(reused === cells[4])
    #expect(reused.reuseCount == 1)
    #expect(source.instantiated == 5, "a reused cell is not instantiated again")

    table.register(nib, forCellReuseIdentifier: "Registered")
    let registered = try table.dequeueReusableCell(withIdentifier: "Registered", for: IndexPath(row: 0, section: 0))
    #expect(registered is ScenarioTableViewCell)
    #expect(table.instantiatedCellCount == 1)
  }
}

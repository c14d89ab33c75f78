import ArchiveCoding
import ArchiveComparison
import Foundation
import InterfaceObjects
import KeyedArchive
import NibLoading
import PropertyList

/// A small library model for the demo: books on shelves, each book pointing back at its shelf (a cycle).
final class DemoShelf: Coding {
  var name: String
  var books: [DemoBook] = []
  init(name: String) { self.name = name }
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeString(forKey: "name") ?? ""
    books = try coder.decodeArrayOfObjects(ofClass: DemoBook.self, forKey: "books") ?? []
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encodeObject(books, forKey: "books")
  }
}

final class DemoBook: Coding {
  var title: String
  var year: Int
  weak var shelf: DemoShelf?
  init(title: String, year: Int) {
    self.title = title
    self.year = year
  }
  required init(coder: any DecodingCoder) throws {
    title = try coder.decodeString(forKey: "title") ?? ""
    year = try coder.decodeInt(forKey: "year")
    // The back pointer closes a cycle: it is set in the link phase, after the shelf exists.
    try coder.decodeReference(forKey: "shelf", into: \DemoBook.shelf)
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(title, forKey: "title")
    coder.encode(year, forKey: "year")
    coder.encodeConditionalObject(shelf, forKey: "shelf")
  }
}

extension Context {
  /// `keyed demo` (CLI-050).
  mutating func demo() throws {
    let started = Date()
    ClassRegistry.shared.register(DemoShelf.self, as: "DemoShelf")
    ClassRegistry.shared.register(DemoBook.self, as: "DemoBook")
    ScenarioResources.register()
    let bundle = try ScenarioResources.bundle()
    output += "KeyedArchive demo\n=================\n\n"
    try archiveSection()
    try nibSections(bundle)
    output += try MailTour.run(in: bundle)
    let picture = try pictureSection(bundle)
    let elapsed = Date().timeIntervalSince(started)
    output += "\nDone in \(String(format: "%.2f", elapsed)) s.\n\n"
    output += "Next, try:\n"
    output += "  keyed instantiate --trace \(bundle.resourceURL.path)/ConnectedActionsView.xib\n"
    output += "  keyed instantiate --stats --json \(bundle.resourceURL.path)/TableViewCell.xib\n"
    output += "  keyed render \(bundle.resourceURL.path)/ConnectedActionsView.xib -o picture.html\n"
    output += "  keyed dump --json ARCHIVE     keyed convert ARCHIVE -o OUT --format xml     keyed validate FILE\n"
    output += "  keyed diff OLD.xib NEW.xib    (as git's difftool: git difftool -x 'keyed diff' -- FILE.xib)\n"
    output += "  keyed help\n"
    output += "\nThe picture of the table cell XIB is at \(picture)\n"
  }

  /// Draws one scenario XIB with `keyed render` and says where the picture is (CLI-050, CLI-090).
  /// - Returns: the picture's path.
  private mutating func pictureSection(_ bundle: NibBundle) throws -> String {
    output += "7. A picture of a XIB\n"
    let xib = bundle.resourceURL.appendingPathComponent("TableViewCell.xib").path
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-demo")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let picture = folder.appendingPathComponent("TableViewCell.svg").path
    var drawing = Context(standardInput: { Data() })
    try drawing.render(xib, to: picture, scene: nil)
    output += "   'keyed render' drew the table cell XIB (its labels, its button, File's Owner beside it):\n"
    output += "   Picture written to \(picture)\n"
    output += "   Open it in a browser; with -o OUT.html the page lists the objects and connections too.\n"
    return picture
  }

  private mutating func archiveSection() throws {
    output += "1. Archive a model graph with a cycle to a file and back\n"
    output += "   A shelf holds books; each book points back at its shelf.\n"
    let shelf = DemoShelf(name: "Favourites")
    for (title, year) in [("The Swift Programming Language", 2014), ("Structure and Interpretation", 1985)] {
      let book = DemoBook(title: title, year: year)
      book.shelf = shelf
      shelf.books.append(book)
    }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-demo-\(UUID().uuidString).archive")
    defer { try? FileManager.default.removeItem(at: url) }
    try KeyedArchiver.archive(shelf, to: url)
    let data = try Data(contentsOf: url)
    output += "   Written atomically: \(data.count) bytes, binary NSKeyedArchiver format.\n"
    guard let back = try KeyedUnarchiver.unarchivedRootObject(from: data) as? DemoShelf else {
      throw ArchiveError(.other, "the demo archive did not decode to a shelf")
    }
    output += "   Read back (the link phase sets the back pointers once every object exists):\n"
    for book in back.books {
      output +=
        "   - \(book.title) (\(book.year)): shelf \"\(book.shelf?.name ?? "nil")\", same object: \(book.shelf === back)\n"
    }
    let json = try ArchiveJSON.render(try KeyedArchiveGraph(data: data), pretty: false)
    output += "   As 'keyed dump --json' shows it: \(json)\n\n"
  }

  private mutating func nibSections(_ bundle: NibBundle) throws {
    output += "2. Five ways to load a view from a XIB\n"
    let plain = try bundle.loadNibNamed("PlainView", owner: nil)
    if let view = plain.last as? View {
      view.frame = Rect(x: 40, y: 100, width: 240, height: 120)
      output +=
        "   Plain: no owner; took the top-level \(type(of: view)) (\(plain.count) object, placeholders excluded), set its frame to \(view.frame).\n"
    }
    let controller = ScenarioViewController()
    _ = try bundle.loadNibNamed("ReferencedView", owner: controller)
    if let view = controller.referencedView {
      controller.view.addSubview(view)
      output +=
        "   Referenced: the controller is File's Owner; its referencedView outlet was set, and the view added.\n"
    }
    var events: [NibEvent] = []
    _ = try bundle.loadNibNamed(
      "ConnectedActionsView", owner: controller, options: NibOptions(trace: { events.append($0) }))
    if let view = controller.connectedActionsView, let button = view.subviews.first as? Button {
      controller.view.addSubview(view)
      output += "   Connected actions: the pipeline ran in this order:\n"
      for event in events { output += "     \(event)\n" }
      button.sendActions(for: .touchUpInside)
      output +=
        "     tap → \(controller.receivedActions.last ?? "nothing"); the view is now \(view.superview == nil ? "removed" : "still shown")\n"
    }
    let subclassed = try SubclassedView.present(in: controller, bundle: bundle)
    output +=
      "   Encapsulated: SubclassedView.present(in:) loaded its XIB through a private owner; shown: \(subclassed.superview != nil)"
    (subclassed.subviews.first as? Button)?.sendActions(for: .touchUpInside)
    output += ", after its own dismiss: action: \(subclassed.superview != nil)\n"
    let presenter = DemoPresenter()
    let decoupled = try DecoupledView.present(in: presenter, bundle: bundle)
    for button in decoupled.subviews.compactMap({ $0 as? Button }) { button.sendActions(for: .touchUpInside) }
    output +=
      "   Decoupled: the view's actions reached its weak delegate: \(presenter.calls.joined(separator: ", "))\n\n"

    output += "3. A view that loads its own XIB\n"
    let badge = ProfileBadgeView(frame: Rect(x: 0, y: 0, width: 300, height: 90))
    output +=
      "   In code: \(badge.initializer) loaded ProfileBadgeView.xib; base view frame \(badge.base?.frame ?? .zero), label \"\(badge.nameLabel?.text ?? "")\"\n"
    if let host = try bundle.loadNibNamed("BadgeHost", owner: nil).first as? View,
      let nested = host.subviews.first as? ProfileBadgeView
    {
      output +=
        "   Inside another XIB: \(nested.initializer) loaded it too (no recursion); base frame \(nested.base?.frame ?? .zero)\n\n"
    }

    output += "4. Code-built versus XIB-built views\n"
    let coded = BookCardView(frame: Rect(x: 0, y: 0, width: 120, height: 200))
    let loaded = try BookCardView.make(bundle: bundle)
    for card in [coded, loaded] {
      card.book = Book(title: "Dune", coverName: "dune")
      card.layoutIfNeeded()
      output +=
        "   \(card.initializer): setup ran \(card.setupCount)×, cover \(card.coverImageView?.frame ?? .zero), title \(card.titleLabel?.frame ?? .zero)\n"
    }
    output += "\n5. Table cells from a cached Nib\n"
    let nibURL = try bundle.url(forNibNamed: "TableViewCell")
    let nib = Nib(contentsOf: nibURL)
    let source = ScenarioDataSource(sections: [["Apples", "Pears"], ["Carrots"]], nib: nib)
    let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    for section in source.sections.indices {
      for row in source.sections[section].indices {
        let cell = try source.cell(section: section, row: row, in: table)
        output += "   [\(section), \(row)] \(cell.lb1?.text ?? "") — \(cell.lb2?.text ?? "")\n"
        table.enqueueReusableCell(cell)
      }
    }
    output += "   Cells instantiated: \(source.instantiated) (the rest were reused).\n"
    let count = 500
    let cachedStart = Date()
    for _ in 0..<count { _ = try nib.instantiate(owner: nil) }
    let cached = Date().timeIntervalSince(cachedStart)
    let fileStart = Date()
    for _ in 0..<count { _ = try bundle.loadNibNamed("TableViewCell", owner: nil) }
    let fromFile = Date().timeIntervalSince(fileStart)
    output += String(
      format: "   %d cells: cached Nib %.1f ms, loading the file each time %.1f ms (%.1f× faster cached).\n", count,
      cached * 1000, fromFile * 1000, fromFile / max(cached, 1e-9))
  }
}

/// The demo's presenter for the decoupled view.
final class DemoPresenter: ViewController, DecoupledViewDelegate {
  var calls: [String] = []
  init() {
    super.init()
    view = View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
  }
  required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  func decoupledViewTouchedUp(_ view: DecoupledView) { calls.append("decoupledViewTouchedUp") }
  func decoupledViewDidDismiss(_ view: DecoupledView) { calls.append("decoupledViewDidDismiss") }
}

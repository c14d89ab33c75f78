import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

// The examples of `Sources/InterfaceObjects/InterfaceObjects.docc/TableCellsFromACachedNib.md` and of the
// NibLoading landing page.

final class BookCell: TableViewCell {
  @Outlet var titleLabel: Label?
  @Outlet var authorLabel: Label?
  private(set) var awakened = 0

  override func awakeFromNib() {
    super.awakeFromNib()
    awakened += 1
  }
}

/// A data source that keeps one parsed nib and makes or reuses a cell per row.
final class BookList {
  let books: [(title: String, author: String)]
  let nib: Nib

  init(books: [(title: String, author: String)]) throws {
    self.books = books
    nib = try Nib(nibName: "BookCell", bundle: .module)  // read and parsed once, on first use
  }

  func cell(for row: Int, in tableView: TableView) throws -> BookCell? {
    let reused = try tableView.dequeueReusableCell(withIdentifier: "Book") as? BookCell
    guard let cell = try reused ?? nib.instantiate(owner: nil).first as? BookCell else { return nil }
    cell.titleLabel?.text = books[row].title
    cell.authorLabel?.text = books[row].author
    return cell
  }
}

@Suite("Documentation: table cells from a cached nib", .serialized)
struct TableCellsExamples {
  init() {
    InterfaceCatalog.register()
    ClassRegistry.shared.register(BookCell.self, as: "BookCell")
  }

  @Test("DOC-034: a registered nib gives a fresh cell, then the reused one, prepared for reuse")
  func registerAndDequeue() throws {
    let tableView = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 480))

    tableView.register(try Nib(nibName: "BookCell", bundle: .module), forCellReuseIdentifier: "Book")
    let cell =
      try tableView.dequeueReusableCell(withIdentifier: "Book", for: IndexPath(row: 0, section: 0)) as? BookCell
    cell?.titleLabel?.text = "Emma"

    #expect(cell?.titleLabel?.text == "Emma")
    #expect(cell?.awakened == 1)
    let first = try #require(cell)
    tableView.enqueueReusableCell(first)  // scrolled off screen
    let again = try tableView.dequeueReusableCell(withIdentifier: "Book", for: IndexPath(row: 1, section: 0))
    #expect(again === first)
    #expect(first.reuseCount == 1)
    #expect(tableView.instantiatedCellCount == 1, "one cell made from the nib, then reused")
  }

  @Test("DOC-034: a data source that keeps one nib fills each row's cell")
  func dataSource() throws {
    let tableView = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    let list = try BookList(books: [("Emma", "Jane Austen"), ("Ulysses", "James Joyce")])

    let cells = try (0..<2).map { try list.cell(for: $0, in: tableView) }

    #expect(cells.map { $0?.titleLabel?.text } == ["Emma", "Ulysses"])
    #expect(cells.map { $0?.authorLabel?.text } == ["Jane Austen", "James Joyce"])
    #expect(cells[0] !== cells[1])
    #expect(list.nib.isLoaded, "the nib keeps its parsed table")
  }

  @Test("DOC-034: the landing page's nib instantiates its top-level objects")
  func landingPageNib() throws {
    let nib = try Nib(nibName: "BookCell", bundle: .module)
    let objects = try nib.instantiate(owner: nil)

    #expect(objects.count == 1 && objects.first is BookCell)
    nib.purge()  // what a memory warning does: the next use reads the file again
    #expect(!nib.isLoaded)
    #expect(try nib.instantiate(owner: nil).first is BookCell)
  }
}

import ArchiveCoding
import Foundation
import KeyedArchive

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
  mutating func demo(_ arguments: [String]) throws {
    _ = try parse(arguments, flags: [], valued: [])
    ClassRegistry.shared.register(DemoShelf.self, as: "DemoShelf")
    ClassRegistry.shared.register(DemoBook.self, as: "DemoBook")
    output += "KeyedArchive demo\n=================\n\n"
    output += "1. A model graph with a cycle: a shelf holds books, each book points back at its shelf.\n"
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
    output += "   Archived atomically to \(url.path) (\(data.count) bytes, binary NSKeyedArchiver format).\n\n"
    output += "2. Read back (link phase sets the back pointers after every object exists):\n"
    guard let back = try KeyedUnarchiver.unarchivedRootObject(from: data) as? DemoShelf else {
      throw ArchiveError(.other, "the demo archive did not decode to a shelf")
    }
    for book in back.books {
      output += "   - \(book.title) (\(book.year)), shelf: \(book.shelf?.name ?? "nil"), same shelf object: \(book.shelf === back)\n"
    }
    output += "\n3. The archive as canonical JSON (what 'keyed dump --json' prints):\n"
    let plist = try PropertyListReader.read(data)
    output += try ArchiveJSON.render(plist, pretty: true).split(separator: "\n").map { "   " + $0 }.joined(separator: "\n")
    output += "\n\nNext: 'keyed dump --json FILE', 'keyed convert FILE -o OUT --format xml', 'keyed validate FILE'.\n"
  }
}

import PropertyList

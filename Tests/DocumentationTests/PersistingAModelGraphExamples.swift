import ArchiveCoding
import ArchiveTesting
import Foundation
import KeyedArchive
import Testing

// The examples of `Sources/KeyedArchive/KeyedArchive.docc/PersistingAModelGraph.md` and of the KeyedArchive and
// ArchiveCoding landing pages, compiled and run.

final class Notebook: SecureCoding {
  var title: String
  var pages: [Page]

  init(title: String, pages: [Page] = []) {
    self.title = title
    self.pages = pages
  }

  required init(coder: any DecodingCoder) throws {
    title = try coder.decodeString(forKey: "title") ?? ""
    pages = try coder.decodeArrayOfObjects(ofClass: Page.self, forKey: "pages") ?? []
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(title, forKey: "title")
    coder.encodeObject(pages, forKey: "pages")
  }
}

final class Page: SecureCoding {
  var text: String
  weak var notebook: Notebook?  // points back: a cycle

  init(text: String) {
    self.text = text
  }

  required init(coder: any DecodingCoder) throws {
    text = try coder.decodeString(forKey: "text") ?? ""
    try coder.decodeReference(forKey: "notebook", into: \Page.notebook)  // set in the link phase
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(text, forKey: "text")
    coder.encodeConditionalObject(notebook, forKey: "notebook")
  }
}

func registerNotebookModel() {
  ClassRegistry.shared.register(Notebook.self, as: "Notebook")
  ClassRegistry.shared.register(Page.self, as: "Page")
}

/// The notebook of the article's example, its model registered: "Ideas", with two pages pointing back at it.
func ideasNotebook() -> Notebook {
  registerNotebookModel()
  let notebook = Notebook(title: "Ideas")
  for text in ["Archive the model", "Load the views"] {
    let page = Page(text: text)
    page.notebook = notebook
    notebook.pages.append(page)
  }
  return notebook
}

final class Reminder: SecureCoding {
  var text: String
  init(text: String) { self.text = text }
  required init(coder: any DecodingCoder) throws {
    text = try coder.decodeString(forKey: "text") ?? ""
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(text, forKey: "text")
  }
}

/// A bookmark as version 2 of an app archives it: with tags and a version number.
final class Bookmark: SecureCoding {
  static let currentVersion = 2
  var url: URL
  var tags: [String]

  init(url: URL, tags: [String] = []) {
    self.url = url
    self.tags = tags
  }

  required init(coder: any DecodingCoder) throws {
    guard let url = try coder.decodeObject(of: URL.self, forKey: "url") else {
      throw ArchiveError(.valueNotFound, "a bookmark without a URL")
    }
    self.url = url
    let version = try coder.decodeInteger(forKey: "version")  // 0 when version 1 wrote none
    tags = version >= 2 ? try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "tags") ?? [] : []
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(Self.currentVersion, forKey: "version")
    coder.encodeObject(url, forKey: "url")
    coder.encodeObject(tags, forKey: "tags")
  }
}

/// A bookmark as version 1 of the app archived it, under the same name: no tags, no version.
final class FirstBookmark: SecureCoding {
  var url: URL
  init(url: URL) { self.url = url }
  required init(coder: any DecodingCoder) throws {
    url = try coder.decodeObject(of: URL.self, forKey: "url") ?? URL(fileURLWithPath: "/")
  }
  func encode(with coder: any EncodingCoder) {
    coder.encodeObject(url, forKey: "url")
  }
}

/// Chooses the class of a name the archive uses and this process does not register.
final class SheetMigration: KeyedUnarchiverDelegate {
  func unarchiver(
    _ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classNames: [String]
  ) -> (any Coding.Type)? {
    name == "Sheet" ? Page.self : nil
  }
}

struct Library: Codable {
  var shelves: [String: [Book]]
  var updated: Date
}

struct Book: Codable {
  var title: String
  var isbn: UUID?
  var link: URL?
}

final class Employee: Codable {
  var name: String
  var reports: [Employee] = []
  @ArchiveReference var manager: Employee?  // a back reference: set in the link phase

  init(name: String) { self.name = name }
}

@Suite("Documentation: persisting a model graph", .serialized)
struct PersistingAModelGraphExamples {
  @Test("DOC-030: a notebook whose pages point back at it is archived to a file and read back whole")
  func notebookWithACycle() throws {
    registerNotebookModel()
    let directory = try makeDocumentationDirectory("notebook")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("Ideas.notebook")

    let notebook = Notebook(title: "Ideas")
    for text in ["Archive the model", "Load the views"] {
      let page = Page(text: text)
      page.notebook = notebook
      notebook.pages.append(page)
    }
    try KeyedArchiver.archive(notebook, to: url)  // binary NSKeyedArchiver format, written atomically
    let back = try KeyedUnarchiver.unarchivedObject(ofClass: Notebook.self, from: Data(contentsOf: url))

    #expect(back?.title == "Ideas")
    #expect(back?.pages.map(\.text) == ["Archive the model", "Load the views"])
    #expect(back?.pages.allSatisfy { $0.notebook === back } == true, "every page points back at the one notebook")
    #expect(!FileManager.default.fileExists(atPath: url.path + ".tmp"))
  }

  @Test("DOC-030: the landing pages' examples archive and read back")
  func landingPageExamples() throws {
    ClassRegistry.shared.register(Reminder.self, as: "Reminder")
    let directory = try makeDocumentationDirectory("reminder")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("reminder.archive")
    registerNotebookModel()
    let notebook = Notebook(title: "Landing", pages: [Page(text: "one")])
    try KeyedArchiver.archive(notebook, to: url)
    let back = try KeyedUnarchiver.unarchivedObject(ofClass: Notebook.self, from: Data(contentsOf: url))
    #expect(back?.pages.first?.text == "one")
    let reminder = try KeyedUnarchiver.unarchivedObject(
      ofClass: Reminder.self, from: try KeyedArchiver.archivedData(withRootObject: Reminder(text: "call")))
    #expect(reminder?.text == "call")
  }

  @Test("DOC-030: secure coding refuses a root of another class than the one allowed")
  func secureCodingRefuses() throws {
    registerNotebookModel()
    let notebook = Notebook(title: "Ideas", pages: [Page(text: "one")])
    let data = try KeyedArchiver.archivedData(withRootObject: notebook, requiringSecureCoding: true)
    let page = try? KeyedUnarchiver.unarchivedObject(ofClass: Page.self, from: data)  // nil: the root is a Notebook
    let anything = try KeyedUnarchiver.unarchivedRootObject(from: data) as? Notebook  // your own, trusted file

    #expect(page == nil)
    #expect(anything?.pages.count == 1)
    do {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: Page.self, from: data)
      Issue.record("a Notebook root was decoded where only Page is allowed")
    } catch let error as ArchiveError {
      #expect(error.code == .classNotAllowed, "\(error)")
    }
  }

  @Test("DOC-030: a file written atomically is whole or absent")
  func atomicFile() throws {
    let directory = try makeDocumentationDirectory("atomic")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("settings.plist")
    let data = Data("first".utf8)
    let newData = Data("second".utf8)

    try AtomicFile.write(data, to: url)  // temporary file, fsync, rename, directory fsync
    try AtomicFile.write(newData, to: url)  // readers see the old bytes or the new ones, never a mix

    #expect(try Data(contentsOf: url) == newData)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["settings.plist"])
  }

  @Test("DOC-030: version 2 reads what version 1 wrote, and an old name reads as the new class three ways")
  func versionsAndRenamedClasses() throws {
    registerNotebookModel()
    ClassRegistry.shared.register(Bookmark.self, as: "Bookmark")
    // What version 1 wrote: a "Bookmark" with a URL only.
    let archiver = KeyedArchiver(requiringSecureCoding: true)
    archiver.setClassName("Bookmark", for: FirstBookmark.self)
    let swift = try #require(URL(string: "https://swift.org"))
    archiver.encodeObject(FirstBookmark(url: swift), forKey: "root")
    let oldData = try archiver.finishEncoding()
    let old = try KeyedUnarchiver.unarchivedObject(ofClass: Bookmark.self, from: oldData)
    #expect(old?.url.absoluteString == "https://swift.org")
    #expect(old?.tags == [])
    let current = try KeyedUnarchiver.unarchivedObject(
      ofClass: Bookmark.self,
      from: try KeyedArchiver.archivedData(
        withRootObject: Bookmark(url: swift, tags: ["docs"]),
        requiringSecureCoding: true))
    #expect(current?.tags == ["docs"])

    // A page archived by a version that called the class "Sheet".
    let writer = KeyedArchiver(requiringSecureCoding: false)
    writer.setClassName("Sheet", for: Page.self)  // keeps writing the old name for old readers
    writer.encodeObject(Page(text: "old"), forKey: "root")
    let data = try writer.finishEncoding()

    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.setClass(Page.self, forClassName: "Sheet")
    let page = try unarchiver.decodeObject(forKey: "root") as? Page
    #expect(page?.text == "old")

    let reader = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    let migration = SheetMigration()
    reader.delegate = migration  // held weakly, as in Foundation
    #expect((try reader.decodeObject(forKey: "root") as? Page)?.text == "old")

    let registry = ClassRegistry()
    registry.register(Page.self, as: "Page", aliases: ["Sheet"])
    #expect((try KeyedUnarchiver.unarchivedRootObject(from: data, registry: registry) as? Page)?.text == "old")
    let unknown = #expect(throws: ArchiveError.self, "without any of the three, the old name is unknown") {
      try KeyedUnarchiver.unarchivedRootObject(from: data, registry: ClassRegistry())
    }
    #expect(unknown?.code == .classNotFound)
  }

  @Test("DOC-030: a Codable model goes in and out as it is, and Foundation reads the archive")
  func codableModel() throws {
    let directory = try makeDocumentationDirectory("library")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("library.archive")
    let library = Library(
      shelves: ["fiction": [Book(title: "Emma", isbn: UUID(), link: URL(string: "https://example.com/emma"))]],
      updated: Date(timeIntervalSinceReferenceDate: 700_000_000))

    let data = try KeyedArchiveEncoder().encode(library)
    try AtomicFile.write(data, to: url)
    let back = try KeyedArchiveDecoder().decode(Library.self, from: Data(contentsOf: url))

    #expect(back.shelves["fiction"]?.first?.title == "Emma")
    #expect(back.updated == library.updated)
    #expect(back.shelves["fiction"]?.first?.isbn == library.shelves["fiction"]?.first?.isbn)
    // Foundation's unarchiver reads the same bytes: keyed containers as dictionaries.
    let foundation = try FoundationOracle.unarchive(data)
    let shelves = (foundation as? NSDictionary)?["shelves"] as? NSDictionary
    #expect((((shelves?["fiction"] as? NSArray)?.firstObject as? NSDictionary)?["title"] as? String) == "Emma")
  }

  @Test("DOC-030: Codable classes keep their identity, and a back reference closes a cycle")
  func codableCycle() throws {
    let boss = Employee(name: "Ada")
    let report = Employee(name: "Grace")
    report.manager = boss
    boss.reports = [report]

    let back = try KeyedArchiveDecoder().decode(Employee.self, from: try KeyedArchiveEncoder().encode(boss))
    #expect(back.reports.first?.name == "Grace")
    #expect(back.reports.first?.manager === back)
  }
}

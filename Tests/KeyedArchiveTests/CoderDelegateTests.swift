import ArchiveCoding
import Foundation
import Testing

@testable import KeyedArchive

/// The Foundation class an old version of an app archived (its archived name is `NSStringFromClass(LegacyBook.self)`,
/// as corelibs writes it).
final class LegacyBook: NSObject, NSCoding {
  let title: String
  let pages: Int
  init(title: String, pages: Int) {
    self.title = title
    self.pages = pages
  }
  required init?(coder: NSCoder) {
    title = coder.decodeObject(forKey: "title") as? String ?? ""
    pages = coder.decodeInteger(forKey: "pages")
  }
  func encode(with coder: NSCoder) {
    coder.encode(title, forKey: "title")
    coder.encode(pages, forKey: "pages")
  }
}

/// The class that reads the old archives now: registered under no old name.
final class RenamedBook: Coding {
  var title: String
  var pages: Int
  var shelf: [RenamedBook] = []
  init(title: String, pages: Int) {
    self.title = title
    self.pages = pages
  }
  required init(coder: any DecodingCoder) throws {
    title = try coder.decodeObject(forKey: "title") as? String ?? ""
    pages = try coder.decodeInteger(forKey: "pages")
    shelf = try coder.decodeArrayOfObjects(ofClass: RenamedBook.self, forKey: "shelf") ?? []
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(title, forKey: "title")
    coder.encode(pages, forKey: "pages")
    if !shelf.isEmpty { coder.encode(shelf, forKey: "shelf") }
  }
}

/// Records every callback, and substitutes as told.
final class RecordingArchiverDelegate: KeyedArchiverDelegate {
  var events: [String] = []
  var substitute: (AnyObject) -> Any? = { $0 }
  func archiver(_ archiver: KeyedArchiver, willEncode object: AnyObject) -> Any? {
    events.append("willEncode \(Self.name(object))")
    return substitute(object)
  }
  func archiver(_ archiver: KeyedArchiver, didEncode object: AnyObject) {
    events.append("didEncode \(Self.name(object))")
  }
  func archiver(_ archiver: KeyedArchiver, willReplace object: AnyObject, with newObject: Any?) {
    events.append("willReplace \(Self.name(object)) with \(newObject.map(Self.name) ?? "nil")")
  }
  func archiverWillFinish(_ archiver: KeyedArchiver) { events.append("willFinish") }
  func archiverDidFinish(_ archiver: KeyedArchiver) { events.append("didFinish") }
  static func name(_ value: Any) -> String {
    if let book = value as? RenamedBook { return book.title }
    return "\(value)"
  }
}

final class RecordingUnarchiverDelegate: KeyedUnarchiverDelegate {
  var events: [String] = []
  var classFor: [String: any Coding.Type] = [:]
  var substitute: (AnyObject) -> AnyObject? = { $0 }
  func unarchiver(
    _ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classNames: [String]
  ) -> (any Coding.Type)? {
    events.append("cannotDecode \(name) \(classNames)")
    return classFor[name]
  }
  func unarchiver(_ unarchiver: KeyedUnarchiver, didDecode object: AnyObject) -> AnyObject? {
    events.append("didDecode \(RecordingArchiverDelegate.name(object))")
    return substitute(object)
  }
  func unarchiver(_ unarchiver: KeyedUnarchiver, willReplace object: AnyObject, with newObject: AnyObject?) {
    events.append(
      "willReplace \(RecordingArchiverDelegate.name(object)) with \(newObject.map(RecordingArchiverDelegate.name) ?? "nil")"
    )
  }
  func unarchiverWillFinish(_ unarchiver: KeyedUnarchiver) { events.append("willFinish") }
  func unarchiverDidFinish(_ unarchiver: KeyedUnarchiver) { events.append("didFinish") }
}

/// Replaces itself when archived (`replacementObject(for:)`) and when decoded (`awakeAfter(using:)`).
final class SelfReplacingBook: Coding {
  let title: String
  init(title: String) { self.title = title }
  required init(coder: any DecodingCoder) throws { title = try coder.decodeString(forKey: "title") ?? "" }
  func encode(with coder: any EncodingCoder) { coder.encode(title, forKey: "title") }
  func replacementObject(for encoder: any EncodingCoder) -> AnyObject? { RenamedBook(title: "stand-in", pages: 1) }
}

@Suite("Coder delegates", .serialized)
struct CoderDelegateTests {
  init() {
    ClassRegistry.shared.register(RenamedBook.self, as: "RenamedBook")
  }

  private func shelf() -> RenamedBook {
    let root = RenamedBook(title: "root", pages: 0)
    root.shelf = [RenamedBook(title: "a", pages: 1), RenamedBook(title: "b", pages: 2)]
    return root
  }

  @Test("COD-103: archiver delegate callbacks: willEncode when met, didEncode in writing order, then finish")
  func archiverDelegateOrder() throws {
    let archiver = KeyedArchiver()
    let delegate = RecordingArchiverDelegate()
    archiver.delegate = delegate
    archiver.encodeObject(shelf(), forKey: "root")
    _ = try archiver.finishEncoding()
    #expect(
      delegate.events == [
        "willEncode root", "willEncode a", "willEncode b", "didEncode root", "didEncode a", "didEncode b",
        "willFinish", "didFinish",
      ])
  }

  @Test("COD-103: an archiver delegate's replacement is written, and willReplace names both objects")
  func archiverDelegateReplaces() throws {
    let archiver = KeyedArchiver()
    let delegate = RecordingArchiverDelegate()
    delegate.substitute = { object in
      (object as? RenamedBook)?.title == "a" ? RenamedBook(title: "A2", pages: 9) : object
    }
    archiver.delegate = delegate
    archiver.encodeObject(shelf(), forKey: "root")
    let data = try archiver.finishEncoding()
    #expect(delegate.events.contains("willReplace a with A2"))
    let back = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? RenamedBook)
    #expect(back.shelf.map(\.title) == ["A2", "b"])
  }

  @Test("COD-103: an archiver delegate may write a value or nil in place of an object")
  func archiverDelegateWritesValueOrNil() throws {
    let archiver = KeyedArchiver()
    let delegate = RecordingArchiverDelegate()
    delegate.substitute = { object in
      switch (object as? RenamedBook)?.title {
      case "a": "just a string"
      case "b": nil
      default: object
      }
    }
    archiver.delegate = delegate
    let root = shelf()
    archiver.encodeObject(root.shelf[0], forKey: "first")
    archiver.encodeObject(root.shelf[1], forKey: "second")
    let data = try archiver.finishEncoding()
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    #expect(try unarchiver.decodeObject(forKey: "first") as? String == "just a string")
    #expect(try unarchiver.decodeObject(forKey: "second") == nil)
    #expect(unarchiver.containsValue(forKey: "second"))
  }

  @Test("COD-103: replacementObject(for:) is asked first; the delegate sees its result")
  func replacementObjectComesBeforeDelegate() throws {
    let archiver = KeyedArchiver()
    let delegate = RecordingArchiverDelegate()
    archiver.delegate = delegate
    archiver.encodeObject(SelfReplacingBook(title: "original"), forKey: "root")
    _ = try archiver.finishEncoding()
    #expect(delegate.events.first == "willEncode stand-in")
    #expect(delegate.events.dropFirst().first?.hasPrefix("willReplace") == true)
    #expect(delegate.events.dropFirst().first?.hasSuffix("with stand-in") == true)
  }

  @Test("COD-104: unarchiver delegate callbacks come in Apple's order, inner objects first")
  func unarchiverDelegateOrder() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: shelf())
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    let delegate = RecordingUnarchiverDelegate()
    unarchiver.delegate = delegate
    _ = try unarchiver.decodeObject(forKey: "root")
    try unarchiver.finishDecoding()
    #expect(delegate.events == ["didDecode a", "didDecode b", "didDecode root", "willFinish", "didFinish"])
  }

  @Test("COD-104: an unarchiver delegate's didDecode replacement is what the caller gets")
  func unarchiverDelegateReplaces() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: RenamedBook(title: "old", pages: 1))
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    let delegate = RecordingUnarchiverDelegate()
    delegate.substitute = { _ in RenamedBook(title: "new", pages: 2) }
    unarchiver.delegate = delegate
    let back = try #require(try unarchiver.decodeObject(forKey: "root") as? RenamedBook)
    #expect(back.title == "new")
    #expect(delegate.events == ["didDecode old", "willReplace old with new"])
  }

  @Test("COD-104: an old class name NSKeyedArchiver wrote is read as a new class through the delegate")
  func classRenameThroughDelegate() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: LegacyBook(title: "Dune", pages: 412), requiringSecureCoding: false)
    let oldName = NSStringFromClass(LegacyBook.self)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    let delegate = RecordingUnarchiverDelegate()
    delegate.classFor[oldName] = RenamedBook.self
    unarchiver.delegate = delegate
    let book = try #require(try unarchiver.decodeObject(forKey: "root") as? RenamedBook)
    #expect(book.title == "Dune" && book.pages == 412)
    #expect(delegate.events.first == "cannotDecode \(oldName) [\"\(oldName)\", \"NSObject\"]")
  }

  @Test("COD-104: an old class name NSKeyedArchiver wrote is read as a new class through setClass(_:forClassName:)")
  func classRenameThroughSetClass() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: LegacyBook(title: "Emma", pages: 300), requiringSecureCoding: false)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.setClass(RenamedBook.self, forClassName: NSStringFromClass(LegacyBook.self))
    let book = try #require(try unarchiver.decodeObject(forKey: "root") as? RenamedBook)
    #expect(book.title == "Emma" && book.pages == 300)
  }

  @Test("COD-104: a delegate that gives no class leaves the unknown class an error naming it")
  func delegateWithoutClassLeavesError() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: LegacyBook(title: "X", pages: 1), requiringSecureCoding: false)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    let delegate = RecordingUnarchiverDelegate()
    unarchiver.delegate = delegate
    let error = try #require(throws: ArchiveError.self) { try unarchiver.decodeObject(forKey: "root") }
    #expect(error.code == .classNotFound)
    #expect(error.location.className == NSStringFromClass(LegacyBook.self))
  }

  @Test("COD-104: our renamed class reads back in NSKeyedUnarchiver under the old name")
  func renamedClassWritesOldName() throws {
    let archiver = KeyedArchiver()
    archiver.setClassName(NSStringFromClass(LegacyBook.self), for: RenamedBook.self)
    archiver.encodeObject(RenamedBook(title: "Ulysses", pages: 730), forKey: "root")
    let data = try archiver.finishEncoding()
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    let book = try #require(unarchiver.decodeObject(forKey: "root") as? LegacyBook)
    #expect(book.title == "Ulysses" && book.pages == 730)
  }

  @Test("COD-104: an old class name NSKeyedArchiver wrote is read as a new class through a registry alias")
  func classRenameThroughAlias() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: LegacyBook(title: "Kim", pages: 368), requiringSecureCoding: false)
    let registry = ClassRegistry()
    registry.register(RenamedBook.self, as: "RenamedBook", aliases: [NSStringFromClass(LegacyBook.self)])
    let book = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data, registry: registry) as? RenamedBook)
    #expect(book.title == "Kim" && book.pages == 368)
  }
}

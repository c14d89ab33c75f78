import ArchiveCoding
import Foundation

@testable import KeyedArchive

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

let corpusRoot: URL? = {
  let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
  return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

/// A node of a doubly linked list: `next` decoded directly, `previous` through the link phase.
final class ListNode: SecureCoding {
  var value: Int
  var next: ListNode?
  weak var previous: ListNode?
  init(value: Int) { self.value = value }
  required init(coder: any DecodingCoder) throws {
    value = try coder.decodeInt(forKey: "value")
    try coder.decodeReference(forKey: "next", into: \ListNode.next)
    try coder.decodeReference(forKey: "previous", into: \ListNode.previous)
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(value, forKey: "value")
    coder.encodeObject(next, forKey: "next")
    coder.encodeConditionalObject(previous, forKey: "previous")
  }
}

/// A class that asks for a cyclic reference directly inside init(coder:) — an error, never a crash.
final class Eager: Coding {
  var other: Eager?
  var name: String
  init(name: String) { self.name = name }
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeString(forKey: "name") ?? ""
    other = try coder.decodeObject(of: Eager.self, forKey: "other")
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encodeObject(other, forKey: "other")
  }
}

/// A record with every primitive.
final class Record: SecureCoding, Equatable {
  var flag = false
  var small: Int32 = 0
  var big: Int64 = 0
  var unsigned: UInt64 = 0
  var ratio = 0.0
  var single: Float = 0
  var title: String? = nil
  var blob: Data? = nil
  var tags: [String] = []
  var extra: [String: Int] = [:]
  var stamp: Date? = nil
  var id: UUID? = nil
  var link: URL? = nil
  init() {}
  required init(coder: any DecodingCoder) throws {
    flag = try coder.decodeBool(forKey: "flag")
    small = try coder.decodeInt32(forKey: "small")
    big = try coder.decodeInt64(forKey: "big")
    unsigned = try coder.decodeUInt64(forKey: "unsigned")
    ratio = try coder.decodeDouble(forKey: "ratio")
    single = try coder.decodeFloat(forKey: "single")
    title = try coder.decodeString(forKey: "title")
    blob = try coder.decodeData(forKey: "$blob")
    tags = try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "tags") ?? []
    extra = try coder.decodeObject(of: [String: Int].self, forKey: "extra") ?? [:]
    stamp = try coder.decodeObject(of: Date.self, forKey: "stamp")
    id = try coder.decodeObject(of: UUID.self, forKey: "id")
    link = try coder.decodeObject(of: URL.self, forKey: "link")
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(flag, forKey: "flag")
    coder.encode(small, forKey: "small")
    coder.encode(big, forKey: "big")
    coder.encode(unsigned, forKey: "unsigned")
    coder.encode(ratio, forKey: "ratio")
    coder.encode(single, forKey: "single")
    coder.encode(title, forKey: "title")
    coder.encode(blob, forKey: "$blob")
    coder.encodeObject(tags, forKey: "tags")
    coder.encodeObject(extra, forKey: "extra")
    coder.encodeObject(stamp, forKey: "stamp")
    coder.encodeObject(id, forKey: "id")
    coder.encodeObject(link, forKey: "link")
  }
  static func == (a: Record, b: Record) -> Bool {
    a.flag == b.flag && a.small == b.small && a.big == b.big && a.unsigned == b.unsigned
      && a.ratio.bitPattern == b.ratio.bitPattern && a.single.bitPattern == b.single.bitPattern && a.title == b.title
      && a.blob == b.blob && a.tags == b.tags && a.extra == b.extra && a.stamp == b.stamp && a.id == b.id
      && a.link == b.link
  }
}

/// A book on a shelf: the shelf is a mutable array that contains the book, decoded directly in `init(coder:)`
/// (a cycle through a mutable collection).
final class Book: SecureCoding {
  var title: String
  var shelf: NSMutableArray?
  init(title: String) { self.title = title }
  required init(coder: any DecodingCoder) throws {
    title = try coder.decodeString(forKey: "title") ?? ""
    shelf =
      try coder.decodeObject(of: [NSMutableArray.self, Book.self, NSString.self], forKey: "shelf") as? NSMutableArray
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(title, forKey: "title")
    coder.encodeObject(shelf, forKey: "shelf")
  }
}

func registerTestClasses(in registry: ClassRegistry) {
  registry.register(ListNode.self, as: "ListNode")
  registry.register(Eager.self, as: "Eager")
  registry.register(Record.self, as: "Record")
  // The twin of FoundationTwin, under the exact name corelibs archives FoundationTwin with (`Module.Class`).
  registry.register(OurTwin.self, as: FoundationTwin.archivedName)
  registry.register(CrapFoo.self, as: "crap.Foo")
  registry.register(Book.self, as: "Book")
}

let registerTestClasses: Void = registerTestClasses(in: .shared)

/// A registry with only the test classes: other suites of the same test run register interface catalogs in the
/// shared registry (`NSView`, `NSButton`…), which would change how the corpus nibs decode.
let corpusRegistry: ClassRegistry = {
  let registry = ClassRegistry()
  registerTestClasses(in: registry)
  return registry
}()

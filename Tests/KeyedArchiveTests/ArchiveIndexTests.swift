import ArchiveCoding
import Foundation
import PropertyList
import TestSupport
import Testing

@testable import KeyedArchive

/// Reads its keys in an order of its own: a key in the long length form, a 16-byte key, two stored as UTF-16 (one
/// not ASCII), a key the object wrote with a leading `$` (stored `$$`), and one it never wrote.
private final class IndexedKeys: SecureCoding {
  static var supportsSecureCoding: Bool { true }
  var values: [String: Int64] = [:]
  static let keys = ["wide", "$dollar", "größe", "abcdefghijklmnop", "missing", "name", "x"]
  init() {}
  required init(coder: any DecodingCoder) throws {
    for key in Self.keys { values[key] = try coder.decodeInt64(forKey: key) }
  }
  func encode(with coder: any EncodingCoder) {}
}

/// The archive index is built in one pass when an archive is opened (ARC-200); objects of one key list share a
/// layout, and its keys are found the same way whether one object or many have it (ARC-201, ARC-026).
@Suite("Archive index")
struct ArchiveIndexTests {
  static let registry: ClassRegistry = {
    let registry = ClassRegistry()
    registry.register(IndexedKeys.self, as: "IndexedKeys")
    return registry
  }()

  /// An archive whose root is an `NSArray` of `count` `IndexedKeys` objects sharing one key list (the same key
  /// objects), object `i` holding `10 * i + k` under its `k`-th key; and, unless `shared` is false, each object's
  /// values behind the same keys.
  static func archive(count: Int) -> Data {
    var plist = RawPropertyList()
    let classKey = plist.string("$class")
    let keys = [
      plist.add([0x5F, 0x10, 0x04] + Array("name".utf8)), plist.string("abcdefghijklmnop"),
      plist.add(KeyLookupTests.utf16("größe")), plist.add(KeyLookupTests.utf16("wide")), plist.string("x"),
      plist.string("$$dollar"),
    ]
    let (classNameKey, classesKey) = (plist.string("$classname"), plist.string("$classes"))
    let description = plist.dictionary([
      (classNameKey, plist.string("IndexedKeys")),
      (classesKey, plist.array([plist.string("IndexedKeys"), plist.string("NSObject")])),
    ])
    let arrayDescription = plist.dictionary([
      (classNameKey, plist.string("NSArray")),
      (classesKey, plist.array([plist.string("NSArray"), plist.string("NSObject")])),
    ])
    // $objects: 0 $null, 1 the array, 2 and 3 the descriptions, then the objects.
    var entries = [plist.string("$null"), -1, description, arrayDescription]
    for i in 0..<count {
      let values = keys.indices.map { plist.integer(10 * i + $0 + 1) }
      entries.append(plist.dictionary([(classKey, plist.uid(2))] + zip(keys, values).map { ($0, $1) }))
    }
    entries[1] = plist.dictionary([
      (classKey, plist.uid(3)), (plist.string("NS.objects"), plist.array((0..<count).map { plist.uid(4 + $0) })),
    ])
    let objects = plist.array(entries)
    let container = plist.dictionary([
      (plist.string("$archiver"), plist.string("NSKeyedArchiver")), (plist.string("$version"), plist.integer(100_000)),
      (plist.string("$top"), plist.dictionary([(plist.string("root"), plist.uid(1))])),
      (plist.string("$objects"), objects),
    ])
    return Data(plist.bytes(top: UInt64(container)))
  }

  @Test(
    "ARC-201, ARC-026: every key form is found in a layout of one object and in one that many objects share",
    arguments: [1, 2, 5])
  func keysFoundInEveryLayout(count: Int) throws {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: Self.archive(count: count), requiringSecureCoding: true)
    unarchiver.registry = Self.registry
    let objects = try #require(try unarchiver.decodeArrayOfObjects(ofClass: IndexedKeys.self, forKey: "root"))
    #expect(objects.count == count)
    for (i, object) in objects.enumerated() {
      let base = Int64(10 * i)
      #expect(
        object.values == [
          "name": base + 1, "abcdefghijklmnop": base + 2, "größe": base + 3, "wide": base + 4, "x": base + 5,
          "$dollar": base + 6, "missing": 0,
        ], "object \(i)")
    }
    // The objects share one layout; its keys are strings once two objects have it.
    let layouts = Set((4..<(4 + count)).map { unarchiver.index.entries[$0].layout })
    #expect(layouts.count == 1)
    let layout = try #require(layouts.first)
    #expect((unarchiver.index.layouts[layout].first >= 0) == (count >= 2))
  }

  @Test("ARC-200: the index records each entry's kind, an object's class and layout, and $null")
  func entriesIndexed() throws {
    let data = try CraftedArchiveTests.archive([
      "$null", ["$class": .uid(2), "a": 1, "b": .uid(3)], CraftedArchiveTests.classDescription("Thing", "NSObject"),
      "text", "$null", .data(Data([1, 2])), .real(1.5), .bool(true), ["$class": .uid(2), "a": 2, "b": .uid(0)],
    ])
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    let index = unarchiver.index
    #expect(index.count == 9)
    #expect(index.entries[0].kind == .null)
    #expect(index.entries[1].isObject && index.entries[8].isObject)
    #expect(index.entries[1].classSlot == index.entries[8].classSlot)
    #expect(index.entries[1].layout == index.entries[8].layout)
    #expect(index.className(ofSlot: index.entries[1].classSlot) == "Thing")
    // The class description is no object: a decode that reaches it reports why.
    #expect(!index.entries[2].isObject && index.entries[2].kind == .unreadable)
    #expect(index.entries[3].kind == .asciiString)
    #expect(index.entries[4].kind == .null)
    #expect(index.entries[5].kind == .data && index.entries[5].count == 2)
    #expect(index.entries[6].kind == .real)
    #expect(index.entries[7].kind == .bool)
  }

  @Test("ARC-200: an entry that cannot be decoded opens; the decode that reaches it reports the reading's error")
  func damagedEntryReportedWhenReached() throws {
    // $objects: 0 $null, 1 a string, 2 an object whose $class refers past $objects, 3 an inline array.
    let data = try CraftedArchiveTests.archive([
      "$null", "fine", ["$class": .uid(99), "a": 1], .array([.integer(1)]),
    ])
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    #expect(unarchiver.index.entries[2].kind == .unreadable)
    #expect(unarchiver.index.entries[3].kind == .unreadable)
    #expect(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? String == "fine")
    let bad = #expect(throws: ArchiveError.self) { try unarchiver.decodeAny(uid: 2) }
    #expect(bad?.code == .corruptData)
    #expect(bad?.message == "reference to object #99, but $objects has 4 entries", "\(String(describing: bad))")
    let array = #expect(throws: ArchiveError.self) { try unarchiver.decodeAny(uid: 3) }
    #expect(array?.message == "expected an object or a plain value, found a array", "\(String(describing: array))")
  }

  @Test("ARC-201: objects of many key lists and classes in turn each keep their own layout and class")
  func manyLayoutsAndClasses() throws {
    // Twelve classes (more than the index looks through before it hashes), each with a key list of its own,
    // objects of each in turn.
    var objects: [PropertyListValue] = ["$null", ""]
    let classes = (0..<12).map { i -> UInt64 in
      objects.append(CraftedArchiveTests.classDescription("Kind\(i)", "NSObject"))
      return UInt64(objects.count - 1)
    }
    objects.append(CraftedArchiveTests.classDescription("NSArray", "NSObject"))
    let arrayClass = UInt64(objects.count - 1)
    var elements: [PropertyListValue] = []
    for round in 0..<3 {
      for (i, classUID) in classes.enumerated() {
        objects.append(
          .dictionary(
            PropertyListDictionary([
              (.string("$class"), .uid(classUID)), (.string("k\(i)"), .integer(Int64(100 * round + i))),
            ])))
        elements.append(.uid(UInt64(objects.count - 1)))
      }
    }
    objects[1] = ["$class": .uid(arrayClass), "NS.objects": .array(elements)]
    let unarchiver = try KeyedUnarchiver(
      forReadingFrom: try CraftedArchiveTests.archive(objects), requiringSecureCoding: false)
    unarchiver.decodesUnknownClassesGenerically = true
    let decoded = try #require(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? [Any])
    #expect(decoded.count == 36)
    for (n, element) in decoded.enumerated() {
      let object = try #require(element as? ArchivedObject)
      let (round, i) = (n / 12, n % 12)
      #expect(object.className == "Kind\(i)")
      guard case .value(let value)? = object["k\(i)"] else {
        Issue.record("object \(n): no k\(i)")
        continue
      }
      #expect(value == .integer(Int64(100 * round + i)))
    }
    let slots = Set(
      elements.compactMap { element -> Int? in
        guard case .uid(let uid) = element else { return nil }
        return unarchiver.index.entries[Int(uid)].classSlot
      })
    #expect(slots.count == 12)
  }

  @Test("ARC-043: class descriptions of one name and lists share one class slot, past the first eight classes too")
  func descriptionsShareSlots() throws {
    let data = Data(RawPropertyList.sharedClassChainArchive(descriptions: 20, names: 3))
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    let slots = Set((0..<20).map { unarchiver.index.entries[3 + 2 * $0].classSlot })
    #expect(slots.count == 1)
  }
}

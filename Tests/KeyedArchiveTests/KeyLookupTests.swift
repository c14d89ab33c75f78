import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import KeyedArchive

/// Reads its keys in an order of its own, none of them the order they are stored in.
private final class KeyForms: SecureCoding {
  static var supportsSecureCoding: Bool { true }
  var values: [String: Int64] = [:]
  static let keys = ["größe", "wide", "abcdefghijklmnop", "missing", "name", "x"]
  init() {}
  required init(coder: any DecodingCoder) throws {
    for key in Self.keys { values[key] = try coder.decodeInt64(forKey: key) }
  }
  func encode(with coder: any EncodingCoder) {}
}

/// Keys written in every form a binary property list allows must be found, wherever they sit (ARC-026): the
/// unarchiver compares short ASCII keys by their one-byte marker first, and reads other forms only when that fails.
@Suite("Key lookup")
struct KeyLookupTests {
  /// A UTF-16 string object (big-endian code units).
  static func utf16(_ text: String) -> [UInt8] {
    let units = Array(text.utf16)
    return [0x60 | UInt8(units.count)] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }

  /// An archive whose root object stores `name` in the long length form (`0x5F`, then a one-byte integer), a
  /// 16-byte key, `größe` and `wide` as UTF-16 and `x` plainly, with the integers 1…5; in `$top` too.
  static func archive() -> Data {
    var plist = RawPropertyList()
    let classKey = plist.string("$class")
    let keys = [
      plist.add([0x5F, 0x10, 0x04] + Array("name".utf8)), plist.string("abcdefghijklmnop"),
      plist.add(utf16("größe")), plist.add(utf16("wide")), plist.string("x"),
    ]
    let values = (1...5).map { plist.integer($0) }
    let description = plist.dictionary([
      (plist.string("$classname"), plist.string("KeyForms")),
      (plist.string("$classes"), plist.array([plist.string("KeyForms"), plist.string("NSObject")])),
    ])
    let root = plist.dictionary([(classKey, plist.uid(2))] + zip(keys, values).map { ($0, $1) })
    let objects = plist.array([plist.string("$null"), root, description])
    let top = plist.dictionary(
      [(plist.string("root"), plist.uid(1))] + zip(keys, values).map { ($0, $1) })
    let container = plist.dictionary([
      (plist.string("$archiver"), plist.string("NSKeyedArchiver")), (plist.string("$version"), plist.integer(100_000)),
      (plist.string("$top"), top), (plist.string("$objects"), objects),
    ])
    return Data(plist.bytes(top: UInt64(container)))
  }

  static let expected: [String: Int64] = [
    "name": 1, "abcdefghijklmnop": 2, "größe": 3, "wide": 4, "x": 5, "missing": 0,
  ]

  @Test("ARC-026: keys in the long length form, longer than 14 bytes, or stored as UTF-16 are found in any order")
  func everyKeyForm() throws {
    let registry = ClassRegistry()
    registry.register(KeyForms.self, as: "KeyForms")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: Self.archive(), requiringSecureCoding: true)
    unarchiver.registry = registry
    let object = try #require(try unarchiver.decodeObject(of: KeyForms.self, forKey: "root"))
    #expect(object.values == Self.expected)
    // `$top` is searched from its first key each time.
    for key in KeyForms.keys { #expect(try unarchiver.decodeInt64(forKey: key) == Self.expected[key]) }
    #expect(unarchiver.containsValue(forKey: "wide"))
    #expect(!unarchiver.containsValue(forKey: "Wide"))
  }

  @Test("ARC-026: keys compare code unit by code unit, as Foundation's do: a canonically equal spelling is another key")
  func keysCompareLiterally() throws {
    var plist = RawPropertyList()
    // "café" with a combining accent (e + U+0301), and "K" as the Kelvin sign's canonical equivalent.
    let entries = [(plist.add(Self.utf16("cafe\u{301}")), plist.integer(1)), (plist.string("K"), plist.integer(2))]
    let container = plist.dictionary([
      (plist.string("$archiver"), plist.string("NSKeyedArchiver")), (plist.string("$version"), plist.integer(100_000)),
      (plist.string("$top"), plist.dictionary(entries)),
      (plist.string("$objects"), plist.array([plist.string("$null")])),
    ])
    let unarchiver = try KeyedUnarchiver(
      forReadingFrom: Data(plist.bytes(top: UInt64(container))), requiringSecureCoding: true)
    #expect(try unarchiver.decodeInt64(forKey: "cafe\u{301}") == 1)
    #expect(!unarchiver.containsValue(forKey: "caf\u{E9}"))
    #expect(try unarchiver.decodeInt64(forKey: "K") == 2)
    #expect(!unarchiver.containsValue(forKey: "\u{212A}"))
  }

  @Test("ARC-026: an object whose dictionary holds $class twice is decoded as the first, as Foundation reads it")
  func firstClassKeyWins() throws {
    var plist = RawPropertyList()
    let description = { (name: String, plist: inout RawPropertyList) -> Int in
      plist.dictionary([
        (plist.string("$classname"), plist.string(name)),
        (plist.string("$classes"), plist.array([plist.string(name), plist.string("NSObject")])),
      ])
    }
    let first = description("DuplicateFirst", &plist)
    let second = description("DuplicateSecond", &plist)
    let classKey = plist.string("$class")
    let root = plist.dictionary([
      (classKey, plist.uid(2)), (plist.string("value"), plist.integer(5)), (plist.string("$class"), plist.uid(3)),
    ])
    let objects = plist.array([plist.string("$null"), root, first, second])
    let container = plist.dictionary([
      (plist.string("$archiver"), plist.string("NSKeyedArchiver")), (plist.string("$version"), plist.integer(100_000)),
      (plist.string("$top"), plist.dictionary([(plist.string("root"), plist.uid(1))])),
      (plist.string("$objects"), objects),
    ])
    let data = Data(plist.bytes(top: UInt64(container)))
    let registry = ClassRegistry()
    registry.register(DuplicateFirst.self, as: "DuplicateFirst")
    registry.register(DuplicateSecond.self, as: "DuplicateSecond")
    let root1 = try KeyedUnarchiver.unarchivedRootObject(from: data, registry: registry)
    #expect(root1 is DuplicateFirst, "decoded \(String(describing: root1))")
    #expect((root1 as? DuplicateFirst)?.value == 5)
  }

  /// A container whose top-level keys are in an order of their own, `$version` stored as UTF-16 and `$top` in the
  /// long length form, with a second `$objects` and a second `$archiver` after the first ones, and a `$objects`
  /// stored as UTF-16 before them all (a key stored as ASCII is found first, wherever it is).
  static func container(firstArchiver: String) -> Data {
    var plist = RawPropertyList()
    let objects = plist.array([plist.string("$null"), plist.integer(7)])
    let top = plist.dictionary([(plist.string("value"), plist.uid(1))])
    let container = plist.dictionary([
      (plist.add(utf16("$objects")), plist.integer(2)),
      (plist.string("$objects"), objects), (plist.add(utf16("$version")), plist.integer(100_000)),
      (plist.string("$archiver"), plist.string(firstArchiver)), (plist.string("$objects"), plist.integer(1)),
      (plist.add([0x5F, 0x10, 0x04] + Array("$top".utf8)), top),
      (plist.string("$archiver"), plist.string(firstArchiver == "NSKeyedArchiver" ? "Other" : "NSKeyedArchiver")),
    ])
    return Data(plist.bytes(top: UInt64(container)))
  }

  @Test("ARC-020: the top-level keys are found in any order and form, and the first of two equal keys is the one read")
  func topLevelKeysInAnyForm() throws {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: Self.container(firstArchiver: "NSKeyedArchiver"))
    #expect(unarchiver.objectCount == 2)
    #expect(try unarchiver.decodeObject(forKey: "value", allowedClasses: ["NSNumber"]) as? Int == 7)
    // The first `$archiver` decides, as the first `$objects` did.
    let error = try #require(throws: ArchiveError.self) {
      try KeyedUnarchiver(forReadingFrom: Self.container(firstArchiver: "Other"))
    }
    #expect(error.message.contains("found \"Other\""), "\(error)")
    // Each missing key is named.
    let messages = [
      "$archiver": "no $archiver key", "$version": "no $version key", "$top": "expected a $top dictionary",
      "$objects": "expected an $objects array",
    ]
    for (missing, message) in messages {
      var plist = RawPropertyList()
      let entries = [
        ("$archiver", plist.string("NSKeyedArchiver")), ("$version", plist.integer(100_000)),
        ("$top", plist.dictionary([])), ("$objects", plist.array([plist.string("$null")])),
      ].filter { $0.0 != missing }
      let container = plist.dictionary(entries.map { (plist.string($0.0), $0.1) })
      let error = try #require(throws: ArchiveError.self) {
        try KeyedUnarchiver(forReadingFrom: Data(plist.bytes(top: UInt64(container))))
      }
      #expect(error.message.contains(message), "\(error)")
    }
    // The one pass compares the stored keys with these; a wrong one would leave its key to the fallback lookup.
    #expect(
      [ArchiveKeys.archiverKey, ArchiveKeys.versionKey, ArchiveKeys.topKey, ArchiveKeys.objectsKey].map(\.description)
        == [ArchiveKeys.archiver, ArchiveKeys.version, ArchiveKeys.top, ArchiveKeys.objects])
  }
}

/// The two classes of ``KeyLookupTests/firstClassKeyWins()``.
private final class DuplicateFirst: SecureCoding {
  static var supportsSecureCoding: Bool { true }
  var value: Int
  required init(coder: any DecodingCoder) throws { value = try coder.decodeInt(forKey: "value") }
  func encode(with coder: any EncodingCoder) {}
}

private final class DuplicateSecond: SecureCoding {
  static var supportsSecureCoding: Bool { true }
  required init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) {}
}

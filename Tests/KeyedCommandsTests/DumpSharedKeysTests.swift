import ArchiveComparison
import PropertyList
import Testing

@testable import KeyedCommands

/// Dictionaries that share their key strings, as an archiver writes them (CLI-180): the names read for one are used
/// for the next only when its keys are the same string entries in the same places. The archives are built here; the
/// expected texts are written out by hand.
@Suite("dump --json: dictionaries sharing their keys")
struct DumpSharedKeysTests {
  typealias Order = DumpOrderTests

  /// An `NSDictionary` of class description 2 with these keys and values (`$objects` indexes).
  static func dictionary(keys: [UInt64], values: [UInt64]) -> PropertyListValue {
    ["$class": .uid(2), "NS.keys": .array(keys.map { .uid($0) }), "NS.objects": .array(values.map { .uid($0) })]
  }

  @Test("CLI-180: the same key entries in the same places, swapped, and with one more key are each sorted by name")
  func sharedKeyEntries() throws {
    // Entries 8 ("b") and 9 ("a") are the keys of every dictionary; 10 to 13 are 1 to 4, 14 is "c".
    let value = Order.archive(
      [
        ["$class": .uid(7), "NS.objects": [.uid(3), .uid(4), .uid(5), .uid(6)]],
        Order.classDescription("NSDictionary"),
        Self.dictionary(keys: [8, 9], values: [10, 11]),
        Self.dictionary(keys: [9, 8], values: [10, 11]),
        Self.dictionary(keys: [8, 9], values: [12, 13]),
        Self.dictionary(keys: [8, 9, 14], values: [10, 11, 12]),
        Order.classDescription("NSArray"), "b", "a", 1, 2, 3, 4, "c",
      ], top: ["root": 1])
    #expect(
      try ArchiveJSON.render(value, pretty: false)
        == #"[{"a":2,"b":1},{"a":1,"b":2},{"a":4,"b":3},{"a":2,"b":1,"c":3}]"#)
  }

  @Test("CLI-180, CLI-010: keys that differ only in normalisation are other entries, sorted by their own code points")
  func keysDifferingInNormalisation() throws {
    // The first dictionary's keys are "é" (U+00E9) and "x"; the second's "e" + U+0301 and the same "x".
    let value = Order.archive(
      [
        ["$class": .uid(7), "NS.objects": [.uid(3), .uid(4)]],
        Order.classDescription("NSDictionary"),
        Self.dictionary(keys: [5, 6], values: [9, 10]),
        Self.dictionary(keys: [8, 6], values: [9, 10]),
        "\u{E9}", "x", Order.classDescription("NSArray"), "e\u{301}", 1, 2,
      ], top: ["root": 1])
    let text = try ArchiveJSON.render(value, pretty: false)
    #expect(
      Array(text.unicodeScalars) == Array("[{\"x\":2,\"\u{E9}\":1},{\"e\u{301}\":1,\"x\":2}]".unicodeScalars))
  }

  @Test("CLI-180, CLI-011: a key that is an object after dictionaries of string keys is walked, and carries its $id")
  func objectKeyAfterStringKeys() throws {
    // The second dictionary's key "k" is an NSString object; its value Thing (10) is reached twice.
    let value = Order.archive(
      [
        ["$class": .uid(7), "NS.objects": [.uid(3), .uid(4), .uid(3)]],
        Order.classDescription("NSDictionary"),
        Self.dictionary(keys: [5], values: [10]),
        Self.dictionary(keys: [8], values: [10]),
        "k", Order.classDescription("Thing"), Order.classDescription("NSArray"),
        ["$class": .uid(9), "NS.string": "k"], Order.classDescription("NSString"),
        ["$class": .uid(6), "v": 1],
      ], top: ["root": 1])
    #expect(
      try ArchiveJSON.render(value, pretty: false)
        == #"[{"k":{"$class":"Thing","$id":10,"v":1}},{"k":{"$ref":10}},{"k":{"$ref":10}}]"#)
  }
}

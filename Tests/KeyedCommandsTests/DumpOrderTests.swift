import ArchiveCoding
import ArchiveComparison
import Foundation
import FoundationForms
import PropertyList
import Testing

@testable import KeyedCommands

/// The order `dump --json` writes things in, and so where an object's `$id` goes (cli.md: "First" means
/// pre-order, top-level keys, object fields and string-keyed dictionary entries in sorted key order, arrays in
/// order), and the order keys sort in. The archives are built here; the expected texts are written out by hand.
@Suite("dump --json: order, $id and cycles")
struct DumpOrderTests {
  /// A keyed archive of `objects` after `$null`, with `top` as its `$top`.
  static func archive(_ objects: [PropertyListValue], top: [String: Int]) -> PropertyListValue {
    .dictionary(
      PropertyListDictionary([
        ("$archiver", "NSKeyedArchiver"), ("$version", 100_000),
        ("$top", .dictionary(PropertyListDictionary(top.map { (.string($0.key), .uid(UInt64($0.value))) }))),
        ("$objects", .array(["$null"] + objects)),
      ]))
  }

  /// A class description.
  static func classDescription(_ name: String) -> PropertyListValue {
    ["$classname": .string(name), "$classes": [.string(name), "NSObject"]]
  }

  @Test("CLI-011: an object reached twice carries $id where it is first written: fields in sorted key order")
  func fieldsInSortedOrder() throws {
    // Holder (1) stores "z" before "a"; both refer to Thing (3).
    let holder = PropertyListValue.dictionary(
      PropertyListDictionary([("$class", .uid(2)), ("z", .uid(3)), ("a", .uid(3))]))
    let value = Self.archive(
      [holder, Self.classDescription("Holder"), ["$class": .uid(4), "v": 1], Self.classDescription("Thing")],
      top: ["root": 1])
    #expect(
      try ArchiveJSON.render(value, pretty: false)
        == #"{"$class":"Holder","a":{"$class":"Thing","$id":3,"v":1},"z":{"$ref":3}}"#)
  }

  @Test("CLI-011: in a dictionary with string keys, the entry of the first key in order carries the $id")
  func dictionaryEntriesInSortedOrder() throws {
    // NS.keys stores "k2" (a plain string), then "k1" (an NSString object); both values are Thing (6).
    let dictionary: PropertyListValue = [
      "$class": .uid(2), "NS.keys": [.uid(3), .uid(4)], "NS.objects": [.uid(6), .uid(6)],
    ]
    let value = Self.archive(
      [
        dictionary, Self.classDescription("NSDictionary"), "k2", ["$class": .uid(5), "NS.string": "k1"],
        Self.classDescription("NSString"), ["$class": .uid(7), "v": 1], Self.classDescription("Thing"),
      ], top: ["root": 1])
    #expect(
      try ArchiveJSON.render(value, pretty: false) == #"{"k1":{"$class":"Thing","$id":6,"v":1},"k2":{"$ref":6}}"#)
  }

  @Test("CLI-011: $top keys are sorted once $-escaping is undone, and walked in that order")
  func topLevelKeysUnescapedThenSorted() throws {
    // Stored "$$z", "$0", "b", "a": written "$0", "$z", "a", "b" ("0" sorts before "z").
    let value = Self.archive(
      ["zed", "zero", ["$class": .uid(4), "v": 1], Self.classDescription("Thing")],
      top: ["$$z": 1, "$0": 2, "b": 3, "a": 3])
    #expect(
      try ArchiveJSON.render(value, pretty: false)
        == #"{"$top":{"$0":"zero","$z":"zed","a":{"$class":"Thing","$id":3,"v":1},"b":{"$ref":3}}}"#)
  }

  @Test("CLI-011: a cycle through a class object is not cut: the array is written again, the object is a $ref")
  func cycleThroughClassObject() throws {
    // The root array (1) holds Node (3) and itself; Node's "back" is the array.
    let value = Self.archive(
      [
        ["$class": .uid(2), "NS.objects": [.uid(3), .uid(1)]], Self.classDescription("NSMutableArray"),
        ["$class": .uid(4), "back": .uid(1), "n": 42], Self.classDescription("Node"),
      ], top: ["root": 1])
    // Inside Node the array is expanded again (its Node is then a $ref); its second element closes a cycle made
    // only of the array, cut there and at the top.
    #expect(
      try ArchiveJSON.render(value, pretty: false)
        == #"[{"$class":"Node","$id":3,"back":[{"$ref":3},{"$cycle":1}],"n":42},{"$cycle":1}]"#)
  }

  @Test("CLI-011: a cycle made only of collections is still cut where it closes, across two of them")
  func cycleOfCollectionsOnly() throws {
    // Array 1 holds dictionary 3, whose "x" is array 1.
    let value = Self.archive(
      [
        ["$class": .uid(2), "NS.objects": [.uid(3)]], Self.classDescription("NSArray"),
        ["$class": .uid(4), "NS.keys": [.uid(5)], "NS.objects": [.uid(1)]], Self.classDescription("NSDictionary"),
        "x",
      ], top: ["root": 1])
    #expect(try ArchiveJSON.render(value, pretty: false) == #"[{"x":{"$cycle":1}}]"#)
  }

  @Test("CLI-011: an NSURL whose relative part is empty is its base without the fragment (RFC 3986, 5.2.2)")
  func emptyRelativeURL() throws {
    let value = Self.archive(
      [
        ["$class": .uid(2), "NS.base": .uid(3), "NS.relative": ""], Self.classDescription("NSURL"),
        ["$class": .uid(2), "NS.base": .uid(0), "NS.relative": "http://a/b/c/d;p?q#frag"],
      ], top: ["root": 1])
    #expect(try ArchiveJSON.render(value, pretty: false) == #"{"$url":"http://a/b/c/d;p?q"}"#)
  }

  @Test("ARC-024, CLI-011: a $objects dictionary without $class is corrupt for dump --json too, named once")
  func dictionaryWithoutClass() throws {
    let value = Self.archive([["title": .uid(2)], "t"], top: ["root": 1])
    #expect {
      try ArchiveJSON.render(value, pretty: false)
    } throws: { error in
      let text = "\(error)"
      return text.contains("without $class") && text.components(separatedBy: "object #1").count == 2
    }
  }

  @Test("CLI-010: dump without --json prints an archive's graph as an indented tree, in the JSON's order")
  func archiveTree() throws {
    // The root array (1) holds Node (3) twice and a set; Node's "back" is the array, its "when" a date.
    let value = Self.archive(
      [
        ["$class": .uid(2), "NS.objects": [.uid(3), .uid(3), .uid(5)]], Self.classDescription("NSMutableArray"),
        ["$class": .uid(4), "back": .uid(1), "name": "n"], Self.classDescription("Node"),
        ["$class": .uid(6), "NS.objects": [.uid(7)]], Self.classDescription("NSSet"), "member",
      ], top: ["root": 1, "other": 7])
    let tree = TreeText.render(try ArchiveJSON.graph(value))
    #expect(
      tree == """
        top-level keys (2)
          "other": "member"
          "root": array (3)
            [0]: Node #3
              back: array (3)
                [0]: → #3
                [1]: → #3
                [2]: set (1)
                  [0]: "member"
              name: "n"
            [1]: → #3
            [2]: set (1)
              [0]: "member"

        """)
  }

  @Test("CLI-011: fields stored as $$class, $$id, $$ref and $$cycle stay escaped; other $$ keys are undone")
  func reservedFieldNames() throws {
    let thing = PropertyListValue.dictionary(
      PropertyListDictionary([
        ("$class", .uid(2)), ("$$class", "fake"), ("$$id", 7), ("$$ref", 1), ("$$cycle", 2), ("$$other", 3),
        ("$$$class", 4),
      ]))
    let value = Self.archive([thing, Self.classDescription("Thing")], top: ["root": 1])
    #expect(
      try ArchiveJSON.render(value, pretty: false)
        == #"{"$$$class":4,"$$class":"fake","$$cycle":2,"$$id":7,"$$ref":1,"$class":"Thing","$other":3}"#)
    // A bare "$id" (no archiver writes one) gets one "$" more, so as not to read as the object's id.
    let bare = Self.archive(
      [.dictionary(PropertyListDictionary([("$class", .uid(2)), ("$id", 9)])), Self.classDescription("Thing")],
      top: ["root": 1])
    #expect(try ArchiveJSON.render(bare, pretty: false) == #"{"$$id":9,"$class":"Thing"}"#)
  }

  @Test("CLI-011: an NSValue geometry that is not all numbers is written as the object it is, not as []")
  func unreadableGeometry() throws {
    let value = Self.archive(
      [
        ["$class": .uid(2), "NS.objects": [.uid(3), .uid(4), .uid(5)]], Self.classDescription("NSArray"),
        ["$class": .uid(6), "NS.special": 3, "NS.rectval": "{{1, 2}, {3, 4}}"],
        ["$class": .uid(6), "NS.special": 3, "NS.rectval": "{{1, x}, {3, 4}}"],
        ["$class": .uid(6), "NS.special": 1, "NS.pointval": "{1, 2, 3}"], Self.classDescription("NSValue"),
      ], top: ["root": 1])
    #expect(
      try ArchiveJSON.render(value, pretty: false)
        == #"[{"$class":"NSValue","rect":[1.0,2.0,3.0,4.0]},"#
        + #"{"$class":"NSValue","NS.rectval":"{{1, x}, {3, 4}}","NS.special":3},"#
        + #"{"$class":"NSValue","NS.pointval":"{1, 2, 3}","NS.special":1}]"#)
  }

  @Test("CLI-011: an error inside the graph names the object and the field it is in")
  func errorsAreLocated() throws {
    let outOfRange = Self.archive(
      [["$class": .uid(2), "name": "n", "f": .uid(1_000)], Self.classDescription("Foo")], top: ["root": 1])
    #expect {
      try ArchiveJSON.render(outOfRange, pretty: false)
    } throws: { error in
      let text = "\(error)"
      return text.contains("object #1 (Foo)") && text.contains("key \"f\"") && text.contains("object #1000")
    }
    // An NSString whose NS.string is itself: a cycle, not a nesting past the depth limit.
    let selfString = Self.archive(
      [["$class": .uid(2), "NS.string": .uid(1)], Self.classDescription("NSMutableString")], top: ["root": 1])
    #expect {
      try ArchiveJSON.render(selfString, pretty: false)
    } throws: { error in
      "\(error)".contains("lead back to itself") && "\(error)".contains("object #1")
    }
  }

  @Test("CLI-011: a dictionary with plain keys that are not all strings is walked in the order of the keys' text")
  func plainKeysInOrder() throws {
    // NS.keys stores 2, then 1 (numbers behind UIDs); both values are Thing (6).
    let value = Self.archive(
      [
        ["$class": .uid(2), "NS.keys": [.uid(3), .uid(4)], "NS.objects": [.uid(5), .uid(5)]],
        Self.classDescription("NSDictionary"), 2, 1, ["$class": .uid(6), "v": 1], Self.classDescription("Thing"),
      ], top: ["root": 1])
    #expect(
      try ArchiveJSON.render(value, pretty: false)
        == #"{"$dictionary":[[1,{"$class":"Thing","$id":5,"v":1}],[2,{"$ref":5}]]}"#)
  }

  @Test("CLI-010: an archived dictionary's string keys sort by code point, whatever their normalisation")
  func archivedKeysByCodePoint() throws {
    // Keys stored "é" (U+00E9), then "e" + U+0301: Swift's `<` finds them equal; by code point "e…" comes first.
    let value = Self.archive(
      [
        ["$class": .uid(2), "NS.keys": [.uid(3), .uid(4)], "NS.objects": [.uid(5), .uid(6)]],
        Self.classDescription("NSDictionary"), "\u{E9}", "e\u{301}", 1, 2,
      ], top: ["root": 1])
    let text = try ArchiveJSON.render(value, pretty: false)
    #expect(Array(text.unicodeScalars) == Array("{\"e\u{301}\":2,\"\u{E9}\":1}".unicodeScalars))
  }

  @Test("CLI-011: a UID of 8 bytes past $objects is corrupt data, not a crash, up to 2^64 - 1")
  func hugeUID() throws {
    for raw: UInt64 in [3, 1 << 63, .max] {
      let value = Self.archive(
        [["$class": .uid(2), "f": .uid(raw)], Self.classDescription("Foo")], top: ["root": 1])
      #expect("\(raw)") {
        try ArchiveJSON.render(value, pretty: false)
      } throws: { error in
        "\(error)".contains("reference to object #\(raw)") && "\(error)".contains("key \"f\"")
      }
    }
    // An NSValue's string and an NSURL's parts behind such UIDs are not trapped on either: the walk ends in an
    // error.
    let odd = Self.archive(
      [
        ["$class": .uid(2), "NS.objects": [.uid(3), .uid(4)]], Self.classDescription("NSArray"),
        ["$class": .uid(5), "NS.special": 3, "NS.rectval": .uid(.max)],
        ["$class": .uid(6), "NS.relative": .uid(.max), "NS.base": .uid(1 << 63)], Self.classDescription("NSValue"),
        Self.classDescription("NSURL"),
      ], top: ["root": 1])
    #expect(throws: (any Error).self) { try ArchiveJSON.render(odd, pretty: false) }
  }

  @Test("CLI-011: a string whose contents lead through a collection or an object back to it ends as those do")
  func stringChainsThroughContainers() throws {
    // String 1's NS.string is array 3, which holds string 1: the array's cycle is cut, as before.
    let throughArray = Self.archive(
      [
        ["$class": .uid(2), "NS.string": .uid(3)], Self.classDescription("NSString"),
        ["$class": .uid(4), "NS.objects": [.uid(1)]], Self.classDescription("NSArray"),
      ], top: ["root": 1])
    #expect(try ArchiveJSON.render(throughArray, pretty: false) == #"[{"$cycle":3}]"#)
    // Through a class object: it is written once, then a $ref.
    let throughObject = Self.archive(
      [
        ["$class": .uid(2), "NS.string": .uid(3)], Self.classDescription("NSString"),
        ["$class": .uid(4), "back": .uid(1)], Self.classDescription("Node"),
      ], top: ["root": 1])
    #expect(
      try ArchiveJSON.render(throughObject, pretty: false) == #"{"$class":"Node","$id":3,"back":{"$ref":3}}"#)
  }

  @Test("CLI-010: keys and set members sort by code point, whatever the input's order or normalisation")
  func codePointOrder() throws {
    // "é" precomposed (U+00E9) and decomposed ("e" + U+0301) are canonically equivalent: Swift's `<` finds them
    // equal. By code point: "A" + U+030A, "B", "e" + U+0301, U+00E9.
    // (A `[String: …]` would hold the two "é" as one key.)
    let entries: [(key: String, value: Int64)] = [("\u{E9}", 1), ("e\u{301}", 2), ("B", 4), ("A\u{30A}", 3)]
    let expected = "{\"A\u{30A}\":3,\"B\":4,\"e\u{301}\":2,\"\u{E9}\":1}"
    for order in [entries, entries.reversed()] {
      let dictionary = PropertyListDictionary(order.map { (.string($0.key), .integer($0.value)) })
      let text = CanonicalJSON.text(CanonicalJSON.node(.dictionary(dictionary)))
      #expect(Array(text.unicodeScalars) == Array(expected.unicodeScalars))
      let set = CanonicalJSON.text(CanonicalJSON.node(.set(order.map { .string($0.key) })))
      #expect(
        Array(set.unicodeScalars) == Array("{\"$set\":[\"A\u{30A}\",\"B\",\"e\u{301}\",\"\u{E9}\"]}".unicodeScalars))
    }
  }

  @Test("CLI-013: a nib's object reached twice carries $id in its first field in order; connections sort their keys")
  func tableOrder() throws {
    // Object 0 (top level) stores "z" before "a", both referring to object 1; one outlet from 0 to 1.
    let table = ObjectTable(
      objects: [
        ObjectRecord(
          id: "root", className: "UIView",
          fields: [ObjectField(key: "z", value: .object(1)), ObjectField(key: "a", value: .object(1))]),
        ObjectRecord(id: "child", className: "UILabel", fields: [ObjectField(key: "text", value: .string("hi"))]),
      ], topLevel: [0],
      connections: [ConnectionRecord(kind: .outlet, source: 0, destination: 1, label: "label")])
    #expect(
      try TableRendering(table: table).json(pretty: false)
        == #"{"connections":[{"destination":"child","kind":"outlet","label":"label","source":"root"}],"#
        + #""objects":[{"$class":"UIView","a":{"$class":"UILabel","$id":1,"text":"hi"},"z":{"$ref":1}}]}"#)
  }

  @Test(
    "CLI-011, CLI-013: in dump --json of every corpus archive, nib and XIB, each $ref follows its $id and keys are in code-point order"
  )
  func corpusOutputKeepsTheRules() throws {
    let files =
      corpusFiles("archives", extensions: ["plist", "bplist", "bin", "nib", "archive", "xml"])
      + corpusFiles("nib", extensions: ["nib", "xib", "storyboard"])
      + corpusFiles("xib", extensions: ["xib", "storyboard"])
    guard !files.isEmpty else {
      print("skipped: ../shared/corpus is absent")
      return
    }
    let directory = try makeTemporaryDirectory("dump-order")
    defer { try? FileManager.default.removeItem(at: directory) }
    var outputs: [String: URL] = [:]
    for (index, url) in files.enumerated() {
      let result = keyed("dump", "--json", url.path)
      guard result.status == 0 else { continue }  // not an archive, or refused: other tests cover those
      let output = directory.appendingPathComponent("\(index).json")
      try Data(result.output.utf8).write(to: output)
      outputs[output.path] = url
    }
    // Most of the corpus dumps: the rules are checked on what it gives, not on a handful.
    #expect(outputs.count > files.count / 2, "\(outputs.count) of \(files.count) files dumped")
    guard let report = try runPython("dump_json_check.py", outputs.keys.sorted()),
      let problems = try JSONSerialization.jsonObject(with: report) as? [String: [String]]
    else {
      print("skipped: python3 is not available")
      return
    }
    #expect(problems.count == outputs.count)
    for (path, list) in problems.sorted(by: { $0.key < $1.key }) where !list.isEmpty {
      Issue.record("\(outputs[path]?.lastPathComponent ?? path): \(list.prefix(3).joined(separator: "; "))")
    }
  }
}

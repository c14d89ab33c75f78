import ArchiveComparison
import Foundation
import PropertyList
import TestSupport
import Testing

@testable import KeyedCommands

/// `dump --json` writes a Foundation collection in full wherever it appears (CLI-011), so a small archive can
/// describe an enormous expansion. These archives are built here: chains of arrays that each hold the one before
/// twice, with and without class objects and cycles in them.
@Suite("dump --json of shared collections")
struct DumpExpansionTests {
  /// A keyed archive whose `$objects` are `$null`, the NSArray class description, then `arrays` (each a list of
  /// `$objects` indexes), then `extra` entries; `root` is the last array.
  static func archive(arrays: [[Int]], extra: [PropertyListValue] = []) throws -> PropertyListValue {
    var objects: [PropertyListValue] = ["$null", ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]]
    for elements in arrays {
      objects.append(["$class": .uid(1), "NS.objects": .array(elements.map { .uid(UInt64($0)) })])
    }
    objects += extra
    return [
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(UInt64(1 + arrays.count))],
      "$objects": .array(objects),
    ]
  }

  /// Array `k` (at index `k + 2`) holds array `k - 1` twice, plus whatever `more(k)` adds; array 0 is empty.
  static func chain(_ levels: Int, more: (Int) -> [Int] = { _ in [] }) -> [[Int]] {
    [[]] + (1...levels).map { k in [k + 1, k + 1] + more(k) }
  }

  /// The expected JSON of array `k` of a chain, written out by the rule, independently of the renderer: `element`
  /// gives the text of each extra element at its position, given the arrays being expanded (for cycle cuts).
  static func expected(_ k: Int, path: Set<Int> = [], element: (Int, Set<Int>) -> String = { _, _ in "" }) -> String {
    if k == 0 { return "[]" }
    let inner = expected(k - 1, path: path.union([k + 2]), element: element)
    let extra = element(k, path.union([k + 2]))
    return "[" + inner + "," + inner + (extra.isEmpty ? "" : "," + extra) + "]"
  }

  @Test("CLI-011: a chain of 40 arrays that each hold the one before twice is refused at once, not expanded")
  func doublingChainRefused() throws {
    let value = try Self.archive(arrays: Self.chain(40))
    let started = ContinuousClock.now
    #expect {
      try ArchiveJSON.render(value, pretty: false)
    } throws: { error in
      "\(error)".contains("expands to more than") && "\(error)".contains("JSON values")
    }
    // 2^40 values: the count of each array is kept once its expansion is known to be the same everywhere.
    #expect(ContinuousClock.now - started < .seconds(10))
  }

  @Test("CLI-011: shared arrays are written in full at every appearance, exactly as the rule spells out")
  func doublingChainWritten() throws {
    let json = try ArchiveJSON.render(try Self.archive(arrays: Self.chain(6)), pretty: false)
    #expect(json == Self.expected(6))
    #expect(json.filter { $0 == "[" }.count == (1 << 7) - 1)
  }

  @Test("CLI-011: a class object inside shared arrays is written once with $id, then as $ref, at every depth")
  func classObjectInsideSharedArrays() throws {
    // Array k also holds the class object, the entry after the arrays.
    let levels = 5
    let thing = levels + 3
    let value = try Self.archive(
      arrays: Self.chain(levels) { _ in [thing] },
      extra: [
        ["$class": .uid(UInt64(thing + 1)), "v": 7], ["$classname": "Thing", "$classes": ["Thing", "NSObject"]],
      ])
    let json = try ArchiveJSON.render(value, pretty: false)
    // Pre-order: the innermost, leftmost array is expanded first, so its element is the full one.
    #expect(json == Self.expandedPreOrder(levels, thing: thing))
    // Array k is expanded 2^(levels - k) times: 2^levels - 1 appearances of the object, one of them in full.
    #expect(json.components(separatedBy: "\"$id\"").count == 2)
    #expect(json.components(separatedBy: "\"$ref\"").count - 1 == (1 << levels) - 2)
  }

  /// The pre-order text of a chain whose arrays each end with class object `thing`: written out by walking the
  /// rule in order (the first appearance in full with `$id`, every later one `$ref`).
  static func expandedPreOrder(_ levels: Int, thing: Int) -> String {
    var written = false
    func array(_ k: Int) -> String {
      if k == 0 { return "[]" }
      let left = array(k - 1)
      let right = array(k - 1)
      let element: String
      if written {
        element = "{\"$ref\":\(thing)}"
      } else {
        written = true
        element = "{\"$class\":\"Thing\",\"$id\":\(thing),\"v\":7}"
      }
      return "[" + left + "," + right + "," + element + "]"
    }
    return array(levels)
  }

  @Test("CLI-011: arrays that each also hold the root are cut with $cycle wherever the root is being expanded")
  func chainWithCycles() throws {
    // Array k also holds the top array (the root: one more array after the chain, holding the last).
    let levels = 6
    let top = levels + 3
    let value = try Self.archive(arrays: Self.chain(levels) { _ in [top] } + [[levels + 2]])
    let json = try ArchiveJSON.render(value, pretty: false)
    let inner = Self.expected(levels, path: [top]) { _, path in path.contains(top) ? "{\"$cycle\":\(top)}" : "?" }
    #expect(json == "[" + inner + "]")
    // The same chain 40 levels deep cannot be counted once per array (each expansion meets the cycle): it is
    // counted value by value up to the limit and refused.
    let deep = try Self.archive(arrays: Self.chain(40) { _ in [43] } + [[42]])
    #expect {
      try ArchiveJSON.render(deep, pretty: false, valueLimit: 1_000_000)
    } throws: { error in
      "\(error)".contains("expands to more than 1000000 JSON values")
    }
  }

  @Test("CLI-011: keyed dump of a 1 KB archive that expands to 2^40 values exits 65 at once, naming the file")
  func commandRefuses() throws {
    let directory = try makeTemporaryDirectory("expansion")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("doubling.archive")
    try PropertyListWriter.write(try Self.archive(arrays: Self.chain(40))).write(to: url)
    let json = keyed("dump", "--json", url.path)
    #expect(json.status == 65)
    #expect(json.errors.contains("doubling.archive") && json.errors.contains("JSON values"), "\(json.errors)")
    #expect(keyed("dump", url.path).status == 65)
  }

  /// `$null`, an NSArray of `count` references to entry 2, `shared` at entry 2, then `extra`; `root` the array.
  static func sharing(_ shared: PropertyListValue, count: Int, extra: [PropertyListValue] = []) -> PropertyListValue {
    [
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
      "$objects": .array(
        [
          "$null", ["$class": .uid(3), "NS.objects": .array(Array(repeating: .uid(2), count: count))], shared,
          ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
        ] + extra),
    ]
  }

  @Test("CLI-011: a 1 MB string shared by 20,000 elements is refused by the bytes it would write, at once")
  func sharedStringRefused() throws {
    let value = Self.sharing(.string(String(repeating: "A", count: 1 << 20)), count: 20_000)
    #expect {
      try ArchiveJSON.render(value, pretty: false)
    } throws: { error in
      "\(error)".contains("bytes of strings and data")
    }
    // 10 KB shared 2,000 times (20 MB) is written, the string escaped once.
    let small = try ArchiveJSON.render(
      Self.sharing(.string(String(repeating: "é", count: 5_000)), count: 2_000), pretty: false)
    #expect(small.count == 2 + 2_000 * (5_000 + 2) + 1_999)
  }

  @Test("CLI-011: a small archive may not expand to millions of values (its bound scales with its objects)")
  func smallArchiveBound() throws {
    // 6,000 references to an array of 6,000 references to one object: 36 million values from six entries.
    let value: PropertyListValue = [
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
      "$objects": [
        "$null", ["$class": .uid(4), "NS.objects": .array(Array(repeating: .uid(2), count: 6_000))],
        ["$class": .uid(4), "NS.objects": .array(Array(repeating: .uid(3), count: 6_000))], ["$class": .uid(5)],
        ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
        ["$classname": "Foo", "$classes": ["Foo", "NSObject"]],
      ],
    ]
    #expect {
      try ArchiveJSON.render(value, pretty: false)
    } throws: { error in
      "\(error)".contains("more than 1048576 JSON values")
    }
  }

  @Test("CLI-011: an NSValue is written once per object however often it appears; a range needs numbers")
  func valuesWrittenOnce() throws {
    // A rect whose geometry string (padded to 100 KB) is shared by 2,000 appearances of one NSValue.
    let rect: PropertyListValue = ["$class": .uid(4), "NS.special": 3, "NS.rectval": .uid(5)]
    let value = Self.sharing(
      rect, count: 2_000,
      extra: [
        ["$classname": "NSValue", "$classes": ["NSValue", "NSObject"]],
        .string("{{1, 2}, {3, 4}}" + String(repeating: " ", count: 100_000)),
      ])
    let started = ContinuousClock.now
    let json = try ArchiveJSON.render(value, pretty: false)
    #expect(ContinuousClock.now - started < .seconds(20))
    let one = "{\"$class\":\"NSValue\",\"rect\":[1.0,2.0,3.0,4.0]}"
    #expect(json == "[" + Array(repeating: one, count: 2_000).joined(separator: ",") + "]")
    // A range whose location is an array is no NSValue of a range: it is an object of its own, written once.
    let odd = Self.sharing(
      ["$class": .uid(4), "NS.special": 4, "NS.rangeval.location": .uid(5), "NS.rangeval.length": 0], count: 3,
      extra: [["$classname": "NSValue", "$classes": ["NSValue", "NSObject"]], .array((0..<50).map { .integer($0) })])
    let text = try ArchiveJSON.render(odd, pretty: false)
    #expect(text.components(separatedBy: "\"$ref\":2").count - 1 == 2, "\(text)")
  }

  @Test("CLI-033: dump --raw and convert refuse a raw property list that repeats one 1 MB string 20,000 times")
  func rawSharedStringRefused() throws {
    var raw = RawPropertyList()
    let string = raw.string(String(repeating: "B", count: 1 << 20))
    let top = raw.array(Array(repeating: string, count: 20_000))
    let directory = try makeTemporaryDirectory("raw-sharing")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("shared.plist")
    try Data(raw.bytes(top: UInt64(top))).write(to: url)
    for arguments in [
      ["dump", "--raw", "--json", url.path], ["dump", url.path],
      ["convert", url.path, "-o", directory.appendingPathComponent("out.xml").path, "--format", "xml"],
    ] {
      let result = KeyedTool.run(arguments, standardInput: { Data() })
      #expect(result.status == 65, "\(arguments): \(result.errors)")
      #expect(result.errors.contains("shared.plist") && result.errors.contains("bytes of strings"), "\(result.errors)")
    }
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.xml").path))
  }

  @Test("CLI-011: text that value objects, plain entries, class names and keys write at every appearance is charged")
  func everySharedTextCharged() throws {
    let arrayClass: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]
    func refused(_ value: PropertyListValue, _ what: String) {
      #expect(throws: (any Error).self, "\(what)") { try ArchiveJSON.render(value, pretty: false) }
    }
    // An NSValue rect whose geometry string holds 200,000 numbers, shared by 2,000 appearances: not a rect, so
    // the object it is, written in full once and as $ref after (its geometry is read once, not at each $ref).
    let started = ContinuousClock.now
    let geometry = try ArchiveJSON.render(
      Self.sharing(
        ["$class": .uid(4), "NS.special": 3, "NS.rectval": .uid(5)], count: 2_000,
        extra: [
          ["$classname": "NSValue", "$classes": ["NSValue", "NSObject"]],
          .string(Array(repeating: "1", count: 200_000).joined(separator: " ")),
        ]), pretty: false)
    #expect(geometry.components(separatedBy: "\"NS.rectval\"").count - 1 == 1)
    #expect(geometry.components(separatedBy: "{\"$ref\":").count - 1 == 1_999)
    #expect(ContinuousClock.now - started < .seconds(10))
    // An NSURL of 1 MB shared by 1,000 appearances.
    refused(
      Self.sharing(
        ["$class": .uid(4), "NS.relative": .uid(5)], count: 1_000,
        extra: [
          ["$classname": "NSURL", "$classes": ["NSURL", "NSObject"]],
          .string("https://a.example/" + String(repeating: "p", count: 1 << 20)),
        ]), "NSURL")
    // A plain array entry (no $class) of 100,000 integers behind 1,000 references: 100 million values.
    refused(Self.sharing(.array((0..<100_000).map { .integer($0) }), count: 1_000), "plain array")
    // 1,000 objects of one class whose name is 1 MB, and 1,000 objects sharing one 1 MB key.
    let longName = String(repeating: "C", count: 1 << 20)
    var named: [PropertyListValue] = ["$null", .dictionary(PropertyListDictionary()), arrayClass]
    named.append(["$classname": .string(longName), "$classes": [.string(longName), "NSObject"]])
    named += (0..<1_000).map { _ in ["$class": .uid(3)] }
    named[1] = ["$class": .uid(2), "NS.objects": .array((4..<1_004).map { .uid(UInt64($0)) })]
    refused(
      ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(named)],
      "class names")
    // The same objects with a short class name are written, each in full (no sharing): the bound is on the text.
    named[3] = ["$classname": "C", "$classes": ["C", "NSObject"]]
    let written = try ArchiveJSON.render(
      ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(named)],
      pretty: false)
    #expect(written.components(separatedBy: "{\"$class\":\"C\"}").count - 1 == 1_000)
  }
}

import ArchiveCoding
import ArchiveComparison
import Foundation
import KeyedArchive
import PropertyList
import Testing

/// A note that may share another, or hold one that holds it back (a cycle).
final class LinkedNote: Coding {
  var title: String
  var score: Double
  var next: LinkedNote?
  var tags: Any?

  init(_ title: String, score: Double = 1.5, next: LinkedNote? = nil, tags: Any? = nil) {
    self.title = title
    self.score = score
    self.next = next
    self.tags = tags
  }

  required init(coder: any DecodingCoder) throws {
    title = try coder.decodeString(forKey: "title") ?? ""
    score = try coder.decodeDouble(forKey: "score")
    next = try coder.decodeObject(forKey: "next") as? LinkedNote
    tags = try coder.decodeObject(forKey: "tags")
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(title, forKey: "title")
    coder.encode(score, forKey: "score")
    coder.encodeObject(next, forKey: "next")
    coder.encodeObject(tags, forKey: "tags")
  }
}

/// Comparing an input with an equal one builds one tree (`Specs/ArchiveFormat.md` ARC-314): the second keyed
/// archive is checked against the first's tree while it is walked, and the results are those of comparing two trees.
@Suite("Comparison of equal inputs")
struct ComparisonOfEqualInputsTests {
  struct Pair: CustomStringConvertible, Sendable {
    var name: String
    /// Whether the second input's walk holds what the first's tree holds, node for node.
    var matches: Bool
    var description: String { "\(name): \(matches ? "matches" : "differs")" }
  }

  static func attributed(_ text: String, boldFrom location: Int) -> NSAttributedString {
    let string = NSMutableAttributedString(string: text, attributes: [.init("font"): "Body"])
    string.addAttribute(.init("bold"), value: true, range: NSRange(location: location, length: 3))
    return string
  }

  static func cycle(_ title: String) -> LinkedNote {
    let first = LinkedNote("first")
    first.next = LinkedNote(title, next: first)
    return first
  }

  static func shared(_ title: String) -> [LinkedNote] {
    let note = LinkedNote(title)
    return [note, LinkedNote("other", next: note), note]
  }

  /// The two roots of each row, by name.
  static func values(_ name: String) -> (Any?, Any?) {
    switch name {
    case "strings, numbers and data":
      (
        ["a", 1, 2.5, true, Data([1, 2, 3])] as [Any],
        ["a", 1, 2.5, true, Data([1, 2, 3])] as [Any]
      )
    case "string changed": (["a", "b"], ["a", "c"])
    case "data changed": (Data([1, 2, 3]), Data([1, 2, 4]))
    case "negative zero": (LinkedNote("n", score: 0.0), LinkedNote("n", score: -0.0))
    case "NaN, any payload": (LinkedNote("n", score: .nan), LinkedNote("n", score: -Double.nan))
    case "element inserted": (["a", "b"], ["a", "x", "b"])
    case "element removed": (["a", "b", "c"], ["a", "c"])
    case "class objects": (LinkedNote("one", next: LinkedNote("two")), LinkedNote("one", next: LinkedNote("two")))
    case "field changed deep inside":
      (LinkedNote("one", next: LinkedNote("two")), LinkedNote("one", next: LinkedNote("three")))
    case "shared objects": (shared("s"), shared("s"))
    case "shared differently":
      (shared("s"), [LinkedNote("s"), LinkedNote("other", next: LinkedNote("s")), LinkedNote("s")])
    case "cycle": (cycle("c"), cycle("c"))
    case "cycle changed": (cycle("c"), cycle("d"))
    case "set in another order": (NSSet(array: ["a", "b", "c"]), NSSet(array: ["c", "b", "a"]))
    case "set member changed": (NSSet(array: ["a", "b", "c"]), NSSet(array: ["a", "b", "d"]))
    case "dictionary": (["a": 1, "b": [1, 2]] as NSDictionary, ["b": [1, 2], "a": 1] as NSDictionary)
    case "dictionary value changed": (["a": 1, "b": 2] as NSDictionary, ["a": 1, "b": 3] as NSDictionary)
    case "dictionary key added": (["a": 1] as NSDictionary, ["a": 1, "b": 2] as NSDictionary)
    case "attributed strings": (attributed("Hello world", boldFrom: 0), attributed("Hello world", boldFrom: 0))
    case "attributed string run moved": (attributed("Hello world", boldFrom: 0), attributed("Hello world", boldFrom: 6))
    case "Foundation values":
      (
        [
          TimeZone(secondsFromGMT: 3600) as Any, Locale(identifier: "fr_CA"),
          URL(string: "https://example.com/a") as Any,
        ],
        [
          TimeZone(secondsFromGMT: 3600) as Any, Locale(identifier: "fr_CA"),
          URL(string: "https://example.com/a") as Any,
        ]
      )
    case "Foundation value holding a NaN":
      (
        [Measurement(value: .nan, unit: UnitLength.meters) as Any],
        [Measurement(value: .nan, unit: UnitLength.meters) as Any]
      )
    case "Foundation value changed":
      ([TimeZone(secondsFromGMT: 3600) as Any], [TimeZone(secondsFromGMT: 7200) as Any])
    case "set inside a class object":
      (LinkedNote("t", tags: NSSet(array: [1, 2, 3])), LinkedNote("t", tags: NSSet(array: [3, 2, 1])))
    case "decimal numbers":
      ([Decimal(string: "1.50") as Any, 2] as [Any], [NSDecimalNumber(string: "1.5"), 2 as Int] as [Any])
    case "decimal number changed": ([Decimal(string: "1.5") as Any], [Decimal(string: "1.25") as Any])
    case "array against a string": (LinkedNote("t", tags: ["x"]), LinkedNote("t", tags: "x"))
    case "nil against a value": (LinkedNote("t"), LinkedNote("t", tags: "x"))
    default: (nil, nil)
    }
  }

  static let pairs: [Pair] = [
    Pair(name: "strings, numbers and data", matches: true),
    Pair(name: "string changed", matches: false),
    Pair(name: "data changed", matches: false),
    Pair(name: "negative zero", matches: false),
    Pair(name: "NaN, any payload", matches: false),
    Pair(name: "element inserted", matches: false),
    Pair(name: "element removed", matches: false),
    Pair(name: "class objects", matches: true),
    Pair(name: "field changed deep inside", matches: false),
    Pair(name: "shared objects", matches: true),
    Pair(name: "shared differently", matches: false),
    Pair(name: "cycle", matches: true),
    Pair(name: "cycle changed", matches: false),
    Pair(name: "set in another order", matches: true),
    Pair(name: "set member changed", matches: false),
    Pair(name: "dictionary", matches: true),
    Pair(name: "dictionary value changed", matches: false),
    Pair(name: "dictionary key added", matches: false),
    Pair(name: "attributed strings", matches: true),
    Pair(name: "attributed string run moved", matches: false),
    Pair(name: "Foundation values", matches: true),
    Pair(name: "Foundation value holding a NaN", matches: true),
    Pair(name: "Foundation value changed", matches: false),
    Pair(name: "set inside a class object", matches: true),
    Pair(name: "decimal numbers", matches: true),
    Pair(name: "decimal number changed", matches: false),
    Pair(name: "array against a string", matches: false),
    Pair(name: "nil against a value", matches: false),
  ]

  /// What the comparison reports, all of it, as text.
  static func report(_ differences: [ArchiveDifference]) -> [String] {
    differences.map { "\($0.change) \($0)  old: \(String(describing: $0.old)) new: \(String(describing: $0.new))" }
  }

  /// Whether the walk of `second` holds what the tree of `first` holds, node for node.
  static func matches(_ first: Data, _ second: Data) throws -> Bool {
    let tree = try ComparedDocument.tree(try KeyedArchiveGraph(data: first))
    var walk = KeyedArchiveWalk(try KeyedArchiveGraph(data: second))
    try walk.check()
    var matcher = ComparisonTree.Matcher(tree)
    try walk.visit(&matcher)
    return matcher.matched
  }

  @Test(
    "ARC-314: the second input is checked against the first's tree; the results are those of two trees",
    arguments: pairs)
  func sameResults(_ pair: Pair) throws {
    let (first, second) = Self.values(pair.name)
    for format in [PropertyListFormat.binary, .xml] {
      let a = try KeyedArchiver.archivedData(withRootObject: first)
      let b = try KeyedArchiver.archivedData(withRootObject: second, format: format)
      // XML writes every NaN as `nan`: read back, the second side's NaN is the one the first tree holds.
      let matches = pair.matches || (format == .xml && pair.name == "NaN, any payload")
      #expect(try Self.matches(a, b) == matches, "\(pair), \(format)")
      let checked = try ArchiveComparison.differences(between: a, and: b)
      let twoTrees = try ArchiveComparison.differences(
        between: ComparedDocument(data: a, fileName: "A"), and: ComparedDocument(data: b, fileName: "B"))
      #expect(Self.report(checked) == Self.report(twoTrees), "\(pair), \(format)")
      #expect(checked.isEmpty == (pair.matches || pair.name == "NaN, any payload"), "\(pair): \(checked)")
    }
  }

  @Test("ARC-314: a document compared with itself, and with its own bytes, holds what the first tree holds")
  func itself() throws {
    let notes = (0..<200).map { LinkedNote("note \($0)", score: Double($0), tags: ["t\($0 % 7)"]) }
    let archive = try KeyedArchiver.archivedData(withRootObject: notes)
    #expect(try Self.matches(archive, Data(Array(archive))))
    #expect(try ArchiveComparison.differences(between: archive, and: Data(Array(archive))).isEmpty)
    var changed = notes
    changed[150] = LinkedNote("note 150", score: 150, tags: ["changed"])
    let other = try KeyedArchiver.archivedData(withRootObject: changed)
    #expect(try !Self.matches(archive, other))
    let differences = try ArchiveComparison.differences(between: archive, and: other)
    #expect(Self.report(differences).count == 1)
    #expect(differences.first?.path == "root[150].tags[0]")
  }

  @Test("CLI-190: inputs of a megabyte or more, checked side by side, compare as the same inputs in XML do")
  func largeInputs() throws {
    let notes = (0..<9_000).map { LinkedNote("note \($0), some text", score: Double($0), tags: ["t\($0 % 7)"]) }
    var changed = notes
    changed[6_000] = LinkedNote("note 6000, other text", score: 6_000, tags: ["t\(6_000 % 7)"])
    let (a, b) = try (
      KeyedArchiver.archivedData(withRootObject: notes), KeyedArchiver.archivedData(withRootObject: changed)
    )
    #expect(a.count >= CheckedPropertyList.sideBySideByteCount && b.count >= CheckedPropertyList.sideBySideByteCount)
    // An XML archive is parsed whole, its checks one after the other: the reference.
    let (xmlA, xmlB) = try (
      KeyedArchiver.archivedData(withRootObject: notes, format: .xml),
      KeyedArchiver.archivedData(withRootObject: changed, format: .xml)
    )
    let differences = try ArchiveComparison.differences(between: a, and: b)
    #expect(Self.report(differences) == Self.report(try ArchiveComparison.differences(between: xmlA, and: xmlB)))
    #expect(differences.map(\.path) == ["root[6000].title"])
    #expect(try ArchiveComparison.differences(between: a, and: Data(Array(a))).isEmpty)
    // A second input cut short is refused.
    #expect(throws: ArchiveError.self) { try ArchiveComparison.differences(between: a, and: b.prefix(b.count - 40)) }
  }

  @Test("ARC-314: an input of another kind or a property list is compared as before, its own tree built")
  func otherKinds() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: ["a", "b"])
    let plist = try PropertyListSerialization.data(fromPropertyList: ["a", "b"], format: .binary, options: 0)
    let differences = try ArchiveComparison.differences(between: plist, and: archive)
    #expect(differences.map(\.path) == [ComparedDocument.kindPath])
    #expect(try ArchiveComparison.differences(between: plist, and: plist).isEmpty)
  }
}

import ArchiveCoding
import ArchiveComparison
import ArchiveTesting
import Foundation
import KeyedArchive
import PropertyList
import Testing

/// Decodes to the root of the archive its `replacement` holds, in place of what `value` held: a class whose
/// decoding changes its value, so that a round-trip check compares the archive of `value` with the archive of the
/// replacement (the replacement's bytes are written back unchanged).
final class ReplacingHolder: Coding {
  var value: Any?
  let replacement: Data

  init(value: Any?, replacement: Any?) throws {
    self.value = value
    self.replacement = try KeyedArchiver.archivedData(withRootObject: replacement)
  }

  required init(coder: any DecodingCoder) throws {
    replacement = try coder.decodeData(forKey: "replacement") ?? Data()
    value = try KeyedUnarchiver.unarchivedRootObject(from: replacement)
  }

  func encode(with coder: any EncodingCoder) {
    coder.encodeObject(value, forKey: "value")
    coder.encode(replacement, forKey: "replacement")
  }
}

/// A record whose `note` is written as `$null` when it is nil and `writesNil` is set, else left out.
final class OptionalNote: Coding {
  var note: Any?
  var writesNil: Bool

  init(note: Any?, writesNil: Bool) {
    self.note = note
    self.writesNil = writesNil
  }

  required init(coder: any DecodingCoder) throws {
    note = try coder.decodeObject(forKey: "note")
    writesNil = note == nil && coder.containsValue(forKey: "note")
  }

  func encode(with coder: any EncodingCoder) {
    if note != nil || writesNil { coder.encodeObject(note, forKey: "note") }
  }
}

/// A note identified by `id` (an identity key, ARC-305).
final class IdentifiedNote: Coding {
  var id: Int
  var title: String

  init(_ id: Int, _ title: String) {
    self.id = id
    self.title = title
  }

  required init(coder: any DecodingCoder) throws {
    id = try coder.decodeInt(forKey: "id")
    title = try coder.decodeString(forKey: "title") ?? ""
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(id, forKey: "id")
    coder.encode(title, forKey: "title")
  }
}

/// `#37`'s table (`Specs/ArchiveFormat.md` ARC-300…ARC-313): on every pair of values, `keyed diff` (the built
/// executable), `GoldenArchive` and `ArchiveRoundTrip` give the same verdict, the one the table expects.
@Suite("One comparison for everyone")
struct ComparisonAgreementTests {
  init() {
    ClassRegistry.shared.register(ReplacingHolder.self, as: "ReplacingHolder")
    ClassRegistry.shared.register(OptionalNote.self, as: "OptionalNote")
    ClassRegistry.shared.register(IdentifiedNote.self, as: "IdentifiedNote")
  }

  /// One row: two values, whether they mean the same, and the rule that says so.
  struct Pair: CustomStringConvertible, Sendable {
    var name: String
    var rule: String
    var equal: Bool
    var description: String { "\(rule) \(name): \(equal ? "equal" : "differ")" }
  }

  static func attributed(_ text: String, bold: NSRange?) -> NSAttributedString {
    let string = NSMutableAttributedString(string: text, attributes: [.init("font"): "Body"])
    if let bold { string.addAttribute(.init("bold"), value: true, range: bold) }
    return string
  }

  static func components(day: Int) -> DateComponents { DateComponents(year: 2024, month: 2, day: day) }

  static func person(_ given: String) -> PersonNameComponents {
    var name = PersonNameComponents()
    name.givenName = given
    name.familyName = "Lovelace"
    return name
  }

  static func url(_ text: String, base: String? = nil) -> URL? {
    URL(string: text, relativeTo: base.flatMap { URL(string: $0) })
  }

  /// The two values of each row, by name (values are made when a test runs: most are not `Sendable`).
  static func values(_ name: String) -> (Any?, Any?) {
    switch name {
    case "string": ("Dune", "Dune")
    case "string changed": ("Dune", "Emma")
    case "time zone by offset": (TimeZone(secondsFromGMT: 3600), TimeZone(secondsFromGMT: 3600))
    case "time zone changed": (TimeZone(secondsFromGMT: 3600), TimeZone(secondsFromGMT: 7200))
    case "locale": (Locale(identifier: "fr_CA"), Locale(identifier: "fr_CA"))
    case "locale changed": (Locale(identifier: "fr_CA"), Locale(identifier: "en_US"))
    case "calendar": (Calendar(identifier: .gregorian), Calendar(identifier: .gregorian))
    case "calendar changed": (Calendar(identifier: .gregorian), Calendar(identifier: .buddhist))
    case "UUID":
      (
        UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
        UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
      )
    case "UUID changed":
      (
        UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
        UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E50")
      )
    case "URL relative to a base": (url("b/c", base: "https://example.com/a/"), url("https://example.com/a/b/c"))
    case "URL changed": (url("https://example.com/a"), url("https://example.com/b"))
    case "date": (Date(timeIntervalSinceReferenceDate: 1), Date(timeIntervalSince1970: 978_307_201))
    case "date changed": (Date(timeIntervalSinceReferenceDate: 1), Date(timeIntervalSinceReferenceDate: 2))
    case "data": (Data([1, 2, 3]), NSMutableData(bytes: [1, 2, 3] as [UInt8], length: 3))
    case "data changed": (Data([1, 2, 3]), Data([1, 2, 4]))
    case "measurement":
      (Measurement(value: 3.5, unit: UnitLength.kilometers), Measurement(value: 3.5, unit: UnitLength.kilometers))
    case "measurement unit changed":
      (Measurement(value: 3.5, unit: UnitLength.kilometers), Measurement(value: 3.5, unit: UnitLength.meters))
    case "decimal with trailing zeros": (Decimal(string: "1.50"), Decimal(string: "1.5"))
    case "decimal changed": (Decimal(string: "1.5"), Decimal(string: "-1.5"))
    case "date components": (components(day: 29), components(day: 29))
    case "date components changed": (components(day: 29), components(day: 28))
    case "person name": (person("Ada"), person("Ada"))
    case "person name changed": (person("Ada"), person("Augusta"))
    case "index set": (IndexSet([1, 2, 3, 7]), IndexSet([7, 3, 2, 1]))
    case "index set changed": (IndexSet([1, 2, 3]), IndexSet([1, 2, 4]))
    case "index path": (IndexPath(indexes: [0, 3, 5]), IndexPath(indexes: [0, 3, 5]))
    case "index path changed": (IndexPath(indexes: [0, 3, 5]), IndexPath(indexes: [0, 3, 6]))
    case "character set": (CharacterSet(charactersIn: "abc"), CharacterSet(charactersIn: "abc"))
    case "character set changed": (CharacterSet(charactersIn: "abc"), CharacterSet(charactersIn: "abd"))
    case "decimal": (Decimal(string: "1.5"), NSDecimalNumber(string: "1.5"))
    case "decimal changed": (Decimal(string: "1.5"), Decimal(string: "1.25"))
    case "NSNull": (NSNull(), NSNull())
    case "NSNull against nil":
      (OptionalNote(note: NSNull(), writesNil: false), OptionalNote(note: nil, writesNil: true))
    case "nil against absent": (OptionalNote(note: nil, writesNil: true), OptionalNote(note: nil, writesNil: false))
    case "nil against nil": (OptionalNote(note: nil, writesNil: true), OptionalNote(note: nil, writesNil: true))
    case "mutable and immutable array": (["a", "b"] as NSArray, NSMutableArray(array: ["a", "b"]))
    case "set in another order": (NSSet(array: ["a", "b", "c"]), NSSet(array: ["c", "b", "a"]))
    case "set member changed": (NSSet(array: ["a", "b", "c"]), NSSet(array: ["a", "b", "d"]))
    case "dictionary in another order":
      (["a": 1, "b": 2] as NSDictionary, NSDictionary(objects: [2, 1], forKeys: ["b", "a"] as [NSString]))
    case "elements reordered": (["a", "b", "c", "d"], ["b", "c", "d", "a"])
    case "element inserted": (["a", "b", "c"], ["a", "x", "b", "c"])
    case "element deleted": (["a", "b", "c"], ["a", "c"])
    case "objects swapped":
      ([IdentifiedNote(1, "one"), IdentifiedNote(2, "two")], [IdentifiedNote(2, "two"), IdentifiedNote(1, "one")])
    case "attributed string":
      (
        attributed("Hello world", bold: NSRange(location: 0, length: 5)),
        attributed("Hello world", bold: NSRange(location: 0, length: 5))
      )
    case "attributed string run changed":
      (
        attributed("Hello world", bold: NSRange(location: 0, length: 5)),
        attributed("Hello world", bold: NSRange(location: 6, length: 5))
      )
    case "attributed string text changed": (attributed("Hello world", bold: nil), attributed("Hello there", bold: nil))
    default: (nil, nil)
    }
  }

  static let pairs: [Pair] = [
    Pair(name: "string", rule: "ARC-300", equal: true),
    Pair(name: "string changed", rule: "ARC-300", equal: false),
    Pair(name: "time zone by offset", rule: "ARC-303", equal: true),
    Pair(name: "time zone changed", rule: "ARC-303", equal: false),
    Pair(name: "locale", rule: "ARC-303", equal: true),
    Pair(name: "locale changed", rule: "ARC-303", equal: false),
    Pair(name: "calendar", rule: "ARC-303", equal: true),
    Pair(name: "calendar changed", rule: "ARC-303", equal: false),
    Pair(name: "UUID", rule: "ARC-303", equal: true),
    Pair(name: "UUID changed", rule: "ARC-303", equal: false),
    Pair(name: "URL relative to a base", rule: "ARC-303", equal: true),
    Pair(name: "URL changed", rule: "ARC-303", equal: false),
    Pair(name: "date", rule: "ARC-303", equal: true),
    Pair(name: "date changed", rule: "ARC-303", equal: false),
    Pair(name: "data", rule: "ARC-303", equal: true),
    Pair(name: "data changed", rule: "ARC-303", equal: false),
    Pair(name: "measurement", rule: "ARC-303", equal: true),
    Pair(name: "measurement unit changed", rule: "ARC-303", equal: false),
    Pair(name: "decimal with trailing zeros", rule: "ARC-330", equal: true),
    Pair(name: "decimal changed", rule: "ARC-330", equal: false),
    Pair(name: "date components", rule: "ARC-303", equal: true),
    Pair(name: "date components changed", rule: "ARC-303", equal: false),
    Pair(name: "person name", rule: "ARC-303", equal: true),
    Pair(name: "person name changed", rule: "ARC-303", equal: false),
    Pair(name: "index set", rule: "ARC-303", equal: true),
    Pair(name: "index set changed", rule: "ARC-303", equal: false),
    Pair(name: "index path", rule: "ARC-303", equal: true),
    Pair(name: "index path changed", rule: "ARC-303", equal: false),
    Pair(name: "character set", rule: "ARC-303", equal: true),
    Pair(name: "character set changed", rule: "ARC-303", equal: false),
    Pair(name: "decimal", rule: "ARC-303", equal: true),
    Pair(name: "decimal changed", rule: "ARC-303", equal: false),
    Pair(name: "NSNull", rule: "ARC-303", equal: true),
    Pair(name: "NSNull against nil", rule: "ARC-302", equal: false),
    Pair(name: "nil against absent", rule: "ARC-302", equal: false),
    Pair(name: "nil against nil", rule: "ARC-302", equal: true),
    Pair(name: "mutable and immutable array", rule: "ARC-301", equal: true),
    Pair(name: "set in another order", rule: "ARC-301", equal: true),
    Pair(name: "set member changed", rule: "ARC-301", equal: false),
    Pair(name: "dictionary in another order", rule: "ARC-301", equal: true),
    Pair(name: "elements reordered", rule: "ARC-304", equal: false),
    Pair(name: "element inserted", rule: "ARC-304", equal: false),
    Pair(name: "element deleted", rule: "ARC-304", equal: false),
    Pair(name: "objects swapped", rule: "ARC-304", equal: false),
    Pair(name: "attributed string", rule: "ARC-306", equal: true),
    Pair(name: "attributed string run changed", rule: "ARC-306", equal: false),
    Pair(name: "attributed string text changed", rule: "ARC-306", equal: false),
  ]

  @Test("ARC-300, ARC-313: keyed diff, GoldenArchive and ArchiveRoundTrip give the same verdict", arguments: pairs)
  func sameVerdict(_ pair: Pair) throws {
    let (first, second) = Self.values(pair.name)
    let archiveA = try KeyedArchiver.archivedData(withRootObject: first)
    let archiveB = try KeyedArchiver.archivedData(withRootObject: second, format: .xml)
    let (directory, paths) = try DiffTests.write([("a.plist", archiveA), ("b.plist", archiveB)])
    defer { try? FileManager.default.removeItem(at: directory) }

    // keyed diff, the built executable.
    let diff = try runExecutable(["diff", paths[0], paths[1]])
    #expect(diff.status == (pair.equal ? 0 : 1), "\(pair): \(diff.output)\(diff.errors)")
    #expect(diff.output.isEmpty == pair.equal, "\(pair): \(diff.output)")

    // GoldenArchive: A recorded as the golden file, B checked against it.
    let golden = directory.appendingPathComponent("golden.plist")
    try GoldenArchive.check(archiveA, against: golden, record: true)
    var goldenVerdict = true
    do {
      try GoldenArchive.check(archiveB, against: golden, record: false)
    } catch let error as ArchiveError where error.code == .goldenMismatch {
      goldenVerdict = false
    }
    #expect(goldenVerdict == pair.equal, "\(pair): GoldenArchive")

    // ArchiveRoundTrip: a holder of A that decodes to B.
    var roundTripVerdict = true
    do {
      try ArchiveRoundTrip.check(try ReplacingHolder(value: first, replacement: second))
    } catch let error as ArchiveError where error.code == .roundTripMismatch {
      roundTripVerdict = false
      // The differences are B's against A's, under the holder's `value`.
      #expect(error.message.contains("root.value"), "\(pair): \(error)")
    }
    #expect(roundTripVerdict == pair.equal, "\(pair): ArchiveRoundTrip")
  }

  @Test("ARC-304: an insert, a delete and a move are one line each; ARC-305: objects align by an identity key")
  func alignment() throws {
    func lines(_ a: Any, _ b: Any, options: ArchiveComparison.Options = .init()) throws -> [String] {
      try ArchiveComparison.differences(
        between: KeyedArchiver.archivedData(withRootObject: a), and: KeyedArchiver.archivedData(withRootObject: b),
        options: options
      ).map(\.description)
    }
    #expect(try lines(["a", "b", "c"], ["a", "x", "b", "c"]) == [#"root[1]: (absent) -> "x""#])
    #expect(try lines(["a", "b", "c"], ["a", "c"]) == [#"root[1]: "b" -> (absent)"#])
    #expect(try lines(["a", "b", "c", "d"], ["b", "c", "d", "a"]) == [#"root[0]: "a" -> (moved to root[3])"#])
    // Without an identity key, a note whose title changed and that moved is a removal and an insertion.
    let before = [IdentifiedNote(1, "one"), IdentifiedNote(2, "two"), IdentifiedNote(3, "three")]
    let after = [IdentifiedNote(2, "two"), IdentifiedNote(3, "three"), IdentifiedNote(1, "uno")]
    let byValue = try lines(before, after)
    #expect(byValue.count == 2, "\(byValue)")
    // With `id` as IdentifiedNote's identity key: one move and the changed title.
    let byID = try lines(before, after, options: .init(identityKeys: ["IdentifiedNote": "id"]))
    #expect(
      byID == [
        #"root[0]: {"$class":"IdentifiedNote","id":1,"title":"one"} -> (moved to root[2])"#,
        #"root[0].title: "one" -> "uno""#,
      ])
  }

  @Test("ARC-306: attributed strings compare as text and attribute runs, not as NSAttributeInfo bytes")
  func attributedStrings() throws {
    let a = try KeyedArchiver.archivedData(
      withRootObject: Self.attributed("Hello world", bold: NSRange(location: 0, length: 5)))
    let b = try KeyedArchiver.archivedData(
      withRootObject: Self.attributed("Hello world", bold: NSRange(location: 6, length: 5)))
    let differences = try ArchiveComparison.differences(between: a, and: b)
    #expect(!differences.isEmpty)
    #expect(differences.allSatisfy { $0.path.hasPrefix("root.runs") }, "\(differences)")
    #expect(!differences.contains { $0.path.contains("NSAttributeInfo") })
    // Foundation's archive of the same attributed string compares equal to ours.
    let theirs = FoundationOracle.archive(Self.attributed("Hello world", bold: NSRange(location: 0, length: 5)))
    #expect(try ArchiveComparison.differences(between: a, and: theirs).isEmpty)
  }

  @Test("ARC-310: a difference is a typed value: its kind, and each side's kind, class and canonical JSON")
  func typedDifferences() throws {
    let a = try KeyedArchiver.archivedData(withRootObject: OptionalNote(note: nil, writesNil: true))
    let b = try KeyedArchiver.archivedData(withRootObject: OptionalNote(note: nil, writesNil: false))
    let removed = try #require(try ArchiveComparison.differences(between: a, and: b).first)
    #expect(removed.path == "root.note")
    #expect(removed.change == .removed)
    #expect(removed.old == .init(kind: .null, json: "null"))
    #expect(removed.new == nil)
    let c = try KeyedArchiver.archivedData(withRootObject: OptionalNote(note: IdentifiedNote(1, "x"), writesNil: false))
    let changed = try #require(try ArchiveComparison.differences(between: a, and: c).first)
    #expect(changed.change == .changed)
    #expect(changed.new?.kind == .object)
    #expect(changed.new?.className == "IdentifiedNote")
  }
}

extension ComparisonAgreementTests {
  @Test("CLI-081, ARC-305: keyed diff --identity aligns objects of a class by a field; a malformed value exits 64")
  func identityOption() throws {
    let before = [IdentifiedNote(1, "one"), IdentifiedNote(2, "two"), IdentifiedNote(3, "three")]
    let after = [IdentifiedNote(2, "two"), IdentifiedNote(3, "three"), IdentifiedNote(1, "uno")]
    let (directory, paths) = try DiffTests.write([
      ("a.plist", try KeyedArchiver.archivedData(withRootObject: before)),
      ("b.plist", try KeyedArchiver.archivedData(withRootObject: after)),
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runExecutable(["diff", "--identity", "IdentifiedNote=id", paths[0], paths[1]])
    #expect(result.status == 1)
    #expect(
      result.output
        == #"root[0]: {"$class":"IdentifiedNote","id":1,"title":"one"} -> (moved to root[2])"# + "\n"
        + #"root[0].title: "one" -> "uno""# + "\n")
    let json = try runExecutable(["diff", "--json", "--identity", "IdentifiedNote=id", paths[0], paths[1]])
    #expect(json.output.contains(#""movedTo":"root[2]""#), "\(json.output)")
    #expect(try runExecutable(["diff", "--identity", "IdentifiedNote", paths[0], paths[1]]).status == 64)
  }
}

extension ComparisonAgreementTests {
  @Test("ARC-304: arrays past the alignment bound align by anchors; a reversed array is one move per element but one")
  func boundedAlignment() throws {
    let forward = (0..<3_000).map { "item \($0)" }
    let reversed = Array(forward.reversed())
    let a = try KeyedArchiver.archivedData(withRootObject: forward)
    let b = try KeyedArchiver.archivedData(withRootObject: reversed)
    // 3,000 × 3,000 pairs is past a bound of 1,000,000: the anchored alignment pairs all but one element as moves.
    let bounded = try ArchiveComparison.differences(between: a, and: b, options: .init(maxAlignedPairs: 1_000_000))
    #expect(bounded.count == forward.count - 1, "\(bounded.prefix(3))")
    #expect(bounded.allSatisfy { $0.change == .moved })
    // Within the bound, the common subsequence gives the same verdict.
    let aligned = try ArchiveComparison.differences(between: a, and: b)
    #expect(aligned.count == forward.count - 1)
    #expect(try ArchiveComparison.differences(between: a, and: a, options: .init(maxAlignedPairs: 0)).isEmpty)
  }
}

extension ComparisonAgreementTests {
  /// An archive of `depth` class objects, each holding the next in `child`, the last holding `leaf`.
  static func chain(depth: Int, leaf: String) throws -> Data {
    // $objects: 1…depth the nodes, depth + 1 their class, depth + 2 the leaf string.
    var objects: [PropertyListValue] = (1...depth).map { index in
      [
        "$class": .uid(UInt64(depth + 1)),
        "child": .uid(UInt64(index < depth ? index + 1 : depth + 2)),
      ]
    }
    objects.append(DumpOrderTests.classDescription("Node"))
    objects.append(.string(leaf))
    return try BinaryPropertyListWriter.write(DumpOrderTests.archive(objects, top: ["root": 1]))
  }

  @Test("CLI-083: both inputs of keyed diff meet the same bounds of nesting, walked one after the other")
  func deepInputs() throws {
    let (directory, paths) = try DiffTests.write([
      ("a.plist", try Self.chain(depth: 1_500, leaf: "end")), ("b.plist", try Self.chain(depth: 1_500, leaf: "fin")),
      ("c.plist", try Self.chain(depth: 2_500, leaf: "end")),
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(try runExecutable(["diff", paths[0], paths[0]]).status == 0)
    let changed = try runExecutable(["diff", paths[0], paths[1]])
    #expect(changed.status == 1)
    #expect(changed.output.hasPrefix("root" + String(repeating: ".child", count: 1_500) + ": \"end\" -> \"fin\""))
    // Past the nesting bound (ExpansionBound.maxDepth), whichever side it is on: 65, naming the file.
    let deepFirst = try runExecutable(["diff", paths[2], paths[0]])
    let deepSecond = try runExecutable(["diff", paths[0], paths[2]])
    #expect(deepFirst.status == 65, "\(deepFirst.errors)")
    #expect(deepSecond.status == 65, "\(deepSecond.errors)")
    #expect(deepFirst.errors.contains("c.plist") && deepSecond.errors.contains("c.plist"))
  }
}

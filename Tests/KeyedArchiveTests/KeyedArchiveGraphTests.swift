import ArchiveCoding
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// The graph view every structural reader of a keyed archive goes through (the compiled-nib front end, `keyed dump`,
/// `ValueSnapshot(archive:)`, `FoundationOracle`): the container it accepts, the errors it gives for hostile ones,
/// and that it reads a valid archive as ``KeyedUnarchiver`` does.
@Suite("KeyedArchiveGraph")
struct KeyedArchiveGraphTests {
  /// A keyed archive of `objects` with `root` = `$objects[root]`, the top-level keys replaced by `container` where
  /// it gives them (`nil` removes a key).
  static func archive(
    _ objects: [PropertyListValue], root: UInt64 = 1, container: [String: PropertyListValue?] = [:],
    format: PropertyListFormat = .binary
  ) throws -> Data {
    let pairs: [(PropertyListValue, PropertyListValue)] = [
      ("$archiver", "NSKeyedArchiver"), ("$version", 100_000), ("$top", ["root": .uid(root)]),
      ("$objects", .array(objects)),
    ]
    var top = PropertyListDictionary(pairs)
    for (key, value) in container { top[key] = value }
    return try PropertyListWriter.write(.dictionary(top), format: format)
  }

  /// A class description: `$classname` and the `$classes` chain.
  static func classDescription(_ chain: String...) -> PropertyListValue {
    ["$classname": .string(chain[0]), "$classes": .array(chain.map { .string($0) })]
  }

  /// `$null`, an object of class `Thing` (1) with a string field and a reference to a second object (3), the
  /// description (2), the second object, whose class is `Thing` too.
  static let objects: [PropertyListValue] = [
    "$null", ["$class": .uid(2), "name": "first", "next": .uid(3), "$$dollar": 1],
    classDescription("Thing", "NSObject"), ["$class": .uid(2), "name": "second", "next": .uid(0)],
  ]

  /// The error opening or walking `data` throws (every entry, every field), or `nil`.
  static func error(_ data: Data) -> ArchiveError? {
    do {
      var graph = try KeyedArchiveGraph(data: data)
      _ = try graph.topLevelFields()
      for index in 0..<graph.objectCount { _ = try graph.entry(index) }
      return nil
    } catch let error as ArchiveError {
      return error
    } catch {
      Issue.record("not an ArchiveError: \(error)")
      return nil
    }
  }

  // MARK: Valid archives

  @Test("ARC-020: the container's top-level keys, object count and entry kinds", arguments: PropertyListFormat.allCases)
  func readsContainer(format: PropertyListFormat) throws {
    var graph = try KeyedArchiveGraph(data: Self.archive(Self.objects, format: format))
    #expect(graph.objectCount == 4)
    #expect(try graph.topLevelKeys() == ["root"])
    #expect(try graph.topLevelFields().first?.value == .uid(1))
    #expect(try (0..<4).map { try graph.kind(of: $0) } == [.null, .classObject, .dictionary, .classObject])
    guard case .object(let first) = try graph.entry(1) else {
      Issue.record("object 1 is not an object")
      return
    }
    #expect(first.className == "Thing")
    #expect(first.classDescription.chain == ["Thing", "NSObject"])
    #expect(first.classDescription.index == 2)
    #expect(first["name"] == "first")
    #expect(first["next"] == .uid(3))
    #expect(first.storedFields.map(\.key) == ["name", "next", "$$dollar"])
    #expect(first.storedFields.map { KeyedArchiveGraph.unescaped($0.key) } == ["name", "next", "$dollar"])
  }

  @Test("ARC-023: UID 0 and every $null string entry are null; strings, numbers and data are plain values")
  func plainEntries() throws {
    let data = try Self.archive([
      "$null", ["$class": .uid(2), "a": .uid(3)], Self.classDescription("T"), "$null", "s", 7, .data(Data([1])),
    ])
    let graph = try KeyedArchiveGraph(data: data)
    #expect(
      try (0..<7).map { try graph.kind(of: $0) } == [.null, .classObject, .dictionary, .null, .string, .scalar, .data])
    #expect(try graph.plainValue(of: 3) == nil)
    #expect(try graph.plainValue(of: 4) == "s")
    #expect(try graph.plainValue(of: 5) == 7)
    #expect(try graph.plainValue(of: 6) == .data(Data([1])))
  }

  @Test("ARC-024: a KeyedArchiver archive reads through the graph as the unarchiver decodes it")
  func sameAsUnarchiver() throws {
    let leaf = ArchivedObject(
      className: "Leaf", classChain: ["Leaf", "Base", "NSObject"], fields: [.init(key: "label", value: .value("leaf"))])
    let root = ArchivedObject(
      className: "Node", classChain: ["Node", "NSObject"],
      fields: [
        .init(key: "title", value: .value("root")), .init(key: "count", value: .value(3)),
        .init(key: "child", value: .object(leaf)), .init(key: "items", value: .objects([leaf, "text"])),
      ])
    let data = try KeyedArchiver.archivedData(withRootObject: root)
    var graph = try KeyedArchiveGraph(data: data)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.decodesUnknownClassesGenerically = true
    let decoded = try #require(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? ArchivedObject)
    #expect(graph.objectCount == unarchiver.objectCount)
    let rootField = try #require(try graph.topLevelFields().first)
    guard case .uid(let rootUID) = rootField.value, case .object(let object) = try graph.entry(Int(rootUID)) else {
      Issue.record("the root is not an object")
      return
    }
    #expect(object.className == decoded.className)
    #expect(object.classDescription.chain == decoded.classChain)
    #expect(object.storedFields.map(\.key) == decoded.fields.map(\.key))
    #expect(object["title"] == "root" && object["count"] == 3)
    // The child is one object, reached from the field and from the array.
    guard case .uid(let childUID)? = object["child"], case .array(let items)? = object["items"] else {
      Issue.record("child and items are not references")
      return
    }
    #expect(items.first == .uid(childUID))
    guard case .object(let child) = try graph.entry(Int(childUID)), case .object(let decodedChild)? = decoded["child"],
      let decodedLeaf = decodedChild as? ArchivedObject
    else {
      Issue.record("the child is not an object")
      return
    }
    #expect(child.className == decodedLeaf.className)
    #expect(child.classDescription.chain == decodedLeaf.classChain)
    #expect(child["label"] == "leaf")
    guard case .uid(let textUID)? = items.last else {
      Issue.record("the string is not a reference")
      return
    }
    #expect(try graph.plainValue(of: Int(textUID)) == "text")
  }

  // MARK: Hostile containers

  @Test(
    "ARC-020: a missing or mistyped container key is refused naming the key",
    arguments: [
      ("$objects", nil, ArchiveError.Code.corruptData), ("$objects", ["$null": 0], .corruptData),
      ("$top", nil, .corruptData), ("$top", .array([]), .corruptData), ("$archiver", nil, .unsupportedFormat),
      ("$archiver", "NSArchiver", .unsupportedFormat), ("$version", 99_999, .unsupportedFormat),
      ("$version", nil, .unsupportedFormat),
    ] as [(String, PropertyListValue?, ArchiveError.Code)])
  func containerRefused(key: String, value: PropertyListValue?, code: ArchiveError.Code) throws {
    let data = try Self.archive(Self.objects, container: [key: value])
    let error = try #require(Self.error(data))
    #expect(error.code == code)
    #expect(error.location.keyPath == key || error.message.contains(key), "\(error)")
  }

  @Test("ARC-020: a top level that is not a dictionary is not a keyed archive")
  func topLevelNotADictionary() throws {
    let error = try #require(Self.error(try PropertyListWriter.write(["$archiver", "$objects"])))
    #expect(error.code == .unsupportedFormat)
  }

  @Test(
    "ARC-020: $objects[0] must be the $null marker",
    arguments: [
      [] as [PropertyListValue], ["null"], [7], [["$class": .uid(0)]],
    ])
  func nullMarkerRequired(objects: [PropertyListValue]) throws {
    let error = try #require(Self.error(try Self.archive(objects, root: 0)))
    #expect(error.code == .corruptData)
    #expect(error.location.objectIndex == 0 && error.location.keyPath == "$objects", "\(error)")
    #expect(error.message.contains("$null"))
  }

  @Test("ARC-042: a UID past $objects is refused naming the object, class and key, up to 2^64 - 1")
  func referenceOutOfRange() throws {
    for raw: UInt64 in [4, 1 << 63, .max] {
      let objects: [PropertyListValue] = [
        "$null", ["$class": .uid(2), "f": .uid(raw)], Self.classDescription("Foo"), 1,
      ]
      let error = try #require(Self.error(try Self.archive(objects)))
      #expect(error.code == .corruptData)
      #expect(error.location.objectIndex == 1 && error.location.className == "Foo" && error.location.keyPath == "f")
      #expect(error.message.contains("object #\(raw)"))
      // Inside an inline array too, and in $top.
      let inArray: [PropertyListValue] = [
        "$null", ["$class": .uid(2), "f": [.uid(raw)]], Self.classDescription("Foo"),
      ]
      #expect(Self.error(try Self.archive(inArray))?.location.keyPath == "f")
      #expect(Self.error(try Self.archive(Self.objects, root: raw))?.location.keyPath == "root")
    }
  }

  @Test(
    "ARC-042: a $class that is not a UID of a class description is corrupt data naming the object and $class",
    arguments: [
      ("the object itself", ["$null", ["$class": .uid(1)]]),
      ("a reference cycle of two objects as each other's class", ["$null", ["$class": .uid(2)], ["$class": .uid(1)]]),
      ("$null", ["$null", ["$class": .uid(0)]]),
      ("a string", ["$null", ["$class": "Thing"]]),
      ("a string entry", ["$null", ["$class": .uid(2)], "Thing"]),
      ("past $objects", ["$null", ["$class": .uid(9)]]),
      ("a description without $classname", ["$null", ["$class": .uid(2)], ["$classes": ["Thing"]]]),
    ] as [(String, [PropertyListValue])])
  func classReferenceRefused(what: String, objects: [PropertyListValue]) throws {
    let error = try #require(Self.error(try Self.archive(objects)), "\(what)")
    #expect(error.code == .corruptData, "\(what): \(error)")
    #expect(error.location.objectIndex == 1 && error.location.keyPath == "$class", "\(what): \(error)")
  }

  @Test(
    "ARC-042: $classes or $classhints that is not an array of strings is corrupt data naming the description",
    arguments: [
      ["$classname": "Thing", "$classes": "Thing"], ["$classname": "Thing", "$classes": ["Thing", 7]],
      ["$classname": "Thing", "$classes": ["Thing", .uid(0)]], ["$classname": "Thing", "$classhints": ["a": "b"]],
    ] as [PropertyListValue])
  func classListsRefused(description: PropertyListValue) throws {
    let error = try #require(Self.error(try Self.archive(["$null", ["$class": .uid(2)], description])))
    #expect(error.code == .corruptData)
    #expect(error.message.contains("class description #2") && error.message.contains("array of class names"))
    #expect(error.location.objectIndex == 1)
  }

  @Test("ARC-043: a $classes list past the limit is limitExceeded, read once however many descriptions share it")
  func classListLimit() throws {
    var options = KeyedUnarchiverOptions.default
    options.maxClassChainLength = 3
    let long = Self.classDescription("A", "B", "C", "D")
    let data = try Self.archive(["$null", ["$class": .uid(2)], long])
    #expect(throws: ArchiveError.self) {
      var limited = try KeyedArchiveGraph(data: data, options: options)
      _ = try limited.entry(1)
    }
    var graph = try KeyedArchiveGraph(data: data)
    #expect(try graph.classDescription(ofObject: 1).chain == ["A", "B", "C", "D"])
  }

  @Test("ARC-024: a UID as an $objects entry is corrupt data naming the entry")
  func uidEntry() throws {
    let error = try #require(Self.error(try Self.archive(["$null", .uid(0)])))
    #expect(error.code == .corruptData && error.location.objectIndex == 1)
  }

  @Test("ARC-041: truncated and bit-flipped copies of an archive fail with an ArchiveError or read")
  func mutations() throws {
    let data = try Self.archive(Self.objects)
    for length in stride(from: 0, to: data.count, by: 3) { _ = Self.error(data.prefix(length)) }
    for position in 0..<data.count {
      var flipped = data
      flipped[position] ^= 0x41
      _ = Self.error(flipped)
    }
  }
}

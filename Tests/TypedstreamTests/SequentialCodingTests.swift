import ArchiveCoding
import ArchiveTesting
import Foundation
import KeyedArchive
import Testing

@testable import Typedstream

/// A class whose one `init(coder:)` and `encode(with:)` serve keyed archives and typedstreams, asking the coder
/// which it is, as Apple's classes do.
final class Bookmark: Coding {
  var title: String
  var visits: Int32
  var rating: Float
  var tags: [Any]
  var next: Bookmark?

  init(title: String, visits: Int32, rating: Float, tags: [Any], next: Bookmark? = nil) {
    self.title = title
    self.visits = visits
    self.rating = rating
    self.tags = tags
    self.next = next
  }

  required init(coder: any DecodingCoder) throws {
    if coder.allowsKeyedCoding {
      title = try coder.decodeString(forKey: "title") ?? ""
      visits = try coder.decodeInt32(forKey: "visits")
      rating = try coder.decodeFloat(forKey: "rating")
      tags = try coder.decodeObject(of: [Any].self, forKey: "tags") ?? []
      next = try coder.decodeObject(of: Bookmark.self, forKey: "next")
    } else {
      title = try coder.decodeObject(of: String.self) ?? ""
      let values = try coder.decodeValues(ofObjCTypes: "if")
      visits = Int32(truncatingIfNeeded: values[0].integerValue ?? 0)
      rating = Float(values[1].realValue ?? 0)
      tags = try coder.decodeObject(of: [Any].self) ?? []
      next = try coder.decodeObject(of: Bookmark.self)
    }
  }

  func encode(with coder: any EncodingCoder) {
    if coder.allowsKeyedCoding {
      coder.encode(title, forKey: "title")
      coder.encode(visits, forKey: "visits")
      coder.encode(rating, forKey: "rating")
      coder.encodeObject(tags, forKey: "tags")
      coder.encodeObject(next, forKey: "next")
    } else {
      coder.encode(title)
      coder.encodeValues([.integer(Int64(visits)), .float(rating)], ofObjCTypes: "if")
      coder.encode(tags)
      coder.encode(next)
    }
  }
}

@Suite("Sequential coding")
struct SequentialCodingTests {
  init() { ClassRegistry.shared.register(Bookmark.self, as: "Bookmark") }

  private func snapshot(_ value: Any?) -> ValueSnapshot { ValueSnapshot(of: value) }

  private func expectSame(_ actual: Any?, _ expected: Any?, sourceLocation: SourceLocation = #_sourceLocation) {
    let difference = ValueSnapshot.difference(expected: snapshot(expected), actual: snapshot(actual))
    #expect(difference == nil, "\(String(describing: difference))", sourceLocation: sourceLocation)
  }

  @Test(
    "COD-121: one init(coder:) reads a keyed archive and a typedstream, asking allowsKeyedCoding",
    arguments: [TypedstreamByteOrder.little, .big])
  func oneInitialiserReadsBothFormats(_ order: TypedstreamByteOrder) throws {
    let root = Bookmark(
      title: "Swift", visits: -70_000, rating: 4.5, tags: ["lang", 7],
      next: Bookmark(title: "Linux", visits: 3, rating: 0.25, tags: []))
    let stream = try TypedstreamArchiver.archivedData(withRootObject: root, byteOrder: order)
    let keyed = try KeyedArchiver.archivedData(withRootObject: root)
    for decoded in [
      try TypedstreamUnarchiver.unarchivedObject(from: stream) as? Bookmark,
      try KeyedUnarchiver.unarchivedRootObject(from: keyed) as? Bookmark,
    ] {
      let bookmark = try #require(decoded)
      #expect(bookmark.title == "Swift")
      #expect(bookmark.visits == -70_000)
      #expect(bookmark.rating == 4.5)
      expectSame(bookmark.tags, ["lang", 7])
      #expect(bookmark.next?.title == "Linux")
      #expect(bookmark.next?.next == nil)
    }
    let unarchiver = try TypedstreamUnarchiver(data: stream)
    #expect(!unarchiver.allowsKeyedCoding)
    #expect(unarchiver.recordedVersion(forClassName: "NSString") == 1)
    #expect(unarchiver.recordedVersion(forClassName: "Bookmark") == 0)
    #expect(unarchiver.recordedVersion(forClassName: "NSColor") == nil)
    #expect(unarchiver.version(forClassName: "NSString") == 1)
    #expect(unarchiver.version(forClassName: "NoSuchClassAnywhere") == NSNotFound)
  }

  @Test("COD-122: an instance encoded twice is one object; the second is a reference")
  func sharedInstanceIsOneObject() throws {
    let shared = Bookmark(title: "shared", visits: 1, rating: 1, tags: [])
    let data = try TypedstreamArchiver.archivedData(withRootObject: [shared, shared] as [Any])
    let array = try #require(try TypedstreamUnarchiver.unarchivedObject(from: data) as? [Any])
    let first = try #require(array.first as? Bookmark)
    #expect(array.count == 2 && (array[1] as? Bookmark) === first)
    let archive = try TypedstreamReader.read(data)
    guard case .object(.literal(let object)?) = archive.values.first else {
      Issue.record("expected a literal array")
      return
    }
    #expect(object.fields.last == .object(.reference(1)))
  }

  /// Each type code with values at its extremes, and the value it reads back as (TS-021: unsigned types wrap).
  static var typeCodes: [(type: String, value: SequentialValue)] {
    [
      ("c", .integer(-128)), ("C", .unsignedInteger(255)), ("B", .bool(true)),
      ("s", .integer(Int64(Int16.min))), ("S", .unsignedInteger(UInt64(UInt16.max))),
      ("i", .integer(Int64(Int32.min))), ("I", .unsignedInteger(UInt64(UInt32.max))),
      ("l", .integer(Int64(Int32.max))), ("L", .unsignedInteger(UInt64(UInt32.max) - 2)),
      ("q", .integer(Int64.min)), ("Q", .unsignedInteger(UInt64.max - 2)), ("Q", .unsignedInteger(UInt64.max)),
      ("f", .float(-0.0)), ("f", .float(.greatestFiniteMagnitude)), ("d", .double(.leastNonzeroMagnitude)),
      ("d", .double(700_000_000.523)), ("+", .bytes(Data([0, 0xFF, 0x80]))), ("+", .bytes(nil)),
      ("*", .cString(Data("text".utf8))), ("*", .cString(nil)), ("%", .atom("atom")), (":", .selector("run:")),
      ("#", .className("NSString")), ("#", .className(nil)), ("[3c]", .bytes(Data([1, 2, 3]))),
      ("[2s]", .array([.integer(-1), .integer(300)])),
      ("{_NSRange=QQ}", .structure([.unsignedInteger(UInt64.max), .unsignedInteger(0)])), ("!", .ignored),
    ]
  }

  @Test(
    "COD-120: every type code written with encodeValues reads back with decodeValues, in both byte orders",
    arguments: [TypedstreamByteOrder.little, .big])
  func everyTypeCodeRoundTrips(_ order: TypedstreamByteOrder) throws {
    let archiver = TypedstreamArchiver(byteOrder: order)
    for (type, value) in Self.typeCodes { archiver.encodeValue(value, ofObjCType: type) }
    let data = try archiver.finishEncoding()
    let unarchiver = try TypedstreamUnarchiver(data: data)
    #expect(unarchiver.byteOrder == order)
    for (type, value) in Self.typeCodes {
      let decoded = try unarchiver.decodeValue(ofObjCType: type)
      #expect(String(describing: decoded) == String(describing: value), "type \(type)")
    }
    #expect(unarchiver.nextEncoding == nil)
  }

  @Test("COD-120: integers are checked against their type's width, both ways")
  func integerWidthsAreChecked() throws {
    let archiver = TypedstreamArchiver()
    archiver.encodeValue(.integer(128), ofObjCType: "c")
    #expect((archiver.error as? ArchiveError)?.code == .invalidValue)
    let data = try TypedstreamArchiver.archivedData(withRootObject: nil)
    let wide = TypedstreamArchiver()
    wide.encodeValue(.integer(-5), ofObjCType: "q")
    let unarchiver = try TypedstreamUnarchiver(data: try wide.finishEncoding())
    #expect(throws: ArchiveError.self) { try unarchiver.decodeValue(ofObjCType: "q", as: UInt8.self) }
    #expect(try TypedstreamUnarchiver.unarchivedObject(from: data) == nil)
  }

  @Test("COD-121: a group read with another encoding fails naming the object, its class and the group")
  func typeMismatchIsLocated() throws {
    let data = try TypedstreamArchiver.archivedData(
      withRootObject: Bookmark(title: "x", visits: 1, rating: 1, tags: []))
    var archive = try TypedstreamReader.read(data)
    guard case .object(.literal(var object)?) = archive.groups[0].values[0] else {
      Issue.record("expected a literal object")
      return
    }
    object.groups[1] = TypedstreamGroup("i", [.signed(TypeCode("i"), 1)])
    archive.groups[0].values[0] = .object(.literal(object))
    let error = try #require(throws: ArchiveError.self) {
      _ = try TypedstreamUnarchiver(archive: archive).decodeObject()
    }
    #expect(error.code == .typeMismatch)
    #expect(error.location.objectIndex == 0 && error.location.className == "Bookmark")
    #expect(error.description.contains("expected a group of type \"if\", found \"i\""))
  }

  @Test("COD-121: under setErrorAndReturn a mismatched read records the error and returns zero, then nil")
  func failurePolicy() throws {
    let unarchiver = try TypedstreamUnarchiver(data: try TypedstreamArchiver.archivedData(withRootObject: "x"))
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    #expect(try unarchiver.decodeValue(ofObjCType: "i", as: Int.self) == 0)
    #expect((unarchiver.error as? ArchiveError)?.code == .typeMismatch)
    #expect(try unarchiver.decodeObject(of: String.self) == nil)
  }

  @Test("COD-121: keyed calls on a sequential coder, and sequential calls on a keyed one, are refused")
  func wrongHalfIsRefused() throws {
    let unarchiver = try TypedstreamUnarchiver(data: try TypedstreamArchiver.archivedData(withRootObject: "x"))
    #expect(throws: ArchiveError.self) { try unarchiver.decodeValue(forKey: "title") }
    #expect(!unarchiver.containsValue(forKey: "title"))
    let keyed = try KeyedUnarchiver(
      forReadingFrom: try KeyedArchiver.archivedData(withRootObject: "x"), requiringSecureCoding: false)
    let error = try #require(throws: ArchiveError.self) { try keyed.decodeValues(ofObjCTypes: "i") }
    #expect(error.code == .unsupportedFormat)
    let archiver = TypedstreamArchiver()
    archiver.encode(1, forKey: "n")
    #expect((archiver.error as? ArchiveError)?.code == .unsupportedFormat)
  }

  @Test("COD-123: an object of a class no one registered fails with classNotFound naming the class")
  func unknownClassIsNamed() throws {
    let archive = TypedstreamArchive(groups: [
      TypedstreamGroup(
        "@",
        [
          .object(
            .literal(TypedstreamObject(objectClass: .literal(TypedstreamClass("Mystery", version: 2)), groups: [])))
        ])
    ])
    let error = try #require(throws: ArchiveError.self) {
      _ = try TypedstreamUnarchiver(archive: archive).decodeObject()
    }
    #expect(error.code == .classNotFound)
    #expect(error.location.className == "Mystery")
  }

  /// Foundation values as both archivers write them.
  static var foundationValues: [(name: String, value: Any)] {
    [
      ("string", "Hello, wörld 👋"),
      ("integers", [Int(-9_000_000_000), 0, 127, Int(Int64.max), Int(Int64.min)] as [Any]),
      ("unsigned", [UInt64.max] as [Any]),
      ("reals", [3.5 as Float, 100.5, -0.0, Double.infinity] as [Any]),
      ("booleans", [true, false] as [Any]),
      ("data", Data([0xDE, 0xAD, 0xBE, 0xEF, 0, 0x7F])),
      ("empty data", Data()),
      ("date", Date(timeIntervalSinceReferenceDate: 700_000_000.523)),
      ("url", URL(string: "page.html", relativeTo: URL(string: "https://example.com/dir/"))!),
      ("absolute url", URL(string: "tel:+15555550123")!),
      ("dictionary", ["k": [1, 2] as [Any], "data": Data([1]), "n": 9] as [String: Any]),
      ("set", Set<AnyHashable>(["a", "b", 3])),
      ("null", [NSNull(), "y"] as [Any]),
      ("nested", [[[String]()], ["a": ["b": "c"]]] as [Any]),
      ("attributed", NSAttributedString(string: "Hello, world", attributes: [.init("bold"): 1])),
      (
        "geometry",
        [
          ArchivedValue.point(x: 1.5, y: -2), ArchivedValue.size(width: 3, height: 4),
          ArchivedValue.rect(x: 0, y: 1, width: 2, height: 3), ArchivedValue.range(location: 5, length: 6),
        ] as [Any]
      ),
    ]
  }

  static let foundationValueNames = [
    "string", "integers", "unsigned", "reals", "booleans", "data", "empty data", "date", "url", "absolute url",
    "dictionary", "set", "null", "nested", "attributed", "geometry",
  ]

  @Test(
    "COD-123: Foundation values read from a typedstream equal what the keyed unarchiver reads from a keyed archive",
    arguments: foundationValueNames)
  func foundationValuesMatchTheKeyedUnarchiver(_ name: String) throws {
    let value = try #require(Self.foundationValues.first { $0.name == name }?.value)
    let stream = try TypedstreamArchiver.archivedData(withRootObject: value)
    let sequential = try TypedstreamUnarchiver.unarchivedObject(from: stream)
    let keyed = try KeyedUnarchiver.unarchivedRootObject(from: try KeyedArchiver.archivedData(withRootObject: value))
    expectSame(sequential, keyed)
    // And a second write of what was read gives the same bytes: the writer is deterministic.
    #expect(try TypedstreamArchiver.archivedData(withRootObject: sequential) == stream)
  }

  @Test("COD-123: Foundation's NSKeyedArchiver and the typedstream give one value for plain Foundation graphs")
  func oracleAgrees() throws {
    let value: [Any] = ["x", 42, 2.5, Data([1, 2]), ["k": "v"] as [String: Any]]
    let theirs = try KeyedUnarchiver.unarchivedRootObject(from: FoundationOracle.archive(value))
    let stream = try TypedstreamArchiver.archivedData(withRootObject: value, byteOrder: .big)
    expectSame(try TypedstreamUnarchiver.unarchivedObject(from: stream), theirs)
  }
}

@Suite("Sequential coding: NSNumber of every type code")
struct SequentialNumberTests {
  /// An `NSNumber` stream holding `value` as type `code`, written by hand as `NSArchiver` does.
  private func number(_ code: String, _ value: TypedstreamValue) throws -> Data {
    let numberClass = TypedstreamClass(
      "NSNumber", version: 0,
      superclass: .literal(
        TypedstreamClass("NSValue", version: 0, superclass: .literal(TypedstreamClass("NSObject", version: 0)))))
    let object = TypedstreamObject(
      objectClass: .literal(numberClass),
      groups: [TypedstreamGroup("*", [.cString(.literal(Array(code.utf8)))]), TypedstreamGroup(code, [value])])
    return try TypedstreamWriter.write(TypedstreamArchive(groups: [TypedstreamGroup("@", [.object(.literal(object))])]))
  }

  @Test("COD-123: NSNumber of each type code, at its extremes, decodes to the Swift value the keyed unarchiver gives")
  func everyTypeCode() throws {
    func code(_ c: Unicode.Scalar) -> TypeCode { TypeCode(c) }
    let cases: [(String, TypedstreamValue, String)] = [
      ("c", .signed(code("c"), -128), "Int -128"),
      ("C", .unsigned(code("C"), 255), "Int 255"),
      ("B", .bool(1), "Bool true"),
      ("s", .signed(code("s"), Int64(Int16.min)), "Int -32768"),
      ("S", .unsigned(code("S"), UInt64(UInt16.max)), "Int 65535"),
      ("i", .signed(code("i"), Int64(Int32.min)), "Int -2147483648"),
      ("I", .unsigned(code("I"), UInt64(UInt32.max)), "Int 4294967295"),
      ("l", .signed(code("l"), Int64(Int32.max)), "Int 2147483647"),
      ("L", .unsigned(code("L"), UInt64(UInt32.max) - 2), "Int 4294967293"),
      ("q", .signed(code("q"), Int64.min), "Int -9223372036854775808"),
      ("Q", .unsigned(code("Q"), UInt64(Int64.max)), "Int 9223372036854775807"),
      ("Q", .unsigned(code("Q"), UInt64.max - 2), "UInt64 18446744073709551613"),
      ("f", .float(Float(0.85)), "Float 0.85"),
      ("d", .double(-1.5e300), "Double -1.5e+300"),
    ]
    for (type, value, expected) in cases {
      let decoded = try TypedstreamUnarchiver.unarchivedObject(from: try number(type, value))
      let described = decoded.map { "\(Swift.type(of: $0)) \($0)" }
      #expect(described == expected, "type \(type)")
    }
  }

  @Test("COD-123: the byte 0xFD as an unsigned 64-bit NSNumber is 18446744073709551613, as NSUnarchiver reads it")
  func compactedUnsigned() throws {
    let data = try number("Q", .unsigned(TypeCode("Q"), UInt64.max - 2))
    // The writer compacts the value to the one byte 0xFD, just before the object's END tag.
    #expect(Array(data.suffix(2)) == [0xFD, 0x86])
    #expect(try TypedstreamUnarchiver.unarchivedObject(from: data) as? UInt64 == UInt64.max - 2)
  }
}

/// A note class at version 3, as an older program wrote it.
final class NoteAtVersion3: Coding {
  static var classVersion: Int { 3 }
  init() {}
  required init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) {}
}

/// The same note class at version 5, reading what the older program wrote; it records the version it was given.
final class NoteAtVersion5: Coding {
  static var classVersion: Int { 5 }
  var versionRead = -1
  required init(coder: any DecodingCoder) throws { versionRead = coder.version(forClassName: "Note") }
  func encode(with coder: any EncodingCoder) {}
}

@Suite("Class versions in typedstreams")
struct TypedstreamClassVersionTests {
  @Test("COD-111: a typedstream records each class's classVersion, and version(forClassName:) reads it back")
  func versionsRoundTrip() throws {
    let writer = ClassRegistry()
    writer.register(NoteAtVersion3.self, as: "Note")
    let stream = try TypedstreamArchiver.archivedData(withRootObject: NoteAtVersion3(), registry: writer)
    let reader = ClassRegistry()
    reader.register(NoteAtVersion5.self, as: "Note")
    let note = try #require(
      try TypedstreamUnarchiver.unarchivedObject(from: stream, registry: reader) as? NoteAtVersion5)
    #expect(note.versionRead == 3, "the version the stream recorded, not the reading class's")
    let archiver = KeyedArchiver(registry: writer)
    archiver.encodeObject(NoteAtVersion3(), forKey: "root")
    let keyed = try archiver.finishEncoding()
    let fromKeyed = try #require(
      try KeyedUnarchiver.unarchivedRootObject(from: keyed, registry: reader) as? NoteAtVersion5)
    #expect(fromKeyed.versionRead == 5, "a keyed archive records none: the reading class's own")
  }
}

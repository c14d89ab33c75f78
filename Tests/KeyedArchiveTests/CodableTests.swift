import ArchiveCoding
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// A model touching every part of the `Codable` mapping.
struct CodableModel: Codable, Equatable {
  enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rect(width: Int, height: Int)
    case point
    case labeled(String, Int?)
  }

  struct Item: Codable, Equatable {
    var name: String
    var count: Int
    var tags: [String]
    var note: String?
  }

  var title: String
  var items: [Item]
  var shapes: [Shape]
  var table: [[String: Int]]
  var maybe: Int?
  var absent: String?
  var date: Date
  var url: URL
  var id: UUID
  var data: Data
  var extremes: [Int64]
  var big: UInt64
  var small: Int8
  var ratio: Float
  var pi: Double
  var flag: Bool
  var optionals: [Int?]
  var nested: [String: [String: Double]]
  var decimal: Decimal?

  static let sample = CodableModel(
    title: "Library ✓",
    items: [
      Item(name: "a", count: 1, tags: ["x", "y"], note: nil),
      Item(name: "b", count: -7, tags: [], note: "careful"),
      Item(name: "", count: 0, tags: ["x"], note: ""),
    ],
    shapes: [.circle(radius: 2.5), .rect(width: 3, height: 4), .point, .labeled("q", nil), .labeled("r", 9)],
    table: [["one": 1, "two": 2], [:]],
    maybe: 42,
    absent: nil,
    date: Date(timeIntervalSinceReferenceDate: 123_456.789),
    url: URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/"),
    id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(),
    data: Data([0, 1, 2, 255]),
    extremes: [Int64.min, Int64.max, 0],
    big: UInt64.max,
    small: -128,
    ratio: 0.1,
    pi: Double.pi,
    flag: true,
    optionals: [1, nil, 3],
    nested: ["outer": ["inner": -0.5]],
    decimal: Decimal(sign: .plus, exponent: -3, significand: 12_345_678))
}

/// A type with hand-written coding: nested containers, super encoders, user info.
struct HandWritten: Codable, Equatable {
  var a: Int
  var b: [String]
  var c: Bool
  var base: Int

  enum Keys: String, CodingKey { case a, inner, list, base, label }
  static let labelKey: CodingUserInfoKey = {
    guard let key = CodingUserInfoKey(rawValue: "label") else { preconditionFailure("a valid user info key") }
    return key
  }()

  init(a: Int, b: [String], c: Bool, base: Int) {
    (self.a, self.b, self.c, self.base) = (a, b, c, base)
  }

  func encode(to encoder: any Encoder) throws {
    var keyed = encoder.container(keyedBy: Keys.self)
    var inner = keyed.nestedContainer(keyedBy: Keys.self, forKey: .inner)
    try inner.encode(a, forKey: .a)
    var list = keyed.nestedUnkeyedContainer(forKey: .list)
    for s in b { try list.encode(s) }
    var deeper = list.nestedUnkeyedContainer()
    try deeper.encode(c)
    try deeper.encodeNil()
    try base.encode(to: keyed.superEncoder())
    try keyed.encode(encoder.userInfo[Self.labelKey] as? String ?? "none", forKey: .label)
  }

  init(from decoder: any Decoder) throws {
    let keyed = try decoder.container(keyedBy: Keys.self)
    a = try keyed.nestedContainer(keyedBy: Keys.self, forKey: .inner).decode(Int.self, forKey: .a)
    var list = try keyed.nestedUnkeyedContainer(forKey: .list)
    var strings: [String] = []
    while let count = list.count, list.currentIndex < count - 1 { strings.append(try list.decode(String.self)) }
    b = strings
    var deeper = try list.nestedUnkeyedContainer()
    c = try deeper.decode(Bool.self)
    guard try deeper.decodeNil(), deeper.isAtEnd else {
      throw DecodingError.dataCorruptedError(in: deeper, debugDescription: "expected a trailing nil")
    }
    base = try Int(from: keyed.superDecoder())
    let label = try keyed.decode(String.self, forKey: .label)
    guard label == decoder.userInfo[Self.labelKey] as? String else {
      throw DecodingError.dataCorruptedError(forKey: .label, in: keyed, debugDescription: "label \(label)")
    }
  }
}

struct Counted: Codable, Equatable {
  struct Entry: Codable, Equatable { var count: Int }
  var items: [Entry]
}

/// Reads two integers from an unkeyed container.
struct TwoInts: Decodable {
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    _ = try container.decode(Int.self)
    _ = try container.decode(Int.self)
  }
}

func pathText(_ path: [any CodingKey]) -> String { ArchiveCodingKey.describe(path) }

@Suite("Codable encoder and decoder")
struct CodableTests {
  static let formats: [PropertyListFormat] = [.binary, .xml]

  @Test("COD-060: a varied Codable model round-trips through the archive", arguments: formats)
  func roundTrip(format: PropertyListFormat) throws {
    let data = try KeyedArchiveEncoder(outputFormat: format).encode(CodableModel.sample)
    #expect(PropertyListReader.format(of: data) == format)
    let decoded = try KeyedArchiveDecoder().decode(CodableModel.self, from: data)
    #expect(decoded == CodableModel.sample)
  }

  @Test("COD-060: top-level scalars, optionals and NaN round-trip")
  func scalars() throws {
    let encoder = KeyedArchiveEncoder()
    let decoder = KeyedArchiveDecoder()
    #expect(try decoder.decode(String.self, from: encoder.encode("hi")) == "hi")
    #expect(try decoder.decode(UInt64.self, from: encoder.encode(UInt64.max)) == UInt64.max)
    #expect(try decoder.decode(Int?.self, from: encoder.encode(Int?.none)) == nil)
    #expect(try decoder.decode([Int?].self, from: encoder.encode([nil, 5])) == [nil, 5])
    let nan = Double(bitPattern: 0x7FF8_0000_0000_0001)
    let back = try decoder.decode(Double.self, from: encoder.encode(nan))
    #expect(back.isNaN)
    #expect(try decoder.decode(Double.self, from: encoder.encode(-0.0)).sign == .minus)
  }

  @Test("COD-061: the toolchain's NSKeyedUnarchiver reads an encoded struct as Foundation values")
  func foundationReads() throws {
    // corelibs' NSKeyedUnarchiver cannot decode NSDecimalNumber (Darwin's can): leave the decimal out.
    var model = CodableModel.sample
    model.decimal = nil
    let data = try KeyedArchiveEncoder().encode(model)
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    // corelibs records "no value" errors for absent optional keys even when decoding succeeds (and traps under the
    // default policy), so errors are set aside and the values checked.
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    let root = try #require(unarchiver.decodeObject(forKey: "root") as? NSDictionary)
    let keys = Set(root.allKeys.compactMap { $0 as? String })
    // `absent` is nil: its key is left out (COD-062).
    #expect(
      keys == [
        "title", "items", "shapes", "table", "maybe", "date", "url", "id", "data", "extremes", "big", "small", "ratio",
        "pi", "flag", "optionals", "nested",
      ])
    #expect(root["title"] as? String == "Library ✓")
    #expect((root["maybe"] as? NSNumber)?.intValue == 42)
    #expect((root["flag"] as? NSNumber)?.boolValue == true)
    #expect((root["pi"] as? NSNumber)?.doubleValue == Double.pi)
    #expect((root["big"] as? NSNumber)?.uint64Value == UInt64.max)
    #expect(root["date"] as? Date == CodableModel.sample.date)
    #expect(root["url"] as? URL == CodableModel.sample.url)
    #expect(root["id"] as? UUID == CodableModel.sample.id)
    #expect(root["data"] as? Data == CodableModel.sample.data)
    let extremes = try #require(root["extremes"] as? NSArray)
    #expect(extremes.compactMap { ($0 as? NSNumber)?.int64Value } == [Int64.min, Int64.max, 0])
    let items = try #require(root["items"] as? NSArray)
    #expect(items.count == 3)
    let second = try #require(items[1] as? NSDictionary)
    #expect(second["name"] as? String == "b")
    #expect((second["count"] as? NSNumber)?.intValue == -7)
    #expect(second["note"] as? String == "careful")
    let first = try #require(items[0] as? NSDictionary)
    #expect(first["note"] == nil)
    #expect((first["tags"] as? NSArray)?.compactMap { $0 as? String } == ["x", "y"])
    let optionals = try #require(root["optionals"] as? NSArray)
    #expect(optionals.count == 3)
    #expect(optionals[1] is NSNull)
  }

  @Test("COD-061: a Foundation-written dictionary decodes as a Codable struct")
  func foundationWrites() throws {
    let items: NSArray = [["count": 3] as NSDictionary, ["count": 4] as NSDictionary]
    let root: NSDictionary = ["items": items]
    let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
    #expect(
      try KeyedArchiveDecoder().decode(Counted.self, from: data) == Counted(items: [.init(count: 3), .init(count: 4)]))
  }

  @Test("COD-062: nil is a missing key in keyed containers and NSNull in unkeyed ones; both decode as nil")
  func nilMapping() throws {
    struct Pair: Codable, Equatable {
      var x: Int?
      var y: [String?]
    }
    let data = try KeyedArchiveEncoder().encode(Pair(x: nil, y: [nil, "s"]))
    let plain = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? [AnyHashable: Any])
    #expect(plain["x"] == nil)
    let y = try #require(plain["y"] as? [Any])
    #expect(y.count == 2 && y[0] is NSNull && y[1] as? String == "s")
    #expect(try KeyedArchiveDecoder().decode(Pair.self, from: data) == Pair(x: nil, y: [nil, "s"]))
    // An NSNull under a key (as an explicit encodeNil writes) also reads as nil.
    let withNull = try KeyedArchiver.archivedData(withRootObject: ["x": NSNull(), "y": [Any]()] as [String: Any])
    #expect(try KeyedArchiveDecoder().decode(Pair.self, from: withNull) == Pair(x: nil, y: []))
  }

  @Test("COD-063: nested containers, super encoders and userInfo round-trip", arguments: formats)
  func handWritten(format: PropertyListFormat) throws {
    let value = HandWritten(a: 5, b: ["p", "q"], c: true, base: 77)
    let encoder = KeyedArchiveEncoder(outputFormat: format)
    encoder.userInfo[HandWritten.labelKey] = "L"
    let data = try encoder.encode(value)
    let plain = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? [AnyHashable: Any])
    #expect((plain["super"] as? Int) == 77)
    #expect((plain["inner"] as? [AnyHashable: Any])?["a"] as? Int == 5)
    let decoder = KeyedArchiveDecoder()
    decoder.userInfo[HandWritten.labelKey] = "L"
    #expect(try decoder.decode(HandWritten.self, from: data) == value)
    decoder.userInfo[HandWritten.labelKey] = "M"
    #expect(throws: DecodingError.self) { try decoder.decode(HandWritten.self, from: data) }
  }

  @Test("COD-064: numbers convert between types when they fit exactly")
  func numberConversions() throws {
    let decoder = KeyedArchiveDecoder()
    #expect(try decoder.decode(Double.self, from: KeyedArchiveEncoder().encode(3)) == 3)
    #expect(try decoder.decode(Int8.self, from: KeyedArchiveEncoder().encode(-128.0)) == -128)
    #expect(try decoder.decode(Float.self, from: KeyedArchiveEncoder().encode(0.5)) == 0.5)
    #expect(try decoder.decode(Int64.self, from: KeyedArchiveEncoder().encode(UInt64(5))) == 5)
    func corrupted<T: Decodable>(_ type: T.Type, _ value: some Encodable) throws -> Bool {
      do {
        _ = try decoder.decode(type, from: KeyedArchiveEncoder().encode(value))
        return false
      } catch DecodingError.dataCorrupted {
        return true
      }
    }
    #expect(try corrupted(Int8.self, 128))
    #expect(try corrupted(UInt8.self, -1))
    #expect(try corrupted(Int64.self, UInt64.max))
    #expect(try corrupted(Int.self, 1.5))
    #expect(try corrupted(Double.self, Int64.max - 1))
    #expect(try corrupted(Float.self, 1e300))
    // A boolean is not a number, nor a number a boolean.
    #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: KeyedArchiveEncoder().encode(true)) }
    #expect(throws: DecodingError.self) { try decoder.decode(Bool.self, from: KeyedArchiveEncoder().encode(1)) }
  }

  @Test("COD-065: a type mismatch reports the coding path items[2].count")
  func typeMismatchPath() throws {
    let entries: [[String: Any]] = [["count": 1], ["count": 2], ["count": "three"]]
    let data = try KeyedArchiver.archivedData(withRootObject: ["items": entries])
    do {
      _ = try KeyedArchiveDecoder().decode(Counted.self, from: data)
      Issue.record("decoding succeeded")
    } catch DecodingError.typeMismatch(let type, let context) {
      #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
      #expect(pathText(context.codingPath) == "items[2].count")
      #expect(context.codingPath.map(\.intValue) == [nil, 2, nil])
      #expect(context.debugDescription.contains("a string"))
    }
  }

  @Test("COD-065: missing keys, out-of-range numbers and short arrays name their path")
  func otherErrors() throws {
    let missing = try KeyedArchiver.archivedData(withRootObject: ["items": [["count": 1], [String: Any]()]])
    do {
      _ = try KeyedArchiveDecoder().decode(Counted.self, from: missing)
      Issue.record("decoding succeeded")
    } catch DecodingError.keyNotFound(let key, let context) {
      #expect(key.stringValue == "count")
      #expect(pathText(context.codingPath) == "items[1]")
    }
    let big = try KeyedArchiver.archivedData(withRootObject: ["items": [["count": UInt64.max]]])
    do {
      _ = try KeyedArchiveDecoder().decode(Counted.self, from: big)
      Issue.record("decoding succeeded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(pathText(context.codingPath) == "items[0].count")
    }
    let short = try KeyedArchiveEncoder().encode([1])
    do {
      _ = try KeyedArchiveDecoder().decode(TwoInts.self, from: short)
      Issue.record("decoding past the end succeeded")
    } catch DecodingError.valueNotFound(_, let context) {
      #expect(pathText(context.codingPath) == "[1]")
    }
    let null = try KeyedArchiver.archivedData(withRootObject: ["items": [NSNull()]])
    #expect(throws: DecodingError.self) { try KeyedArchiveDecoder().decode(Counted.self, from: null) }
  }

  @Test("COD-066: a damaged archive is a dataCorrupted error with the ArchiveError underneath")
  func damaged() throws {
    var data = try KeyedArchiveEncoder().encode(CodableModel.sample)
    data.removeLast(20)
    do {
      _ = try KeyedArchiveDecoder().decode(CodableModel.self, from: data)
      Issue.record("decoding succeeded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.isEmpty)
      #expect(context.underlyingError is ArchiveError)
    }
  }
}

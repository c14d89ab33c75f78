import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// Values at the edges of every property-list type.
let edgeValues: [(String, PropertyListValue)] = [
  ("Int64.min", .integer(Int64.min)),
  ("Int64.max", .integer(Int64.max)),
  ("UInt64.max", .unsignedInteger(UInt64.max)),
  ("Int64.max + 1", .unsignedInteger(UInt64(Int64.max) + 1)),
  ("-1", .integer(-1)),
  ("zero", .integer(0)),
  ("255", .integer(255)),
  ("256", .integer(256)),
  ("65536", .integer(65536)),
  ("UInt32.max", .integer(Int64(UInt32.max))),
  ("NaN", .real(.nan)),
  ("+inf", .real(.infinity)),
  ("-inf", .real(-.infinity)),
  ("-0.0", .real(-0.0)),
  ("0.1", .real(0.1)),
  ("least nonzero", .real(.leastNonzeroMagnitude)),
  ("greatest finite", .real(.greatestFiniteMagnitude)),
  ("true", .bool(true)),
  ("false", .bool(false)),
  ("empty string", .string("")),
  ("non-ASCII", .string("Grüße, 世界")),
  ("astral plane", .string("emoji 🎉 and 𝄞")),
  ("markup characters", .string("<a href=\"x\">&amp;</a> ]]> '")),
  ("control characters", .string("tab\tnewline\ncarriage\rnul\u{0}bell\u{7}")),
  ("empty data", .data(Data())),
  ("data", .data(Data([0, 1, 2, 0xFF, 0xFE]))),
  ("date at reference", .date(Date(timeIntervalSinceReferenceDate: 0))),
  ("date before 1970", .date(Date(timeIntervalSinceReferenceDate: -1_000_000_000))),
  ("date with fraction", .date(Date(timeIntervalSinceReferenceDate: 123.25))),
  ("date with tiny fraction", .date(Date(timeIntervalSinceReferenceDate: 1.000_001))),
  ("UID", .uid(42)),
  ("big UID", .uid(70_000)),
  ("empty array", .array([])),
  ("empty dictionary", .dictionary(PropertyListDictionary())),
  ("nested", ["a": [1, 2.5, true, ["b": "c"]], "d": [[], ["x": []]]]),
  ("1, 1.0 and true kept apart", [1, 1.0, true, .float(1)]),
]

/// The XML form has one real type: a 32-bit real reads back as the same value in 64 bits.
func xmlNormalized(_ value: PropertyListValue) -> PropertyListValue {
  switch value {
  case .float(let v): .real(Double(v))
  case .array(let a): .array(a.map(xmlNormalized))
  case .set(let a): .array(a.map(xmlNormalized))
  case .dictionary(let d): .dictionary(PropertyListDictionary(d.entries.map { ($0.key, xmlNormalized($0.value)) }))
  default: value
  }
}

@Suite("Property list round trips")
struct PropertyListRoundTripTests {
  @Test("ARC-003: every edge value survives the binary form", arguments: edgeValues)
  func binaryRoundTrip(_ name: String, _ value: PropertyListValue) throws {
    let data = try PropertyListWriter.write(value, format: .binary)
    #expect(try PropertyListReader.read(data) == value, "\(name)")
  }

  @Test("ARC-010: every edge value survives the XML form", arguments: edgeValues)
  func xmlRoundTrip(_ name: String, _ value: PropertyListValue) throws {
    let data = try PropertyListWriter.write(value, format: .xml)
    #expect(try PropertyListReader.read(data) == xmlNormalized(value), "\(name)")
  }

  @Test("ARC-003: a 70,000-element array round-trips in both forms")
  func largeArray() throws {
    let value = PropertyListValue.array((0..<70_000).map { .integer(Int64($0) * 7919 - 100_000) })
    for format in PropertyListFormat.allCases {
      let data = try PropertyListWriter.write(value, format: format)
      #expect(try PropertyListReader.read(data) == value)
    }
    // More than 65,535 objects forces 4-byte references.
    let binary = try PropertyListWriter.write(value, format: .binary)
    #expect(binary[binary.count - 25] == 4)
  }

  @Test("ARC-005: the writer is deterministic and uses minimal widths")
  func deterministic() throws {
    let value: PropertyListValue = ["z": 1, "a": [1, 2, 3], "m": ["k": "v"]]
    let first = try PropertyListWriter.write(value)
    let second = try PropertyListWriter.write(value)
    #expect(first == second)
    // 9 objects (dict, 3 keys, 1, array, 2, 3, inner dict's key and value: 1 is shared) fit one-byte refs.
    #expect(first[first.count - 25] == 1)
    #expect(first[first.count - 26] == 1)
  }

  @Test("ARC-006: equal scalars are shared, but 1, 1.0, Float 1 and true are not merged")
  func scalarSharing() throws {
    let value: PropertyListValue = [1, 1, 1.0, 1.0, true, true, .float(1), "s", "s"]
    let reader = try BinaryPropertyListReader(try PropertyListWriter.write(value))
    // array + five distinct scalars.
    #expect(reader.objectCount == 6)
    #expect(try reader.topValue() == value)
  }

  @Test("ARC-001: seeded random values round-trip in both forms", arguments: 0..<40)
  func randomValues(seed: Int) throws {
    var rng = SplitMix64(seed: UInt64(seed) &* 7_777_777)
    let value = randomValue(&rng, depth: 0)
    #expect(try PropertyListReader.read(try PropertyListWriter.write(value, format: .binary)) == value)
    #expect(
      try PropertyListReader.read(try PropertyListWriter.write(value, format: .xml)) == xmlNormalized(value))
  }
}

func randomValue(_ rng: inout SplitMix64, depth: Int) -> PropertyListValue {
  let pick = Int(rng.next() % (depth > 3 ? 9 : 12))
  switch pick {
  case 0: return .bool(rng.next() % 2 == 0)
  case 1: return .integer(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64))
  case 2: return .unsignedInteger(UInt64(Int64.max) + 1 + rng.next() % 1000)
  case 3: return .real(Double(bitPattern: rng.next()))
  case 4: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next())))
  case 5: return .date(Date(timeIntervalSinceReferenceDate: Double(Int64(rng.next() % 4_000_000_000) - 2_000_000_000)))
  case 6: return .data(Data((0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
  case 7:
    let scalars = (0..<Int(rng.next() % 20)).compactMap { _ -> Character? in
      let choice = rng.next() % 4
      let value: UInt32 =
        choice == 0
        ? UInt32(0x20 + rng.next() % 0x5F)
        : choice == 1
          ? UInt32(0xA0 + rng.next() % 0x700)
          : choice == 2 ? UInt32(0x1F600 + rng.next() % 0x50) : UInt32(0x4E00 + rng.next() % 0x1000)
      return Unicode.Scalar(value).map(Character.init)
    }
    return .string(String(scalars))
  case 8: return .uid(rng.next() % 100_000)
  case 9, 10:
    return .array((0..<Int(rng.next() % 6)).map { _ in randomValue(&rng, depth: depth + 1) })
  default:
    var dictionary = PropertyListDictionary()
    for i in 0..<Int(rng.next() % 6) {
      dictionary["k\(i)-\(rng.next() % 1000)"] = randomValue(&rng, depth: depth + 1)
    }
    return .dictionary(dictionary)
  }
}

@Suite("Canonically equivalent strings")
struct CanonicallyEquivalentStringTests {
  /// "café" precomposed and decomposed, "K" and the Kelvin sign: `==` on `String` finds each pair equal.
  static let spellings = ["caf\u{E9}", "cafe\u{301}", "K", "\u{212A}"]

  @Test("ARC-006: strings that are canonically equivalent but spelled differently are not shared, in either form")
  func notShared() throws {
    let value = PropertyListValue.array(Self.spellings.map { .string($0) })
    let binary = try PropertyListWriter.write(value, format: .binary)
    // The array and four strings: sharing compares code units, not canonical equivalence.
    #expect(try BinaryPropertyListReader(binary).objectCount == 5)
    for format in [PropertyListFormat.binary, .xml] {
      guard case .array(let back) = try PropertyListReader.read(try PropertyListWriter.write(value, format: format))
      else {
        Issue.record("\(format): not an array")
        continue
      }
      let units = back.map { element -> [UInt8] in
        if case .string(let string) = element { return Array(string.utf8) }
        return []
      }
      #expect(units == Self.spellings.map { Array($0.utf8) }, "\(format)")
    }
  }

  @Test("ARC-001: a dictionary keyed by two spellings of one text keeps both entries through a round trip")
  func dictionaryKeys() throws {
    let dictionary = PropertyListDictionary(Self.spellings.enumerated().map { (.string($1), .integer(Int64($0))) })
    #expect(dictionary.count == 4)
    for format in [PropertyListFormat.binary, .xml] {
      let back = try PropertyListReader.read(try PropertyListWriter.write(.dictionary(dictionary), format: format))
      let entries = try #require(back.dictionaryValue, "\(format)")
      #expect(entries.count == 4, "\(format)")
      for (index, spelling) in Self.spellings.enumerated() {
        #expect(entries[.string(spelling)] == .integer(Int64(index)), "\(format): \(Array(spelling.utf8))")
      }
      #expect(entries.map(\.key.stringValue).map { $0.map { Array($0.utf8) } } == Self.spellings.map { Array($0.utf8) })
    }
    #expect(PropertyListValue.string(Self.spellings[0]) != .string(Self.spellings[1]))
  }
}

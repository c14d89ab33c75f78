import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// Converts one of our values to the Foundation object `PropertyListSerialization` takes (no UIDs, no sets).
func foundationObject(_ value: PropertyListValue) -> Any {
  switch value {
  case .null: return NSNull()
  case .bool(let v): return v
  case .integer(let v): return NSNumber(value: v)
  case .unsignedInteger(let v): return NSNumber(value: v)
  case .real(let v): return NSNumber(value: v)
  case .float(let v): return NSNumber(value: v)
  case .date(let v): return v
  case .data(let v): return v
  case .string(let v): return v
  case .array(let a), .set(let a): return a.map(foundationObject)
  case .dictionary(let d):
    var out: [String: Any] = [:]
    for entry in d.entries { out[entry.key.stringValue ?? "?"] = foundationObject(entry.value) }
    return out
  case .uid: return "unsupported"
  }
}

/// Converts what `PropertyListSerialization` returns into our value.
func ourValue(_ object: Any) -> PropertyListValue? {
  switch object {
  case is NSNull: return .null
  case let v as Bool where type(of: object) == Bool.self: return .bool(v)
  case let v as String: return .string(v)
  case let v as Data: return .data(v)
  case let v as Date: return .date(v)
  case let v as NSNumber:
    switch String(cString: v.objCType) {
    case "c", "B": return .bool(v.boolValue)
    case "f": return .float(v.floatValue)
    case "d": return .real(v.doubleValue)
    case "Q": return .integer(unsigned: v.uint64Value)
    default: return .integer(v.int64Value)
    }
  case let v as [Any]:
    let elements = v.compactMap(ourValue)
    return elements.count == v.count ? .array(elements) : nil
  case let v as [String: Any]:
    var d = PropertyListDictionary()
    for (key, element) in v {
      guard let converted = ourValue(element) else { return nil }
      d[key] = converted
    }
    return .dictionary(d)
  default: return nil
  }
}

/// Random values Foundation can hold: no UIDs, no sets.
func foundationCompatible(_ value: PropertyListValue) -> Bool {
  switch value {
  case .uid, .set: false
  case .array(let a): a.allSatisfy(foundationCompatible)
  case .dictionary(let d): d.entries.allSatisfy { foundationCompatible($0.value) }
  default: true
  }
}

@Suite("Property lists against Foundation's PropertyListSerialization")
struct FoundationDifferentialTests {
  static let cases: [(String, PropertyListValue)] = edgeValues.filter { foundationCompatible($0.1) }

  @Test("ARC-011: Foundation reads our binary output as the same value", arguments: cases)
  func foundationReadsOurs(_ name: String, _ value: PropertyListValue) throws {
    let ours = try PropertyListWriter.write(["v": value], format: .binary)
    let object = try PropertyListSerialization.propertyList(from: ours, format: nil)
    #expect(ourValue(object) == ["v": value], "\(name)")
  }

  @Test("ARC-011: we read Foundation's binary output as the same value", arguments: cases)
  func oursReadsFoundation(_ name: String, _ value: PropertyListValue) throws {
    let theirs = try PropertyListSerialization.data(
      fromPropertyList: foundationObject(["v": value]), format: .binary, options: 0)
    #expect(try PropertyListReader.read(theirs) == ["v": value], "\(name)")
  }

  @Test("ARC-011: we read Foundation's XML output as the same value", arguments: cases)
  func oursReadsFoundationXML(_ name: String, _ value: PropertyListValue) throws {
    // Foundation's XML writer drops the fraction of a second and cannot write NaN portably; skip those.
    if case .date(let d) = value, d.timeIntervalSinceReferenceDate.rounded() != d.timeIntervalSinceReferenceDate {
      return
    }
    let theirs = try PropertyListSerialization.data(
      fromPropertyList: foundationObject(["v": value]), format: .xml, options: 0)
    let read = try PropertyListReader.read(theirs)
    guard let object = try? PropertyListSerialization.propertyList(from: theirs, format: nil),
      let expected = ourValue(object)
    else {
      Issue.record("Foundation cannot read its own XML for \(name)")
      return
    }
    #expect(read == expected, "\(name)")
  }

  @Test("ARC-011: Foundation reads our XML output as the same value", arguments: cases)
  func foundationReadsOurXML(_ name: String, _ value: PropertyListValue) throws {
    if case .date(let d) = value, d.timeIntervalSinceReferenceDate.rounded() != d.timeIntervalSinceReferenceDate {
      return
    }
    if case .string(let s) = value, s.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" }) {
      return
    }
    let ours = try PropertyListWriter.write(["v": value], format: .xml)
    let object = try PropertyListSerialization.propertyList(from: ours, format: nil)
    #expect(ourValue(object).map(xmlNormalized) == xmlNormalized(["v": value]), "\(name)")
  }

  @Test("ARC-011: seeded random values agree with Foundation in both directions", arguments: 0..<60)
  func random(seed: Int) throws {
    var rng = SplitMix64(seed: UInt64(seed) &+ 99)
    var value = randomValue(&rng, depth: 0)
    while !foundationCompatible(value) { value = randomValue(&rng, depth: 0) }
    let wrapped: PropertyListValue = ["v": value]
    let ours = try PropertyListWriter.write(wrapped, format: .binary)
    #expect(ourValue(try PropertyListSerialization.propertyList(from: ours, format: nil)) == wrapped)
    let theirs = try PropertyListSerialization.data(
      fromPropertyList: foundationObject(wrapped), format: .binary, options: 0)
    #expect(try PropertyListReader.read(theirs) == wrapped)
  }
}

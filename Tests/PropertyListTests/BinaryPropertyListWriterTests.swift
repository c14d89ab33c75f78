import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// Writes `value` through the scalar encoders and the container stack, as the keyed archiver drives the writer.
private func addByParts(_ value: PropertyListValue, to writer: inout BinaryPropertyListWriter) -> Int {
  switch value {
  case .null: return writer.addNull()
  case .bool(let v): return writer.add(bool: v)
  case .integer(let v): return writer.add(integer: v)
  case .unsignedInteger(let v): return writer.add(unsignedInteger: v)
  case .real(let v): return writer.add(real: v)
  case .float(let v): return writer.add(float: v)
  case .date(let v): return writer.add(date: v)
  case .data(let v): return writer.add(data: v)
  case .string(let v): return writer.add(string: v)
  case .uid(let v): return writer.add(uid: v)
  case .set: return writer.add(value)
  case .array(let elements):
    let mark = writer.mark
    for element in elements {
      let ref = addByParts(element, to: &writer)
      writer.push(ref)
    }
    return writer.endArray(from: mark)
  case .dictionary(let dictionary):
    let mark = writer.mark
    for entry in dictionary.entries {
      let key = addByParts(entry.key, to: &writer)
      let value = addByParts(entry.value, to: &writer)
      writer.push(key: key, value: value)
    }
    return writer.endDictionary(from: mark)
  }
}

/// Values for the writer's tables: the edge values, nested in one array too, and seeded random values.
private let writerValues: [(String, PropertyListValue)] =
  edgeValues + [("all edge values", .array(edgeValues.map(\.1)))]
  + (0..<20).map { seed in
    var rng = SplitMix64(seed: UInt64(seed) &* 1_234_567)
    return ("random \(seed)", randomValue(&rng, depth: 0))
  }

@Suite("BinaryPropertyListWriter")
struct BinaryPropertyListWriterTests {
  @Test(
    "ARC-005: a value gives the same bytes through PropertyListWriter, write(_:) and the object-level calls",
    arguments: writerValues)
  func oneLayoutForEveryEntryPoint(_ name: String, _ value: PropertyListValue) throws {
    let viaPropertyListWriter = try PropertyListWriter.write(value, format: .binary)
    let whole = BinaryPropertyListWriter.write(value)
    var writer = BinaryPropertyListWriter()
    let top = writer.add(value)
    let added = try writer.finish(top: top)
    var byParts = BinaryPropertyListWriter()
    let partsTop = addByParts(value, to: &byParts)
    let parts = try byParts.finish(top: partsTop)
    #expect(viaPropertyListWriter == whole, "\(name)")
    #expect(added == whole, "\(name)")
    #expect(parts == whole, "\(name)")
    #expect(try BinaryPropertyListReader(whole).topValue() == value, "\(name)")
  }

  @Test(
    "ARC-005: the output does not depend on the writer's starting capacity or on earlier runs", arguments: writerValues)
  func deterministic(_ name: String, _ value: PropertyListValue) throws {
    let first = BinaryPropertyListWriter.write(value)
    for capacity in [1, 64, 1 << 20] {
      var writer = BinaryPropertyListWriter(capacity: capacity)
      let top = writer.add(value)
      #expect(try writer.finish(top: top) == first, "\(name), capacity \(capacity)")
    }
    #expect(BinaryPropertyListWriter.write(value) == first, "\(name)")
  }

  @Test("ARC-005: a writer reused after finish(top:) starts again from an empty file")
  func reusedAfterFinish() throws {
    var writer = BinaryPropertyListWriter()
    let first = try writer.finish(top: writer.add(["a": [1, 2.5, "x"]] as PropertyListValue))
    let second = try writer.finish(top: writer.add(["b": true] as PropertyListValue))
    #expect(first == BinaryPropertyListWriter.write(["a": [1, 2.5, "x"]]))
    #expect(second == BinaryPropertyListWriter.write(["b": true]))
  }

  @Test("ARC-005: a reserved object filled after the objects it refers to reads back, with one-byte references")
  func reservedObjectsFilledLast() throws {
    var writer = BinaryPropertyListWriter()
    let root = writer.reserve()
    let list = writer.reserve()
    let elements = [writer.add(string: "first"), writer.add(integer: 2), writer.add(real: 3.5)]
    writer.fill(list, array: elements)
    let mark = writer.mark
    writer.push(key: writer.add(string: "list"), value: list)
    writer.push(key: writer.add(string: "flag"), value: writer.add(bool: true))
    writer.fill(root, dictionaryFrom: mark)
    let data = try writer.finish(top: root)
    #expect(try PropertyListReader.read(data) == ["list": ["first", 2, 3.5], "flag": true])
    // Trailer: offset size, then reference size.
    #expect(data[data.count - 26] == 1)
    #expect(data[data.count - 25] == 1)
  }

  @Test("ARC-005: references narrow to two bytes when a reserved container refers to 300 objects")
  func referencesNarrowToTwoBytes() throws {
    var writer = BinaryPropertyListWriter()
    let root = writer.reserve()
    let refs = (0..<300).map { writer.add(string: "s\($0)") }
    writer.fill(root, array: refs)
    let data = try writer.finish(top: root)
    #expect(data[data.count - 25] == 2)
    #expect(try PropertyListReader.read(data) == .array((0..<300).map { .string("s\($0)") }))
  }

  @Test("ARC-006: equal strings and UIDs are shared however far apart; types are never merged")
  func sharing() throws {
    let filler = (0..<5000).map { PropertyListValue.integer(Int64($0) * 1_000_003) }
    let value = PropertyListValue.array(["s", .uid(7)] + filler + ["s", .uid(7), 1, 1.0, .float(1), true])
    let reader = try BinaryPropertyListReader(BinaryPropertyListWriter.write(value))
    // The array, "s", UID 7, the 5,000 distinct integers (none of them 1), then 1, 1.0, Float 1 and true.
    #expect(reader.objectCount == 1 + 2 + 5000 + 4)
    #expect(try reader.topValue() == value)
  }
}

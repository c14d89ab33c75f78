import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import CompiledNib

@Suite("NIBArchiveDocument")
struct NIBArchiveDocumentTests {
  @Test("NIBA-002: the spelled-out minimal archive reads as two objects, two keys, three values, two classes")
  func minimal() throws {
    let document = try NIBArchiveDocument(bytes: minimalArchive)
    #expect(document.header.formatVersion == 1)
    #expect(document.header.coderVersion == 10)
    #expect(document.objectCount == 2)
    #expect(document.keyCount == 2)
    #expect(document.valueCount == 3)
    #expect(document.classNameCount == 2)
    #expect(document.keys == ["k", "NS.bytes"])
    #expect(document.classes.map(\.name) == ["NSObject", "NSString"])
    #expect(document.object(at: 1) == NIBArchiveObject(index: 1, classIndex: 1, valueRange: 2..<3))
    #expect(document.className(ofObject: 1) == "NSString")
    #expect(document.endOfTables == 102)
    #expect(document.trailingByteCount == 0)
    #expect(document.rootObjectIndex == 0)
    let entries = document.entries(ofObject: 0)
    #expect(entries.map(\.key) == ["k", "k"])
    #expect(entries.map(\.value) == [.object(1), .bool(true)])
  }

  @Test("NIBA-031: a keyed lookup returns the first entry with the key")
  func firstMatch() throws {
    let document = try NIBArchiveDocument(bytes: minimalArchive)
    #expect(document.value(forKey: "k", inObject: 0) == .object(1))
    #expect(document.valueIndex(forKey: "k", inObject: 0) == 0)
    #expect(document.keyIndex(named: "NS.bytes") == 1)
    #expect(document.valueIndex(forKeyIndex: 1, inObject: 1) == 2)
    #expect(document.value(forKey: "missing", inObject: 0) == nil)
    #expect(document.value(forKey: "NS.bytes", inObject: 0) == nil)
  }

  @Test("NIBA-021: a string object's NS.bytes reads as UTF-8, also through a reference")
  func strings() throws {
    let document = try NIBArchiveDocument(bytes: minimalArchive)
    #expect(document.string(ofObject: 1) == "hi")
    #expect(document.string(forKey: "k", inObject: 0) == "hi")
    #expect(document.string(ofObject: 0) == nil)
    var builder = TestArchiveBuilder()
    let stringClass = builder.addClass("NSString")
    builder.addObject(stringClass, [("NS.bytes", .data([0xFF, 0xFE]))])
    builder.addObject(stringClass, [("NS.bytes", .int8(3))])
    builder.addObject(stringClass, [("NS.bytes", .data(Array("héllo ✓".utf8)))])
    let other = try NIBArchiveDocument(bytes: builder.bytes())
    #expect(other.string(ofObject: 0) == nil)
    #expect(other.string(ofObject: 1) == nil)
    #expect(other.string(ofObject: 2) == "héllo ✓")
  }

  @Test("NIBA-016: trailing bytes are ignored and counted")
  func trailingBytes() throws {
    let document = try NIBArchiveDocument(bytes: minimalArchive + [0x4C, 0x4E, 0x45, 0x00])
    #expect(document.objectCount == 2)
    #expect(document.trailingByteCount == 4)
    #expect(document.byteCount == 106)
  }

  @Test("NIBA-006: tables are read from their offsets in any order, with gaps")
  func tablesInAnyOrder() throws {
    // The minimal archive's tables moved: class names first (at 54, after a 4-byte gap), then values, keys,
    // objects last.
    let objects = Array(minimalArchive[50..<56])
    let keys = Array(minimalArchive[56..<67])
    let values = Array(minimalArchive[67..<80])
    let classes = Array(minimalArchive[80..<102])
    var bytes = Array(minimalArchive[0..<50]) + [0xEE, 0xEE, 0xEE, 0xEE] + classes + values + keys + objects
    func put(_ value: Int, at offset: Int) {
      bytes.replaceSubrange(offset..<(offset + 4), with: TestArchiveBuilder.le(UInt32(value)))
    }
    put(54, at: 46)
    put(54 + 22, at: 38)
    put(54 + 22 + 13, at: 30)
    put(54 + 22 + 13 + 11, at: 22)
    let document = try NIBArchiveDocument(bytes: bytes)
    #expect(document.string(forKey: "k", inObject: 0) == "hi")
    #expect(document.endOfTables == bytes.count)
  }

  @Test("NIBA-011, NIBA-019: every type code decodes, narrow integers sign-extended")
  func everyType() throws {
    var builder = TestArchiveBuilder()
    let root = builder.addClass("NSObject")
    builder.addObject(
      root,
      [
        ("i8", .int8(-2)), ("i16", .int16(-300)), ("i32", .int32(70000)), ("i64", .int64(-1)),
        ("f", .bool(false)), ("t", .bool(true)), ("r32", .float(1.5)), ("r64", .double(-0.25)),
        ("d", .data([1, 2, 3])), ("n", .null), ("o", .object(0)),
      ])
    let document = try NIBArchiveDocument(bytes: builder.bytes())
    #expect(
      document.entries(ofObject: 0).map(\.value) == [
        .int8(-2), .int16(-300), .int32(70000), .int64(-1), .bool(false), .bool(true), .float(1.5), .double(-0.25),
        .data(Data([1, 2, 3])), .null, .object(0),
      ])
    #expect(document.entries(ofObject: 0).map(\.value.type.rawValue) == Array(0...10))
    #expect(document.integer(forKey: "i8", inObject: 0) == -2)
    #expect(document.integer(forKey: "i16", inObject: 0) == -300)
    #expect(document.integer(forKey: "i64", inObject: 0) == -1)
    #expect(document.integer(forKey: "t", inObject: 0) == 1)
    #expect(document.integer(forKey: "f", inObject: 0) == 0)
    #expect(document.integer(forKey: "r32", inObject: 0) == nil)
    #expect(document.bool(forKey: "t", inObject: 0) == true)
    #expect(document.bool(forKey: "f", inObject: 0) == false)
    #expect(document.bool(forKey: "i8", inObject: 0) == true)
    #expect(document.bool(forKey: "d", inObject: 0) == nil)
    #expect(document.double(forKey: "r32", inObject: 0) == 1.5)
    #expect(document.double(forKey: "r64", inObject: 0) == -0.25)
    #expect(document.double(forKey: "i32", inObject: 0) == nil)
    #expect(document.data(forKey: "d", inObject: 0) == Data([1, 2, 3]))
    #expect(document.data(forKey: "n", inObject: 0) == nil)
    #expect(document.objectReference(forKey: "o", inObject: 0) == 0)
    #expect(document.objectReference(forKey: "n", inObject: 0) == nil)
    #expect(document.value(forKey: "n", inObject: 0)?.isNull == true)
  }

  @Test("NIBA-011: Boolean code 4 is false and 5 is true")
  func booleanCodes() throws {
    // value table rows of minimalArchive: value 1 is "k" = 05; patch it to 04.
    let asFalse = try NIBArchiveDocument(bytes: patched(74, [0x04]))
    #expect(asFalse.value(at: 1) == .bool(false))
    let asTrue = try NIBArchiveDocument(bytes: minimalArchive)
    #expect(asTrue.value(at: 1) == .bool(true))
  }

  @Test("NIBA-005: varints are little-endian 7-bit groups ending at the byte with the high bit")
  func varints() throws {
    let table: [([UInt8], Int)] = [
      ([0x80], 0), ([0x81], 1), ([0xFF], 127), ([0x00, 0x81], 128), ([0x2C, 0x82], 300), ([0x00, 0x80], 0),
      ([0x7F, 0x7F, 0x7F, 0x7F, 0x8F], Int(UInt32.max)),
    ]
    for (bytes, expected) in table {
      let value = try bytes.withUnsafeBytes { buffer in
        var position = 0
        let reader = NIBArchiveReader(bytes: buffer, options: .init())
        let value = try reader.readVarint(&position, "test")
        #expect(position == bytes.count)
        return value
      }
      #expect(value == expected, "\(bytes)")
    }
    // The same through a real table: a key whose length is the two-byte varint 00 81 (128).
    let key = String(repeating: "x", count: 128)
    let document = try NIBArchiveDocument(bytes: headerWithOneKey([0x00, 0x81] + Array(key.utf8)))
    #expect(document.keys == [key])
  }

  @Test("NIBA-008: class fallbacks are read and form the class chain")
  func fallbacks() throws {
    var builder = TestArchiveBuilder()
    let color = builder.addClass("NSColor")
    let uiColor = builder.addClass("UIColor", fallbacks: [UInt32(color)])
    builder.addObject(uiColor, [])
    let document = try NIBArchiveDocument(bytes: builder.bytes())
    #expect(document.classes[1].fallbackIndices == [0])
    #expect(document.classNameChain(ofObject: 0) == ["UIColor", "NSColor"])
    #expect(document.entryCount(ofObject: 0) == 0)
    #expect(document.entries(ofObject: 0).isEmpty)
  }

  @Test("NIBA-009: repeated key names are merged for lookups")
  func duplicateKeys() throws {
    // Two key records both named "k"; value 0 uses key #1, so a lookup by "k" must still find it.
    var bytes = minimalArchive
    bytes.replaceSubrange(58..<67, with: [0x81, 0x6B, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE])  // key 1: "k" + gap
    bytes[67] = 0x81  // value 0: key #1
    bytes[75] = 0x80  // value 2: key #0 ("k")
    let document = try NIBArchiveDocument(bytes: bytes)
    #expect(document.keys == ["k", "k"])
    #expect(document.keyIndex(named: "k") == 0)
    #expect(document.value(forKey: "k", inObject: 0) == .object(1))
    #expect(document.entries(ofObject: 0).map(\.keyIndex) == [0, 0])
  }

  @Test("NIBA-022: inlined collections list their elements; non-collections are a type mismatch")
  func collections() throws {
    var builder = TestArchiveBuilder()
    let root = builder.addClass("NSObject")
    builder.addObject(root, [("list", .object(1))])
    _ = builder.addArray([0, 2])
    _ = builder.addString("x")
    builder.addObject(1, [("NSInlinedValue", .bool(true)), ("UINibEncoderEmptyKey", .null)])
    let document = try NIBArchiveDocument(bytes: builder.bytes())
    #expect(try document.collectionElements(ofObject: 1) == [0, 2])
    let notCollection = try #require(throws: ArchiveError.self) { try document.collectionElements(ofObject: 2) }
    #expect(notCollection.code == .typeMismatch)
    #expect(notCollection.location.objectIndex == 2)
    #expect(notCollection.message.contains("NS.bytes"), "\(notCollection)")
    let nilElement = try #require(throws: ArchiveError.self) { try document.collectionElements(ofObject: 3) }
    #expect(nilElement.code == .typeMismatch)
    #expect(nilElement.location.keyPath == "UINibEncoderEmptyKey")
  }

  @Test("NIBA-023: geometry data values decode with their element-type prefix")
  func geometry() throws {
    var builder = TestArchiveBuilder()
    let root = builder.addClass("UIView")
    func doubles(_ values: [Double]) -> [UInt8] { [0x07] + values.flatMap { TestArchiveBuilder.le($0.bitPattern) } }
    func floats(_ values: [Float]) -> [UInt8] { [0x06] + values.flatMap { TestArchiveBuilder.le($0.bitPattern) } }
    builder.addObject(
      root,
      [
        ("UIBounds", .data(doubles([0, 0, 375, 667]))), ("UICenter", .data(floats([187.5, 333.5]))),
        ("odd", .data([0x07, 1, 2, 3])), ("prefix", .data([0x05, 0, 0, 0, 0])), ("int", .int8(1)),
      ])
    let document = try NIBArchiveDocument(bytes: builder.bytes())
    #expect(document.geometry(forKey: "UIBounds", inObject: 0) == [0, 0, 375, 667])
    #expect(document.geometry(forKey: "UICenter", inObject: 0) == [187.5, 333.5])
    #expect(document.geometry(forKey: "odd", inObject: 0) == nil)
    #expect(document.geometry(forKey: "prefix", inObject: 0) == nil)
    #expect(document.geometry(forKey: "int", inObject: 0) == nil)
  }

  @Test("NIBA-020: an archive without objects has no root and no nib structure")
  func noObjects() throws {
    let document = try NIBArchiveDocument(bytes: headerWithOneKey([0x80]))
    #expect(document.rootObjectIndex == nil)
    #expect(document.keys == [""])
    let error = try #require(throws: ArchiveError.self) { try document.nibStructure() }
    #expect(error.code == .corruptData)
  }

  @Test("NIBA-030: formats are told apart by their first bytes")
  func sniffing() {
    #expect(CompiledNibFileFormat(sniffing: minimalArchive) == .nibArchive)
    #expect(CompiledNibFileFormat(sniffing: Array("bplist00rest".utf8)) == .binaryPropertyList)
    #expect(CompiledNibFileFormat(sniffing: Array("<?xml version".utf8)) == .xml)
    #expect(CompiledNibFileFormat(sniffing: [0xEF, 0xBB, 0xBF] + Array("<?xml".utf8)) == .xml)
    #expect(CompiledNibFileFormat(sniffing: Array("NIBArchiv".utf8)) == .unknown)
    #expect(CompiledNibFileFormat(sniffing: [UInt8]()) == .unknown)
  }
}

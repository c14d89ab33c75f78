import ArchiveCoding
import Testing

@testable import CompiledNib

/// A minimal valid archive, spelled out: two objects, two keys, three values, two classes (102 bytes).
let minimalArchive: [UInt8] = [
  // header
  0x4E, 0x49, 0x42, 0x41, 0x72, 0x63, 0x68, 0x69, 0x76, 0x65,  // 0: magic "NIBArchive"
  0x01, 0x00, 0x00, 0x00,  // 10: format version 1
  0x0A, 0x00, 0x00, 0x00,  // 14: coder version 10
  0x02, 0x00, 0x00, 0x00,  // 18: object count 2
  0x32, 0x00, 0x00, 0x00,  // 22: objects table at 50
  0x02, 0x00, 0x00, 0x00,  // 26: key count 2
  0x38, 0x00, 0x00, 0x00,  // 30: keys table at 56
  0x03, 0x00, 0x00, 0x00,  // 34: value count 3
  0x43, 0x00, 0x00, 0x00,  // 38: values table at 67
  0x02, 0x00, 0x00, 0x00,  // 42: class-name count 2
  0x50, 0x00, 0x00, 0x00,  // 46: class-name table at 80
  // objects table
  0x80, 0x80, 0x82,  // 50: object 0: class 0, first value 0, 2 values
  0x81, 0x82, 0x81,  // 53: object 1: class 1, first value 2, 1 value
  // keys table
  0x81, 0x6B,  // 56: "k"
  0x88, 0x4E, 0x53, 0x2E, 0x62, 0x79, 0x74, 0x65, 0x73,  // 58: "NS.bytes"
  // values table
  0x80, 0x0A, 0x01, 0x00, 0x00, 0x00,  // 67: value 0: key "k", object reference #1
  0x80, 0x05,  // 73: value 1: key "k", true
  0x81, 0x08, 0x82, 0x68, 0x69,  // 75: value 2: key "NS.bytes", data "hi"
  // class-name table
  0x89, 0x80, 0x4E, 0x53, 0x4F, 0x62, 0x6A, 0x65, 0x63, 0x74, 0x00,  // 80: "NSObject\0", no fallbacks
  0x89, 0x80, 0x4E, 0x53, 0x53, 0x74, 0x72, 0x69, 0x6E, 0x67, 0x00,  // 91: "NSString\0", no fallbacks
]

/// A 50-byte header declaring one key at offset 50 and nothing else; the key bytes follow.
func headerWithOneKey(_ keyBytes: [UInt8]) -> [UInt8] {
  Array("NIBArchive".utf8) + [
    0x01, 0x00, 0x00, 0x00,  // 10: format version 1
    0x0A, 0x00, 0x00, 0x00,  // 14: coder version 10
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 18: no objects, offset 0
    0x01, 0x00, 0x00, 0x00, 0x32, 0x00, 0x00, 0x00,  // 26: one key, at 50
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 34: no values, offset 0
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 42: no class names, offset 0
  ] + keyBytes
}

/// `minimalArchive` with bytes replaced from `offset`.
func patched(_ offset: Int, _ replacement: [UInt8]) -> [UInt8] {
  var bytes = minimalArchive
  bytes.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
  return bytes
}

struct CorruptCase: CustomTestStringConvertible, Sendable {
  var name: String
  var bytes: [UInt8]
  var code: ArchiveError.Code
  var byteOffset: Int
  var objectIndex: Int? = nil
  var testDescription: String { name }
}

@Suite("NIBArchive corrupt inputs")
struct NIBArchiveCorruptInputTests {
  static let cases: [CorruptCase] = [
    // NIBA-003: the last magic byte is "f" instead of "e".
    CorruptCase(name: "bad magic", bytes: patched(9, [0x66]), code: .corruptData, byteOffset: 9),
    // NIBA-002: nothing at all.
    CorruptCase(name: "empty input", bytes: [], code: .corruptData, byteOffset: 0),
    // NIBA-002: the header stops after 30 bytes.
    CorruptCase(
      name: "truncated header", bytes: Array(minimalArchive.prefix(30)), code: .corruptData, byteOffset: 30),
    // NIBA-004: format version 2.
    CorruptCase(name: "format version 2", bytes: patched(10, [0x02]), code: .unsupportedFormat, byteOffset: 10),
    // NIBA-005: the only key's length byte 05 has no high bit and the file ends.
    CorruptCase(
      name: "varint running past the end", bytes: headerWithOneKey([0x05]), code: .corruptData, byteOffset: 50),
    // NIBA-005: six bytes without a high bit.
    CorruptCase(
      name: "varint longer than 5 bytes", bytes: headerWithOneKey([0x01, 0x01, 0x01, 0x01, 0x01, 0x01]),
      code: .corruptData, byteOffset: 50),
    // NIBA-005: 7F 7F 7F 7F FF encodes 2^35 - 1.
    CorruptCase(
      name: "varint above 32 bits", bytes: headerWithOneKey([0x7F, 0x7F, 0x7F, 0x7F, 0xFF]), code: .corruptData,
      byteOffset: 50),
    // NIBA-007: object count 1000 (E8 03), which needs 3000 bytes; 52 follow offset 50.
    CorruptCase(name: "count past the end", bytes: patched(18, [0xE8, 0x03]), code: .corruptData, byteOffset: 18),
    // NIBA-007, NIBA-017: object count FF FF FF FF, above the default maxObjects.
    CorruptCase(
      name: "absurd object count", bytes: patched(18, [0xFF, 0xFF, 0xFF, 0xFF]), code: .limitExceeded,
      byteOffset: 18),
    // NIBA-007, NIBA-017: value count FF FF FF 7F, above the default maxValues.
    CorruptCase(
      name: "absurd value count", bytes: patched(34, [0xFF, 0xFF, 0xFF, 0x7F]), code: .limitExceeded,
      byteOffset: 34),
    // NIBA-006: keys table offset 255, past the 102-byte file.
    CorruptCase(name: "table offset past the end", bytes: patched(30, [0xFF]), code: .corruptData, byteOffset: 30),
    // NIBA-006: values table offset 10, inside the header.
    CorruptCase(name: "table inside the header", bytes: patched(38, [0x0A]), code: .corruptData, byteOffset: 38),
    // NIBA-010: value 0's key index 85 = 5, but there are 2 keys.
    CorruptCase(
      name: "key index out of range", bytes: patched(67, [0x85]), code: .corruptData, byteOffset: 67, objectIndex: 0),
    // NIBA-011: value 1's type byte 0B = 11.
    CorruptCase(
      name: "unknown value type code", bytes: patched(74, [0x0B]), code: .corruptData, byteOffset: 74,
      objectIndex: 0),
    // NIBA-012: value 0 refers to object #2 of 2.
    CorruptCase(
      name: "object reference out of range", bytes: patched(69, [0x02]), code: .corruptData, byteOffset: 69,
      objectIndex: 0),
    // NIBA-013: value 2's data length FF = 127 bytes; 24 remain.
    CorruptCase(
      name: "data past the end", bytes: patched(77, [0xFF]), code: .corruptData, byteOffset: 78, objectIndex: 1),
    // NIBA-014: object 1's class index 82 = 2, but there are 2 class names.
    CorruptCase(
      name: "class index out of range", bytes: patched(53, [0x82]), code: .corruptData, byteOffset: 53,
      objectIndex: 1),
    // NIBA-014: object 1 claims values 2..<4 of 3.
    CorruptCase(
      name: "value slice past the table", bytes: patched(55, [0x82]), code: .corruptData, byteOffset: 54,
      objectIndex: 1),
    // NIBA-015: object 0 claims 3 values and object 1 one more: 4 of 3.
    CorruptCase(
      name: "overlapping value slices", bytes: patched(52, [0x83]), code: .corruptData, byteOffset: 54,
      objectIndex: 1),
    // NIBA-008: class 0 claims one fallback; its index is "NSOb" read as a u32.
    CorruptCase(name: "fallback index out of range", bytes: patched(81, [0x81]), code: .corruptData, byteOffset: 82),
    // NIBA-008: the terminating NUL of "NSString" is "x".
    CorruptCase(name: "class name without NUL", bytes: patched(101, [0x78]), code: .corruptData, byteOffset: 101),
    // NIBA-008: "NSS\0ring": a NUL inside the name.
    CorruptCase(name: "NUL inside a class name", bytes: patched(96, [0x00]), code: .corruptData, byteOffset: 96),
    // NIBA-008: class 1's name length 80 = 0.
    CorruptCase(name: "empty class name", bytes: patched(91, [0x80]), code: .corruptData, byteOffset: 93),
    // NIBA-009: key "k" replaced by the byte FF, not UTF-8.
    CorruptCase(name: "key not UTF-8", bytes: patched(57, [0xFF]), code: .corruptData, byteOffset: 57),
    // NIBA-008: "NSObject" with its "O" replaced by C0, not UTF-8.
    CorruptCase(name: "class name not UTF-8", bytes: patched(84, [0xC0]), code: .corruptData, byteOffset: 82),
  ]

  @Test("NIBA-018: each corrupt input throws its error code at its byte offset", arguments: cases)
  func corruptInput(_ testCase: CorruptCase) throws {
    let error = try #require(throws: ArchiveError.self) { try NIBArchiveDocument(bytes: testCase.bytes) }
    #expect(error.code == testCase.code, "\(error)")
    #expect(error.location.byteOffset == testCase.byteOffset, "\(error)")
    if let objectIndex = testCase.objectIndex {
      #expect(error.location.objectIndex == objectIndex, "\(error)")
    }
    #expect(!error.message.isEmpty)
  }

  @Test("NIBA-003: the bad-magic message shows the bytes found")
  func magicMessage() throws {
    let error = try #require(throws: ArchiveError.self) { try NIBArchiveDocument(bytes: Array("bplist00".utf8)) }
    #expect(error.message.contains("0x62 0x70"), "\(error)")
    #expect(error.location.byteOffset == 0)
  }

  @Test("NIBA-018: a value error names the owning object's class")
  func valueErrorNamesClass() throws {
    let error = try #require(throws: ArchiveError.self) { try NIBArchiveDocument(bytes: patched(74, [0x0B])) }
    #expect(error.location.className == "NSObject")
    #expect(error.message.contains("found 11"), "\(error)")
    #expect(error.description.contains("object #0 (NSObject)"), "\(error)")
  }

  @Test("NIBA-017: an input larger than maxTotalBytes is refused before parsing")
  func totalBytesLimit() throws {
    let options = NIBArchiveDecodingOptions(maxTotalBytes: 101)
    let error = try #require(throws: ArchiveError.self) {
      try NIBArchiveDocument(bytes: minimalArchive, options: options)
    }
    #expect(error.code == .limitExceeded)
    #expect(error.message.contains("maxTotalBytes"))
    #expect(try NIBArchiveDocument(bytes: minimalArchive, options: .init(maxTotalBytes: 102)).objectCount == 2)
  }

  @Test("NIBA-017: each table limit is enforced at its count field")
  func tableLimits() throws {
    let limits: [(NIBArchiveDecodingOptions, Int, String)] = [
      (.init(maxObjects: 1), 18, "maxObjects"),
      (.init(maxKeys: 1), 26, "maxKeys"),
      (.init(maxValues: 2), 34, "maxValues"),
      (.init(maxClassNames: 1), 42, "maxClassNames"),
    ]
    for (options, offset, name) in limits {
      let error = try #require(throws: ArchiveError.self) {
        try NIBArchiveDocument(bytes: minimalArchive, options: options)
      }
      #expect(error.code == .limitExceeded)
      #expect(error.location.byteOffset == offset)
      #expect(error.message.contains(name), "\(error)")
    }
  }
}

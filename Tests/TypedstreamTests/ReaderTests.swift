import ArchiveCoding
import Foundation
import Testing

@testable import Typedstream

@Suite("TypedstreamReader")
struct ReaderTests {
  private let i = TypeCode("i")

  @Test("TS-002: the signature gives the byte order and the header's system version is read in it")
  func headerInBothByteOrders() throws {
    let little = try TypedstreamReader.read(StreamBytes.little(StreamBytes.new("i") + [0x81, 0x34, 0x12]))
    #expect(little.byteOrder == .little)
    #expect(little.systemVersion == 1000)
    #expect(little.values == [.signed(i, 0x1234)])
    let big = try TypedstreamReader.read(StreamBytes.big(StreamBytes.new("i") + [0x81, 0x12, 0x34]))
    #expect(big.byteOrder == .big)
    #expect(big.systemVersion == 1000)
    #expect(big.values == [.signed(i, 0x1234)])
  }

  @Test("TS-003: a head byte is an integer unless it is a tag; 0x81, 0x82 and 0x87 announce 2, 4 and 8 bytes")
  func integerHeads() throws {
    let body: [UInt8] =
      StreamBytes.new("iiiiqq")
      + [0x92]  // -110, the smallest one-byte integer
      + [0x7F]  // 127
      + [0x81, 0x00, 0x80]  // int16 -32768
      + [0x82, 0x00, 0x00, 0x00, 0x80]  // int32 Int32.min
      + [0x87, 0x00, 0x1A, 0x71, 0x18, 0x02, 0x00, 0x00, 0x00]  // int64 9000000000
      + [0x87, 0x00, 0xE6, 0x8E, 0xE7, 0xFD, 0xFF, 0xFF, 0xFF]  // int64 -9000000000
    let q = TypeCode("q")
    #expect(
      try TypedstreamReader.read(StreamBytes.little(body)).values == [
        .signed(i, -110), .signed(i, 127), .signed(i, -32768), .signed(i, Int64(Int32.min)),
        .signed(q, 9_000_000_000), .signed(q, -9_000_000_000),
      ])
  }

  @Test("TS-021: unsigned values are compacted as signed and wrap to their width (0xFD is UINT64_MAX-2 for Q)")
  func unsignedWrap() throws {
    let body = StreamBytes.new("QILSC") + [0xFD, 0xFD, 0xFD, 0xFD, 0xFD]
    #expect(
      try TypedstreamReader.read(StreamBytes.little(body)).values == [
        .unsigned(TypeCode("Q"), 18_446_744_073_709_551_613), .unsigned(TypeCode("I"), 4_294_967_293),
        .unsigned(TypeCode("L"), 4_294_967_293), .unsigned(TypeCode("S"), 65533), .unsigned(TypeCode("C"), 253),
      ])
  }

  @Test("TS-022: c, C and B are one raw byte, never a compacted integer")
  func rawBytes() throws {
    let body = StreamBytes.new("cCB") + [0x81, 0x85, 0x02]
    #expect(
      try TypedstreamReader.read(StreamBytes.little(body)).values == [
        .signed(TypeCode("c"), -127), .unsigned(TypeCode("C"), 0x85), .bool(2),
      ])
  }

  @Test("TS-023: f and d are 0x83 and IEEE bytes in the stream's order, or an integer")
  func reals() throws {
    let little =
      StreamBytes.new("fdd") + [0x83, 0x00, 0x00, 0x60, 0x40] + [0x83] + [0, 0, 0, 0, 0, 0x20, 0x59, 0x40]
      + [0x82, 0x80, 0x01, 0x4B, 0x01]
    #expect(
      try TypedstreamReader.read(StreamBytes.little(little)).values == [
        .float(3.5), .double(100.5), .double(21_692_800),
      ])
    let big = StreamBytes.new("fd") + [0x83, 0x40, 0x60, 0x00, 0x00] + [0x83, 0x40, 0x59, 0x20, 0, 0, 0, 0, 0]
    #expect(try TypedstreamReader.read(StreamBytes.big(big)).values == [.float(3.5), .double(100.5)])
  }

  @Test("TS-004: shared strings are stored once and referred to as index + 110 (0x92 is the first)")
  func sharedStringReferences() throws {
    // "i" (string 0) then ":" (string 1), a selector "go" (string 2), then the same three by reference.
    let body = StreamBytes.new("i") + [0x05] + StreamBytes.new(":") + StreamBytes.new("go") + [0x92, 0x06, 0x93, 0x94]
    #expect(
      try TypedstreamReader.read(StreamBytes.little(body)).values == [
        .signed(i, 5), .selector(Array("go".utf8)), .signed(i, 6), .selector(Array("go".utf8)),
      ])
  }

  @Test("TS-005: an object takes its number before its class; a class chain is numbered class-first")
  func objectTableOrder() throws {
    // @: NEW object (entry 0), NEW class A (entry 1), NEW class R (entry 2), nil, END;
    // then @#: a reference to entry 0 (the object) and to entry 2 (class R).
    let body =
      StreamBytes.new("@") + [0x84, 0x84] + StreamBytes.new("A") + [0x01, 0x84] + StreamBytes.new("R") + [
        0x00, 0x85, 0x86,
      ]
      + StreamBytes.new("@#") + [0x92, 0x94]
    let archive = try TypedstreamReader.read(StreamBytes.little(body))
    let root = TypedstreamClass("R", version: 0)
    let a = TypedstreamClass("A", version: 1, superclass: .literal(root))
    #expect(
      archive.values == [
        .object(.literal(TypedstreamObject(objectClass: .literal(a), groups: []))), .object(.reference(0)),
        .classValue(.reference(1)),
      ])
  }

  @Test("TS-006: a C string is NEW and a shared string, numbered in the object table")
  func cStrings() throws {
    let body = StreamBytes.new("**") + [0x84] + StreamBytes.new("q") + [0x92]
    #expect(
      try TypedstreamReader.read(StreamBytes.little(body)).values == [
        .cString(.literal(Array("q".utf8))), .cString(.reference(0)),
      ])
  }

  @Test("TS-030: [Nc] is N raw bytes; other arrays and structures hold one value per element or field")
  func arraysAndStructures() throws {
    let body = StreamBytes.new("[3c][2s]{P=ii}") + [1, 2, 3] + [0x05, 0x81, 0x00, 0x01] + [0x07, 0x08]
    let archive = try TypedstreamReader.read(StreamBytes.little(body))
    let s = TypeCode("s")
    let point = TypeNode.structure(name: Array("P".utf8), fields: [.scalar(i), .scalar(i)])
    #expect(
      archive.values == [
        .byteArray(.array(count: 3, element: .scalar(TypeCode("c"))), [1, 2, 3]),
        .array(.array(count: 2, element: .scalar(s)), [.signed(s, 5), .signed(s, 256)]),
        .structure(point, [.signed(i, 7), .signed(i, 8)]),
      ])
  }

  /// Malformed streams, each with the offset and code of the error (TS-040, TS-041).
  static let corrupt: [(name: String, bytes: Data, code: ArchiveError.Code, offset: Int)] = [
    // Streamer version 3 (old NeXTSTEP): unsupported.
    ("old streamer", Data([0x03, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]), .unsupportedFormat, 0),
    // A signature of neither order.
    ("bad signature", Data([0x04, 0x0B] + Array("streamtypex".utf8) + [0x81, 0xE8, 0x03]), .corruptData, 2),
    // The header ends inside the system version (the int16 after 0x81 at byte 13).
    ("short header", Data(StreamBytes.littleHeader.dropLast()), .corruptData, 14),
    // A string length (at byte 17) past the end of the data.
    ("long string", StreamBytes.little([0x84, 0x05, 0x69]), .corruptData, 17),
    // A reference to shared string 3 when none is stored.
    ("dangling string", StreamBytes.little([0x95, 0x01]), .corruptData, 16),
    // An object reference (0x92, entry 0) when the table is empty.
    ("dangling object", StreamBytes.little(StreamBytes.new("@") + [0x92]), .corruptData, 19),
    // A class reference that names the object being read (entry 0), not a class.
    ("wrong kind", StreamBytes.little(StreamBytes.new("@") + [0x84, 0x92]), .corruptData, 20),
    // An unknown type code.
    ("unknown type", StreamBytes.little(StreamBytes.new("v")), .unsupportedFormat, 16),
    // An unclosed array type.
    ("open array", StreamBytes.little(StreamBytes.new("[2i")), .corruptData, 16),
    // A tag where an integer belongs (END as an int).
    ("tag as integer", StreamBytes.little(StreamBytes.new("i") + [0x86]), .corruptData, 19),
    // [4c] with two bytes left.
    ("short byte array", StreamBytes.little(StreamBytes.new("[4c]") + [1, 2]), .corruptData, 22),
    // An object without END.
    (
      "object without end",
      StreamBytes.little(StreamBytes.new("@") + [0x84, 0x84] + StreamBytes.new("A") + [0x00, 0x85]), .corruptData, 26
    ),
    // A class whose superclass is itself (entry 0 is the class being read).
    (
      "own superclass", StreamBytes.little(StreamBytes.new("#") + [0x84] + StreamBytes.new("A") + [0x00, 0x92]),
      .corruptData, 24
    ),
    // An array length past Int32.max in a type encoding.
    ("huge array length", StreamBytes.little(StreamBytes.new("[99999999999c]")), .limitExceeded, 16),
    // A reference whose index (Int64.max + 110) overflows.
    (
      "overflowing reference", StreamBytes.little([0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]), .corruptData,
      16
    ),
    // A billion empty values: more than the bytes can hold.
    ("empty values", StreamBytes.little(StreamBytes.new("[1000000000!]")), .limitExceeded, 31),
  ]

  @Test("TS-040: a malformed stream throws an ArchiveError with the byte offset", arguments: 0..<corrupt.count)
  func corruptStreams(_ row: Int) throws {
    let (name, bytes, code, offset) = Self.corrupt[row]
    do {
      let archive = try TypedstreamReader.read(bytes)
      Issue.record("\(name): expected an error, read \(archive)")
    } catch let error as ArchiveError {
      #expect(error.code == code, "\(name): \(error)")
      #expect(error.location.byteOffset == offset, "\(name): \(error)")
    }
  }

  @Test("TS-042: nesting deeper than the depth limit throws limitExceeded")
  func depthLimit() throws {
    // Objects nested 120 deep: each holds the next in its one "@" group.
    var body = StreamBytes.new("@") + [0x84, 0x84] + StreamBytes.new("N") + [0x00, 0x85] + [0x92]
    for _ in 0..<120 { body += [0x84, 0x93, 0x92] }
    body += [0x85] + Array(repeating: 0x86, count: 121)
    let error = #expect(throws: ArchiveError.self) {
      try TypedstreamReader.read(StreamBytes.little(body), options: .init(maxDepth: 100))
    }
    #expect(error?.code == .limitExceeded)
    #expect(try TypedstreamReader.read(StreamBytes.little(body)).groups.count == 1)
  }
}

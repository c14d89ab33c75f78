import ArchiveCoding
import Foundation
import Testing

@testable import Typedstream

@Suite("TypedstreamWriter")
struct WriterTests {
  private let i = TypeCode("i")

  @Test(
    "TS-053: a tree of every type code, unsigned extremes included, reads back equal in both byte orders",
    arguments: [TypedstreamByteOrder.little, .big])
  func everyTypeRoundTrips(_ order: TypedstreamByteOrder) throws {
    let archive = StreamBytes.everyTypeArchive(byteOrder: order)
    let data = try TypedstreamWriter.write(archive)
    #expect(TypedstreamFormat.hasMagic(data))
    #expect(try TypedstreamReader.read(data) == archive)
  }

  /// Values and the bytes `NSArchiver` writes for them as `i` or `q` (TS-051).
  static let compaction: [(value: Int64, bytes: [UInt8])] = [
    (0, [0x00]),
    (127, [0x7F]),
    (-110, [0x92]),  // the smallest one-byte integer
    (-111, [0x81, 0x91, 0xFF]),  // 0x91 is a tag: int16
    (128, [0x81, 0x80, 0x00]),
    (-32768, [0x81, 0x00, 0x80]),
    (32768, [0x82, 0x00, 0x80, 0x00, 0x00]),
    (Int64(Int32.min), [0x82, 0x00, 0x00, 0x00, 0x80]),
    (-9_000_000_000, [0x87, 0x00, 0xE6, 0x8E, 0xE7, 0xFD, 0xFF, 0xFF, 0xFF]),
  ]

  @Test("TS-051: integers take one byte unless that byte is a tag, then 16, 32 and 64 bits", arguments: 0..<9)
  func integerCompaction(_ row: Int) throws {
    let (value, bytes) = Self.compaction[row]
    let archive = TypedstreamArchive(groups: [TypedstreamGroup("q", [.signed(TypeCode("q"), value)])])
    let data = try TypedstreamWriter.write(archive)
    #expect(Array(data) == StreamBytes.littleHeader + StreamBytes.new("q") + bytes)
  }

  @Test("TS-021: an unsigned value is written as the signed value of its width: UINT64_MAX-2 is the byte 0xFD")
  func unsignedCompaction() throws {
    let archive = TypedstreamArchive(groups: [
      TypedstreamGroup(
        "QIS",
        [
          .unsigned(TypeCode("Q"), UInt64.max - 2), .unsigned(TypeCode("I"), 4_294_967_293),
          .unsigned(TypeCode("S"), 40000),
        ])
    ])
    let data = try TypedstreamWriter.write(archive)
    #expect(Array(data) == StreamBytes.littleHeader + StreamBytes.new("QIS") + [0xFD, 0xFD, 0x81, 0x40, 0x9C])
  }

  @Test("TS-052: a whole real is written as an integer; others, and -0.0, as 0x83 and IEEE bytes")
  func realForms() throws {
    let archive = TypedstreamArchive(
      byteOrder: .big,
      groups: [TypedstreamGroup("dfdd", [.double(21_692_800), .float(0.85), .double(-0.0), .double(100.5)])])
    let data = try TypedstreamWriter.write(archive)
    let expected: [UInt8] =
      StreamBytes.bigHeader + StreamBytes.new("dfdd") + [0x82, 0x01, 0x4B, 0x01, 0x80] + [0x83, 0x3F, 0x59, 0x99, 0x9A]
      + [0x83, 0x80, 0, 0, 0, 0, 0, 0, 0] + [0x83, 0x40, 0x59, 0x20, 0, 0, 0, 0, 0]
    #expect(Array(data) == expected)
    #expect(try TypedstreamReader.read(data) == archive)
  }

  @Test("TS-050: a reference to a literal not written before it is refused")
  func danglingReference() throws {
    for value in [
      TypedstreamValue.object(.reference(0)), .classValue(.reference(3)), .cString(.reference(0)),
    ] {
      let code = value == .object(.reference(0)) ? "@" : value == .cString(.reference(0)) ? "*" : "#"
      let error = #expect(throws: ArchiveError.self) {
        try TypedstreamWriter.write(TypedstreamArchive(groups: [TypedstreamGroup(code, [value])]))
      }
      #expect(error?.code == .invalidValue)
    }
  }

  @Test("TS-050: a streamer version other than 4 is refused")
  func otherStreamerVersion() throws {
    let error = #expect(throws: ArchiveError.self) {
      try TypedstreamWriter.write(TypedstreamArchive(streamerVersion: 3))
    }
    #expect(error?.code == .invalidValue)
  }

  @Test("TS-050: a group whose values do not match its encoding is refused")
  func mismatchedGroup() throws {
    for group in [
      TypedstreamGroup("ii", [.signed(i, 1)]),
      TypedstreamGroup("i", [.unsigned(TypeCode("I"), 1)]),
      TypedstreamGroup("[2c]", [.byteArray(.array(count: 2, element: .scalar(TypeCode("c"))), [1])]),
    ] {
      let error = #expect(throws: ArchiveError.self) {
        try TypedstreamWriter.write(TypedstreamArchive(groups: [group]))
      }
      #expect(error?.code == .invalidValue)
    }
  }

  @Test(
    "TS-053: a corpus stream written in the other byte order reads back to the same values",
    .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)),
    arguments: TypedstreamCorpus.valid)
  func otherByteOrder(_ name: String) throws {
    var archive = try TypedstreamReader.read(TypedstreamCorpus.data(name))
    archive.byteOrder = archive.byteOrder == .little ? .big : .little
    let data = try TypedstreamWriter.write(archive)
    #expect(try TypedstreamReader.read(data) == archive)
  }
}

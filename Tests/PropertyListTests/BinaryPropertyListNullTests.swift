import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// The null object of binary property lists (marker `0x00`): read as CoreFoundation reads it, written by the binary
/// writer, refused by the XML writer.
@Suite("Binary property list null")
struct BinaryPropertyListNullTests {
  /// A dictionary `{"a": null, "b": [null, true]}`: objects 0 dict, 1 "a", 2 null, 3 "b", 4 array, 5 true.
  static let dictionaryWithNulls = bplist([
    [0xD2, 1, 3, 2, 4],  // dictionary of two: keys #1 #3, values #2 #4
    [0x51, 0x61],  // "a"
    [0x00],  // null
    [0x51, 0x62],  // "b"
    [0xA2, 2, 5],  // array of two: #2 #5
    [0x09],  // true
  ])

  @Test("ARC-160: marker 0x00 reads as null, alone and inside containers")
  func nullReads() throws {
    #expect(try PropertyListReader.read(Data(bplist([[0x00]]))) == .null)
    let value = try PropertyListReader.read(Data(Self.dictionaryWithNulls))
    #expect(value == ["a": .null, "b": [.null, true]])
  }

  @Test("ARC-160: the toolchain's PropertyListSerialization reads the same file with NSNull where we read null")
  func toolchainReadsNullAsNSNull() throws {
    let foundation = try PropertyListSerialization.propertyList(
      from: Data(Self.dictionaryWithNulls), options: [], format: nil)
    let dictionary = try #require(foundation as? [String: Any])
    #expect(dictionary["a"] is NSNull)
    let array = try #require(dictionary["b"] as? [Any])
    #expect(array.first is NSNull)
  }

  @Test("ARC-160: fill (0x0F) and unassigned markers of the 0x0 row stay refused")
  func fillRefused() {
    for marker: UInt8 in [0x0F, 0x01, 0x0C, 0x0E] {
      #expect(throws: ArchiveError.self) { try PropertyListReader.read(Data(bplist([[marker]]))) }
    }
  }

  @Test("ARC-160: the binary writer writes null as 0x00, once however often it appears, and reads it back")
  func binaryWriterWritesNull() throws {
    let value: PropertyListValue = ["a": .null, "b": [.null, .null]]
    let data = BinaryPropertyListWriter.write(value)
    #expect(try PropertyListReader.read(data) == value)
    // Five objects (the dictionary, "a", "b", the array and one null shared by all three places), as the
    // trailer's object count says.
    let count = data.suffix(24).prefix(8).reduce(0) { $0 << 8 | Int($1) }
    #expect(count == 5)
    let foundation = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    let dictionary = try #require(foundation as? [String: Any])
    #expect(dictionary["a"] is NSNull)
  }

  @Test("ARC-160: the XML writer refuses null, naming its key path")
  func xmlWriterRefusesNull() {
    do {
      _ = try XMLPropertyListWriter.write(["outer": ["list": [1, .null]]])
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.code == .invalidValue)
      #expect(error.location.keyPath == "outer.list[1]")
    } catch {
      Issue.record("expected an ArchiveError, got \(error)")
    }
  }
}

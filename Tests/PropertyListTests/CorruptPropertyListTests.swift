import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// Assembles a binary property list by hand from the objects' bytes, with 1-byte references and offsets unless
/// told otherwise (``RawPropertyList/bytes(top:refSize:offsetSize:objectCount:tableOffset:)``).
func bplist(
  _ objects: [[UInt8]], top: UInt64 = 0, refSize: UInt8 = 1, offsetSize: UInt8 = 1,
  objectCount: UInt64? = nil, tableOffset: UInt64? = nil
) -> [UInt8] {
  RawPropertyList(objects: objects).bytes(
    top: top, refSize: refSize, offsetSize: offsetSize, objectCount: objectCount, tableOffset: tableOffset)
}

func expectFailure(
  _ bytes: [UInt8], _ code: ArchiveError.Code, containing fragment: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    let value = try PropertyListReader.read(Data(bytes))
    Issue.record("expected an error, read \(value)", sourceLocation: sourceLocation)
  } catch let error as ArchiveError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("unexpected error type \(error)", sourceLocation: sourceLocation)
  }
}

@Suite("Corrupt property lists")
struct CorruptPropertyListTests {
  @Test("ARC-002: a well-formed hand-built list reads (the baseline for the corrupt cases)")
  func baseline() throws {
    // [ "ab", 7 ]
    let bytes = bplist([[0xA2, 1, 2], [0x52, 0x61, 0x62], [0x10, 7]])
    #expect(try PropertyListReader.read(Data(bytes)) == ["ab", 7])
  }

  @Test("ARC-002: bad magic")
  func badMagic() {
    var bytes = bplist([[0x10, 7]])
    bytes[0] = UInt8(ascii: "x")
    expectFailure(bytes, .corruptData, containing: "expected a property list")
    expectFailure(Array("bplist1x".utf8) + bytes.dropFirst(8), .corruptData, containing: "bplist00")
  }

  @Test("ARC-002: empty input and input shorter than a trailer")
  func tooShort() {
    expectFailure([], .corruptData, containing: "empty input")
    expectFailure(Array("bplist00".utf8) + [0x10, 7], .corruptData, containing: "expected at least 42 bytes")
  }

  @Test("ARC-002: truncated trailer")
  func truncatedTrailer() {
    let bytes = bplist([[0x10, 7]])
    // Dropping four bytes shifts the trailer: the table offset now reads as a huge number.
    expectFailure(Array(bytes.dropLast(4)), .corruptData, containing: "trailer")
  }

  @Test("ARC-002: offset table past the end")
  func offsetTablePastEnd() {
    let bytes = bplist([[0x10, 7]], tableOffset: 10_000)
    expectFailure(bytes, .corruptData, containing: "offset table at 10000")
  }

  @Test("ARC-002: absurd object counts")
  func absurdCounts() {
    expectFailure(bplist([[0x10, 7]], objectCount: UInt64.max), .corruptData, containing: "object count")
    expectFailure(bplist([[0x10, 7]], objectCount: 0), .corruptData, containing: "object count 0")
    expectFailure(bplist([[0x10, 7]], objectCount: 1 << 40), .corruptData, containing: "object count")
  }

  @Test("ARC-002: top object out of range")
  func topOutOfRange() {
    expectFailure(bplist([[0x10, 7]], top: 5), .corruptData, containing: "top object 5")
  }

  @Test("ARC-002: an object offset outside the object area")
  func offsetOutside() {
    var bytes = bplist([[0x10, 7], [0x10, 8]])
    // The offset table starts after the two objects (8 + 2 + 2 = 12); point object 1 into the table.
    bytes[13] = 12
    expectFailure(bytes, .corruptData, containing: "object 1 starts at 12")
  }

  @Test("ARC-002: references out of range")
  func refOutOfRange() {
    expectFailure(bplist([[0xA1, 9], [0x10, 7]]), .corruptData, containing: "reference to object 9")
  }

  @Test("ARC-002: an array that contains itself")
  func selfContainingArray() {
    expectFailure(bplist([[0xA1, 0]]), .corruptData, containing: "contains itself")
  }

  @Test("ARC-002: a cycle through two containers")
  func twoContainerCycle() {
    expectFailure(bplist([[0xA1, 1], [0xD1, 2, 0], [0x51, 0x6B]]), .corruptData, containing: "contains itself")
  }

  @Test("ARC-002: a string whose length runs past the end")
  func stringPastEnd() {
    expectFailure(bplist([[0x5F, 0x10, 200, 0x61]]), .corruptData, containing: "runs past the object area")
  }

  @Test("ARC-002: a length integer wider than the object area")
  func lengthPastEnd() {
    expectFailure(bplist([[0x5F, 0x13, 0, 0]]), .corruptData, containing: "length runs past")
  }

  @Test("ARC-002: a dictionary key that is a container")
  func containerKey() {
    expectFailure(bplist([[0xD1, 1, 2], [0xA0], [0x10, 1]]), .corruptData, containing: "keys must be scalars")
  }

  @Test("ARC-002: unknown markers")
  func unknownMarker() {
    expectFailure(bplist([[0xE0]]), .corruptData, containing: "unknown object marker 0xE0")
    expectFailure(bplist([[0x0F]]), .corruptData, containing: "unsupported marker 0x0F")
    expectFailure(bplist([[0x01]]), .corruptData, containing: "unsupported marker 0x01")
    expectFailure(bplist([[0x21, 0, 0]]), .corruptData, containing: "expected 0x22 or 0x23")
  }

  @Test("ARC-002: a UID of 1 to 8 bytes reads whole; a wider one is refused, not cut to its low 8 bytes")
  func uidWidths() throws {
    for width in 1...16 {
      // The first byte 0x01, the rest 0x00 except the last, 0x05: 2^(8(w-1)) + 5 (w = 1: just 5).
      let payload: [UInt8] = width == 1 ? [5] : [1] + Array(repeating: 0, count: width - 2) + [5]
      let bytes = bplist([[0x80 | UInt8(width - 1)] + payload])
      if width <= 8 {
        let expected: UInt64 = width == 1 ? 5 : (1 << (8 * UInt64(width - 1))) + 5
        #expect(try PropertyListReader.read(Data(bytes)) == .uid(expected), "width \(width)")
        let reader = try BinaryPropertyListReader(bytes: bytes)
        #expect(reader.uidValue(ofObject: 0) == expected, "width \(width)")
      } else {
        // 2^64 + 5 read as 5 would have made a keyed archive's reference point at object 5.
        expectFailure(bytes, .corruptData, containing: "a UID of \(width) bytes, expected 1 to 8")
        let reader = try BinaryPropertyListReader(bytes: bytes, validation: .onAccess)
        #expect(reader.uidValue(ofObject: 0) == nil, "width \(width)")
        #expect(throws: ArchiveError.self) { try reader.header(of: 0) }
      }
    }
  }

  @Test("ARC-002: an ASCII string holding a byte above 0x7F")
  func nonASCII() {
    expectFailure(bplist([[0x52, 0x61, 0xC3]]), .corruptData, containing: "ASCII string contains the byte 0xC3")
  }

  /// Reads a bplist whose only object is an ASCII string of `bytes`, expecting the error that names the byte at
  /// `position` (or the string itself when `position` is `nil`).
  static func expectASCII(_ bytes: [UInt8], badAt position: Int?, sourceLocation: SourceLocation = #_sourceLocation) {
    let marker: [UInt8] = bytes.count < 15 ? [0x50 | UInt8(bytes.count)] : [0x5F, 0x10, UInt8(bytes.count)]
    let context = "\(bytes.count) bytes, bad at \(String(describing: position))"
    do {
      let value = try PropertyListReader.read(Data(bplist([marker + bytes])))
      #expect(position == nil, "read \(value): \(context)", sourceLocation: sourceLocation)
      #expect(value == .string(String(decoding: bytes, as: UTF8.self)), "\(context)", sourceLocation: sourceLocation)
    } catch let error as ArchiveError {
      guard let position else {
        Issue.record("\(error): \(context)", sourceLocation: sourceLocation)
        return
      }
      let fragment = "ASCII string contains the byte " + String(format: "0x%02X", bytes[position])
      #expect(error.code == .corruptData, "\(error): \(context)", sourceLocation: sourceLocation)
      #expect(error.message.contains(fragment), "\(error): \(context)", sourceLocation: sourceLocation)
      // The object starts after the 8-byte header; its bytes after the marker.
      #expect(
        error.location.byteOffset == 8 + marker.count + position, "\(error): \(context)",
        sourceLocation: sourceLocation)
    } catch {
      Issue.record("not an ArchiveError: \(error): \(context)", sourceLocation: sourceLocation)
    }
  }

  @Test(
    "ARC-002: a byte above 0x7F anywhere in an ASCII string of any length is refused, naming the first one",
    arguments: 1...40)
  func nonASCIIAtEveryPosition(count: Int) {
    // Every length the reader checks in words or in bytes (below 8, 8 and more, a multiple of 8 or not): 0x7F and
    // below read as they are; one byte above it anywhere is refused and named, with its offset.
    let ascii = (0..<count).map { UInt8(0x41 + $0 % 26) | ($0 == count - 1 ? 0x7F : 0) }
    Self.expectASCII(ascii, badAt: nil)
    for position in 0..<count {
      for byte: UInt8 in [0x80, 0xC3, 0xFF] {
        var bytes = ascii
        bytes[position] = byte
        Self.expectASCII(bytes, badAt: position)
      }
      // Two such bytes: the first is named.
      if position + 1 < count {
        var bytes = ascii
        bytes[position] = 0x80
        bytes[count - 1] = 0xFF
        Self.expectASCII(bytes, badAt: position)
      }
    }
  }

  @Test("ARC-004: nesting deeper than the limit is refused")
  func tooDeep() throws {
    var value: PropertyListValue = 1
    for _ in 0..<600 { value = [value] }
    let data = try PropertyListWriter.write(value)
    #expect(throws: ArchiveError.self) { try PropertyListReader.read(data) }
    var options = PropertyListDecodingOptions()
    options.maxDepth = 1000
    #expect(try PropertyListReader.read(data, options: options) == value)
    let xml = try PropertyListWriter.write(value, format: .xml)
    #expect(throws: ArchiveError.self) { try PropertyListReader.read(xml) }
  }

  @Test("ARC-004: shared containers cannot expand exponentially")
  func billionLaughs() {
    // Object i is an array holding object i+1 twice; the last is an integer. 40 levels expand to 2^40 values.
    var objects: [[UInt8]] = []
    for i in 0..<40 { objects.append([0xA2, UInt8(i + 1), UInt8(i + 1)]) }
    objects.append([0x10, 1])
    expectFailure(bplist(objects), .limitExceeded, containing: "expands to more than")
  }

  @Test("ARC-012: malformed XML reports line and column with the source line")
  func malformedXML() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
        <key>a</key>
        <integer>12x</integer>
      </dict>
      </plist>
      """
    do {
      _ = try PropertyListReader.read(Data(text.utf8), fileName: "bad.plist")
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.location.line == 5)
      #expect(error.location.column == 3)
      #expect(error.description.hasPrefix("bad.plist:5:3: error: expected an integer in <integer>, found \"12x\""))
      #expect(error.description.hasSuffix("  <integer>12x</integer>\n  ^"))
    }
  }

  @Test(
    "ARC-012: XML structure errors",
    arguments: [
      ("<plist><dict><key>a</key></dict></plist>", "expected a value for the key \"a\""),
      ("<plist><array><string>x</array></plist>", "expected </string>, found </array>"),
      ("<plist><foo/></plist>", "unknown property list element <foo>"),
      ("<plist><string>a &bogus; b</string></plist>", "unknown entity"),
      ("<plist><data>***</data></plist>", "expected base64"),
      ("<plist><date>2020-13-01T00:00:00Z</date></plist>", "expected a date"),
      ("<plist><integer>99999999999999999999</integer></plist>", "expected an integer"),
      ("<plist><string>never closed", "unterminated <string>"),
      ("<plist><true/><true/></plist>", "expected </plist>"),
      ("", "empty input"),
    ])
  func xmlErrors(_ text: String, _ fragment: String) {
    expectFailure(Array(text.utf8), text.contains("foo") ? .unsupportedFormat : .corruptData, containing: fragment)
  }
}

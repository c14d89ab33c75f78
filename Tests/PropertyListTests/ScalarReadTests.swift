import Foundation
import Testing

@testable import PropertyList

/// The keyed unarchiver's typed decodes read an integer, real or boolean field from its marker byte
/// (`int64Value(ofObject:)`, `doubleValue(ofObject:)`, `boolValue(ofObject:)`) instead of parsing a header: each
/// must give exactly what the header and its read give, and nothing where they give nothing.
@Suite("Scalars read from their marker")
struct ScalarReadTests {
  /// Payload bytes with the top bit set at both ends: 1, 2 and 4-byte integers are unsigned, 8-byte ones signed;
  /// 17 bytes, for the 16-byte integers that only the header reads.
  static let payload: [UInt8] =
    [0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0xFF] + [UInt8](repeating: 0x81, count: 8)

  /// What the header path gives for object `object`.
  static func viaHeader(_ reader: BinaryPropertyListReader, _ object: Int) -> (Int64?, UInt64?, Bool?) {
    guard let header = try? reader.header(of: object) else { return (nil, nil, nil) }
    return (
      header.kind == .integer ? reader.int64(header) : nil,
      header.kind == .real ? reader.double(header).bitPattern : nil,
      header.kind == .bool ? header.count == 1 : nil
    )
  }

  @Test("ARC-002, ARC-003: a scalar read from its marker is what its header gives, for every marker and payload length")
  func markerReadsMatchHeaders() throws {
    var compared = 0
    var read = (integers: 0, reals: 0, bools: 0)
    for marker in 0...255 {
      for length in 0...Self.payload.count {
        // The scalar is the last object, so that a payload shorter than its marker says runs into the offset
        // table: alone (object 0) or after an array that refers to it (object 1).
        let scalar: [UInt8] = [UInt8(marker)] + Self.payload.prefix(length)
        let lists: [[[UInt8]]] = [[scalar], [[0xA1, 1], scalar]]
        for objects in lists {
          guard let reader = try? BinaryPropertyListReader(bytes: bplist(objects), validation: .onAccess) else {
            continue
          }
          let object = objects.count - 1
          let (integer, real, bool) = Self.viaHeader(reader, object)
          #expect(reader.int64Value(ofObject: object) == integer, "marker \(marker), \(length) bytes")
          #expect(reader.doubleValue(ofObject: object)?.bitPattern == real, "marker \(marker), \(length) bytes")
          #expect(reader.boolValue(ofObject: object) == bool, "marker \(marker), \(length) bytes")
          if integer != nil { read.integers += 1 }
          if real != nil { read.reals += 1 }
          if bool != nil { read.bools += 1 }
          // Object numbers out of range are nothing.
          for outside in [-1, objects.count, Int.max] {
            #expect(reader.int64Value(ofObject: outside) == nil)
            #expect(reader.doubleValue(ofObject: outside) == nil)
            #expect(reader.boolValue(ofObject: outside) == nil)
          }
          compared += 1
        }
      }
    }
    #expect(compared > 1_000)
    // Each kind was read somewhere; the explicit reads below cover every width and the signs the format gives.
    #expect(read.integers >= 4 && read.reals >= 2 && read.bools >= 2, "\(read)")
    let reader = try BinaryPropertyListReader(
      bytes: bplist([
        [0xA7, 1, 2, 3, 4, 5, 6, 7], [0x10, 0xFF], [0x11, 0xFF, 0xFE], [0x12, 0x80, 0, 0, 0],
        [0x13] + [UInt8](repeating: 0xFF, count: 8), [0x22, 0x3F, 0xC0, 0, 0],
        [0x23, 0xC0, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18], [0x09],
      ]), validation: .onAccess)
    #expect(reader.int64Value(ofObject: 1) == 255)
    #expect(reader.int64Value(ofObject: 2) == 0xFFFE)
    #expect(reader.int64Value(ofObject: 3) == 0x8000_0000)
    #expect(reader.int64Value(ofObject: 4) == -1)
    #expect(reader.doubleValue(ofObject: 5) == 1.5)
    #expect(reader.doubleValue(ofObject: 6) == -3.141592653589793)
    #expect(reader.boolValue(ofObject: 7) == true)
    // Each read is of its own kind only.
    #expect(reader.doubleValue(ofObject: 1) == nil && reader.boolValue(ofObject: 4) == nil)
    #expect(reader.int64Value(ofObject: 6) == nil && reader.int64Value(ofObject: 7) == nil)
  }
}

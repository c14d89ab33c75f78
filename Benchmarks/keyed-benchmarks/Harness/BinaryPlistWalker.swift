import Foundation

/// "The limit": a bare walk over a binary plist that reads the trailer and offset table and touches every object's
/// marker byte, allocating nothing. No decoder can beat it; it is the floor of every decoding case.
enum BinaryPlistWalker {
  /// What the walk saw.
  struct Summary {
    /// Objects in the offset table.
    var objects: Int
    /// A hash of every marker byte, so the reads cannot be optimised away.
    var checksum: UInt64
  }

  /// Walks `data`; returns nil when it is not a well-formed `bplist00` container (every read is bounds-checked).
  static func walk(_ data: Data) -> Summary? {
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Summary? in
      let trailerSize = 32
      guard bytes.count >= 8 + 1 + trailerSize else { return nil }  // magic, one object, trailer
      guard bytes[0] == UInt8(ascii: "b"), bytes[1] == UInt8(ascii: "p"), bytes[6] == UInt8(ascii: "0") else {
        return nil  // "bplist0?" magic
      }
      let trailer = bytes.count - trailerSize
      let offsetSize = Int(bytes[trailer + 6])
      guard (1...8).contains(offsetSize) else { return nil }  // offset width must be 1...8 bytes
      let objects = bigEndian(bytes, at: trailer + 8, width: 8)
      let tableStart = bigEndian(bytes, at: trailer + 24, width: 8)
      guard objects > 0, tableStart >= 9, tableStart < trailer else { return nil }  // table between header and trailer
      let (tableSize, overflow) = objects.multipliedReportingOverflow(by: UInt64(offsetSize))
      guard !overflow, tableSize <= UInt64(trailer) - tableStart else { return nil }  // table fits before the trailer
      var checksum: UInt64 = 0
      var position = Int(tableStart)
      for _ in 0..<Int(objects) {
        let offset = bigEndian(bytes, at: position, width: offsetSize)
        guard offset < tableStart else { return nil }  // every object starts before the offset table
        checksum = checksum &* 31 &+ UInt64(bytes[Int(offset)])
        position += offsetSize
      }
      return Summary(objects: Int(objects), checksum: checksum)
    }
  }

  /// The unsigned big-endian integer of `width` bytes at `offset` (the caller checked the bounds).
  @inline(__always)
  private static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in offset..<offset + width { value = value << 8 | UInt64(bytes[index]) }
    return value
  }
}

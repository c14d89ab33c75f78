import ArchiveCoding
import Foundation

// `NSFont` in a typedstream (COD-125): an `i` length and that many bytes holding the font's name (a 4-byte kind, a
// 4-byte little-endian length, then the text: UTF-16 after a byte-order mark, else UTF-8), the point size as an
// `f`, then four `c` flags.
extension FontObject {
  /// Reads a font written by `NSFont`'s `encodeWithCoder:` to an `NSArchiver`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`corruptData`) when the name's bytes do not have that layout; the coder's errors.
  static func sequentialFont(from coder: any DecodingCoder) throws -> Font {
    let count = try coder.decodeValue(ofObjCType: "i", as: Int.self)
    guard count >= 8, case .bytes(let blob?) = try coder.decodeValue(ofObjCType: "[\(count)c]") else {
      throw ArchiveError(.corruptData, "expected an NSFont name of at least 8 bytes, found \(count)")
    }
    let bytes = [UInt8](blob)
    let length = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
    guard length <= bytes.count - 8 else {
      throw ArchiveError(.corruptData, "an NSFont name of \(length) bytes in a field of \(bytes.count - 8)")
    }
    let name = Self.text(Array(bytes[8..<(8 + length)]))
    let size = try coder.decodeReal(ofObjCType: "f")
    for _ in 0..<4 { _ = try coder.decodeValue(ofObjCType: "c") }
    return Font(name: name, pointSize: size)
  }

  private static func text(_ bytes: [UInt8]) -> String {
    guard bytes.count >= 2, bytes[0] == 0xFE && bytes[1] == 0xFF || bytes[0] == 0xFF && bytes[1] == 0xFE else {
      return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    let bigEndian = bytes[0] == 0xFE
    var units: [UInt16] = []
    var i = 2
    while i + 1 < bytes.count {
      let unit = bigEndian ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i])
      if unit == 0 { break }
      units.append(unit)
      i += 2
    }
    return String(decoding: units, as: UTF16.self)
  }

  /// Writes the font as `NSFont` writes itself to an `NSArchiver`: the name as UTF-16 after a byte-order mark, the
  /// size, and the flags Interface Builder wrote for a plain font (0, 1, 0, 0).
  func encodeSequentially(with coder: any EncodingCoder) {
    var text: [UInt8] = [0xFE, 0xFF]
    for unit in (font.name ?? "").utf16 { text += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
    let length = UInt32(text.count)
    let blob = [6, 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) } + text
    coder.encodeValue(.integer(Int64(blob.count)), ofObjCType: "i")
    coder.encodeValue(.bytes(Data(blob)), ofObjCType: "[\(blob.count)c]")
    coder.encodeValue(.float(Float(font.pointSize)), ofObjCType: "f")
    for flag: Int64 in [0, 1, 0, 0] { coder.encodeValue(.integer(flag), ofObjCType: "c") }
  }
}

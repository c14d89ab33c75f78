import ArchiveCoding
import Foundation

/// Scalar reads: the value of one number, string, data, date or UID object, from its header or straight from its
/// marker.
extension BinaryPropertyListReader {
  /// Reads an integer object as a value (``PropertyListValue/integer(_:)`` or ``PropertyListValue/unsignedInteger(_:)``).
  package func integer(_ header: Header, object: Int) throws -> PropertyListValue {
    let width = header.count
    switch width {
    case 1, 2, 4:
      return .integer(Int64(Self.readUInt(bytes, at: header.start, width: width)))
    case 8:
      return .integer(Int64(bitPattern: Self.readUInt64(bytes, at: header.start)))
    default:
      // 16 bytes: the high half is zero for values above Int64.max, or all ones for a sign-extended negative.
      let high = Self.readUInt64(bytes, at: header.start)
      let low = Self.readUInt64(bytes, at: header.start + 8)
      if high == 0 { return .integer(unsigned: low) }
      if high == UInt64.max, Int64(bitPattern: low) < 0 { return .integer(Int64(bitPattern: low)) }
      throw ArchiveError(
        .unsupportedFormat, "16-byte integer does not fit in 64 bits",
        at: .init(byteOffset: header.start - 1, objectIndex: object))
    }
  }

  /// Reads an integer object of 1, 2, 4 or 8 bytes (the first three unsigned, the last signed); `nil` for the
  /// 16-byte form, which ``integer(_:object:)`` reads.
  @inline(__always)
  @inlinable
  package func int64(_ header: Header) -> Int64? {
    switch header.count {
    case 1, 2, 4: Int64(Self.readUInt(bytes, at: header.start, width: header.count))
    case 8: Int64(bitPattern: Self.readUInt64(bytes, at: header.start))
    default: nil
    }
  }

  /// Reads a real object (4 or 8 bytes) as a `Double`.
  @inline(__always)
  @inlinable
  package func double(_ header: Header) -> Double {
    if header.count == 4 { return Double(Float(bitPattern: UInt32(Self.readUInt(bytes, at: header.start, width: 4)))) }
    return Double(bitPattern: Self.readUInt64(bytes, at: header.start))
  }

  /// Reads a real object (4 or 8 bytes).
  package func real(_ header: Header) -> PropertyListValue {
    if header.count == 4 {
      return .float(Float(bitPattern: UInt32(Self.readUInt(bytes, at: header.start, width: 4))))
    }
    return .real(Double(bitPattern: Self.readUInt64(bytes, at: header.start)))
  }

  /// Reads a string object (ASCII or UTF-16).
  package func string(_ header: Header, object: Int) throws -> String {
    if header.kind == .asciiString {
      let buffer = bytes[header.start..<(header.start + header.count)]
      if Self.isASCII(buffer) { return String(decoding: buffer, as: UTF8.self) }
      let bad = header.start + (buffer.firstIndex { $0 >= 0x80 } ?? 0)
      throw ArchiveError(
        .corruptData, String(format: "ASCII string contains the byte 0x%02X", bytes[bad]),
        at: .init(byteOffset: bad, objectIndex: object))
    }
    var units = [UInt16](repeating: 0, count: header.count)
    for i in 0..<header.count {
      units[i] = UInt16(bytes[header.start + 2 * i]) << 8 | UInt16(bytes[header.start + 2 * i + 1])
    }
    // Unpaired surrogates become U+FFFD: Swift strings hold only valid Unicode.
    return String(decoding: units, as: UTF16.self)
  }

  /// `true` when the bytes of the string whose header is `header` are all ASCII (what ``string(_:object:)`` checks
  /// of an ASCII string before making it).
  package func isASCII(_ header: Header) -> Bool {
    header.kind != .asciiString || Self.isASCII(bytes[header.start..<(header.start + header.count)])
  }

  /// `true` when every byte of `buffer` is ASCII, read eight bytes at a time (the last eight overlapping the words
  /// before them), or as ``ShortKey`` reads fewer than eight, rather than one byte at a time.
  @inline(__always)
  package static func isASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = buffer.baseAddress else { return true }
    let bytes = UnsafeRawPointer(start)
    let count = buffer.count
    var high: UInt64 = 0
    if count < 8 {
      let (head, tail) = ShortKey.words(bytes, count: count)
      high = head | tail
    } else {
      var offset = 0
      while offset &+ 8 <= count {
        high |= bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset &+= 8
      }
      if offset < count { high |= bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) }
    }
    return high & 0x8080_8080_8080_8080 == 0
  }

  /// The payload of an object whose header is `header` (a container's references, a string's or data's bytes),
  /// valid as ``ByteStore``'s bytes are.
  @inline(__always)
  @inlinable
  package func payload(_ header: Header) -> UnsafeBufferPointer<UInt8> {
    bytes[header.start..<payloadEnd(header)]
  }

  /// Reads a data object.
  package func data(_ header: Header) -> Data {
    Data(buffer: bytes[header.start..<(header.start + header.count)])
  }

  /// Reads a UID object.
  @inline(__always)
  @inlinable
  package func uid(_ header: Header) -> UInt64 {
    Self.readUInt(bytes, at: header.start, width: header.count)
  }

  /// The value of object `object` when it is a well-formed UID, read straight from its marker (the common element
  /// of a keyed archive's reference arrays); `nil` for anything else, which ``header(of:)`` then reports.
  @inline(__always)
  @inlinable
  package func uidValue(ofObject object: Int) -> UInt64? {
    guard let offset = checkedOffset(of: object) else { return nil }
    let marker = bytes[offset]
    // 0x80...0x87: a UID of 1 to 8 bytes (a wider one is refused by ``header(of:)``).
    guard marker & 0xF8 == 0x80 else { return nil }
    let width = Int(marker & 0x07) + 1
    guard offset + 1 + width <= offsetTableOffset else { return nil }
    return Self.readUInt(bytes, at: offset + 1, width: width)
  }

  /// The value of an integer object of 1, 2, 4 or 8 bytes (the first three unsigned, the last signed), read from
  /// its marker: what ``header(of:)`` then ``int64(_:)`` give, without a header (a call into this module per
  /// integer field a keyed archive decodes costs more than the read). `nil` for anything else: another kind, the
  /// 16-byte form, an unreadable reference or a payload past the object area.
  @inline(__always)
  @inlinable
  package func int64Value(ofObject object: Int) -> Int64? {
    // 0x10 to 0x13: an integer of 2^n bytes.
    let integer = BinaryPropertyListMarker.integer
    guard let header = numberHeader(ofObject: object, kind: .integer, markers: integer, integer | 3) else { return nil }
    return int64(header)
  }

  /// The value of a real object (4 or 8 bytes), read from its marker as ``int64Value(ofObject:)`` reads an
  /// integer: what ``header(of:)`` then ``double(_:)`` give. `nil` for anything else.
  @inline(__always)
  @inlinable
  package func doubleValue(ofObject object: Int) -> Double? {
    // 0x22 and 0x23: a real of 4 or 8 bytes.
    let real = BinaryPropertyListMarker.real
    guard let header = numberHeader(ofObject: object, kind: .real, markers: real | 2, real | 3) else { return nil }
    return double(header)
  }

  /// The header of a number object whose marker is one of `first...last` (markers whose low nibble `n` gives a
  /// payload of 2^n bytes), read from its marker; `nil` for another marker, an unreadable reference or a payload
  /// past the object area.
  @inline(__always)
  @inlinable
  func numberHeader(ofObject object: Int, kind: Kind, markers first: UInt8, _ last: UInt8) -> Header? {
    guard let offset = checkedOffset(of: object) else { return nil }
    let marker = bytes[offset]
    guard marker >= first, marker <= last else { return nil }
    let width = 1 << Int(marker & 0x0F)
    guard offset + 1 + width <= offsetTableOffset else { return nil }
    return Header(kind: kind, count: width, start: offset + 1)
  }

  /// The value of a boolean object, read from its marker; `nil` for anything else.
  @inline(__always)
  @inlinable
  package func boolValue(ofObject object: Int) -> Bool? {
    guard let offset = checkedOffset(of: object) else { return nil }
    switch bytes[offset] {
    case BinaryPropertyListMarker.false: return false
    case BinaryPropertyListMarker.true: return true
    default: return nil
    }
  }

  /// Reads a date object.
  package func date(_ header: Header) -> Date {
    Date(timeIntervalSinceReferenceDate: Double(bitPattern: Self.readUInt64(bytes, at: header.start)))
  }
}

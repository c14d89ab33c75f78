import ArchiveCoding
import Foundation

/// A validated, lazy view of a binary property list (`bplist00`).
///
/// With ``Validation/full`` (the default), `init` checks the whole container once: the trailer, the offset table,
/// every object's marker and payload bounds, every reference, dictionary keys, and that containers reachable from
/// the top object nest no deeper than the limit and never contain themselves. After that, objects are read on
/// demand by their object number (an index in the offset table), so a keyed archive can be decoded without
/// building the whole value tree.
///
/// With ``Validation/onAccess``, `init` checks only the trailer, the offset table's bounds and that objects do not
/// share bytes (ARC-007, one linear pass); every access checks
/// what it touches instead: `header(of:)` checks the object number, its offset and its payload bounds, lookups
/// skip keys they cannot read, and `value(of:)` checks nesting depth, containers that contain themselves and
/// container keys while it materialises. A caller that walks containers itself must then bound its own recursion.
///
/// Content that is only checked when read (the bytes of an ASCII string, a UTF-16 string's code units) still
/// produces thrown errors, never a crash.
///
/// Not part of the API: every member is `package`, so outside this package the type can be named but neither made
/// nor read. The type itself is public because the package's decoders (`KeyedArchive`, `NibLoading`) inline its
/// `@inlinable` reads, and the compiler inlines `@inlinable` members into other modules only when their type is
/// public: the members of a `package` type are called, never inlined.
public struct BinaryPropertyListReader: Sendable {
  /// How much of the container `init` checks up front.
  public enum Validation: Sendable {
    /// Every object, reference and dictionary key, and the nesting of the containers reachable from the top.
    case full
    /// Only the trailer, the offset table's bounds and that objects do not share bytes; the rest is checked when
    /// read.
    case onAccess
  }

  /// The kinds of object in a binary property list.
  public enum Kind: UInt8, Sendable {
    /// The kinds, in the order `isScalar` relies on: the fixed-width scalars first.
    case bool, integer, real, date, data, asciiString, utf16String, uid, array, set, dictionary
    /// The null object (marker `0x00`), which CoreFoundation reads as `NSNull`.
    case null
    var isContainer: Bool { self == .array || self == .set || self == .dictionary }
    /// A boolean, integer, real or date: a fixed-width value read from its bytes without allocating.
    @inline(__always)
    @inlinable
    package var isScalar: Bool { rawValue <= Kind.date.rawValue }

    /// Compares two kinds in one step in every module: without it, another module compares kinds through the
    /// `Equatable` witness (a dynamic call per comparison, on the decoders' hottest paths).
    @inline(__always)
    @inlinable
    public static func == (a: Kind, b: Kind) -> Bool { a.rawValue == b.rawValue }
  }

  /// The parsed marker of one object.
  public struct Header: Sendable {
    /// The object's kind.
    @usableFromInline package var kind: Kind
    /// Elements for containers and data, characters or code units for strings, byte width for numbers and UIDs,
    /// and 0 or 1 for booleans.
    @usableFromInline package var count: Int
    /// Offset of the first payload byte.
    @usableFromInline package var start: Int

    @inlinable
    package init(kind: Kind, count: Int, start: Int) {
      self.kind = kind
      self.count = count
      self.start = start
    }
  }

  @usableFromInline package let bytes: ByteStore
  package let options: PropertyListDecodingOptions
  /// The number of objects in the offset table.
  @usableFromInline package let objectCount: Int
  @usableFromInline package let objectRefSize: Int
  package let topObject: Int
  /// `true` when every object's header, reference and dictionary key was checked when the reader was made
  /// (``Validation/full``): a reading of the whole list then need not check them again.
  package let isValidated: Bool
  @usableFromInline let offsetTableOffset: Int
  @usableFromInline let offsetIntSize: Int

  /// Validates `data` as a binary property list.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` with a byte offset for any structural problem.
  package init(_ data: Data, options: PropertyListDecodingOptions = .default, validation: Validation = .full) throws {
    try self.init(store: ByteStore(copying: data), options: options, validation: validation)
  }

  /// Validates `bytes` as a binary property list.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` with a byte offset for any structural problem.
  package init(bytes: [UInt8], options: PropertyListDecodingOptions = .default, validation: Validation = .full) throws {
    try self.init(store: ByteStore(copying: bytes), options: options, validation: validation)
  }

  // MARK: Objects

  /// The byte offset at which an object starts, checked to lie inside the object area.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the object number is not below the object count (a reference out of range)
  ///   or the offset table gives an offset outside the object area.
  @inline(__always)
  package func offset(of object: Int) throws -> Int {
    guard object >= 0, object < objectCount else { throw referenceError(object) }
    let raw = offsetEntry(object)
    guard raw >= UInt64(BinaryPropertyListMarker.headerSize), raw < UInt64(offsetTableOffset) else {
      let position = offsetTableOffset + object * offsetIntSize
      throw ArchiveError(
        .corruptData,
        "object \(object) starts at \(raw), outside the object area 8..<\(offsetTableOffset)",
        at: .init(byteOffset: position, objectIndex: object))
    }
    return Int(raw)
  }

  /// `true` when object `object` (below the object count, its offset checked) has the marker of an array, a set, an
  /// ordered set or a dictionary: for an object whose header can be read, that its kind is a container.
  func hasContainerMarker(_ object: Int) -> Bool { Self.isContainer(marker: marker(of: object)) }

  /// `true` when object `object` (below the object count, its offset checked) has the marker of an integer or an ASCII
  /// string (`0x1n`, `0x5n`): for an object whose header can be read, that its kind is one of those.
  func hasIntegerOrASCIIStringMarker(_ object: Int) -> Bool { Self.isIntegerOrASCIIString(marker: marker(of: object)) }

  /// The marker byte of object `object` (below the object count, its offset checked).
  func marker(of object: Int) -> UInt8 { bytes[Int(offsetEntry(object))] }

  /// `true` for the marker of an array, a set, an ordered set or a dictionary.
  static func isContainer(marker: UInt8) -> Bool {
    marker >= BinaryPropertyListMarker.array && marker < BinaryPropertyListMarker.dictionary + 0x10
  }

  /// `true` for the marker of an integer or an ASCII string (`0x1n`, `0x5n`).
  static func isIntegerOrASCIIString(marker: UInt8) -> Bool {
    let high = marker & 0xF0
    return high == BinaryPropertyListMarker.integer || high == BinaryPropertyListMarker.asciiString
  }

  /// The byte offset of an object, or `nil` when the object number or its offset is out of range.
  @inline(__always)
  @inlinable
  func checkedOffset(of object: Int) -> Int? {
    guard object >= 0, object < objectCount else { return nil }
    let raw = offsetEntry(object)
    guard raw >= UInt64(BinaryPropertyListMarker.headerSize), raw < UInt64(offsetTableOffset) else { return nil }
    return Int(raw)
  }

  /// Offset-table entry `object`, which the caller checked is below the object count: the entry then lies inside
  /// the table, whose bounds were checked at init, so it is read without a bounds check (the hottest read of
  /// decoding: every header).
  @inline(__always)
  @inlinable
  func offsetEntry(_ object: Int) -> UInt64 {
    let position = offsetTableOffset + object * offsetIntSize
    let base = UnsafeRawPointer(bytes.base)
    switch offsetIntSize {
    case 1: return UInt64(base.load(fromByteOffset: position, as: UInt8.self))
    case 2: return UInt64(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: position, as: UInt16.self)))
    case 4: return UInt64(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
    case 8: return UInt64(bigEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    default: return Self.readUInt(bytes, at: position, width: offsetIntSize)
    }
  }

  func referenceError(_ object: Int) -> ArchiveError {
    ArchiveError(
      .corruptData, "reference to object \(object), but there are only \(objectCount) objects",
      at: .init(objectIndex: object))
  }

  /// Parses the marker of an object and checks that its payload lies inside the object area.
  package func header(of object: Int) throws -> Header {
    try parsedHeader(of: object, at: try self.offset(of: object))
  }

  /// The body of ``header(of:)``, for callers that have read the object's offset already (inlined: the hottest
  /// function of decoding).
  @inline(__always)
  func parsedHeader(of object: Int, at offset: Int) throws -> Header {
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    // The common forms (a length in the marker, a fixed-width number) are checked here; long lengths and every
    // error take the out-of-line path.
    switch marker >> 4 {
    case 0x0:
      if marker == BinaryPropertyListMarker.false { return Header(kind: .bool, count: 0, start: offset + 1) }
      if marker == BinaryPropertyListMarker.true { return Header(kind: .bool, count: 1, start: offset + 1) }
    case 0x1:
      if low <= 3, offset + 1 + (1 << low) <= offsetTableOffset {
        return Header(kind: .integer, count: 1 << low, start: offset + 1)
      }
    case 0x2:
      if low == 2 || low == 3, offset + 1 + (1 << low) <= offsetTableOffset {
        return Header(kind: .real, count: 1 << low, start: offset + 1)
      }
    case 0x4:
      if low != 0x0F, offset + 1 + low <= offsetTableOffset {
        return Header(kind: .data, count: low, start: offset + 1)
      }
      if let count = shortLength(at: offset, marker: low, limit: options.maxDataLength) {
        return Header(kind: .data, count: count, start: offset + 3)
      }
    case 0x5:
      if low != 0x0F, offset + 1 + low <= offsetTableOffset {
        return Header(kind: .asciiString, count: low, start: offset + 1)
      }
      if let count = shortLength(at: offset, marker: low, limit: options.maxStringLength) {
        return Header(kind: .asciiString, count: count, start: offset + 3)
      }
    case 0x8:
      if low < 8, offset + 2 + low <= offsetTableOffset { return Header(kind: .uid, count: low + 1, start: offset + 1) }
    case 0xA:
      if low != 0x0F, offset + 1 + low * objectRefSize <= offsetTableOffset {
        return Header(kind: .array, count: low, start: offset + 1)
      }
    case 0xD:
      if low != 0x0F, offset + 1 + 2 * low * objectRefSize <= offsetTableOffset {
        return Header(kind: .dictionary, count: low, start: offset + 1)
      }
    default:
      break
    }
    return try parseHeader(object: object, offset: offset)
  }

  /// The length of a data or ASCII string object of 15 to 255 bytes (a marker's `0xF` then a one-byte integer), when
  /// its payload fits in the object area and the limit; else `nil`, for the general parse.
  @inline(__always)
  private func shortLength(at offset: Int, marker low: Int, limit: Int) -> Int? {
    guard low == 0x0F, offset + 2 < offsetTableOffset, bytes[offset + 1] == BinaryPropertyListMarker.integer else {
      return nil
    }
    let count = Int(bytes[offset + 2])
    return count <= limit && offset + 3 + count <= offsetTableOffset ? count : nil
  }

  /// The general parse of ``header(of:)``: every marker, long lengths, and the errors.
  @inline(never)
  private func parseHeader(object: Int, offset: Int) throws -> Header {
    let marker = bytes[offset]
    let high = marker & 0xF0
    let low = Int(marker & 0x0F)
    func bad(_ message: String) -> ArchiveError {
      ArchiveError(.corruptData, message, at: .init(byteOffset: offset, objectIndex: object))
    }
    func sized(_ kind: Kind, unitSize: Int, limit: Int, what: String) throws -> Header {
      var count = low
      var start = offset + 1
      if low == 0x0F {
        // The count follows as an integer object.
        guard start < offsetTableOffset else { throw bad("\(what) length runs past the object area") }
        let intMarker = bytes[start]
        guard intMarker & 0xF0 == BinaryPropertyListMarker.integer, intMarker & 0x0F <= 3 else {
          throw bad(String(format: "expected an integer marker for the %@ length, found 0x%02X", what, intMarker))
        }
        let width = 1 << Int(intMarker & 0x0F)
        guard start + 1 + width <= offsetTableOffset else { throw bad("\(what) length runs past the object area") }
        let raw = Self.readUInt(bytes, at: start + 1, width: width)
        guard raw <= UInt64(limit) else {
          throw ArchiveError(
            .limitExceeded, "\(what) of \(raw) elements exceeds the limit of \(limit)",
            at: .init(byteOffset: offset, objectIndex: object))
        }
        count = Int(raw)
        start += 1 + width
      }
      let (payload, overflow1) = count.multipliedReportingOverflow(by: unitSize)
      let (end, overflow2) = start.addingReportingOverflow(payload)
      guard !overflow1, !overflow2, end <= offsetTableOffset else {
        throw bad(
          "\(what) of \(count) elements at \(offset) runs past the object area, which ends at \(offsetTableOffset)")
      }
      return Header(kind: kind, count: count, start: start)
    }
    func fixed(_ kind: Kind, width: Int, count: Int) throws -> Header {
      guard offset + 1 + width <= offsetTableOffset else {
        throw bad("\(width)-byte value runs past the object area")
      }
      return Header(kind: kind, count: count, start: offset + 1)
    }
    switch high {
    case 0x00:
      switch marker {
      case BinaryPropertyListMarker.false: return Header(kind: .bool, count: 0, start: offset + 1)
      case BinaryPropertyListMarker.true: return Header(kind: .bool, count: 1, start: offset + 1)
      case BinaryPropertyListMarker.null: return Header(kind: .null, count: 0, start: offset + 1)
      default:
        throw bad(String(format: "unsupported marker 0x%02X (fill and unassigned markers are not objects)", marker))
      }
    case BinaryPropertyListMarker.integer:
      guard low <= 4 else { throw bad(String(format: "integer marker 0x%02X has an invalid width", marker)) }
      return try fixed(.integer, width: 1 << low, count: 1 << low)
    case BinaryPropertyListMarker.real:
      guard low == 2 || low == 3 else { throw bad(String(format: "real marker 0x%02X: expected 0x22 or 0x23", marker)) }
      return try fixed(.real, width: 1 << low, count: 1 << low)
    case 0x30:
      guard marker == BinaryPropertyListMarker.date else {
        throw bad(String(format: "date marker 0x%02X: expected 0x33", marker))
      }
      return try fixed(.date, width: 8, count: 8)
    case BinaryPropertyListMarker.data:
      return try sized(.data, unitSize: 1, limit: options.maxDataLength, what: "data")
    case BinaryPropertyListMarker.asciiString:
      return try sized(.asciiString, unitSize: 1, limit: options.maxStringLength, what: "ASCII string")
    case BinaryPropertyListMarker.utf16String:
      return try sized(.utf16String, unitSize: 2, limit: options.maxStringLength, what: "UTF-16 string")
    case BinaryPropertyListMarker.uid:
      // 1 to 8 bytes: a UID is a 64-bit value (read wider, its high bytes were dropped, and 2^64 + 1 was object 1).
      guard low < 8 else {
        throw bad(String(format: "UID marker 0x%02X: a UID of %d bytes, expected 1 to 8", marker, low + 1))
      }
      return try fixed(.uid, width: low + 1, count: low + 1)
    case BinaryPropertyListMarker.array:
      return try sized(.array, unitSize: objectRefSize, limit: options.maxCollectionCount, what: "array")
    case BinaryPropertyListMarker.set, BinaryPropertyListMarker.orderedSet:
      return try sized(.set, unitSize: objectRefSize, limit: options.maxCollectionCount, what: "set")
    case BinaryPropertyListMarker.dictionary:
      return try sized(.dictionary, unitSize: 2 * objectRefSize, limit: options.maxCollectionCount, what: "dictionary")
    default:
      throw bad(String(format: "unknown object marker 0x%02X", marker))
    }
  }

  /// The object number stored at a reference position. With ``Validation/onAccess`` it may be out of range:
  /// ``header(of:)`` and ``offset(of:)`` check it.
  @inline(__always)
  @inlinable
  package func ref(at position: Int) -> Int {
    // At most 8 bytes: the top bit may be set for an 8-byte reference, which is then out of range (negative).
    Int(truncatingIfNeeded: Self.readUInt(bytes, at: position, width: objectRefSize))
  }

  /// The `index`th element of an array or set, or the `index`th key of a dictionary. Inlinable, as the other
  /// accessors the keyed unarchiver calls per field: a call into this module costs more than the read.
  @inline(__always)
  @inlinable
  package func element(_ header: Header, _ index: Int) -> Int {
    ref(at: header.start + index * objectRefSize)
  }

  /// The `index`th value of a dictionary.
  @inline(__always)
  @inlinable
  package func dictionaryValue(_ header: Header, _ index: Int) -> Int {
    ref(at: header.start + (header.count + index) * objectRefSize)
  }

  /// The offset just past an object's payload (``header(of:)`` checked that it lies inside the object area).
  @inlinable
  func payloadEnd(_ header: Header) -> Int {
    switch header.kind {
    case .bool, .null: return header.start
    case .integer, .real, .date, .uid, .data, .asciiString: return header.start + header.count
    case .utf16String: return header.start + 2 * header.count
    case .array, .set: return header.start + header.count * objectRefSize
    case .dictionary: return header.start + 2 * header.count * objectRefSize
    }
  }

  /// `true` when `bytes` start with the magic of a binary property list, `bplist0` (any version).
  package static func hasMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 7 && bytes[0] == 0x62 && bytes[1] == 0x70 && bytes[2] == 0x6C && bytes[3] == 0x69
      && bytes[4] == 0x73 && bytes[5] == 0x74 && bytes[6] == 0x30
  }

  // MARK: Byte helpers

  @inline(__always)
  @inlinable
  static func readUInt(_ bytes: ByteStore, at position: Int, width: Int) -> UInt64 {
    bytes.readUInt(at: position, width: width)
  }

  @inline(__always)
  @inlinable
  static func readUInt64(_ bytes: ByteStore, at position: Int) -> UInt64 {
    readUInt(bytes, at: position, width: 8)
  }
}

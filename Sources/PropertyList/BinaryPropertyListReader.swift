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
/// what it touches instead: ``header(of:)`` checks the object number, its offset and its payload bounds, lookups
/// skip keys they cannot read, and ``value(of:)`` checks nesting depth, containers that contain themselves and
/// container keys while it materialises. A caller that walks containers itself must then bound its own recursion.
///
/// Content that is only checked when read (the bytes of an ASCII string, a UTF-16 string's code units) still
/// produces thrown errors, never a crash.
///
/// Not part of the public API: public as the `PropertyListInternals` SPI only, with `package` members, so that its
/// `@inlinable` reads are inlined into the decoders of the package's other modules (Decision 0022). The members of
/// a `package` type are not: their bodies are never made available to other modules.
@_spi(PropertyListInternals) public struct BinaryPropertyListReader: Sendable {
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
    case bool, integer, real, date, data, asciiString, utf16String, uid, array, set, dictionary
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
  @usableFromInline let offsetTableOffset: Int
  @usableFromInline let offsetIntSize: Int

  /// Validates `data` as a binary property list.
  /// - Throws: ``ArchiveError`` with a byte offset for any structural problem.
  package init(_ data: Data, options: PropertyListDecodingOptions = .default, validation: Validation = .full) throws {
    try self.init(store: ByteStore(copying: data), options: options, validation: validation)
  }

  /// Validates `bytes` as a binary property list.
  /// - Throws: ``ArchiveError`` with a byte offset for any structural problem.
  package init(bytes: [UInt8], options: PropertyListDecodingOptions = .default, validation: Validation = .full) throws {
    try self.init(store: ByteStore(copying: bytes), options: options, validation: validation)
  }

  /// Validates the bytes of `store` as a binary property list (a borrowing store reads the caller's memory).
  /// - Throws: ``ArchiveError`` with a byte offset for any structural problem.
  package init(
    store bytes: ByteStore, options: PropertyListDecodingOptions = .default, validation: Validation = .full
  )
    throws
  {
    self.bytes = bytes
    self.options = options
    let length = bytes.count
    guard length <= options.maxTotalBytes else {
      throw ArchiveError(.limitExceeded, "input of \(length) bytes exceeds the limit of \(options.maxTotalBytes)")
    }
    let minimum = BinaryPropertyListMarker.headerSize + 1 + 1 + BinaryPropertyListMarker.trailerSize
    guard length >= BinaryPropertyListMarker.headerSize,
      Self.hasMagic(UnsafeRawBufferPointer(start: bytes.base, count: length))
    else {
      throw ArchiveError(
        .corruptData, "expected the binary property list magic \"bplist00\", found \(Self.describeMagic(bytes))",
        at: .init(byteOffset: 0))
    }
    guard length >= minimum else {
      throw ArchiveError(
        .corruptData, "expected at least \(minimum) bytes (header, one object, trailer), found \(length)",
        at: .init(byteOffset: length))
    }
    // Trailer: 5 unused bytes, sort version, offset int size, object ref size, then three big-endian UInt64s.
    let trailer = length - BinaryPropertyListMarker.trailerSize
    let offsetIntSize = Int(bytes[trailer + 6])
    let refSize = Int(bytes[trailer + 7])
    let numObjects = Self.readUInt64(bytes, at: trailer + 8)
    let top = Self.readUInt64(bytes, at: trailer + 16)
    let tableOffset = Self.readUInt64(bytes, at: trailer + 24)
    func fail(_ message: String, _ offset: Int) -> ArchiveError {
      ArchiveError(.corruptData, "trailer: " + message, at: .init(byteOffset: offset))
    }
    guard (1...8).contains(offsetIntSize) else {
      throw fail("expected an offset size of 1 to 8 bytes, found \(offsetIntSize)", trailer + 6)
    }
    guard (1...8).contains(refSize) else {
      throw fail("expected an object reference size of 1 to 8 bytes, found \(refSize)", trailer + 7)
    }
    // Each object takes at least one byte, so the count can never exceed the bytes before the trailer.
    guard numObjects >= 1, numObjects <= UInt64(trailer) else {
      throw fail("object count \(numObjects) is impossible in a file of \(length) bytes", trailer + 8)
    }
    guard numObjects <= UInt64(options.maxObjectCount) else {
      throw ArchiveError(
        .limitExceeded, "object count \(numObjects) exceeds the limit of \(options.maxObjectCount)",
        at: .init(byteOffset: trailer + 8))
    }
    guard top < numObjects else {
      throw fail("top object \(top) is not below the object count \(numObjects)", trailer + 16)
    }
    let count = Int(numObjects)
    guard tableOffset >= UInt64(BinaryPropertyListMarker.headerSize + 1), tableOffset < UInt64(trailer) else {
      throw fail("offset table at \(tableOffset) is outside the object area 9..<\(trailer)", trailer + 24)
    }
    let table = Int(tableOffset)
    let (tableBytes, overflow1) = count.multipliedReportingOverflow(by: offsetIntSize)
    let (tableEnd, overflow2) = table.addingReportingOverflow(tableBytes)
    guard !overflow1, !overflow2, tableEnd <= trailer else {
      throw fail(
        "offset table of \(count) entries of \(offsetIntSize) bytes at \(table) runs past the trailer at \(trailer)",
        trailer + 24)
    }
    if refSize < 8, UInt64(count) > (UInt64(1) << UInt64(8 * refSize)) {
      throw fail("\(count) objects cannot be referenced with \(refSize)-byte references", trailer + 7)
    }
    self.objectCount = count
    self.objectRefSize = refSize
    self.topObject = Int(top)
    self.offsetTableOffset = table
    self.offsetIntSize = offsetIntSize
    guard validation == .full else {
      try checkDisjointObjects()
      return
    }
    try validateObjects()
    try validateNesting()
  }

  // MARK: Validation

  private func validateObjects() throws {
    // Offsets first, so that an object starting outside the object area is reported as such.
    for index in 0..<objectCount { _ = try offset(of: index) }
    for index in 0..<objectCount {
      let header = try header(of: index)
      switch header.kind {
      case .array, .set:
        for element in 0..<header.count {
          try checkRef(at: header.start + element * objectRefSize, in: index)
        }
      case .dictionary:
        for element in 0..<(2 * header.count) {
          let ref = try checkRef(at: header.start + element * objectRefSize, in: index)
          if element < header.count, try self.header(of: ref).kind.isContainer {
            throw ArchiveError(
              .corruptData, "dictionary key \(element) is a container (object \(ref)); keys must be scalars",
              at: .init(byteOffset: try offset(of: index), objectIndex: index))
          }
        }
      default:
        break
      }
    }
    try checkDisjointObjects()
  }

  /// The offset just past an object's payload (``header(of:)`` checked that it lies inside the object area).
  @inlinable
  func payloadEnd(_ header: Header) -> Int {
    switch header.kind {
    case .bool: return header.start
    case .integer, .real, .date, .uid, .data, .asciiString: return header.start + header.count
    case .utf16String: return header.start + 2 * header.count
    case .array, .set: return header.start + header.count * objectRefSize
    case .dictionary: return header.start + 2 * header.count * objectRefSize
    }
  }

  /// Checks that objects do not share bytes (ARC-007): two offset-table entries with one offset, or one pointing
  /// into another object's payload, would let a small file be decoded into the same bytes (or scanned through the
  /// same keys) any number of times. Both validation modes run it when the reader is made.
  ///
  /// Linear: when the table lists objects in byte order, every overlap is refused; in any other order (the archiver
  /// writes an object after those it refers to), the objects' extents must add up to no more than the object area,
  /// which bounds what aliases can add to the size of the input itself, and two overlapping objects are then
  /// found by sorting, for the message.
  /// - Throws: `corruptData` naming two objects that overlap, or the error of an unreadable object.
  private func checkDisjointObjects() throws {
    // The common widths are accepted by a tight pass of their own (``objectsDisjoint(entry:)``). The general pass
    // below runs when that one stops at something it would refuse, and reports it, or for the other widths.
    switch offsetIntSize {
    case 1: if objectsDisjoint(entry: UInt8.self) { return }
    case 2: if objectsDisjoint(entry: UInt16.self) { return }
    case 4: if objectsDisjoint(entry: UInt32.self) { return }
    case 8: if objectsDisjoint(entry: UInt64.self) { return }
    default: break
    }
    var scan = DisjointScan()
    for index in 0..<objectCount where try scan.add(extent(of: index, at: offset(of: index)), area: objectArea) {
      return try findOverlap()
    }
  }

  /// `true` when the general pass of ``checkDisjointObjects()`` accepts the objects, by the same rules (each object
  /// starts at or after the end of the one before while the table lists them in byte order; after the first one
  /// out of order, the sizes add up to no more than the object area). `false` at the first object that breaks a
  /// rule or cannot be read, for that pass to report. A tight loop of its own, with no error paths: through the
  /// general pass an object cost about 52 instructions (callgrind, decode small).
  @inline(__always)
  private func objectsDisjoint<Entry: FixedWidthInteger & UnsignedInteger>(entry _: Entry.Type) -> Bool {
    let base = UnsafeRawPointer(bytes.base)
    let table = base + offsetTableOffset
    let limit = offsetTableOffset
    let area = objectArea
    let refSize = objectRefSize
    var previousStart = -1
    var previousEnd = 0
    var inOrder = true
    var total = 0
    for index in 0..<objectCount {
      // The table's bounds were checked at init; an offset that does not fit an `Int` turns negative and fails.
      let start = Int(
        truncatingIfNeeded: Entry(
          bigEndian: table.loadUnaligned(fromByteOffset: index &* MemoryLayout<Entry>.size, as: Entry.self)))
      guard start >= BinaryPropertyListMarker.headerSize, start < limit else { return false }
      let form = BinaryPropertyListMarker.payloadSizes[Int(base.load(fromByteOffset: start, as: UInt8.self))]
      let end: Int
      if form != 0xFF {
        // At most 1 + 28 * 8 bytes past an offset inside the input: no overflow.
        end = start &+ 1 &+ (form < 0x80 ? Int(form) : Int(form & 0x7F) &* refSize)
        guard end <= limit else { return false }
      } else {
        guard let longEnd = longFormEnd(of: index, at: start) else { return false }
        end = longEnd
      }
      if inOrder {
        if start >= previousEnd {
          previousStart = start
          previousEnd = end
        } else if start >= previousStart {
          return false
        } else {
          inOrder = false
        }
      }
      // Each extent lies inside the object area: the sum stays below twice the input's size.
      total &+= end &- start
      if !inOrder, total > area { return false }
    }
    return true
  }

  /// The end of an object whose marker does not hold its size (a length integer follows), or `nil` when its header
  /// cannot be read. Out of line, so that the loop of ``objectsDisjoint(entry:)`` keeps its values in registers.
  @inline(never)
  private func longFormEnd(of index: Int, at start: Int) -> Int? {
    guard let header = try? parsedHeader(of: index, at: start) else { return nil }
    return payloadEnd(header)
  }

  /// The bytes objects may take: from the header to the offset table.
  private var objectArea: Int { offsetTableOffset - BinaryPropertyListMarker.headerSize }

  /// The bytes of object `index`, which starts at `start`.
  @inline(__always)
  private func extent(of index: Int, at start: Int) throws -> Extent {
    Extent(
      start: start, end: try shortFormEnd(at: start) ?? payloadEnd(parsedHeader(of: index, at: start)), index: index)
  }

  /// The state of ``checkDisjointObjects()``'s one pass over the offset table.
  private struct DisjointScan {
    var previous = Extent(start: -1, end: 0, index: -1)
    var inOrder = true
    var total = 0

    /// Counts `object`; `true` when the extents so far add up to more than `area`, so some overlap (the caller
    /// then finds two). Throws for an overlap found while the objects are in byte order.
    @inline(__always)
    mutating func add(_ object: Extent, area: Int) throws -> Bool {
      if inOrder {
        if object.start >= previous.end {
          previous = object
        } else if object.start >= previous.start {
          throw BinaryPropertyListReader.overlapError(object, inside: previous)
        } else {
          inOrder = false
        }
      }
      // Each extent lies inside the object area, so the sum exceeds the area long before it could overflow.
      total += object.end - object.start
      return !inOrder && total > area
    }
  }

  /// The end of the object at `offset` (``payloadEnd(_:)`` of its header) when its marker holds its whole size (a
  /// fixed-width value, or a length below 15) and it ends inside the object area; else `nil`, for the full parse.
  /// The extents of every object are summed when the reader is made, and a header (kind, count, the checks of
  /// long lengths) is more than that needs: the size comes from ``BinaryPropertyListMarker/payloadSizes``.
  /// `offset` lies inside the object area (an offset-table entry already checked).
  @inline(__always)
  private func shortFormEnd(at offset: Int) -> Int? {
    let marker = UnsafeRawPointer(bytes.base).load(fromByteOffset: offset, as: UInt8.self)
    let form = BinaryPropertyListMarker.payloadSizes[Int(marker)]
    guard form != 0xFF else { return nil }
    let size = form < 0x80 ? Int(form) : Int(form & 0x7F) * objectRefSize
    // At most 1 + 28 * 8 bytes: no overflow.
    let end = offset + 1 + size
    return end <= offsetTableOffset ? end : nil
  }

  /// The bytes of one object: its marker and payload.
  private struct Extent {
    var start: Int
    var end: Int
    var index: Int
  }

  /// Sorts the objects by offset and throws for the first two that overlap (only called when some do).
  private func findOverlap() throws {
    var extents: [Extent] = []
    extents.reserveCapacity(objectCount)
    for index in 0..<objectCount {
      extents.append(Extent(start: try offset(of: index), end: payloadEnd(try header(of: index)), index: index))
    }
    extents.sort { $0.start < $1.start || ($0.start == $1.start && $0.index < $1.index) }
    for i in extents.indices.dropFirst() where extents[i].start < extents[i - 1].end {
      throw Self.overlapError(extents[i], inside: extents[i - 1])
    }
  }

  private static func overlapError(_ inner: Extent, inside outer: Extent) -> ArchiveError {
    ArchiveError(
      .corruptData,
      "object \(inner.index) starts at \(inner.start), inside object \(outer.index) (bytes \(outer.start)..<\(outer.end)): "
        + "objects must not share bytes",
      at: .init(byteOffset: inner.start, objectIndex: inner.index))
  }

  @discardableResult
  private func checkRef(at position: Int, in index: Int) throws -> Int {
    let ref = Self.readUInt(bytes, at: position, width: objectRefSize)
    guard ref < UInt64(objectCount) else {
      throw ArchiveError(
        .corruptData, "reference to object \(ref), but there are only \(objectCount) objects",
        at: .init(byteOffset: position, objectIndex: index))
    }
    return Int(ref)
  }

  /// Depth-first walk of the containers reachable from the top object: rejects a container that contains itself
  /// (directly or not) and nesting deeper than the limit. Each container is walked once, so the cost is linear
  /// even when containers are shared.
  private func validateNesting() throws {
    // 0 = not seen, 1 = on the current path, 2 = finished.
    var state = [UInt8](repeating: 0, count: objectCount)
    var stack: [(object: Int, next: Int, header: Header)] = []
    func enter(_ object: Int) throws {
      let header = try header(of: object)
      guard header.kind.isContainer else { return }
      switch state[object] {
      case 1:
        throw ArchiveError(
          .corruptData, "container object \(object) contains itself", at: .init(byteOffset: try offset(of: object)))
      case 2:
        return
      default:
        guard stack.count < options.maxDepth else {
          throw ArchiveError(
            .limitExceeded, "containers nest deeper than the limit of \(options.maxDepth)",
            at: .init(byteOffset: try offset(of: object), objectIndex: object))
        }
        state[object] = 1
        stack.append((object, 0, header))
      }
    }
    try enter(topObject)
    while let last = stack.last {
      let elements = last.header.kind == .dictionary ? 2 * last.header.count : last.header.count
      if last.next == elements {
        state[last.object] = 2
        stack.removeLast()
        continue
      }
      stack[stack.count - 1].next += 1
      try enter(ref(at: last.header.start + last.next * objectRefSize))
    }
  }

  // MARK: Lazy access

  /// The byte offset at which an object starts, checked to lie inside the object area.
  /// - Throws: ``ArchiveError`` when the object number is not below the object count (a reference out of range)
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

  private func referenceError(_ object: Int) -> ArchiveError {
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
  private func parsedHeader(of object: Int, at offset: Int) throws -> Header {
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
      default: throw bad(String(format: "unsupported marker 0x%02X (null and fill are not bplist00 objects)", marker))
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

  /// `true` when the object is an ASCII string equal to `key` (compared as bytes, no `String` is made); `false`
  /// for anything unreadable.
  package func isASCIIString(_ object: Int, equalTo key: String) -> Bool {
    var key = key
    return key.withUTF8 { isASCIIString(object, equalTo: $0) }
  }

  /// `true` when the object is an ASCII string whose bytes equal `key`; `false` for anything unreadable.
  ///
  /// A key shorter than 15 bytes is compared with the one marker that can hold its length (`0x5n`) before
  /// anything else is read: a key lookup compares mostly keys of other lengths or other bytes, and parsing each
  /// one's header cost more than the comparison. The long form of a short length (`0x5F` then an integer) takes
  /// the general path.
  @inline(__always)
  package func isASCIIString(_ object: Int, equalTo key: UnsafeBufferPointer<UInt8>) -> Bool {
    if key.count < 0x0F, let words = ShortKey(key) {
      guard let offset = checkedOffset(of: object) else { return false }
      let marker = bytes[offset]
      if marker == 0x50 | UInt8(truncatingIfNeeded: key.count) {
        // The key's bytes lie inside the object area: the offset is below the offset table.
        guard offset + 1 + key.count <= offsetTableOffset else { return false }
        return words.matches(UnsafeRawPointer(bytes.base) + offset + 1)
      }
      guard marker == 0x5F else { return false }
    }
    guard let header = try? header(of: object), header.kind == .asciiString, header.count == key.count else {
      return false
    }
    let stored = bytes[header.start..<(header.start + header.count)]
    for i in 0..<key.count where stored[i] != key[i] { return false }
    return true
  }

  /// `true` when the key at `position` of dictionary `header` is `key`, an ASCII key stored as an ASCII string:
  /// then ``lookupPosition(string:inDictionary:from:escaping:)`` from `position` finds it there, with its first
  /// comparison. A caller that reads keys in the order they were written probes the next one this way before the
  /// full lookup (which cost about 200 instructions even when its first comparison matched). `false` for anything
  /// else, also for a key that starts with `escape` (it is stored escaped) or is not ASCII, and for a string whose
  /// bytes are not contiguous: the full lookup decides those.
  /// Short keys (below 15 bytes) only; the stored key's marker must be the one that holds its length.
  package func hasASCIIKey(_ key: String, at position: Int, in header: Header, escaping escape: UInt8) -> Bool {
    guard position >= 0, position < header.count, let offset = checkedOffset(of: element(header, position)) else {
      return false
    }
    let base = UnsafeRawPointer(bytes.base)
    let limit = offsetTableOffset
    return key.utf8.withContiguousStorageIfAvailable { key in
      let count = key.count
      // The offset is inside the object area (checked), so its marker byte is inside the input.
      guard count > 0, count < 0x0F, key[0] != escape, let words = ShortKey(key), words.isASCII,
        base.load(fromByteOffset: offset, as: UInt8.self) == 0x50 | UInt8(truncatingIfNeeded: count),
        offset + 1 + count <= limit
      else { return false }
      return words.matches(base + offset + 1)
    } ?? false
  }

  /// `true` when the object's marker is a UTF-16 string's (its payload is not checked); `false` for anything else
  /// or an unreadable reference. A key lookup that compared ASCII keys byte by byte checks only these again.
  @inline(__always)
  package func isUTF16String(_ object: Int) -> Bool {
    guard let offset = checkedOffset(of: object) else { return false }
    return bytes[offset] & 0xF0 == 0x60
  }

  /// Finds the value of a string key in a dictionary object (see ``lookupPosition(string:inDictionary:from:escaping:)``).
  package func lookup(string key: String, inDictionary header: Header) -> Int? {
    lookupPosition(string: key, inDictionary: header).map { dictionaryValue(header, $0) }
  }

  /// The position of a string key in a dictionary object: its first occurrence at or after `start` among the keys
  /// stored as ASCII strings, compared byte by byte (no `String` is made), else its first occurrence before it; else
  /// its first occurrence among the keys stored as UTF-16 strings (a writer may store any key so; no ASCII string
  /// object equals a key that is not ASCII). A caller that reads keys in the order they were written passes the
  /// position after the last key it found, and the key is then usually the first one compared.
  ///
  /// With `escape`, a key that starts with that byte is looked up with one more in front: keyed archives store a
  /// key that starts with `$` (reserved by the format) as `$` and the key. The first byte is read from the key's
  /// bytes, which are read anyway (the escaping through `utf8.first` cost about 50 instructions a lookup).
  package func lookupPosition(
    string key: String, inDictionary header: Header, from start: Int = 0, escaping escape: UInt8? = nil
  ) -> Int? {
    let start = min(max(start, 0), header.count)
    // A native string's bytes are read in place (a mutable copy for `withUTF8` cost more than the comparison).
    // `String.withCodeUnits` written out: through the generic helper a one-object decode took 4% more
    // instructions (callgrind, decode small: 35.8 M against 37.4 M). -1: the key needs its escape. The two closures
    // are written out: one local function passed to both cost decode small 1.1% more.
    let found =
      key.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
        if let escape, bytes.first == escape { return -1 }
        return asciiPosition(of: bytes, in: header, from: start)
      }
      ?? {
        var key = key
        return key.withUTF8 { bytes -> Int? in
          if let escape, bytes.first == escape { return -1 }
          return asciiPosition(of: bytes, in: header, from: start)
        }
      }()
    if let found {
      guard found < 0, let escape else { return found }
      return lookupPosition(string: String(decoding: [escape], as: UTF8.self) + key, inDictionary: header, from: start)
    }
    // Only the markers are read unless a key is stored as UTF-16 (a missing key costs one byte per key more), and
    // those are compared unit by unit, stopping at the first difference: no string is made per key.
    var units: [UInt16]?
    for i in 0..<header.count where isUTF16String(element(header, i)) {
      if units == nil { units = Array(key.utf16) }
      if let units, isUTF16String(element(header, i), equalTo: units) { return i }
    }
    return nil
  }

  /// The position of the ASCII key `key` among the keys of `header` stored as ASCII strings (see
  /// ``lookupPosition(string:inDictionary:from:escaping:)``), or `nil`, also when the key is not ASCII.
  @inline(__always)
  private func asciiPosition(of key: UnsafeBufferPointer<UInt8>, in header: Header, from start: Int) -> Int? {
    // A short key with the common widths: the scan with unchecked loads (see `shortKeyPosition`).
    if key.count < 0x0F, let words = ShortKey(key), header.start >= 0,
      header.start + header.count * objectRefSize <= offsetTableOffset
    {
      guard words.isASCII else { return nil }
      switch (objectRefSize, offsetIntSize) {
      case (1, 1): return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt8.self, entry: UInt8.self)
      case (1, 2): return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt8.self, entry: UInt16.self)
      case (2, 2):
        return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt16.self, entry: UInt16.self)
      case (2, 4):
        return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt16.self, entry: UInt32.self)
      case (4, 4):
        return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt32.self, entry: UInt32.self)
      default: break
      }
    }
    for byte in key where byte >= 0x80 { return nil }
    for i in start..<header.count where isASCIIString(element(header, i), equalTo: key) { return i }
    for i in 0..<start where isASCIIString(element(header, i), equalTo: key) { return i }
    return nil
  }

  /// The bytes of a key shorter than 15 bytes as two words, compared with a stored key in two loads (a loop over
  /// the bytes cost about 8 instructions a byte): for 8 bytes or more, the first eight and the last eight; for 4
  /// to 7, the first four and the last four; below 4, the bytes one by one in `head`. The words overlap, and
  /// together cover every byte. ``isASCII(_:)`` reads a string shorter than 8 bytes with ``words(_:count:)``.
  private struct ShortKey {
    let head: UInt64
    let tail: UInt64
    let count: Int

    /// `nil` for an empty buffer without storage.
    @inline(__always)
    init?(_ key: UnsafeBufferPointer<UInt8>) {
      count = key.count
      guard let start = key.baseAddress else {
        guard count == 0 else { return nil }
        head = 0
        tail = 0
        return
      }
      (head, tail) = Self.words(UnsafeRawPointer(start), count: count)
    }

    /// The words of the `count` bytes at `bytes` (`count` below 15).
    @inline(__always)
    static func words(_ bytes: UnsafeRawPointer, count: Int) -> (UInt64, UInt64) {
      if count >= 8 {
        return (
          bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        )
      }
      if count >= 4 {
        return (
          UInt64(bytes.loadUnaligned(as: UInt32.self)),
          UInt64(bytes.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
        )
      }
      var head: UInt64 = 0
      for i in 0..<count { head |= UInt64(bytes.load(fromByteOffset: i, as: UInt8.self)) << (8 &* UInt64(i)) }
      return (head, 0)
    }

    /// `true` when every byte is ASCII.
    @inline(__always)
    var isASCII: Bool { (head | tail) & 0x8080_8080_8080_8080 == 0 }

    /// `true` when the `count` bytes at `bytes` are the key's.
    @inline(__always)
    func matches(_ bytes: UnsafeRawPointer) -> Bool {
      let (storedHead, storedTail) = Self.words(bytes, count: count)
      return storedHead == head && storedTail == tail
    }
  }

  /// ``asciiPosition(of:in:from:)`` for a key shorter than 15 bytes (`words`), with references of `Ref`'s width
  /// and offsets of `Entry`'s: the same comparisons as ``isASCIIString(_:equalTo:)`` (the marker `0x5n` first,
  /// then the bytes), with unchecked loads where the bounds are known. The key references lie inside the object
  /// area (the caller checked it; a header from ``header(of:)`` always passes) and the offset table was checked
  /// at init, so only a reference's range and an offset's need checking. Each key compared cost about 70
  /// instructions through the checked reads, most of it bounds checks and width switches (callgrind, decode small).
  private func shortKeyPosition<Ref: FixedWidthInteger & UnsignedInteger, Entry: FixedWidthInteger & UnsignedInteger>(
    of key: UnsafeBufferPointer<UInt8>, _ words: ShortKey, in header: Header, from start: Int, ref _: Ref.Type,
    entry _: Entry.Type
  ) -> Int? {
    let base = UnsafeRawPointer(bytes.base)
    let keys = base + header.start
    let table = base + offsetTableOffset
    let marker = 0x50 | UInt8(truncatingIfNeeded: key.count)
    let end = offsetTableOffset - 1 - key.count
    func matches(_ position: Int) -> Bool {
      let object = Int(
        Ref(bigEndian: keys.loadUnaligned(fromByteOffset: position * MemoryLayout<Ref>.size, as: Ref.self)))
      guard object < objectCount else { return false }
      let raw = Entry(bigEndian: table.loadUnaligned(fromByteOffset: object * MemoryLayout<Entry>.size, as: Entry.self))
      // The string's last byte lies before the offset table.
      guard raw >= BinaryPropertyListMarker.headerSize, Int(raw) <= end else { return false }
      let offset = Int(raw)
      let found = base.load(fromByteOffset: offset, as: UInt8.self)
      // The long form of a short length (`0x5F` then an integer) takes the general comparison.
      guard found == marker else { return found == 0x5F && isASCIIString(object, equalTo: key) }
      return words.matches(base + offset + 1)
    }
    for position in start..<header.count where matches(position) { return position }
    for position in 0..<start where matches(position) { return position }
    return nil
  }

  /// `true` when `bytes` start with the magic of a binary property list, `bplist0` (any version).
  package static func hasMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 7 && bytes[0] == 0x62 && bytes[1] == 0x70 && bytes[2] == 0x6C && bytes[3] == 0x69
      && bytes[4] == 0x73 && bytes[5] == 0x74 && bytes[6] == 0x30
  }

  /// `true` when the object is a UTF-16 string whose code units equal `units`; `false` for anything unreadable.
  /// The length is read from the marker (or the integer after `0x6F`) first: only a key of the right length is
  /// parsed, so a dictionary of many broken or long keys costs a byte or two per key, not an error each.
  private func isUTF16String(_ object: Int, equalTo units: [UInt16]) -> Bool {
    guard let offset = checkedOffset(of: object) else { return false }
    let low = Int(bytes[offset] & 0x0F)
    if low != 0x0F {
      guard low == units.count else { return false }
    } else {
      guard offset + 1 < offsetTableOffset else { return false }
      let lengthMarker = bytes[offset + 1]
      guard lengthMarker & 0xF0 == BinaryPropertyListMarker.integer, lengthMarker & 0x0F <= 3 else { return false }
      let width = 1 << Int(lengthMarker & 0x0F)
      guard offset + 2 + width <= offsetTableOffset,
        Self.readUInt(bytes, at: offset + 2, width: width) == UInt64(units.count)
      else { return false }
    }
    guard let header = try? header(of: object), header.kind == .utf16String, header.count == units.count else {
      return false
    }
    let stored = bytes[header.start..<(header.start + 2 * header.count)]
    for (i, unit) in units.enumerated() where UInt16(stored[2 * i]) << 8 | UInt16(stored[2 * i + 1]) != unit {
      return false
    }
    return true
  }

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

  /// `true` when every byte of `buffer` is ASCII, read eight bytes at a time (the last eight overlapping the words
  /// before them), or as ``ShortKey`` reads fewer than eight: one byte at a time cost about 5 instructions a byte.
  @inline(__always)
  static func isASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
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
  /// its marker: what ``header(of:)`` then ``int64(_:)`` give, without a header (a call into this module of about 70
  /// instructions, for each integer field a keyed archive decodes). `nil` for anything else: another kind, the
  /// 16-byte form, an unreadable reference or a payload past the object area.
  @inline(__always)
  @inlinable
  package func int64Value(ofObject object: Int) -> Int64? {
    guard let offset = checkedOffset(of: object) else { return nil }
    let marker = bytes[offset]
    // 0x1n: an integer of 2^n bytes.
    guard marker & 0xF0 == BinaryPropertyListMarker.integer, marker & 0x0F <= 3 else { return nil }
    let width = 1 << Int(marker & 0x0F)
    guard offset + 1 + width <= offsetTableOffset else { return nil }
    return int64(Header(kind: .integer, count: width, start: offset + 1))
  }

  /// The value of a real object (4 or 8 bytes), read from its marker as ``int64Value(ofObject:)`` reads an
  /// integer: what ``header(of:)`` then ``double(_:)`` give. `nil` for anything else.
  @inline(__always)
  @inlinable
  package func doubleValue(ofObject object: Int) -> Double? {
    guard let offset = checkedOffset(of: object) else { return nil }
    let marker = bytes[offset]
    // 0x22 and 0x23: a real of 4 or 8 bytes.
    guard marker == BinaryPropertyListMarker.real | 2 || marker == BinaryPropertyListMarker.real | 3 else {
      return nil
    }
    let width = 1 << Int(marker & 0x0F)
    guard offset + 1 + width <= offsetTableOffset else { return nil }
    return double(Header(kind: .real, count: width, start: offset + 1))
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

  /// Materialises the object and everything it contains. A string or data object of more than
  /// ``sharedPayloadLength`` bytes, and a container reached more than once, is materialised once and shared by
  /// every reference to it (ARC-007, ARC-043).
  /// - Throws: ``ArchiveError`` when content is invalid, containers nest deeper than the limit or contain
  ///   themselves, a dictionary key is a container, or expansion of shared containers exceeds the limit.
  package func value(of object: Int) throws -> PropertyListValue {
    // Count first (linear: each shared container is counted once), so a hostile file is refused before any
    // allocation instead of after building a huge tree. The count also checks what ``Validation/onAccess`` left
    // unchecked: nesting, cycles and dictionary keys.
    var memo: [Int: Expansion] = [:]
    let expanded = try expansion(of: object, depth: 1, memo: &memo).count
    guard expanded <= options.maxExpandedValueCount else {
      throw ArchiveError(
        .limitExceeded,
        "the property list expands to more than \(options.maxExpandedValueCount) values (shared containers)",
        at: .init(byteOffset: try offset(of: object), objectIndex: object))
    }
    var state = Materialization(budget: options.maxExpandedValueCount)
    for (container, expansion) in memo where expansion.shared { state.sharedContainers.insert(container) }
    return try materialize(object, &state)
  }

  /// Strings and data longer than this are materialised once per object and shared.
  static let sharedPayloadLength = 15

  /// What a materialisation has left to spend, and the shared values it made.
  private struct Materialization {
    var budget: Int
    var shared: [Int: PropertyListValue] = [:]
    /// Containers reached more than once: each is materialised once and its value shared (arrays and dictionaries
    /// share their storage), so a small file of shared containers does not become a large tree in memory.
    var sharedContainers = Set<Int>()
  }

  /// What a container expands to: the number of values (saturating just above the limit) and the depth of the
  /// containers inside it, itself included; `height` is -1 while the container is being counted.
  private struct Expansion {
    var count: Int
    var height: Int
    /// `true` once the container is reached a second time: it is then materialised once and shared.
    var shared = false
  }

  /// The expansion of the object reached at `depth` (the number of containers on the path, itself included).
  /// Recursion is bounded: it stops with an error past the depth limit, and a container met again while it is
  /// being counted contains itself.
  private func expansion(of object: Int, depth: Int, memo: inout [Int: Expansion]) throws -> Expansion {
    if let known = memo[object] {
      guard known.height >= 0 else {
        throw ArchiveError(
          .corruptData, "container object \(object) contains itself",
          at: .init(byteOffset: try offset(of: object), objectIndex: object))
      }
      guard depth - 1 + known.height <= options.maxDepth else { throw depthError(object) }
      memo[object]?.shared = true
      return known
    }
    let header = try header(of: object)
    guard header.kind.isContainer else { return Expansion(count: 1, height: 0) }
    guard depth <= options.maxDepth else { throw depthError(object) }
    memo[object] = Expansion(count: 0, height: -1)
    let ceiling = options.maxExpandedValueCount + 1
    var total = 1
    var height = 1
    let elements = header.kind == .dictionary ? 2 * header.count : header.count
    for i in 0..<elements {
      let child = element(header, i)
      if header.kind == .dictionary, i < header.count, try self.header(of: child).kind.isContainer {
        throw ArchiveError(
          .corruptData, "dictionary key \(i) is a container (object \(child)); keys must be scalars",
          at: .init(byteOffset: try offset(of: object), objectIndex: object))
      }
      let inner = try expansion(of: child, depth: depth + 1, memo: &memo)
      total = min(ceiling, total + inner.count)
      height = max(height, inner.height + 1)
      if total == ceiling { break }
    }
    let result = Expansion(count: total, height: height)
    memo[object] = result
    return result
  }

  private func depthError(_ object: Int) -> ArchiveError {
    ArchiveError(
      .limitExceeded, "containers nest deeper than the limit of \(options.maxDepth)",
      at: .init(byteOffset: (try? offset(of: object)) ?? 0, objectIndex: object))
  }

  /// Materialises the top object.
  package func topValue() throws -> PropertyListValue { try value(of: topObject) }

  private func materialize(_ object: Int, _ state: inout Materialization) throws -> PropertyListValue {
    state.budget -= 1
    guard state.budget >= 0 else {
      throw ArchiveError(
        .limitExceeded,
        "the property list expands to more than \(options.maxExpandedValueCount) values (shared containers)",
        at: .init(byteOffset: try offset(of: object), objectIndex: object))
    }
    let header = try header(of: object)
    switch header.kind {
    case .bool: return .bool(header.count == 1)
    case .integer: return try integer(header, object: object)
    case .real: return real(header)
    case .date: return .date(date(header))
    case .data, .asciiString, .utf16String:
      if header.count <= Self.sharedPayloadLength {
        return header.kind == .data ? .data(data(header)) : .string(try string(header, object: object))
      }
      if let made = state.shared[object] { return made }
      let made: PropertyListValue =
        header.kind == .data ? .data(data(header)) : .string(try string(header, object: object))
      state.shared[object] = made
      return made
    case .uid: return .uid(uid(header))
    case .array, .set, .dictionary:
      let isShared = !state.sharedContainers.isEmpty && state.sharedContainers.contains(object)
      if isShared, let made = state.shared[object] { return made }
      let made: PropertyListValue
      if header.kind == .dictionary {
        var dictionary = PropertyListDictionary()
        for i in 0..<header.count {
          let key = try materialize(element(header, i), &state)
          dictionary[key] = try materialize(dictionaryValue(header, i), &state)
        }
        made = .dictionary(dictionary)
      } else {
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(header.count)
        for i in 0..<header.count { elements.append(try materialize(element(header, i), &state)) }
        made = header.kind == .array ? .array(elements) : .set(elements)
      }
      if isShared { state.shared[object] = made }
      return made
    }
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

  private static func describeMagic(_ bytes: ByteStore) -> String {
    let prefix = bytes[0..<Swift.min(8, bytes.count)]
    if prefix.isEmpty { return "an empty input" }
    if prefix.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return "\"\(String(decoding: prefix, as: UTF8.self))\"" }
    return prefix.map { String(format: "%02X", $0) }.joined(separator: " ")
  }
}

import ArchiveCoding
import Foundation

/// Validation: the trailer and the offset table when the reader is made, that objects do not share bytes, and with
/// ``Validation/full`` every object, reference and dictionary key and the nesting of the containers.
extension BinaryPropertyListReader {
  /// Validates the bytes of `store` as a binary property list (a borrowing store reads the caller's memory).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` with a byte offset for any structural problem.
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
    self.isValidated = validation == .full
    guard validation == .full else {
      try checkDisjointObjects()
      return
    }
    try validateObjects()
    try validateNesting()
  }

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
  /// rule or cannot be read, for that pass to report. A tight loop of its own, with no error paths: every archive
  /// opened runs it over every object.
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
      // Every object's header was read by `validateObjects()`: one that is not a container's is known by its marker.
      guard hasContainerMarker(object) else { return }
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

  private static func describeMagic(_ bytes: ByteStore) -> String {
    let prefix = bytes[0..<Swift.min(8, bytes.count)]
    if prefix.isEmpty { return "an empty input" }
    if prefix.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return "\"\(String(decoding: prefix, as: UTF8.self))\"" }
    return prefix.map { String(format: "%02X", $0) }.joined(separator: " ")
  }
}

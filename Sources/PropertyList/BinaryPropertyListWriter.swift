import ArchiveCoding
import Foundation

/// Writes binary property lists (`bplist00`), object by object, straight into the bytes of the output.
///
/// ``write(_:)`` encodes a whole value; the keyed archiver drives the object-level calls directly. Both give one
/// layout: each object is laid out in its final form the moment it is added (scalars as their bytes, containers as
/// their marker and references), so an object comes after the objects it refers to, except for reserved ones.
/// References are written 4 bytes wide while the object count is unknown; ``finish(top:)`` narrows them in place
/// when the final count allows 1 or 2, then appends the offset table and the trailer and hands the buffer to the
/// returned `Data` without copying it. Memory is the output's bytes plus one offset per object. A caller that
/// writes a large list to a file hands the bytes on as they are made instead (``handOut(_:to:)``, then
/// ``finish(top:handedOut:to:)``), and holds a megabyte or so of them.
///
/// Containers are built on a stack: note ``mark``, ``push(_:)`` the element references (for a dictionary,
/// ``push(key:value:)`` the entries), then ``endArray(from:)`` or ``endDictionary(from:)`` writes the container and
/// pops its elements. Containers can nest: an element may itself be a container ended before it is pushed.
/// ``reserve()`` gives an object number to fill later (the top-level objects of an archive, which refer to
/// everything else).
///
/// Strings and UIDs are shared exactly; integers, reals and dates are shared through a small direct-mapped cache
/// (equal values met close together share one object, others may be written twice: the format allows both, and
/// the cache keeps memory flat). Values of different types are never merged (`1`, `1.0`, `Float(1)` and `true`
/// stay four objects, ARC-006). The same sequence of calls always gives the same bytes (ARC-005). The writer owns
/// its buffer: it is not copyable.
package struct BinaryPropertyListWriter: ~Copyable {
  /// An object number.
  package typealias Ref = Int

  private static let provisionalRefSize = 4
  private static let denseUIDLimit: UInt64 = 1 << 24

  private var bytes: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var length: Int
  /// The byte offset of every object; -1 while a reserved object is unfilled.
  private var offsets: [Int] = []
  /// Elements of the containers being built (dictionary entries as key, value pairs), 32 bits wide as the
  /// references are written (``finish(top:)`` refuses a list of more objects than 32 bits number).
  private var stack: [UInt32] = []
  /// Keyed by code units: two spellings of one text are two strings (ARC-006).
  private var strings: [LiteralString: Ref] = [:]
  private var denseUIDs: [Int32] = []
  private var sparseUIDs: [UInt64: Ref] = [:]
  private var booleans: (false: Ref, true: Ref) = (-1, -1)
  /// The null object, once written (shared, as the booleans are).
  private var nullObject: Ref = -1
  private var integers = ScalarCache()
  private var reals = ScalarCache()
  private var floats = ScalarCache()
  private var dates = ScalarCache()

  /// Creates a writer with room for about `capacity` bytes.
  package init(capacity: Int = 1024) {
    let size = Swift.max(capacity, 64)
    bytes = Self.newBuffer(size)
    self.capacity = size
    length = BinaryPropertyListMarker.headerSize
  }

  deinit { free(bytes) }

  /// A buffer of `size` bytes (at least 8) that starts with the header, `bplist00`.
  private static func newBuffer(_ size: Int) -> UnsafeMutablePointer<UInt8> {
    guard let raw = malloc(size) else { preconditionFailure("out of memory for \(size) bytes") }
    let start = raw.assumingMemoryBound(to: UInt8.self)
    writeHeader(start)
    return start
  }

  /// Writes the header, `bplist00`, at `start`.
  private static func writeHeader(_ start: UnsafeMutablePointer<UInt8>) {
    for (index, byte) in "bplist00".utf8.enumerated() { start[index] = byte }
  }

  /// Encodes a whole property-list value; its containers are written after their elements, the root last.
  /// - Parameter value: the value.
  /// - Returns: the binary property list.
  package static func write(_ value: PropertyListValue) -> Data {
    var writer = BinaryPropertyListWriter()
    let top = writer.add(value)
    do {
      return try writer.finish(top: top)
    } catch {
      // Only past 2^32 objects, more than a value held in memory can have.
      preconditionFailure("\(error)")
    }
  }

  // MARK: Buffer

  private mutating func grow(_ needed: Int) {
    let (wanted, overflow) = length.addingReportingOverflow(needed)
    precondition(!overflow, "property list larger than the address space")
    var size = Swift.max(capacity, 64)
    while size < wanted { size = size < Int.max / 2 ? size * 2 : Int.max }
    guard let raw = realloc(bytes, size) else { preconditionFailure("out of memory for \(size) bytes") }
    bytes = raw.assumingMemoryBound(to: UInt8.self)
    capacity = size
  }

  /// Makes room for `count` bytes at the end and returns where they start.
  @inline(__always)
  private mutating func claim(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    if capacity &- length < count { grow(count) }
    let start = bytes + length
    length &+= count
    return start
  }

  @inline(__always)
  private static func store(_ value: UInt64, width: Int, at pointer: UnsafeMutablePointer<UInt8>) {
    var shift = (width &- 1) &* 8
    var position = pointer
    while shift >= 0 {
      position.pointee = UInt8(truncatingIfNeeded: value &>> UInt64(shift))
      position += 1
      shift &-= 8
    }
  }

  @inline(__always)
  private static func load(width: Int, at pointer: UnsafePointer<UInt8>) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<width { value = value &<< 8 | UInt64(pointer[index]) }
    return value
  }

  @inline(__always)
  private mutating func newObject() -> Ref {
    offsets.append(length)
    return offsets.count &- 1
  }

  // MARK: Scalars

  /// Appends or shares a string.
  package mutating func add(string: String) -> Ref {
    // One hash and probe for both the lookup and the insertion.
    if strings.isEmpty { strings.reserveCapacity(32) }
    let next = offsets.count
    var isNew = false
    let ref = Self.claimSlot(&strings[LiteralString(string), default: -1], next: next, isNew: &isNew)
    if isNew { _ = addUnshared(string: string) }
    return ref
  }

  /// The ref in `slot`, or `next` stored there when the slot is new (`-1`).
  @inline(__always)
  private static func claimSlot(_ slot: inout Ref, next: Ref, isNew: inout Bool) -> Ref {
    if slot < 0 {
      slot = next
      isNew = true
    }
    return slot
  }

  /// Appends a string without sharing it (for callers that share strings themselves).
  package mutating func addUnshared(string: String) -> Ref {
    let ref = newObject()
    var string = string
    let written = string.withUTF8 { utf8 -> Bool in
      for byte in utf8 where byte >= 0x80 { return false }
      appendLengthMarker(BinaryPropertyListMarker.asciiString, utf8.count)
      if let base = utf8.baseAddress, utf8.count > 0 {
        claim(utf8.count).update(from: base, count: utf8.count)
      }
      return true
    }
    if !written {
      let units = string.utf16.count
      appendLengthMarker(BinaryPropertyListMarker.utf16String, units)
      var position = claim(units &* 2)
      for unit in string.utf16 {
        position[0] = UInt8(truncatingIfNeeded: unit &>> 8)
        position[1] = UInt8(truncatingIfNeeded: unit)
        position += 2
      }
    }
    return ref
  }

  /// Appends or shares an integer.
  package mutating func add(integer value: Int64) -> Ref {
    let key = UInt64(bitPattern: value)
    if let ref = integers.lookup(key) { return ref }
    let ref = newObject()
    if value < 0 {
      let start = claim(9)
      start.pointee = BinaryPropertyListMarker.integer | 3
      Self.store(key, width: 8, at: start + 1)
    } else {
      appendUnsignedInteger(key)
    }
    return integers.remember(key, as: ref)
  }

  /// Appends an integer above `Int64.max` (16-byte form); smaller values go through ``add(integer:)``.
  package mutating func add(unsignedInteger value: UInt64) -> Ref {
    if value <= UInt64(Int64.max) { return add(integer: Int64(value)) }
    let ref = newObject()
    appendUnsignedInteger(value)
    return ref
  }

  /// Appends or shares a 64-bit real (by bit pattern: `-0.0` and each NaN stay distinct).
  package mutating func add(real value: Double) -> Ref {
    let key = value.bitPattern
    if let ref = reals.lookup(key) { return ref }
    return reals.remember(key, as: appendFixedWidth(key, marker: BinaryPropertyListMarker.real | 3, width: 8))
  }

  /// Appends or shares a 32-bit real.
  package mutating func add(float value: Float) -> Ref {
    let key = UInt64(value.bitPattern)
    if let ref = floats.lookup(key) { return ref }
    return floats.remember(key, as: appendFixedWidth(key, marker: BinaryPropertyListMarker.real | 2, width: 4))
  }

  /// Appends or shares a date.
  package mutating func add(date value: Date) -> Ref {
    let key = value.timeIntervalSinceReferenceDate.bitPattern
    if let ref = dates.lookup(key) { return ref }
    return dates.remember(key, as: appendFixedWidth(key, marker: BinaryPropertyListMarker.date, width: 8))
  }

  /// Appends a new object of a marker byte and `width` big-endian bytes of `bits`.
  @inline(__always)
  private mutating func appendFixedWidth(_ bits: UInt64, marker: UInt8, width: Int) -> Ref {
    let ref = newObject()
    let start = claim(1 &+ width)
    start.pointee = marker
    Self.store(bits, width: width, at: start + 1)
    return ref
  }

  /// Appends or shares a boolean.
  package mutating func add(bool value: Bool) -> Ref {
    let shared = value ? booleans.true : booleans.false
    if shared >= 0 { return shared }
    let ref = newObject()
    claim(1).pointee = value ? BinaryPropertyListMarker.true : BinaryPropertyListMarker.false
    if value { booleans.true = ref } else { booleans.false = ref }
    return ref
  }

  /// Appends the null object (marker `0x00`), or shares the one already written.
  package mutating func addNull() -> Ref {
    if nullObject >= 0 { return nullObject }
    let ref = newObject()
    claim(1).pointee = BinaryPropertyListMarker.null
    nullObject = ref
    return ref
  }

  /// Appends data (never shared).
  package mutating func add(data: Data) -> Ref {
    let ref = newObject()
    appendLengthMarker(BinaryPropertyListMarker.data, data.count)
    let count = data.count
    if count > 0 {
      let start = claim(count)
      data.withUnsafeBytes { raw in
        if let base = raw.baseAddress { UnsafeMutableRawPointer(start).copyMemory(from: base, byteCount: count) }
      }
    }
    return ref
  }

  /// Appends or shares a UID.
  package mutating func add(uid: UInt64) -> Ref {
    if uid < Self.denseUIDLimit {
      let index = Int(uid)
      if index < denseUIDs.count {
        let shared = denseUIDs[index]
        if shared >= 0 { return Int(shared) }
      } else {
        denseUIDs.append(contentsOf: repeatElement(-1, count: Swift.max(index + 1 - denseUIDs.count, denseUIDs.count)))
      }
      let ref = newObject()
      appendUID(uid)
      denseUIDs[index] = Int32(truncatingIfNeeded: ref)
      return ref
    }
    if let ref = sparseUIDs[uid] { return ref }
    let ref = newObject()
    appendUID(uid)
    sparseUIDs[uid] = ref
    return ref
  }

  /// Appends (or shares) any value; containers are written with their elements.
  package mutating func add(_ value: PropertyListValue) -> Ref {
    switch value {
    case .null: return addNull()
    case .bool(let v): return add(bool: v)
    case .integer(let v): return add(integer: v)
    case .unsignedInteger(let v): return add(unsignedInteger: v)
    case .real(let v): return add(real: v)
    case .float(let v): return add(float: v)
    case .date(let v): return add(date: v)
    case .data(let v): return add(data: v)
    case .string(let v): return add(string: v)
    case .uid(let v): return add(uid: v)
    case .array(let elements):
      let start = mark
      for element in elements { push(add(element)) }
      return endArray(from: start)
    case .set(let elements):
      let start = mark
      for element in elements { push(add(element)) }
      return endSet(from: start)
    case .dictionary(let dictionary):
      let start = mark
      for entry in dictionary.entries {
        let key = add(entry.key)
        push(key: key, value: add(entry.value))
      }
      return endDictionary(from: start)
    }
  }

  /// Appends a value without sharing its scalar with equal ones (for callers that shared it already).
  package mutating func addUnshared(_ value: PropertyListValue) -> Ref {
    switch value {
    case .string(let v): return addUnshared(string: v)
    default: return add(value)
    }
  }

  // MARK: Containers

  /// The current height of the element stack: where the next container's elements start.
  package var mark: Int { stack.count }

  /// Pushes an element of the array being built.
  @inline(__always)
  package mutating func push(_ ref: Ref) { stack.append(UInt32(truncatingIfNeeded: ref)) }

  /// Pushes an entry of the dictionary being built.
  @inline(__always)
  package mutating func push(key: Ref, value: Ref) {
    stack.append(UInt32(truncatingIfNeeded: key))
    stack.append(UInt32(truncatingIfNeeded: value))
  }

  /// `true` when the dictionary being built from `mark` (its entries pushed with ``push(key:value:)``) has an entry
  /// under `key`, a reference ``add(string:)`` gave.
  package func holdsKey(_ key: Ref, from mark: Int) -> Bool {
    var position = mark
    while position < stack.count {
      if Int(stack[position]) == key { return true }
      position += 2
    }
    return false
  }

  /// Writes an array of the elements pushed since `mark` and pops them.
  package mutating func endArray(from mark: Int) -> Ref {
    endContainer(BinaryPropertyListMarker.array, from: mark, entries: stack.count - mark)
  }

  /// Writes a set of the elements pushed since `mark` and pops them.
  package mutating func endSet(from mark: Int) -> Ref {
    endContainer(BinaryPropertyListMarker.set, from: mark, entries: stack.count - mark)
  }

  /// Writes a dictionary of the entries pushed since `mark` and pops them.
  package mutating func endDictionary(from mark: Int) -> Ref {
    endContainer(BinaryPropertyListMarker.dictionary, from: mark, entries: (stack.count - mark) / 2)
  }

  private mutating func endContainer(_ marker: UInt8, from mark: Int, entries: Int) -> Ref {
    let ref = newObject()
    writeContainer(marker, from: mark, entries: entries)
    return ref
  }

  /// Reserves an object number, to be filled with ``fill(_:array:)`` or ``fill(_:dictionaryFrom:)``.
  package mutating func reserve() -> Ref {
    offsets.append(-1)
    return offsets.count - 1
  }

  /// Fills a reserved object with an array of references.
  package mutating func fill(_ ref: Ref, array elements: [Ref]) {
    offsets[ref] = length
    appendLengthMarker(BinaryPropertyListMarker.array, elements.count)
    let position = claim(elements.count &* Self.provisionalRefSize)
    elements.withUnsafeBufferPointer { Self.storeReferences($0, dictionary: false, at: position) }
  }

  /// Fills a reserved object with a dictionary of the entries pushed since `mark`, and pops them.
  package mutating func fill(_ ref: Ref, dictionaryFrom mark: Int) {
    offsets[ref] = length
    writeContainer(BinaryPropertyListMarker.dictionary, from: mark, entries: (stack.count - mark) / 2)
  }

  private mutating func writeContainer(_ marker: UInt8, from mark: Int, entries: Int) {
    appendLengthMarker(marker, entries)
    let width = Self.provisionalRefSize
    let total = stack.count - mark
    let position = claim(total &* width)
    let dictionary = marker == BinaryPropertyListMarker.dictionary
    stack.withUnsafeBufferPointer { stack in
      Self.storeReferences(UnsafeBufferPointer(rebasing: stack[mark...]), dictionary: dictionary, at: position)
    }
    stack.removeLast(total)
  }

  /// Writes references 4 bytes wide; a dictionary's come as key, value pairs and are written keys first.
  @inline(__always)
  private static func storeReferences<Element: FixedWidthInteger>(
    _ elements: UnsafeBufferPointer<Element>, dictionary: Bool, at start: UnsafeMutablePointer<UInt8>
  ) {
    let width = provisionalRefSize
    var position = start
    if dictionary {
      for first in 0..<2 {
        var index = first
        while index < elements.count {
          store(UInt64(truncatingIfNeeded: elements[index]), width: width, at: position)
          position += width
          index &+= 2
        }
      }
    } else {
      for element in elements {
        store(UInt64(truncatingIfNeeded: element), width: width, at: position)
        position += width
      }
    }
  }

  // MARK: Scalar encoding

  private mutating func appendUnsignedInteger(_ value: UInt64) {
    let exponent: UInt8
    let width: Int
    switch value {
    case 0...0xFF: (exponent, width) = (0, 1)
    case 0x100...0xFFFF: (exponent, width) = (1, 2)
    case 0x1_0000...0xFFFF_FFFF: (exponent, width) = (2, 4)
    case 0x1_0000_0000...UInt64(Int64.max): (exponent, width) = (3, 8)
    default:
      // Above Int64.max: the 16-byte form, high half zero.
      let start = claim(17)
      start.pointee = BinaryPropertyListMarker.integer | 4
      Self.store(0, width: 8, at: start + 1)
      Self.store(value, width: 8, at: start + 9)
      return
    }
    let start = claim(1 &+ width)
    start.pointee = BinaryPropertyListMarker.integer | exponent
    Self.store(value, width: width, at: start + 1)
  }

  @inline(__always)
  private mutating func appendLengthMarker(_ type: UInt8, _ count: Int) {
    if count < 0x0F {
      claim(1).pointee = type | UInt8(truncatingIfNeeded: count)
    } else {
      claim(1).pointee = type | 0x0F
      appendUnsignedInteger(UInt64(count))
    }
  }

  private mutating func appendUID(_ value: UInt64) {
    let width: Int
    switch value {
    case 0...0xFF: width = 1
    case 0x100...0xFFFF: width = 2
    case 0x1_0000...0xFFFF_FFFF: width = 4
    default: width = 8
    }
    let start = claim(1 &+ width)
    start.pointee = BinaryPropertyListMarker.uid | UInt8(width - 1)
    Self.store(value, width: width, at: start + 1)
  }

  // MARK: Output

  private static func width(for value: Int) -> Int {
    switch value {
    case ..<0x100: 1
    case ..<0x1_0000: 2
    case ..<0x1_0000_0000: 4
    default: 8
    }
  }

  /// Narrows every reference of every container to `width` bytes, moving the objects down in stream order.
  private mutating func narrowReferences(to width: Int) {
    let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
    let end = length
    var target = BinaryPropertyListMarker.headerSize
    for (position, index) in order.enumerated() {
      let source = offsets[index]
      let next = position + 1 < order.count ? offsets[order[position + 1]] : end
      offsets[index] = target
      let marker = bytes[source]
      let type = marker & 0xF0
      let isContainer =
        type == BinaryPropertyListMarker.array || type == BinaryPropertyListMarker.dictionary
        || type == BinaryPropertyListMarker.set || type == BinaryPropertyListMarker.orderedSet
      guard isContainer else {
        if target != source { memmove(bytes + target, bytes + source, next - source) }
        target += next - source
        continue
      }
      var header = 1
      var entries = Int(marker & 0x0F)
      if entries == 0x0F {
        let size = 1 << Int(bytes[source + 1] & 0x0F)
        entries = Int(Self.load(width: size, at: bytes + source + 2))
        header = 2 + size
      }
      if target != source { memmove(bytes + target, bytes + source, header) }
      let references = type == BinaryPropertyListMarker.dictionary ? 2 * entries : entries
      let from = source + header
      let to = target + header
      for element in 0..<references {
        let ref = Self.load(width: Self.provisionalRefSize, at: bytes + from + element * Self.provisionalRefSize)
        Self.store(ref, width: width, at: bytes + to + element * width)
      }
      target = to + references * width
    }
    length = target
  }

  /// Narrows the references, appends the offset table and the trailer, and returns the file; the writer is left
  /// empty, as a new one. Every reserved object must be filled.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`limitExceeded`) past 2^32 objects.
  package mutating func finish(top: Ref) throws -> Data {
    let table = try prepareTable(handedOut: 0)
    appendOffsets(table)
    appendTrailer(table, top: top)
    let size = length
    let output = realloc(bytes, size) ?? UnsafeMutableRawPointer(bytes)
    bytes = Self.newBuffer(64)
    capacity = 64
    reset()
    return Data(bytesNoCopy: output, count: size, deallocator: .free)
  }

  // MARK: Output in pieces

  /// What ``handOut(_:to:)`` has handed on: the bytes, and the objects whose recorded offsets count from the start
  /// of the list (the later ones' count from the start of the buffer, `bytes` further on).
  package struct HandedOut {
    /// The bytes handed on.
    package fileprivate(set) var bytes = 0
    fileprivate var settledObjects = 0

    /// Nothing handed on yet.
    package init() {}
  }

  /// The bytes in the buffer: written and not yet handed on.
  package var bufferedBytes: Int { length }

  /// Makes room for about `count` objects, so that a caller who knows how many are coming (the input's count, for
  /// a re-encoding) holds their offsets and references without growing the tables by doubling, which copies them.
  package mutating func reserve(objects count: Int) {
    offsets.reserveCapacity(count)
    stack.reserveCapacity(count)
  }

  /// Hands the bytes written so far to `write` and empties the buffer, once there are more objects than 2-byte
  /// references reach: the references then stay 4 bytes wide, so the bytes written are final. Before that, it does
  /// nothing. The `Data` handed to `write` shares the writer's buffer: it is valid only until `write` returns (copy
  /// it to keep it). A writer that hands out its bytes ends with ``finish(top:handedOut:to:)``; every object it
  /// reserved must be filled before a hand-out.
  package mutating func handOut(_ progress: inout HandedOut, to write: (Data) throws -> Void) rethrows {
    guard offsets.count > 0xFFFF, length > 0 else { return }
    settleOffsets(&progress)
    try write(borrowedBytes)
    progress.bytes += length
    length = 0
  }

  /// The buffer's bytes, not copied: valid until the writer next changes.
  private var borrowedBytes: Data { Data(bytesNoCopy: bytes, count: length, deallocator: .none) }

  /// Counts the offsets recorded since the last hand-out from the start of the list.
  private mutating func settleOffsets(_ progress: inout HandedOut) {
    let base = progress.bytes
    for index in progress.settledObjects..<offsets.count {
      precondition(offsets[index] >= 0, "object \(index) was reserved but not filled before its bytes were handed out")
      offsets[index] += base
    }
    progress.settledObjects = offsets.count
  }

  /// ``finish(top:)`` for a writer that handed out bytes with ``handOut(_:to:)``: hands `write` the rest of the
  /// list, its offset table and its trailer, each piece valid until `write` returns (as ``handOut(_:to:)``'s). The
  /// writer is left empty, as a new one.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`limitExceeded`) past 2^32 objects, or what `write` throws.
  package mutating func finish(top: Ref, handedOut progress: inout HandedOut, to write: (Data) throws -> Void) throws {
    if progress.bytes > 0 { settleOffsets(&progress) }
    let table = try prepareTable(handedOut: progress.bytes)
    try appendOffsets(table, handedOut: &progress.bytes, write: write)
    appendTrailer(table, top: top)
    try write(borrowedBytes)
    progress.bytes += length
    length = BinaryPropertyListMarker.headerSize
    Self.writeHeader(bytes)
    reset()
  }

  /// Empties the tables, as in a new writer; the buffer is the caller's to set.
  private mutating func reset() {
    length = BinaryPropertyListMarker.headerSize
    offsets = []
    stack = []
    strings = [:]
    denseUIDs = []
    sparseUIDs = [:]
    booleans = (-1, -1)
    nullObject = -1
    integers = ScalarCache()
    reals = ScalarCache()
    floats = ScalarCache()
    dates = ScalarCache()
  }

  /// The shape of the offset table and trailer ``finish(top:)`` appends.
  private struct Table {
    let count: Int
    let refSize: Int
    let tableOffset: Int
    let offsetSize: Int
  }

  /// Checks the object count and the reserved objects and narrows the references when the count allows; the
  /// table will start after `handedOut` bytes of the list that are no longer in the buffer and the buffer's bytes.
  private mutating func prepareTable(handedOut: Int) throws -> Table {
    let count = offsets.count
    guard count <= Int(UInt32.max) else {
      throw ArchiveError(.limitExceeded, "a binary property list of \(count) objects is more than this writer holds")
    }
    for (index, offset) in offsets.enumerated() where offset < 0 {
      preconditionFailure("object \(index) was reserved but never filled")
    }
    let refSize = Self.width(for: count)
    if refSize < Self.provisionalRefSize { narrowReferences(to: refSize) }
    let tableOffset = handedOut + length
    return Table(count: count, refSize: refSize, tableOffset: tableOffset, offsetSize: Self.width(for: tableOffset))
  }

  /// Appends the offset table whole.
  private mutating func appendOffsets(_ table: Table) {
    let offsetSize = table.offsetSize
    var position = claim(table.count * offsetSize)
    for offset in offsets {
      Self.store(UInt64(offset), width: offsetSize, at: position)
      position += offsetSize
    }
  }

  /// Appends the offset table, handing the buffer to `write` whenever it passes ``piece``, so that a large table is
  /// never held whole; the bytes handed on are added to `handedOut`.
  private mutating func appendOffsets(_ table: Table, handedOut: inout Int, write: (Data) throws -> Void) throws {
    let offsetSize = table.offsetSize
    var first = 0
    while first < table.count {
      let batch = Swift.min(table.count - first, Self.piece / offsetSize)
      var position = claim(batch * offsetSize)
      for index in first..<(first + batch) {
        Self.store(UInt64(offsets[index]), width: offsetSize, at: position)
        position += offsetSize
      }
      first += batch
      if length >= Self.piece {
        try write(borrowedBytes)
        handedOut += length
        length = 0
      }
    }
  }

  /// Appends the trailer.
  private mutating func appendTrailer(_ table: Table, top: Ref) {
    var position = claim(BinaryPropertyListMarker.trailerSize)
    for _ in 0..<6 {
      position.pointee = 0
      position += 1
    }
    position[0] = UInt8(table.offsetSize)
    position[1] = UInt8(table.refSize)
    position += 2
    for value in [UInt64(table.count), UInt64(top), UInt64(table.tableOffset)] {
      Self.store(value, width: 8, at: position)
      position += 8
    }
  }

  /// The size of the pieces a caller hands on (``handOut(_:to:)``) and ``finish(top:handedOut:to:)`` hands on its
  /// offset table in.
  package static let piece = 1 << 20
}

/// A direct-mapped cache from a scalar's bits to its object number: a hit shares the object, a miss writes a new
/// one and replaces the entry. Small at first, it grows (forgetting its entries) as more values go through it.
private struct ScalarCache {
  private var keys: [UInt64] = []
  private var refs: [Int] = []
  private var shift: UInt64 = 64
  private var stores = 0

  private static let smallestBits: UInt64 = 6
  private static let largestBits: UInt64 = 12

  @inline(__always)
  private func slot(_ key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> shift)
  }

  @inline(__always)
  func lookup(_ key: UInt64) -> Int? {
    guard !refs.isEmpty else { return nil }
    let index = slot(key)
    return keys[index] == key && refs[index] >= 0 ? refs[index] : nil
  }

  /// Records `ref` as the object of `key` and returns it.
  mutating func remember(_ key: UInt64, as ref: Int) -> Int {
    stores &+= 1
    let bits = 64 - shift
    if refs.isEmpty || (bits < Self.largestBits && stores > 4 << bits) {
      let newBits = refs.isEmpty ? Self.smallestBits : bits + 2
      shift = 64 - newBits
      keys = [UInt64](repeating: 0, count: 1 << newBits)
      refs = [Int](repeating: -1, count: 1 << newBits)
    }
    let index = slot(key)
    keys[index] = key
    refs[index] = ref
    return ref
  }
}

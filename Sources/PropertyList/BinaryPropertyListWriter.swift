import ArchiveCoding
import Foundation

/// Writes binary property lists (`bplist00`).
///
/// Objects are appended one at a time and referred to by their object number; equal scalars (strings, integers,
/// reals, booleans, dates, UIDs) are written once and shared, but values of different types are never merged
/// (`1`, `1.0`, `Float(1)` and `true` stay four objects). References and offsets use the smallest byte widths
/// that fit. The same sequence of calls always gives the same bytes.
///
/// Use ``write(_:)`` for a whole value; the keyed archiver drives the object-level calls directly.
package struct BinaryPropertyListWriter {
  /// An object number.
  package typealias Ref = Int

  private enum Entry {
    case scalar(start: Int, end: Int)
    case container(marker: UInt8, start: Int, count: Int)
    case pending
  }

  private var entries: [Entry] = []
  private var scalars: [UInt8] = []
  private var refs: [Int] = []
  /// Keyed by code units: two spellings of one text are two strings (ARC-006).
  private var strings: [LiteralString: Ref] = [:]
  private var integers: [Int64: Ref] = [:]
  private var unsignedIntegers: [UInt64: Ref] = [:]
  private var reals: [UInt64: Ref] = [:]
  private var floats: [UInt32: Ref] = [:]
  private var dates: [UInt64: Ref] = [:]
  private var uids: [UInt64: Ref] = [:]
  /// UIDs below this bound are shared through `denseUIDs` (an array) instead of a dictionary.
  private static let denseUIDLimit: UInt64 = 1 << 24
  private var denseUIDs: [Int32] = []
  private var booleans: [Ref?] = [nil, nil]

  /// Creates an empty writer.
  package init() {}

  /// Encodes a whole property-list value with its root as object 0.
  package static func write(_ value: PropertyListValue) -> Data {
    var writer = BinaryPropertyListWriter()
    let root = writer.reserve()
    writer.fill(root, with: value)
    return writer.finish(top: root)
  }

  /// The number of objects so far.
  package var count: Int { entries.count }

  /// Reserves an object number to be filled later with ``fill(_:array:)``, ``fill(_:dictionary:values:)`` or
  /// ``fill(_:with:)`` (a container can refer to objects added after it).
  package mutating func reserve() -> Ref {
    entries.append(.pending)
    return entries.count - 1
  }

  /// Appends (or shares) any value, recursively.
  package mutating func add(_ value: PropertyListValue) -> Ref {
    switch value {
    case .bool(let v): return add(bool: v)
    case .integer(let v): return add(integer: v)
    case .unsignedInteger(let v): return add(unsignedInteger: v)
    case .real(let v): return add(real: v)
    case .float(let v): return add(float: v)
    case .date(let v): return add(date: v)
    case .data(let v): return add(data: v)
    case .string(let v): return add(string: v)
    case .uid(let v): return add(uid: v)
    case .array, .set, .dictionary:
      let ref = reserve()
      fill(ref, with: value)
      return ref
    }
  }

  /// Fills a reserved object with a value (containers are written in place; scalars are copied in).
  package mutating func fill(_ ref: Ref, with value: PropertyListValue) {
    switch value {
    case .array(let elements):
      let children = elements.map { add($0) }
      fill(ref, array: children)
    case .set(let elements):
      let children = elements.map { add($0) }
      fill(ref, marker: BinaryPropertyListMarker.set, refs: children)
    case .dictionary(let dictionary):
      var keys: [Ref] = []
      var values: [Ref] = []
      keys.reserveCapacity(dictionary.count)
      values.reserveCapacity(dictionary.count)
      for entry in dictionary.entries {
        keys.append(add(entry.key))
        values.append(add(entry.value))
      }
      fill(ref, dictionary: keys, values: values)
    default:
      let start = scalars.count
      appendScalar(value)
      entries[ref] = .scalar(start: start, end: scalars.count)
    }
  }

  /// Fills a reserved object with an array of object numbers.
  package mutating func fill(_ ref: Ref, array elements: [Ref]) {
    fill(ref, marker: BinaryPropertyListMarker.array, refs: elements)
  }

  /// Fills a reserved object with a dictionary; `keys` and `values` have the same length.
  package mutating func fill(_ ref: Ref, dictionary keys: [Ref], values: [Ref]) {
    precondition(keys.count == values.count, "dictionary keys and values differ in length")
    let start = refs.count
    refs.append(contentsOf: keys)
    refs.append(contentsOf: values)
    entries[ref] = .container(marker: BinaryPropertyListMarker.dictionary, start: start, count: keys.count)
  }

  private mutating func fill(_ ref: Ref, marker: UInt8, refs elements: [Ref]) {
    let start = refs.count
    refs.append(contentsOf: elements)
    entries[ref] = .container(marker: marker, start: start, count: elements.count)
  }

  /// Appends an array of object numbers.
  package mutating func add(array elements: [Ref]) -> Ref {
    let ref = reserve()
    fill(ref, array: elements)
    return ref
  }

  /// Appends a dictionary.
  package mutating func add(dictionary keys: [Ref], values: [Ref]) -> Ref {
    let ref = reserve()
    fill(ref, dictionary: keys, values: values)
    return ref
  }

  /// Appends or shares a string.
  package mutating func add(string: String) -> Ref {
    let key = LiteralString(string)
    if let ref = strings[key] { return ref }
    let ref = newScalar { $0.appendString(string) }
    strings[key] = ref
    return ref
  }

  /// Appends or shares an integer.
  package mutating func add(integer: Int64) -> Ref {
    if let ref = integers[integer] { return ref }
    let ref = newScalar { $0.appendInteger(integer) }
    integers[integer] = ref
    return ref
  }

  /// Appends or shares an integer above `Int64.max` (smaller values go through ``add(integer:)``).
  package mutating func add(unsignedInteger value: UInt64) -> Ref {
    if value <= UInt64(Int64.max) { return add(integer: Int64(value)) }
    if let ref = unsignedIntegers[value] { return ref }
    let ref = newScalar { $0.appendUnsignedInteger(value) }
    unsignedIntegers[value] = ref
    return ref
  }

  /// Appends or shares a 64-bit real (shared by bit pattern, so `-0.0` and each NaN stay distinct).
  package mutating func add(real: Double) -> Ref {
    if let ref = reals[real.bitPattern] { return ref }
    let ref = newScalar { $0.appendReal(real) }
    reals[real.bitPattern] = ref
    return ref
  }

  /// Appends or shares a 32-bit real.
  package mutating func add(float: Float) -> Ref {
    if let ref = floats[float.bitPattern] { return ref }
    let ref = newScalar { $0.appendFloat(float) }
    floats[float.bitPattern] = ref
    return ref
  }

  /// Appends or shares a boolean.
  package mutating func add(bool: Bool) -> Ref {
    let slot = bool ? 1 : 0
    if let ref = booleans[slot] { return ref }
    let ref = newScalar { $0.scalars.append(bool ? BinaryPropertyListMarker.true : BinaryPropertyListMarker.false) }
    booleans[slot] = ref
    return ref
  }

  /// Appends or shares a date.
  package mutating func add(date: Date) -> Ref {
    let bits = date.timeIntervalSinceReferenceDate.bitPattern
    if let ref = dates[bits] { return ref }
    let ref = newScalar { $0.appendDate(date) }
    dates[bits] = ref
    return ref
  }

  /// Appends data (not shared: comparing data costs more than it saves).
  package mutating func add(data: Data) -> Ref {
    newScalar { $0.appendData(data) }
  }

  /// Appends or shares a UID.
  package mutating func add(uid: UInt64) -> Ref {
    if uid < Self.denseUIDLimit {
      let index = Int(uid)
      if index < denseUIDs.count, denseUIDs[index] >= 0 { return Int(denseUIDs[index]) }
      let ref = newScalar { $0.appendUID(uid) }
      if index >= denseUIDs.count {
        denseUIDs.append(contentsOf: repeatElement(-1, count: max(index + 1 - denseUIDs.count, denseUIDs.count)))
      }
      denseUIDs[index] = Int32(truncatingIfNeeded: ref)
      return ref
    }
    if let ref = uids[uid] { return ref }
    let ref = newScalar { $0.appendUID(uid) }
    uids[uid] = ref
    return ref
  }

  /// Appends a value without sharing it with equal values (for callers that already shared them).
  package mutating func addUnshared(_ value: PropertyListValue) -> Ref {
    switch value {
    case .array, .set, .dictionary: return add(value)
    default: return newScalar { $0.appendScalar(value) }
    }
  }

  /// Reserves room for about `objects` objects and `bytes` bytes of scalars.
  package mutating func reserveCapacity(objects: Int, bytes: Int) {
    entries.reserveCapacity(objects)
    scalars.reserveCapacity(bytes)
  }

  private mutating func newScalar(_ body: (inout BinaryPropertyListWriter) -> Void) -> Ref {
    let start = scalars.count
    body(&self)
    entries.append(.scalar(start: start, end: scalars.count))
    return entries.count - 1
  }

  private mutating func appendScalar(_ value: PropertyListValue) {
    switch value {
    case .bool(let v): scalars.append(v ? BinaryPropertyListMarker.true : BinaryPropertyListMarker.false)
    case .integer(let v): appendInteger(v)
    case .unsignedInteger(let v): appendUnsignedInteger(v)
    case .real(let v): appendReal(v)
    case .float(let v): appendFloat(v)
    case .date(let v): appendDate(v)
    case .data(let v): appendData(v)
    case .string(let v): appendString(v)
    case .uid(let v): appendUID(v)
    case .array, .set, .dictionary: preconditionFailure("containers are not scalars")
    }
  }

  // MARK: Scalar encoding

  private mutating func appendBigEndian(_ value: UInt64, width: Int) {
    var shift = (width - 1) * 8
    while shift >= 0 {
      scalars.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
      shift -= 8
    }
  }

  private mutating func appendInteger(_ value: Int64) {
    if value < 0 {
      scalars.append(BinaryPropertyListMarker.integer | 3)
      appendBigEndian(UInt64(bitPattern: value), width: 8)
    } else {
      appendUnsignedInteger(UInt64(value))
    }
  }

  private mutating func appendUnsignedInteger(_ value: UInt64) {
    switch value {
    case 0...0xFF:
      scalars.append(BinaryPropertyListMarker.integer | 0)
      appendBigEndian(value, width: 1)
    case 0x100...0xFFFF:
      scalars.append(BinaryPropertyListMarker.integer | 1)
      appendBigEndian(value, width: 2)
    case 0x1_0000...0xFFFF_FFFF:
      scalars.append(BinaryPropertyListMarker.integer | 2)
      appendBigEndian(value, width: 4)
    case 0x1_0000_0000...UInt64(Int64.max):
      scalars.append(BinaryPropertyListMarker.integer | 3)
      appendBigEndian(value, width: 8)
    default:
      // Above Int64.max: the 16-byte form, high half zero.
      scalars.append(BinaryPropertyListMarker.integer | 4)
      appendBigEndian(0, width: 8)
      appendBigEndian(value, width: 8)
    }
  }

  private mutating func appendReal(_ value: Double) {
    scalars.append(BinaryPropertyListMarker.real | 3)
    appendBigEndian(value.bitPattern, width: 8)
  }

  private mutating func appendFloat(_ value: Float) {
    scalars.append(BinaryPropertyListMarker.real | 2)
    appendBigEndian(UInt64(value.bitPattern), width: 4)
  }

  private mutating func appendDate(_ value: Date) {
    scalars.append(BinaryPropertyListMarker.date)
    appendBigEndian(value.timeIntervalSinceReferenceDate.bitPattern, width: 8)
  }

  private mutating func appendLengthMarker(_ type: UInt8, _ count: Int) {
    if count < 0x0F {
      scalars.append(type | UInt8(count))
    } else {
      scalars.append(type | 0x0F)
      appendUnsignedInteger(UInt64(count))
    }
  }

  private mutating func appendData(_ value: Data) {
    appendLengthMarker(BinaryPropertyListMarker.data, value.count)
    scalars.append(contentsOf: value)
  }

  private mutating func appendString(_ value: String) {
    var ascii = true
    for byte in value.utf8 where byte >= 0x80 {
      ascii = false
      break
    }
    if ascii {
      appendLengthMarker(BinaryPropertyListMarker.asciiString, value.utf8.count)
      scalars.append(contentsOf: value.utf8)
    } else {
      let units = Array(value.utf16)
      appendLengthMarker(BinaryPropertyListMarker.utf16String, units.count)
      for unit in units {
        scalars.append(UInt8(unit >> 8))
        scalars.append(UInt8(unit & 0xFF))
      }
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
    scalars.append(BinaryPropertyListMarker.uid | UInt8(width - 1))
    appendBigEndian(value, width: width)
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

  /// Lays out every object in object-number order and returns the file. Every reserved object must be filled.
  package func finish(top: Ref) -> Data {
    let count = entries.count
    // CF sizes references by the object count itself.
    let refSize = Self.width(for: count)
    var out: [UInt8] = []
    out.reserveCapacity(8 + scalars.count + refs.count * refSize + count * 9 + 32)
    out.append(contentsOf: Array("bplist00".utf8))
    var offsets = [Int](repeating: 0, count: count)
    for (index, entry) in entries.enumerated() {
      offsets[index] = out.count
      switch entry {
      case .scalar(let start, let end):
        out.append(contentsOf: scalars[start..<end])
      case .container(let marker, let start, let elements):
        if elements < 0x0F {
          out.append(marker | UInt8(elements))
        } else {
          out.append(marker | 0x0F)
          var sizeWriter = BinaryPropertyListWriter()
          sizeWriter.appendUnsignedInteger(UInt64(elements))
          out.append(contentsOf: sizeWriter.scalars)
        }
        let total = marker == BinaryPropertyListMarker.dictionary ? 2 * elements : elements
        for ref in refs[start..<(start + total)] {
          var shift = (refSize - 1) * 8
          while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: ref >> shift))
            shift -= 8
          }
        }
      case .pending:
        preconditionFailure("object \(index) was reserved but never filled")
      }
    }
    let tableOffset = out.count
    let offsetSize = Self.width(for: tableOffset)
    for offset in offsets {
      var shift = (offsetSize - 1) * 8
      while shift >= 0 {
        out.append(UInt8(truncatingIfNeeded: offset >> shift))
        shift -= 8
      }
    }
    out.append(contentsOf: [0, 0, 0, 0, 0, 0])
    out.append(UInt8(offsetSize))
    out.append(UInt8(refSize))
    for value in [UInt64(count), UInt64(top), UInt64(tableOffset)] {
      var shift = 56
      while shift >= 0 {
        out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        shift -= 8
      }
    }
    return Data(out)
  }
}

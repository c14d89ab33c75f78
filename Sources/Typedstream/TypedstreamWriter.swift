import ArchiveCoding
import ArchiveSupport
import Foundation

/// Writes a ``TypedstreamArchive`` value tree as a typedstream, in either byte order (`Specs/Typedstream.md`,
/// TS-050 to TS-054).
///
/// Integers are compacted as Apple's `NSArchiver` compacts them (one byte when the value is not a tag, then 16,
/// 32 and 64 bits), unsigned values through their signed counterpart of the same width; shared strings are
/// written once and referred to afterwards; objects, classes and C strings are literals or references as the
/// tree says. Reading the output gives back an equal tree.
public struct TypedstreamWriter {
  /// Choices where writers differ.
  public struct Options: Sendable {
    /// Write a `float` or `double` whose value is a whole number that fits 32 bits as an integer, as
    /// `NSArchiver` does (TS-052).
    public var integralRealsAsIntegers: Bool
    /// The deepest nesting written (a tree built in code is not bounded by a reader).
    public var maxDepth: Int

    /// Creates options.
    public init(integralRealsAsIntegers: Bool = true, maxDepth: Int = 512) {
      self.integralRealsAsIntegers = integralRealsAsIntegers
      self.maxDepth = maxDepth
    }
  }

  private var out: [UInt8] = []
  private let bigEndian: Bool
  private let options: Options
  private var sharedStrings: [[UInt8]: Int] = [:]
  private var entryCount = 0
  private var objectEntries: [Int] = []
  private var classEntries: [Int] = []
  private var cStringEntries: [Int] = []
  private var parsedEncodings: [[UInt8]: [TypeNode]] = [:]
  private let stack = StackGuard()

  private init(bigEndian: Bool, options: Options) {
    self.bigEndian = bigEndian
    self.options = options
  }

  /// Encodes an archive.
  /// - Parameters:
  ///   - archive: the tree to write; `archive.byteOrder` chooses the byte order.
  ///   - options: choices where writers differ.
  /// - Returns: the stream's bytes.
  /// - Throws: `ArchiveError` (`invalidValue`) when the streamer version is not 4, a value does not fit its
  ///   group's encoding or a reference names a literal that does not come before it.
  public static func write(_ archive: TypedstreamArchive, options: Options = Options()) throws -> Data {
    guard archive.streamerVersion == Int(TypedstreamFormat.streamerVersion) else {
      throw ArchiveError(
        .invalidValue,
        "streamer version \(archive.streamerVersion): only version \(TypedstreamFormat.streamerVersion) is written")
    }
    var writer = TypedstreamWriter(bigEndian: archive.byteOrder == .big, options: options)
    writer.out.reserveCapacity(256)
    writer.out.append(TypedstreamFormat.streamerVersion)
    writer.out.append(11)
    writer.out += writer.bigEndian ? TypedstreamFormat.bigEndianSignature : TypedstreamFormat.littleEndianSignature
    writer.writeInteger(archive.systemVersion)
    for group in archive.groups { try writer.writeGroup(group, depth: 0) }
    return Data(writer.out)
  }

  // MARK: Structure

  private mutating func writeGroup(_ group: TypedstreamGroup, depth: Int) throws {
    let types: [TypeNode]
    if let known = parsedEncodings[group.encoding] {
      types = known
    } else {
      types = try TypeNode.parse(group.encoding, maxDepth: options.maxDepth)
      parsedEncodings[group.encoding] = types
    }
    guard types.count == group.values.count else {
      throw invalid(
        "group \"\(String(decoding: group.encoding, as: UTF8.self))\" has \(types.count) types but "
          + "\(group.values.count) values")
    }
    writeSharedString(group.encoding)
    for (type, value) in zip(types, group.values) { try writeValue(value, as: type, depth: depth) }
  }

  private mutating func writeValue(_ value: TypedstreamValue, as type: TypeNode, depth: Int) throws {
    switch (type, value) {
    case (.scalar(let code), _): try writeScalar(value, code: code, depth: depth)
    case (.array(let count, _), .byteArray(_, let raw)) where type.isByteArray:
      guard raw.count == count else { throw invalid("array \(type) expects \(count) bytes, found \(raw.count)") }
      out += raw
    case (.array(let count, let element), .array(_, let elements)) where !type.isByteArray:
      try checkDepth(depth)
      guard elements.count == count else {
        throw invalid("array expects \(count) elements, found \(elements.count)")
      }
      for item in elements { try writeValue(item, as: element, depth: depth + 1) }
    case (.structure(_, let fields), .structure(_, let members)):
      try checkDepth(depth)
      guard fields.count == members.count else {
        throw invalid("structure expects \(fields.count) fields, found \(members.count)")
      }
      for (field, member) in zip(fields, members) { try writeValue(member, as: field, depth: depth + 1) }
    default: throw mismatch(type, value)
    }
  }

  private mutating func writeScalar(_ value: TypedstreamValue, code: TypeCode, depth: Int) throws {
    switch (code.byte, value) {
    case (UInt8(ascii: "c"), .signed(_, let v)): out.append(UInt8(truncatingIfNeeded: v))
    case (UInt8(ascii: "C"), .unsigned(_, let v)): out.append(UInt8(truncatingIfNeeded: v))
    case (UInt8(ascii: "B"), .bool(let v)): out.append(v)
    case (UInt8(ascii: "s"), .signed(_, let v)): writeInteger(Int64(Int16(truncatingIfNeeded: v)))
    case (UInt8(ascii: "i"), .signed(_, let v)), (UInt8(ascii: "l"), .signed(_, let v)):
      writeInteger(Int64(Int32(truncatingIfNeeded: v)))
    case (UInt8(ascii: "q"), .signed(_, let v)): writeInteger(v)
    case (UInt8(ascii: "S"), .unsigned(_, let v)): writeInteger(Int64(Int16(truncatingIfNeeded: v)))
    case (UInt8(ascii: "I"), .unsigned(_, let v)), (UInt8(ascii: "L"), .unsigned(_, let v)):
      writeInteger(Int64(Int32(truncatingIfNeeded: v)))
    case (UInt8(ascii: "Q"), .unsigned(_, let v)): writeInteger(Int64(bitPattern: v))
    case (UInt8(ascii: "f"), .float(let bits)):
      let real = Float(bitPattern: bits)
      if options.integralRealsAsIntegers, let whole = Self.integral(Double(real)) {
        writeInteger(whole)
      } else {
        out.append(UInt8(bitPattern: TypedstreamFormat.realTag))
        writeFixed(UInt64(bits), count: 4)
      }
    case (UInt8(ascii: "d"), .double(let bits)):
      let real = Double(bitPattern: bits)
      if options.integralRealsAsIntegers, let whole = Self.integral(real) {
        writeInteger(whole)
      } else {
        out.append(UInt8(bitPattern: TypedstreamFormat.realTag))
        writeFixed(bits, count: 8)
      }
    case (UInt8(ascii: "+"), .bytes(let raw)):
      if let raw {
        writeInteger(Int64(raw.count))
        out += raw
      } else {
        writeTag(TypedstreamFormat.nilTag)
      }
    case (UInt8(ascii: "*"), .cString(let string)):
      switch string {
      case nil: writeTag(TypedstreamFormat.nilTag)
      case .literal(let text)?:
        writeTag(TypedstreamFormat.newTag)
        cStringEntries.append(entryCount)
        entryCount += 1
        writeSharedString(text)
      case .reference(let ordinal)?:
        try writeReference(ordinal, in: cStringEntries, kind: "C string")
      }
    case (UInt8(ascii: "%"), .atom(let text)), (UInt8(ascii: ":"), .selector(let text)):
      if let text { writeSharedString(text) } else { writeTag(TypedstreamFormat.nilTag) }
    case (UInt8(ascii: "#"), .classValue(let reference)): try writeClass(reference, depth: depth)
    case (UInt8(ascii: "@"), .object(let reference)): try writeObject(reference, depth: depth)
    case (UInt8(ascii: "!"), .ignored): break
    default: throw mismatch(.scalar(code), value)
    }
  }

  private mutating func writeClass(_ reference: TypedstreamClassReference?, depth: Int) throws {
    try checkDepth(depth)
    switch reference {
    case nil: writeTag(TypedstreamFormat.nilTag)
    case .literal(let objectClass)?:
      beginLiteral(isClass: true)
      writeSharedString(objectClass.name)
      writeInteger(objectClass.version)
      try writeClass(objectClass.superclass, depth: depth + 1)
    case .reference(let ordinal)?: try writeReference(ordinal, in: classEntries, kind: "class")
    }
  }

  private mutating func writeObject(_ reference: TypedstreamObjectReference?, depth: Int) throws {
    try checkDepth(depth)
    switch reference {
    case nil: writeTag(TypedstreamFormat.nilTag)
    case .literal(let object)?:
      beginLiteral(isClass: false)
      try writeClass(object.objectClass, depth: depth + 1)
      for group in object.groups { try writeGroup(group, depth: depth + 1) }
      writeTag(TypedstreamFormat.endTag)
    case .reference(let ordinal)?: try writeReference(ordinal, in: objectEntries, kind: "object")
    }
  }

  /// Writes the NEW tag of a literal class or object and numbers it: classes and objects share one numbering in the
  /// stream (TS-005), and each kind keeps the numbers of its own literals for the references to them.
  private mutating func beginLiteral(isClass: Bool) {
    writeTag(TypedstreamFormat.newTag)
    if isClass { classEntries.append(entryCount) } else { objectEntries.append(entryCount) }
    entryCount += 1
  }

  private mutating func writeReference(_ ordinal: Int, in table: [Int], kind: String) throws {
    guard ordinal >= 0, ordinal < table.count else {
      throw invalid("a reference to \(kind) #\(ordinal), but only \(table.count) were written before it")
    }
    writeInteger(Int64(table[ordinal]) + TypedstreamFormat.referenceBase)
  }

  // MARK: Primitives

  private mutating func writeSharedString(_ text: [UInt8]) {
    if let index = sharedStrings[text] {
      writeInteger(Int64(index) + TypedstreamFormat.referenceBase)
      return
    }
    sharedStrings[text] = sharedStrings.count
    writeTag(TypedstreamFormat.newTag)
    writeInteger(Int64(text.count))
    out += text
  }

  private mutating func writeTag(_ tag: Int8) { out.append(UInt8(bitPattern: tag)) }

  /// The smallest form of an integer: one byte unless the byte would be a tag, then 16, 32 or 64 bits (TS-051).
  private mutating func writeInteger(_ value: Int64) {
    if value >= Int64(TypedstreamFormat.smallestInteger), value <= Int64(Int8.max) {
      out.append(UInt8(truncatingIfNeeded: value))
    } else if let small = Int16(exactly: value) {
      writeTag(TypedstreamFormat.int16Tag)
      writeFixed(UInt64(UInt16(bitPattern: small)), count: 2)
    } else if let medium = Int32(exactly: value) {
      writeTag(TypedstreamFormat.int32Tag)
      writeFixed(UInt64(UInt32(bitPattern: medium)), count: 4)
    } else {
      writeTag(TypedstreamFormat.int64Tag)
      writeFixed(UInt64(bitPattern: value), count: 8)
    }
  }

  private mutating func writeFixed(_ value: UInt64, count: Int) {
    for i in 0..<count {
      let shift = bigEndian ? (count - 1 - i) * 8 : i * 8
      out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }

  /// The value as an integer when writing it as one reads back the same bits: a whole number that fits 32 bits,
  /// and not negative zero.
  private static func integral(_ value: Double) -> Int64? {
    guard value.isFinite, value == value.rounded(.towardZero), !(value == 0 && value.sign == .minus),
      let whole = Int32(exactly: value)
    else { return nil }
    return Int64(whole)
  }

  private func checkDepth(_ depth: Int) throws {
    guard depth < options.maxDepth, stack.hasRoom() else {
      throw ArchiveError(.limitExceeded, "values nest deeper than \(options.maxDepth) or than the stack allows")
    }
  }

  private func invalid(_ message: String) -> ArchiveError { ArchiveError(.invalidValue, message) }

  private func mismatch(_ type: TypeNode, _ value: TypedstreamValue) -> ArchiveError {
    invalid("type \"\(String(decoding: type.encoding, as: UTF8.self))\" cannot hold the value \(value)")
  }
}

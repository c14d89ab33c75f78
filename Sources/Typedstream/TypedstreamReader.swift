import ArchiveCoding
import ArchiveSupport
import Foundation

/// Reads a typedstream into a ``TypedstreamArchive`` value tree (`Specs/Typedstream.md`).
///
/// The input is untrusted: every read is bounds-checked, integer arithmetic reports overflow, references are
/// checked against the tables they index, nesting is limited by ``Options/maxDepth`` and by the thread's stack,
/// and no allocation is sized from a count the remaining bytes cannot hold (TS-040 to TS-044). Every failure is
/// an `ArchiveError` with the byte offset, what was expected and what was found.
public struct TypedstreamReader {
  /// Limits that defend against hostile input.
  public struct Options: Sendable {
    /// The deepest nesting of objects, classes, arrays and structures (TS-042).
    public var maxDepth: Int
    /// The most values of zero-byte types (`!`, empty structures and arrays) a stream may hold, beyond one
    /// value per byte of input (TS-043).
    public var maxExtraValues: Int

    /// Creates options.
    public init(maxDepth: Int = 512, maxExtraValues: Int = 1 << 16) {
      self.maxDepth = maxDepth
      self.maxExtraValues = maxExtraValues
    }
  }

  /// The kinds of entry of the object table (TS-005).
  private enum Kind: CustomStringConvertible {
    case object
    case objectClass
    case cString

    var description: String {
      switch self {
      case .object: "an object"
      case .objectClass: "a class"
      case .cString: "a C string"
      }
    }
  }

  /// What a head byte says of an object-table value: nil, a new literal, or a reference to the entry of the
  /// expected kind with this ordinal.
  private enum TableHead {
    case none
    case new(ordinal: Int)
    case reference(ordinal: Int)
  }

  private let bytes: [UInt8]
  private let options: Options
  private var position = 0
  private var bigEndian = false
  private var sharedStrings: [[UInt8]] = []
  /// The object table: each entry's kind and its ordinal among the entries of that kind.
  private var entries: [(kind: Kind, ordinal: Int)] = []
  private var counts: [Kind: Int] = [:]
  private var values = 0
  /// The classes of the chain being read: a reference to one of them would make a class its own superclass.
  private var classesInProgress: Set<Int> = []
  private var parsedEncodings: [[UInt8]: [TypeNode]] = [:]
  private let stack = StackGuard()

  private init(bytes: [UInt8], options: Options) {
    self.bytes = bytes
    self.options = options
  }

  /// Reads a whole typedstream.
  /// - Parameters:
  ///   - data: the stream's bytes.
  ///   - options: limits against hostile input.
  /// - Returns: the header and every top-level group.
  /// - Throws: `ArchiveError` when the bytes are not a well-formed typedstream or pass a limit.
  public static func read<Bytes: Collection<UInt8>>(
    _ data: Bytes, options: Options = Options()
  ) throws
    -> TypedstreamArchive
  {
    var reader = TypedstreamReader(bytes: Array(data), options: options)
    return try reader.readArchive()
  }

  // MARK: Structure

  private mutating func readArchive() throws -> TypedstreamArchive {
    guard bytes.count >= 2 else { throw error("expected a typedstream header, found \(bytes.count) bytes") }
    let version = bytes[0]
    guard version == TypedstreamFormat.streamerVersion else {
      throw ArchiveError(
        version == 3 ? .unsupportedFormat : .corruptData,
        "expected streamer version 4, found \(version)" + (version == 3 ? " (old NeXTSTEP streams are not read)" : ""),
        at: .init(byteOffset: 0))
    }
    position = 1
    guard bytes[1] == 11 else {
      throw error("expected the signature's length 11, found \(describe(Int8(bitPattern: bytes[1])))")
    }
    position = 2
    let signature = try take(11, what: "the signature")
    if signature.elementsEqual(TypedstreamFormat.littleEndianSignature) {
      bigEndian = false
    } else if signature.elementsEqual(TypedstreamFormat.bigEndianSignature) {
      bigEndian = true
    } else {
      throw ArchiveError(
        .corruptData, "expected the signature \"streamtyped\" or \"typedstream\", found \(quoted(Array(signature)))",
        at: .init(byteOffset: 2))
    }
    let systemVersion = try readInteger(readHead())
    var groups: [TypedstreamGroup] = []
    while position < bytes.count {
      let start = position
      groups.append(try readGroup(head: readHead(), depth: 0, start: start))
    }
    return TypedstreamArchive(
      byteOrder: bigEndian ? .big : .little, streamerVersion: Int(version), systemVersion: systemVersion,
      groups: groups)
  }

  private mutating func readGroup(head: Int8, depth: Int, start: Int) throws -> TypedstreamGroup {
    guard let encoding = try readSharedString(head: head, at: start) else {
      throw error("expected a type encoding, found nil", at: start)
    }
    let types: [TypeNode]
    if let known = parsedEncodings[encoding] {
      types = known
    } else {
      types = try TypeNode.parse(encoding, maxDepth: options.maxDepth, offset: start)
      parsedEncodings[encoding] = types
    }
    var values: [TypedstreamValue] = []
    values.reserveCapacity(types.count)
    for type in types { values.append(try readValue(type, depth: depth)) }
    return TypedstreamGroup(encoding: encoding, values: values)
  }

  private mutating func readValue(_ type: TypeNode, depth: Int) throws -> TypedstreamValue {
    values += 1
    guard values <= bytes.count + options.maxExtraValues else {
      throw ArchiveError(
        .limitExceeded, "more values than the stream's bytes can hold (empty types repeated)",
        at: .init(byteOffset: position))
    }
    switch type {
    case .scalar(let code): return try readScalar(code, depth: depth)
    case .array(let count, let element):
      try checkDepth(depth)
      if type.isByteArray {
        let raw = Array(try take(count, what: "\(count) bytes of an array"))
        return .byteArray(type, raw)
      }
      var elements: [TypedstreamValue] = []
      elements.reserveCapacity(min(count, bytes.count - position))
      for _ in 0..<count { elements.append(try readValue(element, depth: depth + 1)) }
      return .array(type, elements)
    case .structure(_, let fields):
      try checkDepth(depth)
      var elements: [TypedstreamValue] = []
      elements.reserveCapacity(fields.count)
      for field in fields { elements.append(try readValue(field, depth: depth + 1)) }
      return .structure(type, elements)
    }
  }

  private mutating func readScalar(_ code: TypeCode, depth: Int) throws -> TypedstreamValue {
    switch code.byte {
    case UInt8(ascii: "c"): return .signed(code, Int64(Int8(bitPattern: try readByte(what: "a char"))))
    case UInt8(ascii: "C"): return .unsigned(code, UInt64(try readByte(what: "an unsigned char")))
    case UInt8(ascii: "B"): return .bool(try readByte(what: "a bool"))
    case UInt8(ascii: "s"): return .signed(code, Int64(Int16(truncatingIfNeeded: try readInteger(readHead()))))
    case UInt8(ascii: "i"), UInt8(ascii: "l"):
      return .signed(code, Int64(Int32(truncatingIfNeeded: try readInteger(readHead()))))
    case UInt8(ascii: "q"): return .signed(code, try readInteger(readHead()))
    case UInt8(ascii: "S"): return .unsigned(code, UInt64(UInt16(truncatingIfNeeded: try readInteger(readHead()))))
    case UInt8(ascii: "I"), UInt8(ascii: "L"):
      return .unsigned(code, UInt64(UInt32(truncatingIfNeeded: try readInteger(readHead()))))
    case UInt8(ascii: "Q"): return .unsigned(code, UInt64(bitPattern: try readInteger(readHead())))
    case UInt8(ascii: "f"):
      let head = try readHead()
      if head == TypedstreamFormat.realTag { return .float(bits: UInt32(truncatingIfNeeded: try readFixed(4))) }
      return .float(Float(try readInteger(head)))
    case UInt8(ascii: "d"):
      let head = try readHead()
      if head == TypedstreamFormat.realTag { return .double(bits: try readFixed(8)) }
      return .double(Double(try readInteger(head)))
    case UInt8(ascii: "+"):
      let start = position
      let head = try readHead()
      if head == TypedstreamFormat.nilTag { return .bytes(nil) }
      return .bytes(try readUnsharedBytes(head: head, at: start))
    case UInt8(ascii: "*"): return .cString(try readCString())
    case UInt8(ascii: "%"):
      let start = position
      return .atom(try readSharedString(head: readHead(), at: start))
    case UInt8(ascii: ":"):
      let start = position
      return .selector(try readSharedString(head: readHead(), at: start))
    case UInt8(ascii: "#"): return .classValue(try readClass(depth: depth))
    case UInt8(ascii: "@"): return .object(try readObject(depth: depth))
    default: return .ignored
    }
  }

  // MARK: Shared things

  private mutating func readCString() throws -> TypedstreamCString? {
    switch try readTableHead(.cString) {
    case .none: return nil
    case .reference(let ordinal): return .reference(ordinal)
    case .new:
      let stringStart = position
      guard let text = try readSharedString(head: readHead(), at: stringStart) else {
        throw error("expected a C string's text, found nil", at: stringStart)
      }
      return .literal(text)
    }
  }

  private mutating func readClass(depth: Int) throws -> TypedstreamClassReference? {
    try checkDepth(depth)
    let start = position
    switch try readTableHead(.objectClass) {
    case .none: return nil
    case .reference(let ordinal):
      guard !classesInProgress.contains(ordinal) else {
        throw error("expected a superclass, found a reference to class #\(ordinal) of the same chain", at: start)
      }
      return .reference(ordinal)
    case .new(let ordinal):
      let nameStart = position
      guard let name = try readSharedString(head: readHead(), at: nameStart) else {
        throw error("expected a class name, found nil", at: nameStart)
      }
      let version = try readInteger(readHead())
      classesInProgress.insert(ordinal)
      let superclass = try readClass(depth: depth + 1)
      classesInProgress.remove(ordinal)
      return .literal(TypedstreamClass(name: name, version: version, superclass: superclass))
    }
  }

  private mutating func readObject(depth: Int) throws -> TypedstreamObjectReference? {
    try checkDepth(depth)
    switch try readTableHead(.object) {
    case .none: return nil
    case .reference(let ordinal): return .reference(ordinal)
    case .new(let ordinal):
      let classStart = position
      guard let objectClass = try readClass(depth: depth + 1) else {
        throw error("object #\(ordinal): expected its class, found nil", at: classStart)
      }
      var groups: [TypedstreamGroup] = []
      while true {
        let groupStart = position
        let groupHead = try readHead()
        if groupHead == TypedstreamFormat.endTag { break }
        groups.append(try readGroup(head: groupHead, depth: depth + 1, start: groupStart))
      }
      return .literal(TypedstreamObject(objectClass: objectClass, groups: groups))
    }
  }

  /// Reads the head of an object-table value: NIL, NEW (numbering the new entry) or a reference, which must name
  /// an entry of `kind` already numbered.
  private mutating func readTableHead(_ kind: Kind) throws -> TableHead {
    let start = position
    let head = try readHead()
    switch head {
    case TypedstreamFormat.nilTag: return .none
    case TypedstreamFormat.newTag:
      let ordinal = counts[kind, default: 0]
      counts[kind] = ordinal + 1
      entries.append((kind, ordinal))
      return .new(ordinal: ordinal)
    default:
      let index = try referenceIndex(head: head, at: start)
      guard index < entries.count else {
        throw error(
          "expected a reference to \(kind) (object table index below \(entries.count)), found index \(index)",
          at: start)
      }
      let entry = entries[index]
      guard entry.kind == kind else {
        throw error("expected a reference to \(kind), found a reference to \(entry.kind) (index \(index))", at: start)
      }
      return .reference(ordinal: entry.ordinal)
    }
  }

  private mutating func readSharedString(head: Int8, at start: Int) throws -> [UInt8]? {
    switch head {
    case TypedstreamFormat.nilTag: return nil
    case TypedstreamFormat.newTag:
      let lengthStart = position
      let text = try readUnsharedBytes(head: readHead(), at: lengthStart)
      sharedStrings.append(text)
      return text
    default:
      let index = try referenceIndex(head: head, at: start)
      guard index < sharedStrings.count else {
        throw error(
          "expected a shared string reference below \(sharedStrings.count), found index \(index)", at: start)
      }
      return sharedStrings[index]
    }
  }

  private mutating func readUnsharedBytes(head: Int8, at start: Int) throws -> [UInt8] {
    let length = try readInteger(head, at: start)
    guard length >= 0 else { throw error("expected a string length, found \(length)", at: start) }
    let remaining = bytes.count - position
    guard length <= remaining else {
      throw error("expected \(length) bytes of a string, found \(remaining) left", at: start)
    }
    return Array(try take(Int(length), what: "a string"))
  }

  private mutating func referenceIndex(head: Int8, at start: Int) throws -> Int {
    let isInteger =
      head >= TypedstreamFormat.smallestInteger || head == TypedstreamFormat.int16Tag
      || head == TypedstreamFormat.int32Tag || head == TypedstreamFormat.int64Tag
    guard isInteger else { throw error("expected a reference, NEW or NIL, found \(describe(head))", at: start) }
    let value = try readIntegerBody(head, at: start)
    let (index, overflow) = value.subtractingReportingOverflow(TypedstreamFormat.referenceBase)
    guard !overflow, index >= 0, index <= Int64(Int32.max) else {
      throw error("expected a reference index, found \(value) (index \(index))", at: start)
    }
    return Int(index)
  }

  // MARK: Primitives

  private mutating func readHead() throws -> Int8 {
    guard position < bytes.count else { throw error("expected a head byte, found the end of the data") }
    defer { position += 1 }
    return Int8(bitPattern: bytes[position])
  }

  /// An integer whose head byte was just read (TS-003).
  private mutating func readInteger(_ head: Int8, at start: Int? = nil) throws -> Int64 {
    try readIntegerBody(head, at: start ?? position - 1)
  }

  private mutating func readIntegerBody(_ head: Int8, at start: Int) throws -> Int64 {
    switch head {
    case TypedstreamFormat.int16Tag: return Int64(Int16(truncatingIfNeeded: try readFixed(2)))
    case TypedstreamFormat.int32Tag: return Int64(Int32(truncatingIfNeeded: try readFixed(4)))
    case TypedstreamFormat.int64Tag: return Int64(bitPattern: try readFixed(8))
    case ..<TypedstreamFormat.smallestInteger: throw error("expected an integer, found \(describe(head))", at: start)
    default: return Int64(head)
    }
  }

  /// `count` bytes (2, 4 or 8) as an unsigned integer in the stream's byte order.
  private mutating func readFixed(_ count: Int) throws -> UInt64 {
    let raw = try take(count, what: "a \(count)-byte number")
    var value: UInt64 = 0
    if bigEndian {
      for byte in raw { value = value << 8 | UInt64(byte) }
    } else {
      for byte in raw.reversed() { value = value << 8 | UInt64(byte) }
    }
    return value
  }

  private mutating func readByte(what: String) throws -> UInt8 {
    guard position < bytes.count else { throw error("expected \(what), found the end of the data") }
    defer { position += 1 }
    return bytes[position]
  }

  private mutating func take(_ count: Int, what: String) throws -> ArraySlice<UInt8> {
    let remaining = bytes.count - position
    guard count >= 0, count <= remaining else {
      throw error("expected \(what), found \(remaining == 0 ? "the end of the data" : "only \(remaining) bytes left")")
    }
    defer { position += count }
    return bytes[position..<position + count]
  }

  private func checkDepth(_ depth: Int) throws {
    guard depth < options.maxDepth, stack.hasRoom() else {
      throw ArchiveError(
        .limitExceeded, "objects, classes and values nest deeper than \(options.maxDepth) or than the stack allows",
        at: .init(byteOffset: position))
    }
  }

  // MARK: Errors

  private func error(_ message: String, at offset: Int? = nil) -> ArchiveError {
    ArchiveError(.corruptData, message, at: .init(byteOffset: offset ?? position))
  }

  private func describe(_ head: Int8) -> String {
    switch head {
    case TypedstreamFormat.newTag: "NEW (0x84)"
    case TypedstreamFormat.nilTag: "NIL (0x85)"
    case TypedstreamFormat.endTag: "END (0x86)"
    case TypedstreamFormat.realTag: "a real (0x83)"
    default: "head 0x" + String(UInt8(bitPattern: head), radix: 16)
    }
  }

  private func quoted(_ text: [UInt8]) -> String {
    "\"" + String(decoding: text, as: UTF8.self) + "\""
  }
}

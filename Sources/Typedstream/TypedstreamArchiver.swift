import ArchiveCoding
import Foundation
import KeyedArchive

/// Encodes Swift values into a typedstream (`NSArchiver` data): the sequential coder's writing half
/// (`Specs/CoderSemantics.md`, COD-122, COD-124).
///
/// Foundation values are written in their classes' sequential forms (TS-071 to TS-078); a ``/ArchiveCoding/Coding``
/// instance is written with its class chain and whatever its ``/ArchiveCoding/Coding/encode(with:)`` writes through
/// ``encodeValues(_:ofObjCTypes:)`` and ``/ArchiveCoding/EncodingCoder/encodeObject(_:)`` after ``allowsKeyedCoding``
/// said `false`. An instance written twice is one object and a reference; values without identity (strings, numbers,
/// collections) are written where they appear. The output is deterministic: set members and dictionary entries are
/// written in the order of their descriptions.
public final class TypedstreamArchiver: EncodingCoder {
  /// The registry that names ``/ArchiveCoding/Coding`` classes.
  public let registry: ClassRegistry
  /// The byte order of the stream written.
  public let byteOrder: TypedstreamByteOrder
  /// The first error recorded; ``finishEncoding()`` throws it.
  public private(set) var error: (any Error)?

  private var topGroups: [TypedstreamGroup] = []
  private var frames: [[TypedstreamGroup]] = []
  private var objectOrdinals: [ObjectIdentifier: Int] = [:]
  private var retained: [AnyObject] = []
  private var objectCount = 0
  private var classOrdinals: [String: Int] = [:]
  private var classCount = 0

  /// A class of a chain: its name and the version the stream stores.
  typealias ChainLink = (name: String, version: Int64)

  /// Creates an archiver.
  public init(byteOrder: TypedstreamByteOrder = .little, registry: ClassRegistry = .shared) {
    self.byteOrder = byteOrder
    self.registry = registry
  }

  /// A stream holding one object, as `NSArchiver.archivedData(withRootObject:)`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`invalidValue`) for a value that has no sequential form, or an error
  ///   recorded by an `encode(with:)`.
  public static func archivedData(
    withRootObject object: Any?, byteOrder: TypedstreamByteOrder = .little, registry: ClassRegistry = .shared
  ) throws -> Data {
    let archiver = TypedstreamArchiver(byteOrder: byteOrder, registry: registry)
    archiver.encodeObject(object)
    return try archiver.finishEncoding()
  }

  /// The stream written so far, as a tree.
  public var archive: TypedstreamArchive { TypedstreamArchive(byteOrder: byteOrder, groups: topGroups) }

  /// The stream's bytes.
  /// - Throws: the first recorded error, or the writer's.
  public func finishEncoding() throws -> Data {
    if let error { throw error }
    return try TypedstreamWriter.write(archive)
  }

  /// `false`: a typedstream has values in order, not keys.
  public var allowsKeyedCoding: Bool { false }

  /// Records an error; the first one is kept and thrown by ``finishEncoding()``.
  public func failWithError(_ error: any Error) {
    if self.error == nil { self.error = error }
  }

  /// Writes one typed group. A value that does not match its type, or does not fit it, records `invalidValue`.
  public func encodeValues(_ values: [SequentialValue], ofObjCTypes types: String) {
    guard error == nil else { return }
    do {
      let encoding = Array(types.utf8)
      let nodes = try TypeNode.parse(encoding)
      guard nodes.count == values.count else {
        throw ArchiveError(.invalidValue, "type \"\(types)\" has \(nodes.count) types, given \(values.count) values")
      }
      var converted: [TypedstreamValue] = []
      for (node, value) in zip(nodes, values) { converted.append(try self.value(value, as: node)) }
      append(TypedstreamGroup(encoding: encoding, values: converted))
    } catch {
      failWithError(error)
    }
  }

  // MARK: - Keyed calls

  /// Records `unsupportedFormat`: a typedstream has no keys.
  public func encodeValue(_ value: CodedValue, forKey key: String) { failWithError(keyedCall(key)) }
  /// Records `unsupportedFormat`: a typedstream has no keys.
  public func encodeObject(_ object: Any?, forKey key: String) { failWithError(keyedCall(key)) }
  /// Records `unsupportedFormat`: a typedstream has no keys.
  public func encodeConditionalObject(_ object: AnyObject?, forKey key: String) { failWithError(keyedCall(key)) }

  private func keyedCall(_ key: String) -> ArchiveError {
    ArchiveError(
      .unsupportedFormat, "a typedstream has values in order, not keys (check allowsKeyedCoding)",
      at: .init(keyPath: key))
  }

  // MARK: - Groups and values

  private func append(_ group: TypedstreamGroup) {
    if frames.isEmpty {
      topGroups.append(group)
    } else {
      frames[frames.count - 1].append(group)
    }
  }

  private func mismatch(_ value: SequentialValue, _ node: TypeNode) -> ArchiveError {
    ArchiveError(
      .invalidValue, "type \"\(TypedstreamDecoder.text(node.encoding))\" cannot hold \(value.kindName)")
  }

  private func value(_ value: SequentialValue, as node: TypeNode) throws -> TypedstreamValue {
    switch node {
    case .scalar(let code):
      return try scalar(value, code: code, node: node)
    case .array(let count, let element):
      if case .scalar(let code) = element, code.byte == UInt8(ascii: "c") || code.byte == UInt8(ascii: "C") {
        guard case .bytes(let data?) = value, data.count == count else { throw mismatch(value, node) }
        return .byteArray(node, Array(data))
      }
      guard case .array(let elements) = value, elements.count == count else { throw mismatch(value, node) }
      return .array(node, try elements.map { try self.value($0, as: element) })
    case .structure(_, let fields):
      guard case .structure(let members) = value, members.count == fields.count else { throw mismatch(value, node) }
      return .structure(node, try zip(fields, members).map { try self.value($1, as: $0) })
    }
  }

  private func scalar(_ value: SequentialValue, code: TypeCode, node: TypeNode) throws -> TypedstreamValue {
    switch (Character(Unicode.Scalar(code.byte)), value) {
    case ("c", _), ("s", _), ("i", _), ("l", _), ("q", _):
      let bits = Self.bitWidth(code)
      guard let v = value.integerValue, case .integer = value,
        bits == 64 || (v >= -(1 << (bits - 1)) && v < 1 << (bits - 1))
      else {
        if case .bool(let b) = value { return .signed(code, b ? 1 : 0) }
        throw mismatch(value, node)
      }
      return .signed(code, v)
    case ("C", _), ("S", _), ("I", _), ("L", _), ("Q", _):
      let bits = Self.bitWidth(code)
      let v: UInt64
      switch value {
      case .unsignedInteger(let u): v = u
      case .integer(let i) where i >= 0: v = UInt64(i)
      case .bool(let b): v = b ? 1 : 0
      default: throw mismatch(value, node)
      }
      guard bits == 64 || v < 1 << bits else { throw mismatch(value, node) }
      return .unsigned(code, v)
    case ("B", .bool(let b)): return .bool(b ? 1 : 0)
    case ("f", .float(let f)): return .float(f)
    case ("f", .double(let d)): return .float(Float(d))
    case ("d", .double(let d)): return .double(d)
    case ("d", .float(let f)): return .double(Double(f))
    case ("+", .bytes(let data)): return .bytes(data.map { Array($0) })
    case ("*", .cString(let data)): return .cString(data.map { .literal(Array($0)) })
    case ("%", .atom(let text)): return .atom(text.map { Array($0.utf8) })
    case (":", .selector(let text)): return .selector(text.map { Array($0.utf8) })
    case ("#", .className(let name)):
      return .classValue(name.map { classReference(versioned(registry.classChain(forClassName: $0))) })
    case ("@", .object(let object)): return .object(try objectReference(object))
    case ("!", _): return .ignored
    default: throw mismatch(value, node)
    }
  }

  private static func bitWidth(_ code: TypeCode) -> Int {
    switch code.byte {
    case UInt8(ascii: "c"), UInt8(ascii: "C"): 8
    case UInt8(ascii: "s"), UInt8(ascii: "S"): 16
    case UInt8(ascii: "q"), UInt8(ascii: "Q"): 64
    default: 32
    }
  }

  /// The class of a chain, written at its first appearance (class first, then its superclass) and referred to
  /// by ordinal after.
  func classReference(_ chain: some Collection<ChainLink>) -> TypedstreamClassReference {
    guard let link = chain.first else { return .reference(0) }
    if let ordinal = classOrdinals[link.name] { return .reference(ordinal) }
    classOrdinals[link.name] = classCount
    classCount += 1
    let superclass = chain.count > 1 ? classReference(chain.dropFirst()) : nil
    return .literal(TypedstreamClass(link.name, version: link.version, superclass: superclass))
  }

  /// A registry class chain with each class's ``Coding/classVersion`` (0 for a name the registry has no class for),
  /// the versions `version(forClassName:)` reads back (COD-111).
  private func versioned(_ names: [String]) -> [ChainLink] {
    names.map { ($0, Int64(registry.type(forClassName: $0)?.classVersion ?? 0)) }
  }

  // MARK: - Objects

  /// An object value: a reference to an instance written before, or a literal written here.
  func objectReference(_ object: Any?) throws -> TypedstreamObjectReference? {
    guard var object = Self.unwrapped(object) else { return nil }
    if let coding = object as? any Coding {
      guard let replacement = coding.replacementObject(for: self) else { return nil }
      object = replacement
    }
    let instance: AnyObject? = type(of: object) is AnyClass ? object as AnyObject : nil
    if let instance, let ordinal = objectOrdinals[ObjectIdentifier(instance)] { return .reference(ordinal) }
    guard frames.count < TypedstreamReader.Options().maxDepth else {
      throw ArchiveError(.limitExceeded, "objects nest more than \(frames.count) deep")
    }
    // The class is known before the fields are written: the stream stores it first, and numbers it so.
    let chain: [ChainLink]
    let write: () throws -> Void
    if let coding = object as? any Coding {
      chain = versioned(registry.classChain(for: type(of: coding)))
      write = {
        coding.encode(with: self)
        if let error = self.error { throw error }
      }
    } else {
      (chain, write) = try foundationForm(object)
    }
    if let instance {
      objectOrdinals[ObjectIdentifier(instance)] = objectCount
      retained.append(instance)
    }
    objectCount += 1
    let objectClass = classReference(chain)
    frames.append([])
    do {
      try write()
    } catch {
      frames.removeLast()
      throw error
    }
    return .literal(TypedstreamObject(objectClass: objectClass, groups: frames.removeLast()))
  }

  /// The value inside an `Any` that holds an `Optional`, or nil for `.none`.
  private static func unwrapped(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any OptionalProtocol { return unwrapped(optional.wrappedAny) }
    return value
  }
}

/// Lets ``TypedstreamArchiver`` see inside an `Optional` held in an `Any`.
private protocol OptionalProtocol {
  var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
  fileprivate var wrappedAny: Any? { self.map { $0 as Any } }
}

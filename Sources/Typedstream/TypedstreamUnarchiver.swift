import ArchiveCoding
import ArchiveSupport
import Foundation
import KeyedArchive

/// Decodes a typedstream (`NSArchiver` data) into Swift values, as `NSUnarchiver` does: the sequential coder
/// (`Specs/CoderSemantics.md`, COD-120 to COD-124).
///
/// Foundation's classes decode to the same Swift values ``/KeyedArchive/KeyedUnarchiver`` gives for them (`String`,
/// `Int`, `Double`, `Data`, `Date`, `URL`, `[Any]`, dictionaries, `Set<AnyHashable>`, `NSNull`, `NSAttributedString`,
/// ``/KeyedArchive/ArchivedValue``); every other class is looked up in the ``registry`` and its
/// ``/ArchiveCoding/Coding/init(coder:)`` reads the object's typed groups in order through
/// ``decodeValues(ofObjCTypes:)`` and ``decodeObject()``, after ``allowsKeyedCoding`` said `false`:
///
///     required init(coder: any DecodingCoder) throws {
///       if coder.allowsKeyedCoding {
///         title = try coder.decodeString(forKey: "title") ?? ""
///       } else {
///         title = try coder.decodeObject(of: String.self) ?? ""
///       }
///     }
///
/// An object referred to again is decoded once; a reference back to an object still in its `init(coder:)` is a
/// `referenceCycle` error (the format has no keys to defer it by).
public final class TypedstreamUnarchiver: DecodingCoder, ClassVersionSource {
  /// The registry that names the stream's classes.
  public let registry: ClassRegistry
  /// `false`: `NSUnarchiver` has no secure coding (a typedstream names no allowed classes), and neither has this
  /// coder. Decode untrusted streams with classes whose `init(coder:)` checks what it reads.
  public var requiresSecureCoding: Bool { false }
  /// What a failing decode call does.
  public var decodingFailurePolicy: DecodingFailurePolicy = .throwError
  /// The first error recorded under ``/ArchiveCoding/DecodingFailurePolicy/setErrorAndReturn`` or by
  /// ``failWithError(_:)``.
  public private(set) var error: (any Error)?
  /// The stream's byte order.
  public let byteOrder: TypedstreamByteOrder

  let decoder: TypedstreamDecoder
  private var decoded: [Int: Any] = [:]
  private var inProgress: Set<Int> = []
  private var frames: [Frame]
  private let classVersions: [String: Int]
  private let stack = StackGuard()

  /// The groups of the object being decoded (or of the stream's top level) and the next one to read.
  private struct Frame {
    let ordinal: Int?
    let className: String?
    let groups: [TypedstreamGroup]
    var next = 0
  }

  /// Reads a typedstream's bytes.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the bytes are not a well-formed typedstream.
  public convenience init(data: Data, registry: ClassRegistry = .shared) throws {
    try self.init(archive: TypedstreamReader.read(data), registry: registry)
  }

  /// Decodes a stream already read.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when a reference names an object, class or C string not stored before
  ///   it.
  public init(archive: TypedstreamArchive, registry: ClassRegistry = .shared) throws {
    self.registry = registry
    byteOrder = archive.byteOrder
    decoder = try TypedstreamDecoder(archive)
    frames = [Frame(ordinal: nil, className: nil, groups: decoder.topLevelGroups)]
    var versions: [String: Int] = [:]
    for chain in decoder.classChains {
      for objectClass in chain {
        let name = TypedstreamDecoder.text(objectClass.name)
        if versions[name] == nil { versions[name] = Int(exactly: objectClass.version) ?? 0 }
      }
    }
    classVersions = versions
  }

  /// Every top-level value of a stream, each group's values in order: objects decoded, other values as stored.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the stream is malformed or an object cannot be decoded.
  public static func unarchivedValues(from data: Data, registry: ClassRegistry = .shared) throws -> [SequentialValue] {
    let unarchiver = try TypedstreamUnarchiver(data: data, registry: registry)
    var values: [SequentialValue] = []
    while let encoding = unarchiver.nextEncoding {
      values += try unarchiver.decodeValues(ofObjCTypes: encoding)
    }
    return values
  }

  /// The first top-level object of a stream (an iMessage body, an archived colour), as `NSUnarchiver`'s
  /// `unarchiveObjectWithData:`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the stream is malformed, does not start with an object, or the
  ///   object cannot be decoded.
  public static func unarchivedObject(from data: Data, registry: ClassRegistry = .shared) throws -> Any? {
    try TypedstreamUnarchiver(data: data, registry: registry).decodeObject()
  }

  /// The version the stream stores for a class (its own or a superclass of one of its objects), or nil when the
  /// stream has no object of that class; `version(forClassName:)` answers from it first (COD-111).
  public func recordedVersion(forClassName name: String) -> Int? { classVersions[name] }

  /// The stream itself: a typedstream records a version for every class of its objects' chains.
  public var classVersionSource: (any ClassVersionSource)? { self }

  /// The type encoding of the next group of the current object (or of the top level), or nil at its end.
  public var nextEncoding: String? {
    guard let frame = frames.last, frame.next < frame.groups.count else { return nil }
    return TypedstreamDecoder.text(frame.groups[frame.next].encoding)
  }

  /// `false`: a typedstream has values in order, not keys.
  public var allowsKeyedCoding: Bool { false }

  /// The values of the next group of the current object, which must have been written with `types`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`typeMismatch`) naming the object and the group when the group has
  ///   another encoding or the object has no more groups; errors of the objects decoded.
  public func decodeValues(ofObjCTypes types: String) throws -> [SequentialValue] {
    try applyingFailurePolicy([]) {
      let index = frames.count - 1
      let frame = frames[index]
      guard frame.next < frame.groups.count else {
        throw ArchiveError(
          .typeMismatch,
          "expected a group of type \"\(types)\", found the end of the \(frame.ordinal == nil ? "stream" : "object")",
          at: location(frame))
      }
      let group = frame.groups[frame.next]
      guard group.encoding.elementsEqual(types.utf8) else {
        throw ArchiveError(
          .typeMismatch,
          "expected a group of type \"\(types)\", found \"\(TypedstreamDecoder.text(group.encoding))\"",
          at: location(frame))
      }
      frames[index].next += 1
      return try group.values.map { try sequential($0) }
    }
  }

  private func location(_ frame: Frame) -> ArchiveError.Location {
    ArchiveError.Location(objectIndex: frame.ordinal, className: frame.className, keyPath: "group \(frame.next)")
  }

  // MARK: - Keyed calls

  /// `false`: a typedstream has no keys.
  public func containsValue(forKey key: String) -> Bool { false }

  /// Throws `unsupportedFormat`: a typedstream has no keys.
  public func decodeValue(forKey key: String) throws -> CodedValue? { throw keyedCall(key) }

  /// Throws `unsupportedFormat`: a typedstream has no keys.
  public func decodeObject(forKey key: String, allowedClasses: Set<String>?) throws -> Any? { throw keyedCall(key) }

  /// Throws `unsupportedFormat`: a typedstream has no keys (and so no deferred references).
  public func decodeDeferred(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void
  ) throws {
    throw keyedCall(key)
  }

  /// The next `@` group's object, decoded, as `NSCoder.decodeObject()`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`typeMismatch`) when the next group is not `@`; the object's errors.
  public func decodeObject() throws -> Any? {
    try applyingFailurePolicy(nil) {
      let index = frames.count - 1
      let frame = frames[index]
      guard frame.next < frame.groups.count, frame.groups[frame.next].encoding == [UInt8(ascii: "@")],
        frame.groups[frame.next].values.count == 1
      else {
        _ = try decodeValues(ofObjCTypes: "@")  // throws the mismatch
        return nil
      }
      frames[index].next += 1
      guard case .object(.reference(let ordinal)?) = frame.groups[frame.next].values[0] else { return nil }
      return try object(ordinal)
    }
  }

  /// Records an error; the first one is kept.
  public func failWithError(_ error: any Error) {
    if self.error == nil { self.error = error }
  }

  private func keyedCall(_ key: String) -> ArchiveError {
    ArchiveError(
      .unsupportedFormat, "a typedstream has values in order, not keys (check allowsKeyedCoding)",
      at: .init(objectIndex: frames.last?.ordinal, className: frames.last?.className, keyPath: key))
  }

  // MARK: - Values and objects

  private func sequential(_ value: TypedstreamValue) throws -> SequentialValue {
    switch value {
    case .signed(_, let v): return .integer(v)
    case .unsigned(_, let v): return .unsignedInteger(v)
    case .bool(let v): return .bool(v != 0)
    case .float(let bits): return .float(Float(bitPattern: bits))
    case .double(let bits): return .double(Double(bitPattern: bits))
    case .bytes(let raw): return .bytes(raw.map { Data($0) })
    case .cString(.literal(let raw)?): return .cString(Data(raw))
    case .cString: return .cString(nil)
    case .atom(let raw): return .atom(raw.map(TypedstreamDecoder.text))
    case .selector(let raw): return .selector(raw.map(TypedstreamDecoder.text))
    case .classValue(.literal(let objectClass)?): return .className(TypedstreamDecoder.text(objectClass.name))
    case .classValue: return .className(nil)
    case .object(.reference(let ordinal)?): return .object(try object(ordinal))
    case .object: return .object(nil)
    case .byteArray(_, let raw): return .bytes(Data(raw))
    case .array(_, let elements): return .array(try elements.map { try sequential($0) })
    case .structure(_, let fields): return .structure(try fields.map { try sequential($0) })
    case .ignored: return .ignored
    }
  }

  /// Object `ordinal`, decoded once.
  func object(_ ordinal: Int) throws -> Any {
    let chain = decoder.classChains[ordinal].map { TypedstreamDecoder.text($0.name) }
    let className = chain.first ?? ""
    let here = ArchiveError.Location(objectIndex: ordinal, className: className)
    if let done = decoded[ordinal] { return done }
    guard !inProgress.contains(ordinal) else {
      throw ArchiveError(
        .referenceCycle,
        "the object refers back to itself while it is being decoded (a typedstream has no keys to "
          + "defer the reference by)", at: here)
    }
    guard stack.hasRoom(), inProgress.count < TypedstreamReader.Options().maxDepth else {
      throw ArchiveError(.limitExceeded, "objects nest too deeply to decode", at: here)
    }
    inProgress.insert(ordinal)
    defer { inProgress.remove(ordinal) }
    let value: Any
    do {
      let form = try decoder.form(of: ordinal)
      if case .other = form {
        value = try instance(ordinal, chain: chain)
      } else {
        value = try foundationValue(form, ordinal: ordinal, className: className)
      }
    } catch let error as ArchiveError {
      throw error.located(in: here)
    }
    decoded[ordinal] = value
    return value
  }

  /// An object of a registered ``Coding`` class: the first class of its chain the registry knows.
  private func instance(_ ordinal: Int, chain: [String]) throws -> Any {
    let className = chain.first ?? ""
    guard let type = chain.lazy.compactMap({ self.registry.type(forClassName: $0) }).first else {
      throw ArchiveError(
        .classNotFound, "no class is registered for \(className) (or its superclasses \(chain.dropFirst()))")
    }
    frames.append(Frame(ordinal: ordinal, className: className, groups: decoder.groups[ordinal]))
    defer { frames.removeLast() }
    let object = try type.init(coder: self)
    if let error { throw error }
    return try object.awakeAfter(using: self)
  }
}

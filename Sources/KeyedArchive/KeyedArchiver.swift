import ArchiveCoding
import Foundation
import PropertyList

/// Writes keyed archives that Apple's `NSKeyedUnarchiver` reads, in the spirit of `NSKeyedArchiver`.
///
///     let data = try KeyedArchiver.archivedData(withRootObject: library)
///
/// The archive has `$archiver = "NSKeyedArchiver"`, `$version = 100000`, `$top` (`root` for the one-object API)
/// and `$objects` with `"$null"` at index 0. Class instances are uniqued by identity, so shared references and
/// cycles survive; Swift strings and numbers are uniqued by value (without ever merging `true`, `1` and `1.0`).
/// Objects are encoded from a work list rather than by recursion, so a linked list of a million nodes encodes
/// without deep recursion. Output is deterministic: the same graph gives the same bytes.
public final class KeyedArchiver: EncodingCoder {
  /// The form of the output. Default: binary.
  public var outputFormat: PropertyListFormat = .binary
  /// `true` when every encoded class must conform to ``SecureCoding`` and support it.
  public let requiresSecureCoding: Bool
  /// The registry used for class names and `$classes` chains.
  public let registry: ClassRegistry

  var slots: [ArchiveSlot] = [.null]
  private var topFields: [ArchiveField] = []
  private var scope: [ArchiveField] = []
  private var inObject = false
  private var unkeyedCount = 0
  private var topUnkeyedCount = 0
  private var queue: [(uid: Int, object: any Coding)] = []
  private var queueHead = 0
  private var identities: [ObjectIdentifier: Int] = [:]
  private var conditionals: [ObjectIdentifier: Int] = [:]
  private var retained: [AnyObject] = []
  private var classUIDs: [String: Int] = [:]
  private var classNameOverrides: [ObjectIdentifier: String] = [:]
  private var stringUIDs: [String: Int] = [:]
  private var plainUIDs: [PropertyListValue: Int] = [:]
  private var recordedError: (any Error)?
  private var finished = false
  private var foundationDepth = 0
  /// The `Codable` bridge's state for this archive (class identities), shared by every `encodeCodable` call.
  var codableContext: AnyObject?

  /// Creates an archiver.
  /// - Parameters:
  ///   - requiringSecureCoding: refuse classes that do not support secure coding.
  ///   - registry: the class registry; default ``ClassRegistry/shared``.
  public init(requiringSecureCoding: Bool = false, registry: ClassRegistry = .shared) {
    self.requiresSecureCoding = requiringSecureCoding
    self.registry = registry
  }

  /// Archives one object under the `root` key.
  /// - Parameters:
  ///   - root: the object graph's root (a ``Coding`` instance or a Foundation value).
  ///   - requiringSecureCoding: refuse classes that do not support secure coding.
  ///   - format: binary (default) or XML.
  /// - Returns: the archive.
  /// - Throws: ``ArchiveError`` when a value cannot be archived.
  public static func archivedData(
    withRootObject root: Any?, requiringSecureCoding: Bool = false, format: PropertyListFormat = .binary
  ) throws -> Data {
    let archiver = KeyedArchiver(requiringSecureCoding: requiringSecureCoding)
    archiver.outputFormat = format
    archiver.encodeObject(root, forKey: ArchiveKeys.root)
    return try archiver.finishEncoding()
  }

  /// Writes `name` as the archived class name of `type` in this archive (instead of its registered name).
  public func setClassName(_ name: String?, for type: any Coding.Type) {
    classNameOverrides[ObjectIdentifier(type)] = name
  }

  // MARK: EncodingCoder

  /// Writes an inline primitive under a key of the current object (or of `$top`).
  public func encodeValue(_ value: CodedValue, forKey key: String) {
    append(ArchiveField(key: Self.escape(key), value: .inline(value.propertyListValue)))
  }

  /// Writes an object reference under a key of the current object (or of `$top`).
  public func encodeObject(_ object: Any?, forKey key: String) {
    append(ArchiveField(key: Self.escape(key), value: .uid(reference(for: object))))
  }

  /// Writes an object under the next generated key of the current scope (`$0`, `$1`, …), as `NSCoder.encode(_:)`
  /// does for unkeyed values; read it back with ``KeyedUnarchiver/decodeObject()``.
  public func encodeObject(_ object: Any?) {
    let key: String
    if inObject {
      key = "$\(unkeyedCount)"
      unkeyedCount += 1
    } else {
      key = "$\(topUnkeyedCount)"
      topUnkeyedCount += 1
    }
    append(ArchiveField(key: key, value: .uid(reference(for: object))))
  }

  /// Writes a string object (shared with equal strings of the archive).
  public func encode(_ value: String?, forKey key: String) {
    append(ArchiveField(key: Self.escape(key), value: .uid(value.map { plainReference(.string($0)) } ?? 0)))
  }

  /// Writes a data object.
  public func encode(_ value: Data?, forKey key: String) {
    append(ArchiveField(key: Self.escape(key), value: .uid(value.map { plainReference(.data($0)) } ?? 0)))
  }

  /// Writes a conditional reference: kept only if the object is encoded unconditionally somewhere.
  public func encodeConditionalObject(_ object: AnyObject?, forKey key: String) {
    append(ArchiveField(key: Self.escape(key), value: .uid(conditionalReference(for: object))))
  }

  /// Records an error; ``finishEncoding()`` throws the first one.
  public func failWithError(_ error: any Error) {
    if recordedError == nil { recordedError = error }
  }

  private func append(_ field: ArchiveField) {
    precondition(!finished, "KeyedArchiver: encode called after finishEncoding()")
    if inObject {
      scope.append(field)
    } else {
      topFields.append(field)
    }
  }

  /// Keys that start with `$` are reserved by the format; user keys that do get one more `$`.
  package static func escape(_ key: String) -> String {
    key.utf8.first == UInt8(ascii: "$") ? "$" + key : key
  }

  // MARK: References

  /// The UID for a value, encoding it (Foundation values) or queueing it (``Coding`` instances) when new.
  func reference(for value: Any?) -> Int {
    guard let value = Self.unwrapped(value) else { return 0 }
    // Only class instances can be `Coding`; casting a bridgeable value (a String, an Array) to a class-bound
    // existential would bridge it to a Foundation object first.
    if Swift.type(of: value) is AnyObject.Type, let object = value as? any Coding {
      return reference(forCoding: object)
    }
    return encodeFoundationValue(value)
  }

  private func reference(forCoding original: any Coding) -> Int {
    let originalID = ObjectIdentifier(original)
    if let uid = identities[originalID] { return uid }
    guard let replacement = original.replacementObject(for: self) else {
      remember(original, as: 0)
      return 0
    }
    guard let object = replacement as? any Coding else {
      let uid = reference(for: replacement)
      remember(original, as: uid)
      return uid
    }
    let id = ObjectIdentifier(object)
    if let uid = identities[id] {
      remember(original, as: uid)
      return uid
    }
    let uid: Int
    if let pending = conditionals.removeValue(forKey: id) {
      uid = pending
    } else {
      uid = slots.count
      slots.append(.null)
    }
    remember(object, as: uid)
    if object !== original { remember(original, as: uid) }
    queue.append((uid, object))
    return uid
  }

  private func remember(_ object: AnyObject, as uid: Int) {
    identities[ObjectIdentifier(object)] = uid
    retained.append(object)
  }

  private func conditionalReference(for object: AnyObject?) -> Int {
    guard let object else { return 0 }
    let id = ObjectIdentifier(object)
    if let uid = identities[id] ?? conditionals[id] { return uid }
    guard object is any Coding else {
      // Foundation values have no identity to wait for: encode them as usual.
      return reference(for: object)
    }
    let uid = slots.count
    slots.append(.null)
    conditionals[id] = uid
    retained.append(object)
    return uid
  }

  /// Stores a plain value, sharing equal ones.
  func plainReference(_ value: PropertyListValue) -> Int {
    if case .string(let string) = value {
      if let uid = stringUIDs[string] { return uid }
      let uid = slots.count
      slots.append(.plain(value))
      stringUIDs[string] = uid
      return uid
    }
    if case .data = value {
      // Data is not shared: hashing every blob costs more than the rare duplicate saves.
      slots.append(.plain(value))
      return slots.count - 1
    }
    if let uid = plainUIDs[value] { return uid }
    let uid = slots.count
    slots.append(.plain(value))
    plainUIDs[value] = uid
    return uid
  }

  /// The UID of the class description for a name and chain, added on first use.
  func classReference(name: String, chain: [String], hints: [String] = []) -> Int {
    if let uid = classUIDs[name] { return uid }
    let uid = slots.count
    slots.append(.classDescription(name: name, chain: chain, hints: hints))
    classUIDs[name] = uid
    return uid
  }

  /// Reserves a slot for a Foundation object whose fields are written by `body`.
  func foundationObject(
    className: String, chain: [String]? = nil, identity: AnyObject? = nil, _ body: (inout [ArchiveField]) -> Void
  ) -> Int {
    if let identity, let uid = identities[ObjectIdentifier(identity)] { return uid }
    let uid = slots.count
    slots.append(.null)
    if let identity { remember(identity, as: uid) }
    foundationDepth += 1
    defer { foundationDepth -= 1 }
    var fields: [ArchiveField] = []
    body(&fields)
    let classUID = classReference(name: className, chain: chain ?? registry.classChain(forClassName: className))
    slots[uid] = .object(fields: fields, classUID: classUID)
    return uid
  }

  static func unwrapped(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any AnyOptional { return optional.unwrappedAny }
    return value
  }

  // MARK: Finishing

  /// Encodes every queued object and returns the archive.
  /// - Throws: the first recorded error (an unarchivable value, a class that does not support secure coding).
  public func finishEncoding() throws -> Data {
    precondition(!finished, "KeyedArchiver: finishEncoding() called twice")
    drainQueue()
    finished = true
    if let recordedError { throw recordedError }
    let archive = buildArchive()
    switch outputFormat {
    case .binary: return archive
    case .xml: return try PropertyListWriter.write(try PropertyListReader.read(archive), format: .xml)
    }
  }

  private func drainQueue() {
    while queueHead < queue.count {
      let (uid, object) = queue[queueHead]
      queueHead += 1
      let type = Swift.type(of: object)
      if requiresSecureCoding {
        guard let secure = type as? any SecureCoding.Type, secure.supportsSecureCoding else {
          failWithError(
            ArchiveError(
              .invalidValue, "class \(registry.archivedName(of: type)) does not support secure coding",
              at: .init(objectIndex: uid, className: registry.archivedName(of: type))))
          continue
        }
      }
      inObject = true
      scope = []
      unkeyedCount = 0
      object.encode(with: self)
      inObject = false
      let name = classNameOverrides[ObjectIdentifier(type)] ?? registry.archivedName(of: type)
      var chain = registry.classChain(for: type)
      chain[0] = name
      let classUID = classReference(name: name, chain: chain, hints: type.classFallbacks)
      slots[uid] = .object(fields: scope, classUID: classUID)
    }
    queue.removeAll()
    queueHead = 0
  }

  /// Lays the slots out as a binary property list without building an intermediate value tree.
  private func buildArchive() -> Data {
    var writer = BinaryPropertyListWriter()
    writer.reserveCapacity(objects: slots.count * 3, bytes: slots.count * 16)
    let root = writer.reserve()
    let objectsRef = writer.reserve()
    let topRef = writer.reserve()
    var objectRefs: [Int] = []
    objectRefs.reserveCapacity(slots.count)
    let classKey = writer.add(string: ArchiveKeys.class)
    for slot in slots {
      switch slot {
      case .null:
        objectRefs.append(writer.add(string: ArchiveKeys.null))
      case .plain(let value):
        // Plain values were already shared by `plainReference`; strings are shared again only when they are
        // also keys, which the writer's key table does.
        objectRefs.append(writer.addUnshared(value))
      case .object(let fields, let classUID):
        var keys: [Int] = []
        var values: [Int] = []
        keys.reserveCapacity(fields.count + 1)
        values.reserveCapacity(fields.count + 1)
        for field in fields {
          keys.append(writer.add(string: field.key))
          values.append(Self.add(field.value, to: &writer))
        }
        keys.append(classKey)
        values.append(writer.add(uid: UInt64(classUID)))
        objectRefs.append(writer.add(dictionary: keys, values: values))
      case .classDescription(let name, let chain, let hints):
        var keys = [writer.add(string: ArchiveKeys.className), writer.add(string: ArchiveKeys.classes)]
        var values = [writer.add(string: name), writer.add(array: chain.map { writer.add(string: $0) })]
        if !hints.isEmpty {
          keys.append(writer.add(string: ArchiveKeys.classHints))
          values.append(writer.add(array: hints.map { writer.add(string: $0) }))
        }
        objectRefs.append(writer.add(dictionary: keys, values: values))
      }
    }
    writer.fill(objectsRef, array: objectRefs)
    writer.fill(
      topRef, dictionary: topFields.map { writer.add(string: $0.key) },
      values: topFields.map { Self.add($0.value, to: &writer) })
    let rootKeys = [ArchiveKeys.archiver, ArchiveKeys.objects, ArchiveKeys.top, ArchiveKeys.version].map {
      writer.add(string: $0)
    }
    let rootValues = [
      writer.add(string: ArchiveKeys.archiverName), objectsRef, topRef,
      writer.add(integer: ArchiveKeys.versionNumber),
    ]
    writer.fill(root, dictionary: rootKeys, values: rootValues)
    return writer.finish(top: root)
  }

  private static func add(_ value: ArchiveFieldValue, to writer: inout BinaryPropertyListWriter) -> Int {
    switch value {
    case .inline(let v): writer.add(v)
    case .uid(let uid): writer.add(uid: UInt64(uid))
    case .uids(let uids): writer.add(array: uids.map { writer.add(uid: UInt64($0)) })
    }
  }
}

/// Lets the archiver see through an `Optional` stored in an `Any`.
protocol AnyOptional {
  var unwrappedAny: Any? { get }
}

extension Optional: AnyOptional {
  var unwrappedAny: Any? {
    switch self {
    case .some(let wrapped): KeyedArchiver.unwrapped(wrapped)
    case .none: nil
    }
  }
}

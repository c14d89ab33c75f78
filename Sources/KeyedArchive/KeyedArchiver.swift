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
  /// `true` when every encoded class must conform to ``/ArchiveCoding/SecureCoding`` and support it.
  public let requiresSecureCoding: Bool
  /// The registry used for class names and `$classes` chains.
  public let registry: ClassRegistry

  /// Hears about the objects written and may substitute them (``KeyedArchiverDelegate``). Held weakly.
  public weak var delegate: (any KeyedArchiverDelegate)? {
    didSet { hasDelegate = delegate != nil }
  }
  /// Whether ``delegate`` was set: a plain flag, read once per new object instead of loading the weak reference.
  private var hasDelegate = false

  /// The mutable encoding state, in final internal storage (see ``Storage``).
  let storage: Storage

  /// The mutable encoding state (``ArchiverState``), read and written in place.
  var state: ArchiverState {
    _read { yield storage.state }
    _modify { yield &storage.state }
  }
  private let rootRef: Int
  private let objectsRef: Int
  private let topRef: Int
  private let nullRef: Int
  private let classKeyRef: Int
  private var topUnkeyedCount = 0
  private var queueHead = 0
  private var conditionals: [ObjectIdentifier: Int] = [:]
  private var classUIDs: [String: Int] = [:]
  private var typeClassUIDs: [ObjectIdentifier: Int] = [:]
  /// The class of the last ``Coding`` object encoded and its class description's UID (-1: none).
  private var lastType: (type: ObjectIdentifier?, uid: Int) = (nil, -1)
  /// Whether each class encoded keeps its unread fields (``KeepsUnreadFields``), worked out once per class.
  private var keepingTypes: [ObjectIdentifier: Bool] = [:]
  private var lastKeeping: (type: ObjectIdentifier?, keeps: Bool) = (nil, false)
  private var classNameOverrides: [ObjectIdentifier: String] = [:]
  private var recordedError: (any Error)?
  /// Whether the recorded error was raised inside an encode call whose key is not known yet.
  private var errorAwaitsKey = false
  private var finished = false
  /// Whether an encode call after ``finishEncoding()`` was reported.
  private var lateEncodeReported = false
  /// What ``finishEncoding()`` gave: the archive or its error (``encodedData`` gives it again).
  private var outcome: Result<Data, any Error>?
  /// The archive, written object by object as objects are encoded.
  var writer: BinaryPropertyListWriter {
    _read { yield storage.state.writer }
    _modify { yield &storage.state.writer }
  }
  var stringUIDs: StringUIDTable {
    _read { yield storage.strings }
    _modify { yield &storage.strings }
  }
  /// The `Codable` bridge's state for this archive (class identities), shared by every `encodeCodable` call.
  var codableContext: AnyObject?

  struct KeyCacheEntry {
    var key: String
    var ref: Int
    /// Whether `key` is ASCII: the cache compares keys code unit by code unit (`String.isLiterally`).
    var isASCII: Bool
  }

  /// Creates an archiver.
  /// - Parameters:
  ///   - requiringSecureCoding: refuse classes that do not support secure coding.
  ///   - registry: the class registry; default ``/ArchiveCoding/ClassRegistry/shared``.
  public init(requiringSecureCoding: Bool = false, registry: ClassRegistry = .shared) {
    self.requiresSecureCoding = requiringSecureCoding
    self.registry = registry
    var state = ArchiverState()
    rootRef = state.writer.reserve()
    objectsRef = state.writer.reserve()
    topRef = state.writer.reserve()
    classKeyRef = state.writer.add(string: ArchiveKeys.class)
    nullRef = state.writer.add(string: ArchiveKeys.null)
    state.entryRefs.append(nullRef)
    storage = Storage(state: state)
  }

  /// Archives one object under the `root` key.
  /// - Parameters:
  ///   - root: the object graph's root (a ``/ArchiveCoding/Coding`` instance or a Foundation value).
  ///   - requiringSecureCoding: refuse classes that do not support secure coding.
  ///   - format: binary (default) or XML.
  /// - Returns: the archive.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when a value cannot be archived.
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
    typeClassUIDs = [:]
    lastType = (nil, -1)
  }

  // MARK: EncodingCoder

  /// Writes an inline primitive under a key of the current object (or of `$top`).
  public func encodeValue(_ value: CodedValue, forKey key: String) {
    let keyRef = userKeyRef(key)
    let valueRef: Int
    switch value {
    case .bool(let v): valueRef = writer.add(bool: v)
    case .integer(let v): valueRef = writer.add(integer: v)
    case .unsignedInteger(let v): valueRef = writer.add(unsignedInteger: v)
    case .float(let v): valueRef = writer.add(float: v)
    case .double(let v): valueRef = writer.add(real: v)
    case .bytes(let v): valueRef = writer.add(data: v)
    case .string(let v): valueRef = writer.add(string: v)
    }
    writer.push(key: keyRef, value: valueRef)
  }

  /// Writes an object reference under a key of the current object (or of `$top`).
  public func encodeObject(_ object: Any?, forKey key: String) {
    let uid = reference(for: object)
    if errorAwaitsKey { locateRecordedError(key: key) }
    pushUID(uid, keyRef: userKeyRef(key))
  }

  /// Writes an object under the next generated key of the current scope (`$0`, `$1`, …), as `NSCoder.encode(_:)`
  /// does for unkeyed values; read it back with ``KeyedUnarchiver/decodeObject()``.
  public func encodeObject(_ object: Any?) {
    let key: String
    if state.inObject {
      key = "$\(state.unkeyedCount)"
      state.unkeyedCount += 1
    } else {
      key = "$\(topUnkeyedCount)"
      topUnkeyedCount += 1
    }
    let uid = reference(for: object)
    if errorAwaitsKey { locateRecordedError(key: key) }
    checkNotFinished()
    pushUID(uid, keyRef: writer.add(string: key))
  }

  /// Writes a string object (shared with equal strings of the archive).
  public func encode(_ value: String?, forKey key: String) {
    let uid = value.map { stringReference($0) } ?? 0
    pushUID(uid, keyRef: userKeyRef(key))
  }

  /// Writes a data object.
  public func encode(_ value: Data?, forKey key: String) {
    let uid = value.map { dataReference($0) } ?? 0
    pushUID(uid, keyRef: userKeyRef(key))
  }

  /// Writes a conditional reference: kept only if the object is encoded unconditionally somewhere.
  public func encodeConditionalObject(_ object: AnyObject?, forKey key: String) {
    let uid = conditionalReference(for: object)
    if errorAwaitsKey { locateRecordedError(key: key) }
    pushUID(uid, keyRef: userKeyRef(key))
  }

  /// Records an error; ``finishEncoding()`` throws the first one. An ``/ArchiveCoding/ArchiveError`` without a location
  /// is located at the object being encoded (its `$objects` index and class) and, once the encode call that failed
  /// returns, at its key (COD-105).
  public func failWithError(_ error: any Error) {
    guard recordedError == nil else { return }
    guard let archiveError = error as? ArchiveError, archiveError.location.objectIndex == nil,
      archiveError.location.keyPath == nil
    else {
      recordedError = error
      return
    }
    var location = ArchiveError.Location()
    if state.inObject, queueHead > 0, queueHead <= state.queue.count {
      let (uid, object) = state.queue[queueHead - 1]
      let type = Swift.type(of: object)
      location = .init(
        objectIndex: uid, className: classNameOverrides[ObjectIdentifier(type)] ?? registry.archivedName(of: type))
    }
    recordedError = archiveError.located(in: location)
    errorAwaitsKey = true
  }

  /// Adds `key` to the location of the error recorded while encoding the value under it.
  private func locateRecordedError(key: String) {
    errorAwaitsKey = false
    guard let error = recordedError as? ArchiveError else { return }
    recordedError = error.located(in: .init(keyPath: key))
  }

  /// An encode call after ``finishEncoding()`` cannot reach the archive, which is written: it is reported once on
  /// standard error (COD-233), never a trap.
  @inline(__always)
  private func checkNotFinished() {
    if finished { reportLateEncode() }
  }

  @inline(never)
  private func reportLateEncode() {
    guard !lateEncodeReported else { return }
    lateEncodeReported = true
    FileHandle.standardError.write(
      Data(
        "error: KeyedArchiver: a value was encoded after finishEncoding(); the archive is written and does not hold it\n"
          .utf8))
  }

  @inline(__always)
  private func pushUID(_ uid: Int, keyRef: Int) {
    let valueRef = writer.add(uid: UInt64(uid))
    writer.push(key: keyRef, value: valueRef)
  }

  /// The writer's object for a key of the current scope. Objects of one class write the same keys in the same
  /// order, so the key met last at the same position is usually the same string (compared code unit by code unit,
  /// with `==` first, which is immediate for the same storage); otherwise the writer's string table decides.
  @inline(__always)
  private func keyRef(_ key: String, escaping: Bool) -> Int {
    checkNotFinished()
    let position = Swift.min((writer.mark &- state.scopeMark) &>> 1, Self.keyCachePositions &- 1)
    let slot = position &* 2 &+ state.scopeKind
    let cached = state.keyCache[slot]
    if cached.ref >= 0 && cached.key.isLiterally(key, selfIsASCII: cached.isASCII) { return cached.ref }
    let ref = writer.add(string: escaping ? Self.escape(key) : key)
    state.keyCache[slot] = KeyCacheEntry(key: key, ref: ref, isASCII: key.isASCII)
    return ref
  }

  private func userKeyRef(_ key: String) -> Int { keyRef(key, escaping: true) }

  /// Writes one field of a Foundation object (``ArchiveFieldSink``): its key is stored as given.
  func appendField(key: String, value: ArchiveFieldValue) {
    let valueRef: Int
    switch value {
    case .inline(let v): valueRef = writer.add(v)
    case .uid(let uid): valueRef = writer.add(uid: UInt64(uid))
    case .uids(let uids):
      let start = writer.mark
      for uid in uids { writer.push(writer.add(uid: UInt64(uid))) }
      valueRef = writer.endArray(from: start)
    }
    writer.push(key: keyRef(key, escaping: false), value: valueRef)
  }

  /// Keys that start with `$` are reserved by the format; user keys that do get one more `$`.
  package static func escape(_ key: String) -> String {
    key.utf8.first == escapeByte ? "$" + key : key
  }

  /// The first byte of a key ``escape(_:)`` escapes.
  package static let escapeByte = UInt8(ascii: "$")

  // MARK: References

  /// The UID for a value, encoding it (Foundation values) or queueing it (``Coding`` instances) when new.
  func reference(for value: Any?) -> Int {
    guard let value else { return 0 }
    // Only class instances can be `Coding`; casting a bridgeable value (a String, an Array) to a class-bound
    // existential would bridge it to a Foundation object first. A class instance is never an `Optional`, so it
    // skips `unwrapped(_:)`, whose cast to a protocol existential costs as much as the rest of a reference.
    if Swift.type(of: value) is AnyObject.Type {
      if let object = value as? any Coding { return reference(forCoding: object) }
      return encodeFoundationValue(value)
    }
    guard let value = Self.unwrapped(value) else { return 0 }
    return encodeFoundationValue(value)
  }

  /// Appends the references of `elements`, whose element type is the `Coding` class `type` itself (the caller found
  /// it with a cast of the metatype), without a dynamic cast per element.
  func appendReferences<Element, T: Coding>(to elements: [Element], as type: T.Type, into uids: inout [Int]) {
    precondition(Element.self == T.self, "appendReferences: the element type is not \(T.self)")
    // The same array type under another name (checked above): a reinterpretation, not a conversion.
    for element in unsafeBitCast(elements, to: [T].self) { uids.append(reference(forCoding: element)) }
  }

  private func reference(forCoding original: any Coding) -> Int {
    let originalID = ObjectIdentifier(original)
    if let uid = state.identities[originalID] { return uid }
    var replacement = original.replacementObject(for: self)
    if hasDelegate, let delegate {
      switch delegatedChoice(for: original, replacement: replacement, delegate: delegate) {
      case .object(let object): replacement = object
      case .value(let value):
        let uid = reference(for: value)
        remember(original, as: uid)
        return uid
      }
    }
    guard let replacement else {
      remember(original, as: 0)
      return 0
    }
    guard let object = replacement === original ? original : replacement as? any Coding else {
      let uid = reference(for: replacement)
      remember(original, as: uid)
      return uid
    }
    let id = ObjectIdentifier(object)
    // The original was looked up already; only a replacement can be known.
    if object !== original, let uid = state.identities[id] {
      remember(original, as: uid)
      return uid
    }
    let uid = conditionals.isEmpty ? newUID() : conditionals.removeValue(forKey: id) ?? newUID()
    // The queue keeps the object alive.
    state.identities.set(id, uid)
    if object !== original { remember(original, as: uid) }
    state.queue.append((uid, object))
    return uid
  }

  func remember(_ object: AnyObject, as uid: Int) {
    state.identities.set(ObjectIdentifier(object), uid)
    state.retained.append(object)
  }

  private func conditionalReference(for object: AnyObject?) -> Int {
    guard let object else { return 0 }
    let id = ObjectIdentifier(object)
    if let uid = state.identities[id] ?? conditionals[id] { return uid }
    guard object is any Coding else {
      // Foundation values have no identity to wait for: encode them as usual.
      return reference(for: object)
    }
    let uid = newUID()
    conditionals[id] = uid
    state.retained.append(object)
    return uid
  }

  /// A new `$objects` entry, written later.
  @inline(__always)
  private func newUID() -> Int {
    state.entryRefs.append(-1)
    return state.entryRefs.count &- 1
  }

  /// A new `$objects` entry for an object the writer has just written.
  @inline(__always)
  private func newUID(ref: Int) -> Int {
    state.entryRefs.append(ref)
    return state.entryRefs.count &- 1
  }

  /// Stores a plain value, sharing equal ones.
  func plainReference(_ value: PropertyListValue) -> Int {
    switch value {
    case .string(let string): return stringReference(string)
    case .data(let data): return dataReference(data)
    case .integer(let integer):
      let word = UInt64(bitPattern: integer)
      if let uid = state.integerUIDs[word: word] { return uid }
      let uid = newUID(ref: writer.add(integer: integer))
      state.integerUIDs.set(word: word, uid)
      return uid
    case .real(let real):
      let word = real.bitPattern
      if let uid = state.realUIDs[word: word] { return uid }
      let uid = newUID(ref: writer.add(real: real))
      state.realUIDs.set(word: word, uid)
      return uid
    case .bool(let bool):
      let shared = bool ? state.booleanUIDs.true : state.booleanUIDs.false
      if shared >= 0 { return shared }
      let uid = newUID(ref: writer.add(bool: bool))
      if bool { state.booleanUIDs.true = uid } else { state.booleanUIDs.false = uid }
      return uid
    default:
      if let uid = state.plainUIDs[value] { return uid }
      let uid = newUID(ref: writer.addUnshared(value))
      state.plainUIDs[value] = uid
      return uid
    }
  }

  /// Stores a string, sharing equal ones. Strings are shared here, by UID, and written unshared.
  func stringReference(_ string: String) -> Int {
    stringUIDs.uid(for: string) { newUID(ref: writer.addUnshared(string: string)) }
  }

  /// Stores data. Data is not shared: hashing every blob costs more than the rare duplicate saves.
  func dataReference(_ data: Data) -> Int {
    newUID(ref: writer.add(data: data))
  }

  /// The UID of the class description for a name and chain, written on first use.
  func classReference(name: String, chain: [String], hints: [String] = []) -> Int {
    if let uid = classUIDs[name] { return uid }
    let start = writer.mark
    let nameRef = writer.add(string: name)
    let chainStart = writer.mark
    for className in chain { writer.push(writer.add(string: className)) }
    let chainRef = writer.endArray(from: chainStart)
    writer.push(key: writer.add(string: ArchiveKeys.className), value: nameRef)
    writer.push(key: writer.add(string: ArchiveKeys.classes), value: chainRef)
    if !hints.isEmpty {
      let hintsStart = writer.mark
      for hint in hints { writer.push(writer.add(string: hint)) }
      let hintsRef = writer.endArray(from: hintsStart)
      writer.push(key: writer.add(string: ArchiveKeys.classHints), value: hintsRef)
    }
    let uid = newUID(ref: writer.endDictionary(from: start))
    classUIDs[name] = uid
    return uid
  }

  /// Encodes a Foundation object whose fields are written by `body`, and returns its UID.
  func foundationObject(
    className: String, chain: [String]? = nil, hints: [String] = [], identity: AnyObject? = nil,
    _ body: (inout ArchiveFieldSink) -> Void
  ) -> Int {
    if let identity, let uid = state.identities[ObjectIdentifier(identity)] { return uid }
    let uid = newUID()
    if let identity { remember(identity, as: uid) }
    let (outerMark, outerKind) = (state.scopeMark, state.scopeKind)
    state.scopeMark = writer.mark
    state.scopeKind = 1
    var sink = ArchiveFieldSink(archiver: self)
    body(&sink)
    let classUID: Int
    if hints.isEmpty {
      classUID = foundationClassUID(className, chain: chain)
    } else {
      let fullChain = chain ?? registry.classChain(forClassName: className)
      classUID = classReference(name: className, chain: fullChain, hints: hints)
    }
    pushUID(classUID, keyRef: classKeyRef)
    state.entryRefs[uid] = writer.endDictionary(from: state.scopeMark)
    (state.scopeMark, state.scopeKind) = (outerMark, outerKind)
    return uid
  }

  static func unwrapped(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any AnyOptional { return optional.unwrappedAny }
    return value
  }

  // MARK: Finishing

  /// Encodes every queued object and returns the archive; a later call gives the same archive, or throws the same
  /// error, as ``encodedData`` does (COD-233).
  /// - Throws: the first recorded error (an unarchivable value, a class that does not support secure coding).
  public func finishEncoding() throws -> Data {
    if let outcome { return try outcome.get() }
    drainQueue()
    finished = true
    if hasDelegate { delegate?.archiverWillFinish(self) }
    let outcome = Result { () throws -> Data in
      if let recordedError { throw recordedError }
      let archive = try finishArchive()
      switch outputFormat {
      case .binary: return archive
      case .xml: return try PropertyListWriter.write(try PropertyListReader.read(archive), format: .xml)
      }
    }
    self.outcome = outcome
    let archive = try outcome.get()
    if hasDelegate { delegate?.archiverDidFinish(self) }
    return archive
  }

  /// The archive, as `NSKeyedArchiver.encodedData`: finishes encoding on first use (as ``finishEncoding()``), then
  /// gives the same archive, or throws the same error, on every use.
  /// - Throws: what ``finishEncoding()`` throws.
  public var encodedData: Data {
    get throws {
      if let outcome { return try outcome.get() }
      return try finishEncoding()
    }
  }

  private func drainQueue() {
    while queueHead < state.queue.count {
      let (uid, object) = state.queue[queueHead]
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
      state.inObject = true
      state.scopeMark = writer.mark
      state.scopeKind = 0
      state.unkeyedCount = 0
      object.encode(with: self)
      if keepsUnreadFields(type) { writeUnreadFields(of: object) }
      state.inObject = false
      if hasDelegate { delegate?.archiver(self, didEncode: object) }
      // The class written can depend on the instance (`classForKeyedArchiver`, COD-112).
      pushUID(classUID(for: object.classForKeyedArchiver), keyRef: classKeyRef)
      state.entryRefs[uid] = writer.endDictionary(from: state.scopeMark)
      state.scopeMark = 0
    }
    state.queue.removeAll()
    queueHead = 0
  }

  /// `true` when objects of `type` keep their unread fields.
  @inline(__always)
  private func keepsUnreadFields(_ type: any Coding.Type) -> Bool {
    let id = ObjectIdentifier(type)
    if lastKeeping.type == id { return lastKeeping.keeps }
    let keeps = keepingTypes[id] ?? (type is any KeepsUnreadFields.Type)
    keepingTypes[id] = keeps
    lastKeeping = (id, keeps)
    return keeps
  }

  /// Whether the object being encoded wrote a field under the stored key `key`.
  func wroteField(storedKey key: String) -> Bool {
    writer.holdsKey(writer.add(string: key), from: state.scopeMark)
  }

  /// The UID of the class description of a Foundation class, written on first use.
  private func foundationClassUID(_ className: String, chain: [String]?) -> Int {
    for recent in state.recentClasses where recent.name == className { return recent.uid }
    let uid =
      classUIDs[className]
      ?? classReference(name: className, chain: chain ?? registry.classChain(forClassName: className))
    if state.recentClasses.count == 4 { state.recentClasses.removeFirst() }
    state.recentClasses.append((className, uid))
    return uid
  }

  /// The UID of the class description of a ``Coding`` type (its overridden or archived name and its chain).
  private func classUID(for type: any Coding.Type) -> Int {
    let id = ObjectIdentifier(type)
    if lastType.type == id { return lastType.uid }
    if let uid = typeClassUIDs[id] {
      lastType = (id, uid)
      return uid
    }
    let name = classNameOverrides[id] ?? registry.archivedName(of: type)
    var chain = registry.classChain(for: type)
    chain[0] = name
    let uid = classReference(name: name, chain: chain, hints: type.classFallbacks)
    typeClassUIDs[id] = uid
    lastType = (id, uid)
    return uid
  }

  /// Writes `$objects`, `$top` and the top-level dictionary, and returns the binary archive.
  private func finishArchive() throws -> Data {
    // Conditional objects never encoded unconditionally are "$null".
    for index in state.entryRefs.indices where state.entryRefs[index] < 0 { state.entryRefs[index] = nullRef }
    writer.fill(objectsRef, array: state.entryRefs)
    state.entryRefs = []
    writer.fill(topRef, dictionaryFrom: 0)
    let start = writer.mark
    writer.push(key: writer.add(string: ArchiveKeys.archiver), value: writer.add(string: ArchiveKeys.archiverName))
    writer.push(key: writer.add(string: ArchiveKeys.objects), value: objectsRef)
    writer.push(key: writer.add(string: ArchiveKeys.top), value: topRef)
    writer.push(key: writer.add(string: ArchiveKeys.version), value: writer.add(integer: ArchiveKeys.versionNumber))
    writer.fill(rootRef, dictionaryFrom: start)
    return try writer.finish(top: rootRef)
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

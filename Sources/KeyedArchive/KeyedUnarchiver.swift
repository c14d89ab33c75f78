import ArchiveCoding
import ArchiveSupport
import Foundation
import FoundationForms
import PropertyList

/// Reads keyed archives written by Apple's `NSKeyedArchiver` (or by ``KeyedArchiver``), in the spirit of
/// `NSKeyedUnarchiver`, without crashing on hostile input.
///
/// The container is validated once; objects are then decoded lazily by their index in `$objects` and memoised, so
/// shared references give the same instance. A reference back to an object still inside its `init(coder:)` is an error
/// naming the key path, never a stack overflow; classes that need back references ask for them with
/// ``/ArchiveCoding/DecodingCoder/decodeReference(forKey:into:)`` and get them in the link phase, after every object
/// exists. Each decoded instance is awoken (``/ArchiveCoding/Coding/awakeAfter(using:)``) right after its
/// `init(coder:)`, or after the link phase when it asked for deferred references, and its replacement is what later
/// references get.
///
/// For data from outside, use ``unarchivedObject(ofClass:from:options:)`` or
/// ``unarchivedObject(ofClasses:from:options:)``: they require secure coding, so the file cannot choose which
/// classes are instantiated.
public final class KeyedUnarchiver: DecodingCoder {
  /// Options in force.
  public let options: KeyedUnarchiverOptions
  /// The registry used to find the Swift class of an archived class name.
  public var registry: ClassRegistry {
    get { storage.state.registry }
    set { storage.state.registry = newValue }
  }
  /// `true` when every decoded object must be of an allowed class that supports secure coding. It cannot be turned
  /// off once set: setting `false` then leaves it on and records an ``/ArchiveCoding/ArchiveError`` (`invalidValue`) that
  /// ``finishDecoding()`` throws (COD-234), never a trap.
  public var requiresSecureCoding: Bool {
    get { storage.state.requiresSecureCoding }
    set {
      guard newValue || !storage.state.requiresSecureCoding else {
        return failWithError(
          ArchiveError(.invalidValue, "requiresSecureCoding cannot be turned off once set: it stays on"))
      }
      storage.state.requiresSecureCoding = newValue
    }
  }
  /// What a failing decode call does. Default: throw.
  public var decodingFailurePolicy: DecodingFailurePolicy {
    get { storage.state.decodingFailurePolicy }
    set { storage.state.decodingFailurePolicy = newValue }
  }
  /// The first recorded error.
  public private(set) var error: (any Error)? {
    get { storage.state.error }
    set { storage.state.error = newValue }
  }
  /// Decode objects of unknown classes as ``ArchivedObject`` instead of failing (never under secure coding).
  public var decodesUnknownClassesGenerically = false
  /// Asked for a class when no other lookup finds one (`$classname`, `$classes`), before the delegate's
  /// ``KeyedUnarchiverDelegate/unarchiver(_:cannotDecodeObjectOfClassName:originalClasses:)``. Reading it gives a
  /// closure that asks both.
  public var classResolver: ((String, [String]) -> (any Coding.Type)?)? {
    get {
      guard customClassResolver != nil || delegate != nil else { return nil }
      return { [weak self] name, chain in
        guard let self else { return nil }
        if let type = self.customClassResolver?(name, chain) { return type }
        return self.delegate?.unarchiver(self, cannotDecodeObjectOfClassName: name, originalClasses: chain)
      }
    }
    set { customClassResolver = newValue }
  }
  /// The resolver set through ``classResolver``.
  private var customClassResolver: ((String, [String]) -> (any Coding.Type)?)?
  /// Hears about the classes and objects decoded and may substitute them (``KeyedUnarchiverDelegate``). Held
  /// weakly.
  public weak var delegate: (any KeyedUnarchiverDelegate)? {
    didSet { hasDelegate = delegate != nil }
  }
  /// Whether ``delegate`` was set: a plain flag, read for every object awoken instead of loading the weak reference.
  private(set) var hasDelegate = false

  let reader: BinaryPropertyListReader
  let objectsHeader: BinaryPropertyListReader.Header
  let topHeader: BinaryPropertyListReader.Header

  /// `seenOnce`: a small string or data entry read once without caching it; the second read caches it, so that
  /// an entry referenced many times is shared while one referenced once costs no cache slot
  /// (``isFirstReadOfSmallPayload(_:uid:)``).
  enum State: UInt8 { case notStarted, inProgress, done, seenOnce }
  /// The `Codable` bridge's state for this archive (decoded class instances, deferred references).
  var codableContext: AnyObject?

  /// The mutable decoding state, in final internal storage (see ``Storage``).
  let storage: Storage

  /// The mutable decoding state (``UnarchiverState``), read and written in place.
  var state: UnarchiverState {
    _read { yield storage.state }
    _modify { yield &storage.state }
  }

  /// The class instance `decode(uid:key:index:allowed:)` just gave for `uid`, read from the cache without an
  /// existential cast, or `nil` when the entry holds something else or a back reference may have been given
  /// instead (a generic object whose fields are being decoded).
  @inline(__always)
  func decodedInstance(_ uid: Int) -> AnyObject? {
    state.openGenericObjects.isEmpty ? state.cache.instance(uid) : nil
  }

  /// Makes ``ArchivedValue`` stand for `NSValue` in allowed-class checks (once per process).
  static let registerValueTypes: Void = {
    let registry = ClassRegistry.shared
    registry.registerValueType(ArchivedValue.self, classNames: [FoundationClass.value])
    // Foundation classes asked for by their class (`decodeObject(of: NSMutableArray.self, …)`): each allows its
    // own archived class name (and, through the class chain, its subclasses).
    let classes: [(Any.Type, String)] = [
      (NSString.self, FoundationClass.string), (NSMutableString.self, FoundationClass.mutableString),
      (NSData.self, FoundationClass.data), (NSMutableData.self, FoundationClass.mutableData),
      (NSArray.self, FoundationClass.array), (NSMutableArray.self, FoundationClass.mutableArray),
      (NSDictionary.self, FoundationClass.dictionary), (NSMutableDictionary.self, FoundationClass.mutableDictionary),
      (NSSet.self, FoundationClass.set), (NSMutableSet.self, FoundationClass.mutableSet),
      (NSDate.self, FoundationClass.date), (NSUUID.self, FoundationClass.uuid), (NSURL.self, FoundationClass.url),
      (Decimal.self, FoundationClass.decimalNumber), (NSDecimalNumber.self, FoundationClass.decimalNumber),
      (Notification.self, FoundationClass.notification), (NSNotification.self, FoundationClass.notification),
      (NSAttributedString.self, FoundationClass.attributedString),
      (NSMutableAttributedString.self, FoundationClass.mutableAttributedString),
      (Measurement<Unit>.self, FoundationClass.measurement), (AffineTransform.self, FoundationClass.affineTransform),
      (ArchivedSortDescriptor.self, FoundationClass.sortDescriptor),
    ]
    for (type, name) in classes {
      let request = mutableClasses.contains(name) ? [instanceRequest(name)] : []
      registry.registerValueType(type, classNames: Set([name] + request))
    }
    registry.registerSuperclass(FoundationClass.decimalNumber, of: FoundationClass.decimalNumberPlaceholder)
  }()

  /// The archived class names the decode call that reached the object being decoded allows (COD-110), as
  /// `NSCoder.allowedClasses`: what an `init(coder:)` passes on to the objects it holds; `nil` when any class is
  /// allowed or outside any object.
  public var allowedClasses: Set<String>? { state.frames.isEmpty ? nil : state.allowedClasses }

  /// Runs `type`'s `init(coder:)` with ``allowedClasses`` set to `allowed` (only `init(coder:)` reads it, so the
  /// Foundation classes' decoding never sets it).
  private func initialise(_ type: any Coding.Type, allowed: Set<String>?) throws -> any Coding {
    // Swapped in and out rather than assigned: no copy of the outer set is made.
    var saved = allowed
    swap(&state.allowedClasses, &saved)
    defer { swap(&state.allowedClasses, &saved) }
    return try type.init(coder: self)
  }

  /// The number of objects being decoded inside one another (0 at the top level).
  var nestingDepth: Int { state.frames.count }

  /// The number of entries in `$objects`.
  public var objectCount: Int { objectsHeader.count }

  /// Opens an archive (binary or XML) and validates its container and top level.
  /// - Parameters:
  ///   - data: the archive.
  ///   - requiringSecureCoding: whether classes must be allowed explicitly. Default `true`.
  ///   - options: limits.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the bytes are not a keyed archive.
  public convenience init(
    forReadingFrom data: Data, requiringSecureCoding: Bool = true, options: KeyedUnarchiverOptions = .default
  ) throws {
    try self.init(data: data, borrowing: nil, requiringSecureCoding: requiringSecureCoding, options: options)
  }

  /// Opens an archive; a binary one is read in place from `borrowed` (the bytes of `data`) when given, else
  /// from a copy. See ``withTemporaryUnarchiver(_:requiringSecureCoding:options:_:)``.
  private init(
    data: Data, borrowing borrowed: UnsafeRawBufferPointer?, requiringSecureCoding: Bool,
    options: KeyedUnarchiverOptions
  ) throws {
    self.options = options
    Self.registerValueTypes
    let reader: BinaryPropertyListReader
    // The magic is read from the borrowed bytes when there are some: `format(of:)` reads `Data` through its
    // generic accessors.
    let format =
      borrowed.map { BinaryPropertyListReader.hasMagic($0) } == true ? .binary : PropertyListReader.format(of: data)
    switch format {
    case .binary:
      // Checked on access: decoding never walks plist containers recursively (objects nest through UIDs, which
      // have their own depth limit and cycle check) except through `value(of:)`, which checks what it walks.
      let store = borrowed.map { ByteStore(borrowing: $0) } ?? ByteStore(copying: data)
      // The reader checks, in one linear pass, that objects do not share bytes (ARC-007): otherwise a small archive
      // could be decoded into the same payload, or scanned through the same large dictionary, any number of times.
      reader = try BinaryPropertyListReader(store: store, options: options.propertyList, validation: .onAccess)
    case .xml:
      // One decoding path: an XML archive is re-encoded as binary in memory (same `$objects` indexes).
      let value = try PropertyListReader.read(data, options: options.propertyList)
      reader = try BinaryPropertyListReader(
        BinaryPropertyListWriter.write(value), options: options.propertyList, validation: .onAccess)
    case nil:
      throw ArchiveError(
        .corruptData,
        data.isEmpty ? "expected a keyed archive, found an empty input" : "expected a keyed archive (a property list)",
        at: .init(byteOffset: 0))
    }
    self.reader = reader
    let container = try KeyedArchiveContainer(reader: reader, maxObjectCount: options.maxObjectCount)
    let top = container.top
    let objects = container.objects
    self.topHeader = top
    self.objectsHeader = objects
    // The last archive's tables, emptied (Decision 0021). Each is moved out, so that it stays uniquely referenced.
    var tables = UnarchiverTables.take()
    storage = Storage(
      state: UnarchiverState(
        cache: ObjectCache(count: objects.count, entries: moveOut(&tables.entries), objects: moveOut(&tables.objects)),
        requiresSecureCoding: requiringSecureCoding))
    state.frames = moveOut(&tables.frames)
    state.classEntries = moveOut(&tables.classEntries)
    state.secureCoding.chains = moveOut(&tables.chains)
    state.awakeList = moveOut(&tables.awakeList)
  }

  deinit {
    // The tables go back to the pool emptied, for the next archive (Decision 0021).
    var tables = UnarchiverTables()
    state.cache.moveTables(into: &tables)
    swap(&state.frames, &tables.frames)
    swap(&state.classEntries, &tables.classEntries)
    swap(&state.secureCoding.chains, &tables.chains)
    swap(&state.awakeList, &tables.awakeList)
    UnarchiverTables.giveBack(tables)
  }

  /// Decodes the root object of an untrusted archive, allowing only `type` (and the Foundation classes it needs).
  /// - Returns: the root, or `nil` when the archive's root is `nil`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` for corrupt data, a disallowed or unknown class, or a failing
  ///   `init(coder:)`.
  public static func unarchivedObject<T>(
    ofClass type: T.Type, from data: Data, options: KeyedUnarchiverOptions = .default
  ) throws -> T? {
    try withTemporaryUnarchiver(data, requiringSecureCoding: true, options: options) { unarchiver in
      try unarchiver.decodeTopLevelObject(of: type, forKey: ArchiveKeys.root)
    }
  }

  /// Runs `body` with an unarchiver that reads `data` in place instead of copying it (the convenience functions
  /// own their unarchiver for the whole decode). When an `init(coder:)` kept the coder, the unarchiver gets its
  /// own copy of the bytes before they go away, so it stays usable.
  static func withTemporaryUnarchiver<R>(
    _ data: Data, requiringSecureCoding: Bool, options: KeyedUnarchiverOptions, _ body: (KeyedUnarchiver) throws -> R
  ) throws -> R {
    try data.withUnsafeBytes { raw in
      var unarchiver = try KeyedUnarchiver(
        data: data, borrowing: raw, requiringSecureCoding: requiringSecureCoding, options: options)
      defer {
        if !isKnownUniquelyReferenced(&unarchiver) { unarchiver.reader.bytes.ownCopy() }
      }
      return try body(unarchiver)
    }
  }

  /// Decodes the root object of an untrusted archive, allowing only the given types.
  public static func unarchivedObject(
    ofClasses types: [Any.Type], from data: Data, options: KeyedUnarchiverOptions = .default
  ) throws -> Any? {
    try withTemporaryUnarchiver(data, requiringSecureCoding: true, options: options) { unarchiver in
      try unarchiver.decodeObject(of: types, forKey: ArchiveKeys.root)
    }
  }

  /// Decodes the root object of a trusted archive (your own files) with any registered class.
  public static func unarchivedRootObject(
    from data: Data, registry: ClassRegistry = .shared, options: KeyedUnarchiverOptions = .default
  ) throws -> Any? {
    try withTemporaryUnarchiver(data, requiringSecureCoding: false, options: options) { unarchiver in
      unarchiver.registry = registry
      return try unarchiver.decodeObject(forKey: ArchiveKeys.root)
    }
  }

  /// The version of the class named `className` in effect, as `NSKeyedUnarchiver.version(forClassName:)` (COD-111): the
  /// ``/ArchiveCoding/Coding/classVersion`` of the class this unarchiver decodes the name as
  /// (``setClass(_:forClassName:)``, then the registry), else `NSNotFound`. A keyed archive records no versions.
  public func version(forClassName className: String) -> Int {
    if let type = state.instanceClasses[className] { return type.classVersion }
    return defaultVersion(forClassName: className)
  }

  /// Decodes `className` as `type` in this archive, before any other lookup.
  public func setClass(_ type: (any Coding.Type)?, forClassName className: String) {
    state.instanceClasses[className] = type
  }

  /// Ends decoding; throws the first error recorded under ``/ArchiveCoding/DecodingFailurePolicy/setErrorAndReturn``.
  public func finishDecoding() throws {
    let delegate = self.delegate
    delegate?.unarchiverWillFinish(self)
    if let error { throw error }
    delegate?.unarchiverDidFinish(self)
  }

  // MARK: DecodingCoder core

  /// The dictionary of the object being decoded (`$top` outside any object).
  var currentHeader: BinaryPropertyListReader.Header { state.frames.last?.header ?? topHeader }

  /// `true` when the current object has the key.
  public func containsValue(forKey key: String) -> Bool { fieldRef(key) != nil }

  /// Decodes the next unkeyed object of the current scope, as `NSCoder.decodeObject()`: the values that unkeyed
  /// `encode(_:)` calls wrote under the generated keys `$0`, `$1`, … (a counter per object, and one for `$top`).
  /// Archives written with `NSKeyedArchiver.encode(_:)` at the top level (such as `$top = {$0, $1, …}`) are read
  /// this way; `decodeObject(forKey: "$0")` reads the user key `$0` (stored as `$$0`) instead.
  /// - Returns: the object, or `nil` when the slot holds `nil` or the scope has no more unkeyed values.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` as ``decodeObject(forKey:allowedClasses:)``.
  public func decodeObject() throws -> Any? { try decodeUnkeyedObject(allowedClasses: nil) }

  /// Decodes the next unkeyed object of the current scope (``decodeObject()``), allowing `allowedClasses`.
  func decodeUnkeyedObject(allowedClasses: Set<String>?) throws -> Any? {
    let key: String
    if state.frames.isEmpty {
      key = "$\(state.topUnkeyed)"
      state.topUnkeyed += 1
    } else {
      key = "$\(state.frames[state.frames.count - 1].unkeyed)"
      state.frames[state.frames.count - 1].unkeyed += 1
    }
    return try applyingFailurePolicy(nil) {
      try located(key) {
        guard let ref = storedFieldRef(key) else { return nil }
        return try object(atFieldRef: ref, key: key, allowed: allowedClasses)
      }
    }
  }

  /// Decodes the object under a key exactly as stored in the archive, without `$` escaping: for walking an
  /// archive generically, such as every key of ``topLevelKeys`` (where `$0` is an unkeyed slot, while
  /// `decodeObject(forKey: "$0")` would read the user key `$0`, stored as `$$0`).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` as ``decodeObject(forKey:allowedClasses:)``.
  package func decodeObject(forStoredKey key: String, allowedClasses: Set<String>?) throws -> Any? {
    try located(key) {
      guard let ref = storedFieldRef(key) else { return nil }
      return try object(atFieldRef: ref, key: key, allowed: allowedClasses)
    }
  }

  /// The inline primitive under a key (or the plain number, string or data a UID there refers to).
  public func decodeValue(forKey key: String) throws -> CodedValue? {
    try located(key) {
      guard let ref = fieldRef(key) else { return nil }
      return try codedValue(ref, key: key)
    }
  }

  /// The object under a key of the current object.
  public func decodeObject(forKey key: String, allowedClasses: Set<String>?) throws -> Any? {
    try located(key) {
      guard let ref = fieldRef(key) else { return nil }
      return try object(atFieldRef: ref, key: key, allowed: allowedClasses)
    }
  }

  /// Decodes the value a field holds: a UID is resolved; an inline primitive is returned as a Swift value.
  func object(atFieldRef ref: Int, key: String, allowed: Set<String>?) throws -> Any? {
    // A reference, read from its marker; anything else takes its header.
    if let raw = reader.uidValue(ofObject: ref) {
      return try decode(uid: try checkedUID(raw, key: key), key: key, allowed: allowed)
    }
    let header = try reader.header(of: ref)
    switch header.kind {
    case .uid:
      return try decode(uid: try checkedUID(reader.uid(header), key: key), key: key, allowed: allowed)
    case .array:
      throw ArchiveError(.typeMismatch, "expected an object reference, found an inline array", at: .init(keyPath: key))
    default:
      return try plainValue(ref, header: header)
    }
  }

  /// Records an error (the first one is kept).
  public func failWithError(_ error: any Error) {
    if self.error == nil { self.error = error }
  }

  // MARK: Decoding objects

  func checkedUID(_ raw: UInt64, key: String) throws -> Int {
    guard raw < UInt64(objectsHeader.count) else {
      throw ArchiveError(
        .corruptData, "reference to object #\(raw), but $objects has \(objectsHeader.count) entries",
        at: .init(keyPath: key))
    }
    return Int(raw)
  }

  /// Runs `body` and adds the current object's index, class and key path to any ``/ArchiveCoding/ArchiveError`` it throws.
  func located<T>(_ key: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as ArchiveError {
      throw error.located(in: currentLocation(key))
    }
  }

  func currentLocation(_ key: String) -> ArchiveError.Location {
    let path = (state.frames.map(\.pathComponent) + [key]).joined(separator: ".")
    guard let frame = state.frames.last else { return .init(keyPath: path) }
    return .init(objectIndex: frame.uid, className: className(of: frame), keyPath: path)
  }

  /// The archived class name of the object of a frame.
  func className(of frame: Frame) -> String {
    state.classEntries[Int(frame.classSlot)].info.name
  }

  /// Decodes `$objects[uid]` (memoised), checking the allowed classes.
  func decode(uid: Int, key: String, index: Int = -1, allowed: Set<String>?) throws -> Any? {
    if uid == 0 { return nil }
    switch state.cache[state: uid] {
    case .done:
      let chainIndex = Int(state.cache[chain: uid])
      if chainIndex >= 0 { try checkAllowed(chainIndex: chainIndex, allowed: allowed, uid: uid) }
      if !state.openGenericObjects.isEmpty, state.openGenericObjects.contains(uid),
        let object = state.cache[uid] as? ArchivedObject
      {
        return ArchivedObject.BackReference(object)
      }
      return state.cache[uid]
    case .inProgress:
      let chainIndex = Int(state.cache[chain: uid])
      let name = chainIndex >= 0 ? state.secureCoding.chain(at: chainIndex).first ?? "?" : "?"
      throw ArchiveError(
        .referenceCycle,
        "reference cycle: object #\(uid) (\(name)) is still being decoded when this key refers back to it; "
          + "decode back references with decodeReference(forKey:into:)")
    case .notStarted, .seenOnce:
      break
    }
    let ref = reader.element(objectsHeader, uid)
    let header = try reader.header(of: ref)
    guard header.kind == .dictionary else {
      // A number or boolean (the common element of a collection): the value and check of the general path below,
      // read in place without the two calls and the `PropertyListValue` of `plainValue`. It is never cached, and
      // never in progress. A 16-byte integer and a 4-byte real take the general path.
      switch header.kind {
      case .integer:
        if let value = reader.int64(header) {
          try checkAllowed(chainIndex: SecureCodingMemo.numberChainIndex, allowed: allowed, uid: uid)
          return Int(value)
        }
      case .real where header.count == 8:
        try checkAllowed(chainIndex: SecureCodingMemo.numberChainIndex, allowed: allowed, uid: uid)
        return reader.double(header)
      case .bool:
        try checkAllowed(chainIndex: SecureCodingMemo.numberChainIndex, allowed: allowed, uid: uid)
        return header.count == 1
      default:
        break
      }
      // Bound from the call's result, not from an `Any?` variable: binding one copies it through `Optional`'s
      // generic witnesses.
      guard let value = try plainValue(ref, header: header) else {
        if !header.kind.isScalar { state.cache[state: uid] = .done }
        return nil
      }
      let chainIndex = SecureCodingMemo.plainChainIndex(of: header.kind)
      try checkAllowed(chainIndex: chainIndex, allowed: allowed, uid: uid)
      // A number, boolean or date is read again on its next use: storing it would cost more than reading it. A
      // small string or data entry is stored from its second read, as `rememberPlain` does.
      if header.kind.isScalar || isFirstReadOfSmallPayload(header, uid: uid) { return value }
      storePlain(copy value, uid: uid, chain: Int32(chainIndex))
      return value
    }
    guard let classRef = classRef(in: header) else {
      throw ArchiveError(
        .corruptData, "expected an object with $class, found a dictionary without $class", at: .init(objectIndex: uid))
    }
    guard let rawClassUID = reader.uidValue(ofObject: classRef) else {
      // Not a well-formed UID: a malformed one's header gives its error (`uidValue` checks the bounds the header
      // does), and anything else is reported by its kind.
      let classHeader = try reader.header(of: classRef)
      throw ArchiveError(
        .corruptData, "object #\(uid): $class is a \(classHeader.kind), not a UID", at: .init(objectIndex: uid))
    }
    let classUID = try checkedUID(rawClassUID, key: ArchiveKeys.class)
    // The stack is measured on the thread of each top-level decode call; nesting stops at the depth limit or when
    // the thread's stack runs low, whichever comes first (checked in classSlot).
    if state.frames.isEmpty { state.stackGuard = StackGuard() }
    let slot = try classSlot(classUID: classUID, objectUID: uid)
    // The class entry's fields are read in place: copying the entry would retain every string and array in it.
    let chainIndex = state.classEntries[slot].chainIndex
    if requiresSecureCoding {
      if !state.classEntries[slot].secureChecked
        || !(allowed.map { state.secureCoding.hasPassed(Int(chainIndex), $0) } ?? false)
      {
        let resolved = state.classEntries[slot].resolved
        try checkAllowed(chain: resolved.chain, allowed: allowed, uid: uid, resolved: resolved)
        state.secureCoding.setPassed(Int(chainIndex), allowed)
        state.classEntries[slot].secureChecked = true
      }
    }
    state.cache[state: uid] = .inProgress
    state.cache[chain: uid] = chainIndex
    state.frames.append(
      Frame(
        uid: uid, header: header, key: key, index: index,
        linkStart: state.links.count, classSlot: Int32(slot)))
    let value: Any?
    var instance: (any Coding)?
    var stored = false
    do {
      if case .coding(let type) = state.classEntries[slot].resolved.kind {
        // The common case, as `instantiate` does it.
        let object = try initialise(type, allowed: allowed)
        instance = object
        value = object
      } else if case .foundation(let name) = state.classEntries[slot].resolved.kind {
        // Without copying the class entry's description (its strings and lists). Stored here, bound from the
        // call's result: binding the `Any?` variable later would copy it through `Optional`'s generic witnesses.
        if let decoded = try decodeFoundation(className: name, uid: uid, allowed: allowed) {
          state.cache.store(copy decoded, uid: uid)
          stored = true
          value = decoded
        } else {
          value = nil
        }
      } else {
        value = try instantiate(
          state.classEntries[slot].resolved, info: state.classEntries[slot].info, uid: uid, allowed: allowed)
      }
    } catch let error as ArchiveError {
      throw unwind(error, uid: uid, className: state.classEntries[slot].info.name)
    } catch {
      throw unwind(
        ArchiveError(.other, "init(coder:) failed", underlying: error), uid: uid,
        className: state.classEntries[slot].info.name)
    }
    let linkStart = state.frames[state.frames.count - 1].linkStart
    state.frames.removeLast()
    state.classEntries[slot].recordsHints = true
    state.cache[state: uid] = .done
    if let instance {
      // Only class instances from `init(coder:)` own link requests; `as AnyObject` on a value would bridge it.
      var ownsLinks = false
      if linkStart < state.links.count {
        for index in linkStart..<state.links.count where state.links[index].owner == nil {
          state.links[index].owner = instance
          ownsLinks = true
        }
      }
      let handedOut: AnyObject?
      if ownsLinks {
        // Awoken after the link phase, once its deferred references are set (Decision 0025).
        state.cache.setObject(instance, uid: uid)
        state.awakeList.append((uid, instance))
        handedOut = instance
      } else {
        // Awoken now, as on Apple's platforms, so that every later reference to the entry (the object's owner, a
        // collection) gets the replacement (COD-014).
        handedOut = try awaken(instance, uid: uid, classSlot: slot)
        if let handedOut { state.cache.setObject(handedOut, uid: uid) }
      }
      if state.frames.isEmpty, !state.linking { return try finishTopLevelDecode(uid: uid) }
      return handedOut
    }
    if !stored { state.cache[uid] = value }
    if state.frames.isEmpty, !state.linking { return try finishTopLevelDecode(uid: uid) }
    return value
  }

  /// Ends the decode of the object under a top-level key, `$objects[uid]`: runs the link and awake phases and gives
  /// the entry's value (which the awake phase may have replaced).
  private func finishTopLevelDecode(uid: Int) throws -> Any? {
    // A collector a typed call left for the object (it was not an array) is dropped, so that no array the link or
    // awake phase decodes at the same depth takes it: that array would be collected as the call's type instead of as
    // `[Any]`.
    state.pendingCollector = nil
    try runLinkAndAwakePhases()
    // An error an init(coder:) reported with failWithError(_:) fails the top-level decode.
    if decodingFailurePolicy == .throwError, let error { throw error }
    return state.cache[uid]
  }

  /// Leaves the frame of object `uid` after its decoding failed, locating the error. An error that has no object
  /// index yet was raised by this object's own `init(coder:)` (a typed decode helper, `failWithError`, or a
  /// Foundation class's field check), so its key is relative to this object and gets the path from the root.
  private func unwind(_ error: ArchiveError, uid: Int, className: String) -> ArchiveError {
    var located = error
    if error.location.objectIndex == nil {
      let path = state.frames.map(\.pathComponent).joined(separator: ".")
      located.location.keyPath = error.location.keyPath.map { path + "." + $0 } ?? path
    }
    state.frames.removeLast()
    state.cache[state: uid] = .notStarted
    return located.located(in: .init(objectIndex: uid, className: className))
  }

  private func instantiate(_ resolved: Resolved, info: ClassInfo, uid: Int, allowed: Set<String>?) throws -> Any? {
    switch resolved.kind {
    case .coding(let type):
      let object = try initialise(type, allowed: allowed)
      state.awakeList.append((uid, object))
      return object
    case .foundation(let name):
      return try decodeFoundation(className: name, uid: uid, allowed: allowed)
    case .generic:
      let object = ArchivedObject(className: info.name, classChain: info.chain, objectIndex: uid)
      // Cached before its fields are read, so generic objects may refer back to themselves.
      state.cache[uid] = object
      state.cache[state: uid] = .done
      state.openGenericObjects.insert(uid)
      defer { state.openGenericObjects.remove(uid) }
      object.fields = try genericFields(allowed: allowed)
      return object
    }
  }

}

extension KeyedUnarchiver {
  /// Decodes `$objects[uid]` with no class restriction (for validation); class descriptions are skipped.
  package func decodeAny(uid: Int) throws -> Any? {
    guard uid > 0, uid < objectCount else { return nil }
    let ref = reader.element(objectsHeader, uid)
    let header = try reader.header(of: ref)
    if header.kind == .dictionary, reader.lookup(string: ArchiveKeys.className, inDictionary: header) != nil {
      return nil
    }
    return try decode(uid: uid, key: "$objects[\(uid)]", allowed: nil)
  }
}

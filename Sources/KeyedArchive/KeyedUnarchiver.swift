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
    get { store.state.settings.registry }
    set {
      store.state.settings.registry = newValue
      forgetResolvedClasses()
    }
  }
  /// `true` when every decoded object must be of an allowed class that supports secure coding. It cannot be turned
  /// off once set: setting `false` then leaves it on and records an ``/ArchiveCoding/ArchiveError`` (`invalidValue`) that
  /// ``finishDecoding()`` throws (COD-234), never a trap.
  public var requiresSecureCoding: Bool {
    get { store.state.settings.requiresSecureCoding }
    set {
      guard newValue || !store.state.settings.requiresSecureCoding else {
        return failWithError(
          ArchiveError(.invalidValue, "requiresSecureCoding cannot be turned off once set: it stays on"))
      }
      store.state.settings.requiresSecureCoding = newValue
      forgetResolvedClasses()
    }
  }
  /// What a failing decode call does. Default: throw.
  public var decodingFailurePolicy: DecodingFailurePolicy {
    get { store.state.settings.decodingFailurePolicy }
    set { store.state.settings.decodingFailurePolicy = newValue }
  }
  /// The first recorded error.
  public private(set) var error: (any Error)? {
    get { store.state.settings.error }
    set { store.state.settings.error = newValue }
  }
  /// Decode an object of a class nothing resolves (COD-200) as an ``ArchivedObject`` with its class name, chain, hints
  /// and fields, instead of failing (COD-024). Under secure coding, only with ``allowsGenericObjectsUnderSecureCoding``
  /// as well.
  public var decodesUnknownClassesGenerically = false {
    didSet { forgetResolvedClasses() }
  }
  /// Let ``decodesUnknownClassesGenerically`` apply under secure coding too: a generic object runs no class's code, so
  /// the allowed-class check passes it (the types a call allows must then accept an ``ArchivedObject`` where one may
  /// appear). Off by default.
  public var allowsGenericObjectsUnderSecureCoding = false {
    didSet { forgetResolvedClasses() }
  }
  /// Decode an object of a class nothing resolves (neither its name, its hints, ``classResolver`` nor the delegate) as
  /// the first class of its `$classes` chain that resolves, as a superclass. Off by default, as on Apple's platforms:
  /// such an object loses its own class and the fields only its class reads, without a word (COD-200). Under secure
  /// coding the archived class is what the allowed classes must admit (COD-201).
  public var decodesUnknownClassesAsSuperclasses = false {
    didSet { forgetResolvedClasses() }
  }
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
    set {
      customClassResolver = newValue
      forgetResolvedClasses()
    }
  }
  /// The resolver set through ``classResolver``.
  private var customClassResolver: ((String, [String]) -> (any Coding.Type)?)?
  /// Hears about the classes and objects decoded and may substitute them (``KeyedUnarchiverDelegate``). Held
  /// weakly.
  public weak var delegate: (any KeyedUnarchiverDelegate)? {
    didSet {
      hasDelegate = delegate != nil
      forgetResolvedClasses()
    }
  }
  /// Whether ``delegate`` was set: a plain flag, read for every object awoken instead of loading the weak reference.
  private(set) var hasDelegate = false

  /// What the archive holds, read when it was opened.
  let index: ArchiveIndex
  /// What decoding changes: entries' states and values, frames, links, the awake list, classes (final internal
  /// storage with unchecked exclusivity, see ``ObjectStore``).
  let store: ObjectStore

  /// The `Codable` bridge's state for this archive (decoded class instances, deferred references).
  var codableContext: AnyObject?

  /// The property list the archive is read from, `$objects` and `$top`: the index's, kept here too, since every
  /// field read goes through them (a copy of the reader from the index per read would retain its bytes).
  let reader: BinaryPropertyListReader
  let objectsHeader: BinaryPropertyListReader.Header
  let topHeader: BinaryPropertyListReader.Header

  /// The class instance `decode(uid:key:index:allowed:)` just gave for `uid`, read from the cache without an
  /// existential cast, or `nil` when the entry holds something else or a back reference may have been given
  /// instead (a generic object whose fields are being decoded).
  @inline(__always)
  func decodedInstance(_ uid: Int) -> AnyObject? {
    store.state.open.generic.isEmpty ? store.state.cache.instance(uid) : nil
  }

  /// Makes every class resolve again when an object of it is next decoded: a setting that changes what a name
  /// resolves to (the registry, ``setClass(_:forClassName:)``, the resolver, the delegate) or how it is checked has
  /// changed. Objects decoded already keep their values.
  private func forgetResolvedClasses() {
    for slot in store.state.classes.indices { store.state.classes[slot] = ObjectStore.ClassState() }
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
  public var allowedClasses: Set<String>? { store.state.frames.isEmpty ? nil : store.state.allowedClasses }

  /// Runs `type`'s `init(coder:)` with ``allowedClasses`` set to `allowed` (only `init(coder:)` reads it, so the
  /// Foundation classes' decoding never sets it).
  func initialise(_ type: any Coding.Type, allowed: Set<String>?) throws -> any Coding {
    // Swapped in and out rather than assigned: no copy of the outer set is made.
    var saved = allowed
    swap(&store.state.allowedClasses, &saved)
    defer { swap(&store.state.allowedClasses, &saved) }
    return try type.init(coder: self)
  }

  /// The number of objects being decoded inside one another (0 at the top level).
  var nestingDepth: Int { store.state.frames.count }

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
      let bytes = borrowed.map { ByteStore(borrowing: $0) } ?? ByteStore(copying: data)
      // The reader checks, in one linear pass, that objects do not share bytes (ARC-007): otherwise a small archive
      // could be decoded into the same payload, or scanned through the same large dictionary, any number of times.
      reader = try BinaryPropertyListReader(store: bytes, options: options.propertyList, validation: .onAccess)
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
    index = try ArchiveIndex(reader: reader, options: options)
    self.reader = reader
    objectsHeader = index.objects
    topHeader = index.top
    store = ObjectStore(
      count: index.count, classCount: index.classes.count, requiresSecureCoding: requiringSecureCoding)
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
    if let type = store.state.settings.instanceClasses[className] { return type.classVersion }
    return defaultVersion(forClassName: className)
  }

  /// Decodes `className` as `type` in this archive, before any other lookup.
  public func setClass(_ type: (any Coding.Type)?, forClassName className: String) {
    store.state.settings.instanceClasses[className] = type
    forgetResolvedClasses()
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
  var currentHeader: BinaryPropertyListReader.Header {
    store.state.frames.isEmpty ? topHeader : store.state.frames.cursor.header
  }

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
    if store.state.frames.isEmpty {
      key = "$\(store.state.topUnkeyed)"
      store.state.topUnkeyed += 1
    } else {
      key = "$\(store.state.frames.takeUnkeyedSlot())"
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

  /// Decodes the value a field holds: a UID is resolved; an inline primitive is returned as a Swift value. An array
  /// object the UID refers to is collected into `collector` when given (``TypedElementCollecting``).
  func object(
    atFieldRef ref: Int, key: String, allowed: Set<String>?,
    collecting collector: (any TypedElementCollecting.Type)? = nil
  ) throws -> Any? {
    // A reference, read from its marker; anything else takes its header.
    if let raw = reader.uidValue(ofObject: ref) {
      return try decode(uid: try checkedUID(raw, key: key), key: key, allowed: allowed, collecting: collector)
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
    let path = (store.state.frames.pathComponents + [key]).joined(separator: ".")
    guard let frame = store.state.frames.last else { return .init(keyPath: path) }
    return .init(objectIndex: frame.uid, className: index.className(ofSlot: frame.classSlot), keyPath: path)
  }

  /// Decodes `$objects[uid]` (memoised), checking the allowed classes: a plain entry is read in place
  /// (``plainEntry(_:_:allowed:)``), an object is made by its class (``instantiate(_:uid:allowed:)``) inside a frame
  /// of its own, then settled (its deferred references, its awake call); the outermost object's decode then runs the
  /// link and awake phases. `position` is the element index when the object is reached through an inline array, for
  /// error paths; `collector` the array type a typed call asked for, which an array object is collected into.
  func decode(
    uid: Int, key: String, index position: Int = -1, allowed: Set<String>?,
    collecting collector: (any TypedElementCollecting.Type)? = nil
  ) throws -> Any? {
    let entry = index.entries[uid]
    switch store.state.cache[state: uid] {
    case .done: return try decoded(uid, entry, allowed: allowed)
    case .published:
      noteClosedCycle(uid)
      return try decoded(uid, entry, allowed: allowed)
    case .inProgress: throw cycleError(uid: uid, slot: entry.classSlot)
    case .refusing: throw keyCycleError(uid: uid, slot: entry.classSlot, key: key, index: position)
    case .notStarted, .seenOnce: break
    }
    guard entry.isObject else { return try plainEntry(uid, entry, allowed: allowed) }
    guard store.state.frames.isEmpty, !store.state.linking else {
      return try decodeObjectEntry(uid, entry, key: key, index: position, allowed: allowed, collecting: collector)
    }
    // The outermost object: its decode ends with the link and awake phases, and one that fails takes back every
    // object it made (ARC-044).
    do {
      _ = try decodeObjectEntry(uid, entry, key: key, index: position, allowed: allowed, collecting: collector)
      return try finishTopLevelDecode(uid: uid)
    } catch {
      takeBack(from: nil)
      throw error
    }
  }

  /// Decodes object `uid`, not decoded yet, whose index entry is `entry`: makes it by its class inside a frame of
  /// its own, then settles it.
  private func decodeObjectEntry(
    _ uid: Int, _ entry: ArchiveIndex.Entry, key: String, index position: Int, allowed: Set<String>?,
    collecting collector: (any TypedElementCollecting.Type)?
  ) throws -> Any? {
    let slot = entry.classSlot
    let kind = try resolvedClass(slot, uid: uid)
    // The stack is measured on the thread of each top-level decode call; nesting stops at the depth limit or when
    // the thread's stack runs low, whichever comes first.
    if store.state.frames.isEmpty { store.state.stackGuard = StackGuard() }
    guard store.state.frames.count < options.maxDepth, store.state.stackGuard.hasRoom() else {
      throw depthError(uid: uid, className: index.className(ofSlot: slot))
    }
    try checkAllowed(slot: slot, allowed: allowed, uid: uid)
    store.state.cache.begin(uid)
    store.state.frames.push(
      ObjectStore.Frame(
        uid: uid, classSlot: slot, index: position, linkStart: store.state.links.count, collector: collector),
      key: key, cursor: FrameStack.Cursor(header: index.dictionary(of: entry), layout: index.layouts[entry.layout]))
    let made: Made
    do {
      made = try instantiate(kind, uid: uid, allowed: allowed)
    } catch {
      throw unwind(error, uid: uid, slot: slot)
    }
    let linkStart = store.state.frames.linkStart
    store.state.frames.pop()
    store.state.cache[state: uid] = .done
    let value: Any?
    switch consume made {
    case .instance(let instance): value = try settle(instance, uid: uid, slot: slot, linkStart: linkStart)
    case .value(let decoded): value = decoded
    }
    return value
  }

  /// What ``instantiate(_:uid:allowed:)`` made: a ``Coding`` instance to settle, or a value already kept.
  private enum Made {
    case instance(any Coding)
    case value(Any?)
  }

  /// Makes the object of the current frame, `$objects[uid]`, as its class says.
  @inline(__always)
  private func instantiate(_ kind: ResolvedClass.Kind, uid: Int, allowed: Set<String>?) throws -> Made {
    switch kind {
    case .coding(let type):
      return .instance(try initialise(type, allowed: allowed))
    case .keepingUnreadFields(let type):
      return .instance(try initialiseKeepingUnreadFields(type, allowed: allowed))
    case .foundation(let name):
      let value = try decodeFoundation(className: name, uid: uid, allowed: allowed)
      if let value { store.state.cache.store(value, uid: uid) }
      return .value(value)
    case .generic:
      return .value(try decodeGeneric(uid: uid, allowed: allowed))
    }
  }

  /// Settles an instance whose `init(coder:)` returned (its frame closed): it owns the deferred references asked for
  /// in its frame that no inner object owns. An instance that owns none is awoken now, as on Apple's platforms, so
  /// that every later reference to the entry (the object's owner, a collection) gets the replacement (COD-014);
  /// one that owns some is awoken after the link phase, once they are set (Decision 0025).
  /// - Returns: the object handed out for the entry.
  private func settle(_ instance: any Coding, uid: Int, slot: Int, linkStart: Int) throws -> AnyObject? {
    var ownsLinks = false
    // Only class instances from `init(coder:)` own link requests; `as AnyObject` on a value would bridge it.
    for link in linkStart..<store.state.links.count where store.state.links[link].owner == nil {
      store.state.links[link].owner = instance
      ownsLinks = true
    }
    if ownsLinks {
      store.state.cache.setInstance(instance, uid: uid)
      store.state.awakeList.append((uid, instance))
      return instance
    }
    let handedOut = try awaken(instance, uid: uid, classSlot: slot)
    if let handedOut { store.state.cache.setInstance(handedOut, uid: uid) }
    return handedOut
  }

  /// The value of entry `uid`, decoded before, checked against the allowed classes again; a generic object whose
  /// fields are being decoded is handed out as a weak ``ArchivedObject/BackReference`` (COD-025).
  private func decoded(_ uid: Int, _ entry: ArchiveIndex.Entry, allowed: Set<String>?) throws -> Any? {
    let slot = entry.isObject ? entry.classSlot : entry.kind.plainClass.rawValue
    try checkAllowed(slot: slot, allowed: allowed, uid: uid)
    if !store.state.open.generic.isEmpty, store.state.open.generic.contains(uid),
      let object = store.state.cache.instance(uid) as? ArchivedObject
    {
      return ArchivedObject.BackReference(object)
    }
    return store.state.cache[uid]
  }

  private func cycleError(uid: Int, slot: Int) -> ArchiveError {
    ArchiveError(
      .referenceCycle,
      "reference cycle: object #\(uid) (\(index.className(ofSlot: slot))) is still being decoded when this key "
        + "refers back to it; decode back references with decodeReference(forKey:into:)")
  }

  /// The error of a reference to mutable dictionary or set `uid` from one of its own keys or members (or from what
  /// they hold), as `key` (at `index`, when reached through an array): filling the collection would hash that key,
  /// which reads the collection during its own mutation (Foundation traps). No archiver writes one: a dictionary
  /// copies its keys.
  private func keyCycleError(uid: Int, slot: Int, key: String, index position: Int) -> ArchiveError {
    ArchiveError(
      .referenceCycle,
      "object #\(uid) (\(index.className(ofSlot: slot))) is reached from its own keys or members while it is "
        + "filled: a collection cannot be, or hold, its own key or member",
      at: .init(keyPath: FrameStack.pathComponent(key, index: position)))
  }

  /// Ends the decode of the object under a top-level key, `$objects[uid]`: runs the link and awake phases and gives
  /// the entry's value (which the awake phase may have replaced).
  private func finishTopLevelDecode(uid: Int) throws -> Any? {
    try runLinkAndAwakePhases()
    // An error an init(coder:) reported with failWithError(_:) fails the top-level decode.
    if decodingFailurePolicy == .throwError, let error { throw error }
    store.state.cache.endOutermostDecode()
    return store.state.cache[uid]
  }

  /// Takes back object `uid`, whose decode failed, and the objects made while it was decoded (`nil`: every object
  /// of the outermost decode, which failed), so that nothing made by a failed decode outlives it (ARC-044): their
  /// entries are decoded afresh by a later decode that reaches them, the mutable collections among them are emptied
  /// (published before their elements, they may close a cycle with them), and the deferred references and awake
  /// calls of the objects taken back are dropped. The objects themselves are the caller's no more.
  func takeBack(from uid: Int?, linkStart: Int = 0) {
    for value in store.state.cache.takeBack(from: uid) { Self.emptyMutableCollection(value) }
    if let uid { store.state.cache[state: uid] = .notStarted }
    if linkStart < store.state.links.count { store.state.links.removeSubrange(linkStart...) }
    while let last = store.state.awakeList.last, store.state.cache[state: last.uid] == .notStarted {
      store.state.awakeList.removeLast()
    }
  }

  /// Leaves the frame of object `uid` after its decoding failed, locating the error (another error than an
  /// ``ArchiveError`` becomes the underlying error of one). An error that has no object index yet was raised by this
  /// object's own `init(coder:)` (a typed decode helper, `failWithError`, or a Foundation class's field check), so
  /// its key is relative to this object and gets the path from the root.
  private func unwind(_ error: any Error, uid: Int, slot: Int) -> ArchiveError {
    var located = error as? ArchiveError ?? ArchiveError(.other, "init(coder:) failed", underlying: error)
    if located.location.objectIndex == nil {
      let path = store.state.frames.pathComponents.joined(separator: ".")
      located.location.keyPath = located.location.keyPath.map { path + "." + $0 } ?? path
    }
    let linkStart = store.state.frames.linkStart
    store.state.frames.pop()
    takeBack(from: uid, linkStart: linkStart)
    return located.located(in: .init(objectIndex: uid, className: index.className(ofSlot: slot)))
  }

  /// The current object, of a class nothing resolves, as an ``ArchivedObject`` with its class name, chain and
  /// fields (COD-024). It is kept before its fields are read, so generic objects may refer back to themselves.
  private func decodeGeneric(uid: Int, allowed: Set<String>?) throws -> ArchivedObject {
    let description = index.classes[store.state.frames.classSlot].description
    let object = ArchivedObject(
      className: description?.name ?? "", classChain: description?.classes ?? [], classHints: description?.hints ?? [],
      objectIndex: uid)
    store.state.cache.setInstance(object, uid: uid)
    store.state.cache[state: uid] = .done
    store.state.open.generic.insert(uid)
    defer { store.state.open.generic.remove(uid) }
    // A mutable Foundation collection among the fields decodes as its mutable class, which archiving the object
    // again writes back (a Swift value would be written as the immutable class). Under secure coding the fields'
    // values may be property-list values besides the classes the call allows.
    object.fields = try genericFields(
      allowed: allowed.map { $0.union(Self.genericFieldClasses) } ?? Self.mutableInstances)
    return object
  }

  /// The requests for instances of every mutable Foundation class (``instanceRequest(_:)``), which allow no class.
  static let mutableInstances = Set(mutableClasses.map(instanceRequest))
  /// What the fields of a generic object decoded under secure coding may hold besides the classes the call allows.
  static let genericFieldClasses = mutableInstances.union(plistClasses)
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

import ArchiveCoding
import ArchiveSupport
import Foundation
@_spi(PropertyListInternals) import PropertyList

/// Reads keyed archives written by Apple's `NSKeyedArchiver` (or by ``KeyedArchiver``), in the spirit of
/// `NSKeyedUnarchiver`, without crashing on hostile input.
///
/// The container is validated once; objects are then decoded lazily by their index in `$objects` and memoised,
/// so shared references give the same instance. A reference back to an object still inside its
/// `init(coder:)` is an error naming the key path, never a stack overflow; classes that need back references ask
/// for them with ``DecodingCoder/decodeReference(forKey:into:)`` and get them in the link phase, after every
/// object exists. Then the awake phase calls ``Coding/awakeAfter(using:)`` on every decoded instance.
///
/// For data from outside, use ``unarchivedObject(ofClass:from:options:)`` or
/// ``unarchivedObject(ofClasses:from:options:)``: they require secure coding, so the file cannot choose which
/// classes are instantiated.
///
/// The mutable state is declared `@exclusivity(unchecked)`: every field lookup of every `init(coder:)` reads and
/// writes it, and the run-time exclusivity checks cost more than the lookups. No access to it spans a call out
/// of this class (each one reads or writes a value and ends), so there is no overlapping access to check.
public final class KeyedUnarchiver: DecodingCoder {
  /// Options in force.
  public let options: KeyedUnarchiverOptions
  /// The registry used to find the Swift class of an archived class name.
  @exclusivity(unchecked) public var registry: ClassRegistry = .shared
  /// `true` when every decoded object must be of an allowed class that supports secure coding.
  @exclusivity(unchecked) public var requiresSecureCoding: Bool {
    didSet { precondition(!oldValue || requiresSecureCoding, "requiresSecureCoding cannot be turned off once set") }
  }
  /// What a failing decode call does. Default: throw.
  @exclusivity(unchecked) public var decodingFailurePolicy: DecodingFailurePolicy = .throwError
  /// The first recorded error.
  @exclusivity(unchecked) public private(set) var error: (any Error)?
  /// Decode objects of unknown classes as ``ArchivedObject`` instead of failing (never under secure coding).
  @exclusivity(unchecked) public var decodesUnknownClassesGenerically = false
  /// Asked for a class when no other lookup finds one (`$classname`, `$classes`).
  @exclusivity(unchecked) public var classResolver: ((String, [String]) -> (any Coding.Type)?)?

  let reader: BinaryPropertyListReader
  let objectsHeader: BinaryPropertyListReader.Header
  let topHeader: BinaryPropertyListReader.Header

  /// `seenOnce`: a small string or data entry read once without caching it; the second read caches it, so that
  /// an entry referenced many times is shared while one referenced once costs no cache slot
  /// (``isFirstReadOfSmallPayload(_:uid:)``).
  enum State: UInt8 { case notStarted, inProgress, done, seenOnce }
  /// Each entry's state (`cache[state: uid]`), the index of its class chain in `chains` (`cache[chain: uid]`, -1
  /// before it is decoded) and its decoded value.
  @exclusivity(unchecked) var cache: ObjectCache
  /// Plain string entries read more than once, by UID: dictionary keys met twice (``decodeKey(_:index:allowed:)``)
  /// and short ASCII strings ``decodeString(forKey:)`` read twice (not cached in `cache`, see there).
  @exclusivity(unchecked) var plainStrings = PlainStringTable()
  /// The keys of the dictionaries being decoded, when the last ones shared one key list (``DictionaryTemplate``),
  /// and the digest of the last key list of strings met before.
  @exclusivity(unchecked) var dictionaryTemplate: DictionaryTemplate?
  @exclusivity(unchecked) var lastKeysDigest = 0
  /// The class chains met so far. Chain indexes below ``plainChainCount`` are the plain entries' (``plainChains``,
  /// whose checks are in `plainPasses`); index `i` above them is `chains[i - plainChainCount]`. Copying the plain
  /// entries into each archive's table, and freeing them, cost about 1,000 instructions an archive.
  @exclusivity(unchecked) private var chains: [ChainEntry] = []
  @exclusivity(unchecked) private var plainPasses = PlainChainPasses()

  /// A class chain and the allowed-class set it last passed the secure-coding check with: decoding many objects
  /// of one class with one set (the elements of an array) checks once. Sets compare by identity first.
  struct ChainEntry {
    var chain: [String]
    var passedAllowed: Set<String>?

    /// `true` when the chain last passed the check with `allowed`. The set a call passes down to every nested
    /// decode is recognised by its storage reference, without the retains and the call of `==` (about 150
    /// instructions a value in a dictionary of plist values).
    @inline(__always)
    func hasPassed(_ allowed: Set<String>) -> Bool { Self.passed(passedAllowed, matches: allowed) }

    /// `true` when `passed`, the set a chain last passed the check with, is `allowed`.
    @inline(__always)
    static func passed(_ passed: Set<String>?, matches allowed: Set<String>) -> Bool {
      guard let passed else { return false }
      if MemoryLayout<Set<String>>.size == MemoryLayout<Int>.size,
        unsafeBitCast(passed, to: Int.self) == unsafeBitCast(allowed, to: Int.self)
      {
        return true
      }
      return passed == allowed
    }
  }

  /// The allowed-class sets the four ``plainChains`` last passed the check with (see ``ChainEntry``), in place.
  struct PlainChainPasses {
    private var string: Set<String>?
    private var data: Set<String>?
    private var date: Set<String>?
    private var number: Set<String>?

    subscript(index: Int) -> Set<String>? {
      @inline(__always) get {
        switch index {
        case 0: string
        case 1: data
        case 2: date
        default: number
        }
      }
      @inline(__always) set {
        switch index {
        case 0: string = newValue
        case 1: data = newValue
        case 2: date = newValue
        default: number = newValue
        }
      }
    }
  }

  /// The chain at `index` (a plain entry's or a class's, see `chains`).
  private func chain(at index: Int) -> [String] {
    index < Self.plainChainCount ? Self.plainChains[index] : chains[index - Self.plainChainCount].chain
  }

  /// `true` when the chain at `index` last passed the check with `allowed`.
  @inline(__always)
  private func chainHasPassed(_ index: Int, _ allowed: Set<String>) -> Bool {
    index < Self.plainChainCount
      ? ChainEntry.passed(plainPasses[index], matches: allowed)
      : chains[index - Self.plainChainCount].hasPassed(allowed)
  }

  /// Records that the chain at `index` passed the check with `allowed`.
  @inline(__always)
  private func setChainPassed(_ index: Int, _ allowed: Set<String>?) {
    if index < Self.plainChainCount {
      plainPasses[index] = allowed
    } else {
      chains[index - Self.plainChainCount].passedAllowed = allowed
    }
  }
  /// Index in `classEntries` by class-description UID.
  @exclusivity(unchecked) private var classSlots = SmallMap<Int, Int32>()
  @exclusivity(unchecked) private var classEntries: [ClassEntry] = []
  /// The last classes looked up (class-description UID, slot): arrays usually hold objects of one class, and a
  /// few classes alternate.
  @exclusivity(unchecked) private var recentClasses = RecentPairs()
  /// Where `$class` was found in the last few objects: its key object and position in the object's dictionary
  /// (objects of one class have one layout; those of a few classes alternate).
  @exclusivity(unchecked) private var classKeyHints = RecentPairs()
  /// Class entries by the identity of their description (ARC-043).
  @exclusivity(unchecked) private var slotsByIdentity = SmallMap<ClassInfo.Identity, Int32>()
  /// `$classes` and `$classhints` lists already read, by their plist object (ARC-043).
  @exclusivity(unchecked) private var classNameLists = SmallMap<Int, [String]>()
  @exclusivity(unchecked) private var instanceClasses: [String: any Coding.Type] = [:]
  /// The `Codable` bridge's state for this archive (decoded class instances, deferred references).
  var codableContext: AnyObject?

  /// What is known about one archived class description: its resolution, the index of its chain, and where the
  /// fields its `init(coder:)` asks for were found.
  struct ClassEntry {
    var info: ClassInfo
    var resolved: Resolved
    var chainIndex: Int32
    /// `true` once the class passed the supports-secure-coding check.
    var secureChecked = false
    /// The n-th keyed call of an `init(coder:)` of this class: the key asked for, the key object and its
    /// position where it was found last time. Objects of one class usually have the same layout, so the next
    /// object's n-th call is checked against the hint (one string comparison, one reference read) instead of
    /// scanning the dictionary's keys.
    var hints: [FieldHint] = []
    /// `true` once an object of this class was decoded: hints are recorded from the second object on, so an
    /// archive holding one object of a class (most small archives) allocates none.
    var recordsHints = false
  }

  struct FieldHint {
    var key: String
    var keyRef: Int
    var position: Int
    /// Whether `key` is ASCII, worked out when the hint is recorded (see `String.isLiterally(_:selfIsASCII:)`).
    var keyIsASCII: Bool

    /// `true` when `key` is this hint's key, code unit for code unit (ARC-026).
    @inline(__always)
    func isKey(_ key: String) -> Bool { self.key.isLiterally(key, selfIsASCII: keyIsASCII) }
  }

  /// The most keyed calls per object remembered in ``ClassEntry/hints``.
  static let maxHints = 32

  struct Frame {
    /// `key` or `key[index]`, for key paths in errors.
    var pathComponent: String { index >= 0 ? "\(key)[\(index)]" : key }

    var uid: Int
    var header: BinaryPropertyListReader.Header
    var key: String
    /// The element index when the object was reached through an inline array (`NS.objects[3]`), else -1; the
    /// path text is only built for error messages.
    var index: Int = -1
    var linkStart: Int
    /// The next unkeyed slot (`$0`, `$1`, …) of this object.
    var unkeyed = 0
    /// The index of the object's class in `classEntries` (its name is read from there for errors and links).
    var classSlot: Int32
    /// The number of keyed lookups made so far in this object (the index of the next field hint).
    var cursor = 0
    /// The position after the key the last lookup found: where a lookup without a hint starts comparing (keys are
    /// usually read in the order they were written). In a dictionary that holds a key twice (no archiver writes one),
    /// which of the two a lookup finds may depend on the lookups before it.
    var nextPosition = 0

    /// Sets ``cursor`` and ``nextPosition`` in one access.
    @inline(__always)
    mutating func advance(cursor: Int, next: Int) {
      self.cursor = cursor
      nextPosition = next
    }
  }
  @exclusivity(unchecked) private var frames: [Frame] = []
  /// The next unkeyed slot of `$top`.
  @exclusivity(unchecked) private var topUnkeyed = 0

  private struct Link {
    var owner: AnyObject?
    var ownerUID: Int
    var ownerClass: String
    var targetRef: Int
    var key: String
    var allowed: Set<String>?
    var assign: (AnyObject, Any?) throws -> Void
  }
  @exclusivity(unchecked) private var links: [Link] = []
  @exclusivity(unchecked) private var linking = false
  /// Set by `decodeTopLevelObject(of:forKey:)` and `decodeArrayOfObjects(ofClass:forKey:)` for the array they are
  /// about to decode.
  @exclusivity(unchecked) var pendingCollector: PendingCollector?
  /// The allowed class names and the `[T]` collector of the last element type
  /// ``decodeArrayOfObjects(ofClass:forKey:)`` was called with.
  @exclusivity(unchecked) var arrayAllowedMemo: ArrayAllowedMemo?
  /// The last ticket ``decodeArrayOfObjects(ofClass:forKey:)`` handed out, and the ticket of the last
  /// ``ArraySlot`` a collector filled.
  @exclusivity(unchecked) var nextTicket = 0
  @exclusivity(unchecked) var deliveredTicket = 0
  @exclusivity(unchecked) private var awakeList: [(uid: Int, object: any Coding)] = []
  /// Indexes of the generic objects whose fields are being decoded: a reference to one of them closes a cycle and
  /// is handed out as an ``ArchivedObject/BackReference`` (weak), so generic graphs never form strong cycles.
  @exclusivity(unchecked) private var openGenericObjects = Set<Int>()
  /// Stops nesting before the current thread's stack runs out.
  @exclusivity(unchecked) private var stackGuard = StackGuard()

  struct ClassInfo {
    var name: String
    var chain: [String]
    var hints: [String]
    /// What makes two class descriptions the same class: the name and the plist objects of the two lists
    /// (-1 when absent). Descriptions with one identity share one class entry (ARC-043).
    var identity: Identity

    struct Identity: Hashable {
      var name: String
      var chainList: Int
      var hintsList: Int
    }
  }

  /// The UID a field refers to when it is a valid reference to an entry not yet decoded or already decoded as a
  /// plain value (fast paths only).
  func plainTarget(forKey key: String) -> Int? {
    // The UID read from its marker: anything else (or a malformed UID) is `nil`, as its header would make it.
    guard let ref = fieldRef(key), let raw = reader.uidValue(ofObject: ref), raw > 0, raw < UInt64(objectsHeader.count)
    else { return nil }
    let uid = Int(raw)
    return cache[state: uid] == .inProgress ? nil : uid
  }

  /// Undoes the count of the last keyed lookup of the current object, for a fast path that falls back to the
  /// general path (which looks the key up again), so that field hints stay aligned with the calls.
  func rewindFieldCursor() {
    guard let last = frames.indices.last, frames[last].cursor > 0 else { return }
    frames[last].cursor -= 1
    // The lookup again starts at the key just found.
    frames[last].nextPosition = max(0, frames[last].nextPosition - 1)
  }

  /// The class instance `decode(uid:key:index:allowed:)` just gave for `uid`, read from the cache without an
  /// existential cast, or `nil` when the entry holds something else or a back reference may have been given
  /// instead (a generic object whose fields are being decoded).
  @inline(__always)
  func decodedInstance(_ uid: Int) -> AnyObject? {
    openGenericObjects.isEmpty ? cache.instance(uid) : nil
  }

  /// Records a plain string or data entry just read (`header` is its header), as the general path does: cached,
  /// unless this is the first read of a small one (``isFirstReadOfSmallPayload(_:uid:)``).
  func rememberPlain(_ value: consuming Any, uid: Int, chain: Int32, header: BinaryPropertyListReader.Header) {
    if isFirstReadOfSmallPayload(header, uid: uid) { return }
    storePlain(value, uid: uid, chain: chain)
  }

  /// Caches plain entry `uid`, whose chain is `plainChains[chain]`, as decoded.
  private func storePlain(_ value: consuming Any, uid: Int, chain: Int32) {
    cache[state: uid] = .done
    cache.store(value, uid: uid)
    cache[chain: uid] = chain
  }

  /// The longest payload (the bytes of a string or data entry) that is read again on its second use instead of
  /// being cached at its first: most entries are read once, and caching one costs more than reading it. A longer
  /// payload is cached at its first read, so that every reference shares one storage (ARC-007).
  static let rereadPayloadLength = 64

  /// `true` for the first read of a string or data entry of at most ``rereadPayloadLength`` bytes, which is then
  /// marked as read once and not cached; `false` for its second read (which caches it) or a larger one.
  @inline(__always)
  func isFirstReadOfSmallPayload(_ header: BinaryPropertyListReader.Header, uid: Int) -> Bool {
    let bytes = header.kind == .utf16String ? header.count &* 2 : header.count
    guard bytes <= Self.rereadPayloadLength, cache[state: uid] != .seenOnce else { return false }
    cache[state: uid] = .seenOnce
    return true
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
    ]
    for (type, name) in classes {
      let request = mutableClasses.contains(name) ? [instanceRequest(name)] : []
      registry.registerValueType(type, classNames: Set([name] + request))
    }
    registry.registerSuperclass(FoundationClass.decimalNumber, of: FoundationClass.decimalNumberPlaceholder)
  }()

  /// The number of objects being decoded inside one another (0 at the top level).
  var nestingDepth: Int { frames.count }

  /// The number of entries in `$objects`.
  public var objectCount: Int { objectsHeader.count }

  /// Opens an archive (binary or XML) and validates its container and top level.
  /// - Parameters:
  ///   - data: the archive.
  ///   - requiringSecureCoding: whether classes must be allowed explicitly. Default `true`.
  ///   - options: limits.
  /// - Throws: ``ArchiveError`` when the bytes are not a keyed archive.
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
    self.requiresSecureCoding = requiringSecureCoding
    Self.registerValueTypes
    let reader: BinaryPropertyListReader
    // The magic is read from the borrowed bytes when there are some: `format(of:)` reads `Data` through its
    // generic accessors (about 300 instructions).
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
    let root = try reader.header(of: reader.topObject)
    guard root.kind == .dictionary else {
      throw ArchiveError(.unsupportedFormat, "expected a keyed archive's top-level dictionary, found a \(root.kind)")
    }
    let positions = Self.topLevelPositions(in: root, of: reader)
    func entry(_ position: Int?) -> Int? { position.map { reader.dictionaryValue(root, $0) } }
    guard let archiverRef = entry(positions.archiver) else {
      throw ArchiveError(.unsupportedFormat, "not a keyed archive: no $archiver key")
    }
    // Compared as bytes; the string is made only for the error.
    guard reader.isASCIIString(archiverRef, equalTo: ArchiveKeys.archiverName) else {
      let header = try reader.header(of: archiverRef)
      let archiverName = header.kind == .asciiString ? try reader.string(header, object: archiverRef) : ""
      throw ArchiveError(
        .unsupportedFormat, "expected $archiver \"NSKeyedArchiver\", found \"\(archiverName)\"",
        at: .init(keyPath: ArchiveKeys.archiver))
    }
    guard let versionRef = entry(positions.version) else {
      throw ArchiveError(.unsupportedFormat, "not a keyed archive: no $version key")
    }
    let versionHeader = try reader.header(of: versionRef)
    guard versionHeader.kind == .integer,
      try reader.integer(versionHeader, object: versionRef) == .integer(ArchiveKeys.versionNumber)
    else {
      throw ArchiveError(
        .unsupportedFormat, "expected $version 100000, found \(try reader.value(of: versionRef))",
        at: .init(keyPath: ArchiveKeys.version))
    }
    guard let topRef = entry(positions.top), case let top = try reader.header(of: topRef), top.kind == .dictionary
    else {
      throw ArchiveError(.corruptData, "expected a $top dictionary", at: .init(keyPath: ArchiveKeys.top))
    }
    guard let objectsRef = entry(positions.objects), case let objects = try reader.header(of: objectsRef),
      objects.kind == .array
    else {
      throw ArchiveError(.corruptData, "expected an $objects array", at: .init(keyPath: ArchiveKeys.objects))
    }
    guard objects.count <= options.maxObjectCount, objects.count < Int(Int32.max) else {
      throw ArchiveError(
        .limitExceeded,
        "$objects has \(objects.count) entries, more than the limit of \(min(options.maxObjectCount, Int(Int32.max) - 1))"
      )
    }
    self.topHeader = top
    self.objectsHeader = objects
    // The last archive's tables, emptied (Decision 0021). Each is moved out, so that it stays uniquely referenced.
    var tables = UnarchiverTables.take()
    self.cache = ObjectCache(count: objects.count, entries: moveOut(&tables.entries), objects: moveOut(&tables.objects))
    frames = moveOut(&tables.frames)
    classEntries = moveOut(&tables.classEntries)
    chains = moveOut(&tables.chains)
    awakeList = moveOut(&tables.awakeList)
  }

  /// Where the top-level dictionary holds each of its four keys.
  private typealias TopLevelPositions = (archiver: Int?, version: Int?, top: Int?, objects: Int?)

  /// The positions of `$archiver`, `$version`, `$top` and `$objects` in the archive's top-level dictionary, as four
  /// ``BinaryPropertyListReader/lookupPosition(string:inDictionary:from:escaping:)`` calls find them (each key's first
  /// occurrence stored as an ASCII string, else as UTF-16), in one pass over the keys that stops once all four are
  /// found: each key is read once, not once per name (a lookup cost about 300 instructions, and opening a one-object
  /// archive looked up all four).
  private static func topLevelPositions(
    in root: BinaryPropertyListReader.Header, of reader: BinaryPropertyListReader
  )
    -> TopLevelPositions
  {
    var found: TopLevelPositions = (nil, nil, nil, nil)
    var missing = 4
    func matches(_ key: Int, _ name: StaticString) -> Bool {
      name.withUTF8Buffer { reader.isASCIIString(key, equalTo: $0) }
    }
    var position = 0
    while missing > 0, position < root.count {
      let key = reader.element(root, position)
      // In the order ``KeyedArchiver`` writes them: each key is then compared with the name it is first.
      if found.archiver == nil, matches(key, ArchiveKeys.archiverKey) {
        found.archiver = position
        missing -= 1
      } else if found.objects == nil, matches(key, ArchiveKeys.objectsKey) {
        found.objects = position
        missing -= 1
      } else if found.top == nil, matches(key, ArchiveKeys.topKey) {
        found.top = position
        missing -= 1
      } else if found.version == nil, matches(key, ArchiveKeys.versionKey) {
        found.version = position
        missing -= 1
      }
      position += 1
    }
    guard missing > 0 else { return found }
    // A key not stored as an ASCII string: the full lookup reads the UTF-16 ones.
    if found.archiver == nil {
      found.archiver = reader.lookupPosition(string: ArchiveKeys.archiver, inDictionary: root)
    }
    if found.version == nil { found.version = reader.lookupPosition(string: ArchiveKeys.version, inDictionary: root) }
    if found.top == nil { found.top = reader.lookupPosition(string: ArchiveKeys.top, inDictionary: root) }
    if found.objects == nil { found.objects = reader.lookupPosition(string: ArchiveKeys.objects, inDictionary: root) }
    return found
  }

  deinit {
    // The tables go back to the pool emptied, for the next archive (Decision 0021).
    var tables = UnarchiverTables()
    cache.moveTables(into: &tables)
    swap(&frames, &tables.frames)
    swap(&classEntries, &tables.classEntries)
    swap(&chains, &tables.chains)
    swap(&awakeList, &tables.awakeList)
    UnarchiverTables.giveBack(tables)
  }

  /// Decodes the root object of an untrusted archive, allowing only `type` (and the Foundation classes it needs).
  /// - Returns: the root, or `nil` when the archive's root is `nil`.
  /// - Throws: ``ArchiveError`` for corrupt data, a disallowed or unknown class, or a failing `init(coder:)`.
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
  private static func withTemporaryUnarchiver<R>(
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

  /// Decodes `className` as `type` in this archive, before any other lookup.
  public func setClass(_ type: (any Coding.Type)?, forClassName className: String) {
    instanceClasses[className] = type
  }

  /// The keys of `$top`.
  public var topLevelKeys: [String] {
    (0..<topHeader.count).compactMap(topLevelKey(at:))
  }

  /// The key of `$top`'s entry at `position`, or `nil` when it is not a string.
  private func topLevelKey(at position: Int) -> String? {
    let ref = reader.element(topHeader, position)
    guard let header = try? reader.header(of: ref), header.kind == .asciiString || header.kind == .utf16String
    else { return nil }
    return try? reader.string(header, object: ref)
  }

  /// Decodes the object of every `$top` entry whose key is a string, in stored order (duplicates included), each
  /// read at its position: `keyed validate` looked every key up again, a scan of `$top` each, quadratic in its size
  /// (100,000 keys took 23 s).
  /// Called from outside any object's `init(coder:)`.
  /// - Throws: ``ArchiveError`` as ``decodeObject(forStoredKey:allowedClasses:)``, located at the entry's key.
  package func decodeEveryTopLevelObject(allowedClasses: Set<String>?) throws {
    for position in 0..<topHeader.count {
      guard let key = topLevelKey(at: position) else { continue }
      let ref = reader.dictionaryValue(topHeader, position)
      _ = try located(key) { try object(atFieldRef: ref, key: key, allowed: allowedClasses) }
    }
  }

  /// Ends decoding; throws the first error recorded under ``DecodingFailurePolicy/setErrorAndReturn``.
  public func finishDecoding() throws {
    if let error { throw error }
  }

  // MARK: DecodingCoder core

  /// The dictionary of the object being decoded (`$top` outside any object).
  var currentHeader: BinaryPropertyListReader.Header { frames.last?.header ?? topHeader }

  /// The property-list object stored under a key of the current object, or `nil`.
  func fieldRef(_ key: String) -> Int? {
    guard let last = frames.indices.last else { return storedFieldRef(KeyedArchiver.escape(key)) }
    // The frame's fields are read first and written once at the end (`advance`): each write to the array checks
    // its uniqueness.
    let header = frames[last].header
    let slot = Int(frames[last].classSlot)
    let call = frames[last].cursor
    let next = frames[last].nextPosition
    guard slot >= 0 else {
      frames[last].advance(cursor: call + 1, next: next)
      return storedFieldRef(KeyedArchiver.escape(key))
    }
    if call < classEntries[slot].hints.count {
      // Read in place: a copy of the hint would retain its key.
      let position = classEntries[slot].hints[call].position
      if position < header.count, reader.element(header, position) == classEntries[slot].hints[call].keyRef,
        classEntries[slot].hints[call].isKey(key)
      {
        frames[last].advance(cursor: call + 1, next: position + 1)
        return reader.dictionaryValue(header, position)
      }
    }
    // The key after the last one found, usually the one asked for, is probed first.
    guard
      let position = reader.hasASCIIKey(key, at: next, in: header, escaping: KeyedArchiver.escapeByte)
        ? next
        : reader.lookupPosition(string: key, inDictionary: header, from: next, escaping: KeyedArchiver.escapeByte)
    else {
      frames[last].advance(cursor: call + 1, next: next)
      return nil
    }
    frames[last].advance(cursor: call + 1, next: position + 1)
    if classEntries[slot].recordsHints, call <= classEntries[slot].hints.count, call < Self.maxHints {
      let hint = FieldHint(
        key: key, keyRef: reader.element(header, position), position: position,
        keyIsASCII: key.isASCII)
      if call == classEntries[slot].hints.count {
        // Room for a typical class's keys at once, instead of growing the array at 1, 2, 4, 8 and 16 hints.
        if call == 0 { classEntries[slot].hints.reserveCapacity(16) }
        classEntries[slot].hints.append(hint)
      } else {
        classEntries[slot].hints[call] = hint
      }
    }
    return reader.dictionaryValue(header, position)
  }

  /// The property-list object stored under a key exactly as written in the archive (no `$` escaping).
  func storedFieldRef(_ stored: String) -> Int? {
    let header = currentHeader
    return reader.lookupPosition(string: stored, inDictionary: header).map { reader.dictionaryValue(header, $0) }
  }

  /// `true` when the current object has the key.
  public func containsValue(forKey key: String) -> Bool { fieldRef(key) != nil }

  /// Decodes the next unkeyed object of the current scope, as `NSCoder.decodeObject()`: the values that unkeyed
  /// `encode(_:)` calls wrote under the generated keys `$0`, `$1`, … (a counter per object, and one for `$top`).
  /// Archives written with `NSKeyedArchiver.encode(_:)` at the top level (such as `$top = {$0, $1, …}`) are read
  /// this way; `decodeObject(forKey: "$0")` reads the user key `$0` (stored as `$$0`) instead.
  /// - Returns: the object, or `nil` when the slot holds `nil` or the scope has no more unkeyed values.
  /// - Throws: ``ArchiveError`` as ``decodeObject(forKey:allowedClasses:)``.
  public func decodeObject() throws -> Any? {
    let key: String
    if frames.isEmpty {
      key = "$\(topUnkeyed)"
      topUnkeyed += 1
    } else {
      key = "$\(frames[frames.count - 1].unkeyed)"
      frames[frames.count - 1].unkeyed += 1
    }
    return try applyingFailurePolicy(nil) {
      try located(key) {
        guard let ref = storedFieldRef(key) else { return nil }
        return try object(atFieldRef: ref, key: key, allowed: nil)
      }
    }
  }

  /// Decodes the object under a key exactly as stored in the archive, without `$` escaping: for walking an
  /// archive generically, such as every key of ``topLevelKeys`` (where `$0` is an unkeyed slot, while
  /// `decodeObject(forKey: "$0")` would read the user key `$0`, stored as `$$0`).
  /// - Throws: ``ArchiveError`` as ``decodeObject(forKey:allowedClasses:)``.
  public func decodeObject(forStoredKey key: String, allowedClasses: Set<String>?) throws -> Any? {
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

  private func codedValue(_ ref: Int, key: String) throws -> CodedValue? {
    let header = try reader.header(of: ref)
    switch header.kind {
    case .bool: return .bool(header.count == 1)
    case .integer:
      switch try reader.integer(header, object: ref) {
      case .unsignedInteger(let v): return .unsignedInteger(v)
      case .integer(let v): return .integer(v)
      default: return nil
      }
    case .real:
      if case .float(let v) = reader.real(header) { return .float(v) }
      if case .real(let v) = reader.real(header) { return .double(v) }
      return nil
    case .data: return .bytes(reader.data(header))
    case .asciiString, .utf16String: return .string(try reader.string(header, object: ref))
    case .uid:
      let uid = try checkedUID(reader.uid(header), key: key)
      if uid == 0 { return nil }
      let target = reader.element(objectsHeader, uid)
      let targetHeader = try reader.header(of: target)
      guard targetHeader.kind != .dictionary, targetHeader.kind != .array, targetHeader.kind != .uid else {
        throw ArchiveError(
          .typeMismatch, "expected a primitive value, found a reference to object #\(uid)", at: .init(keyPath: key))
      }
      if targetHeader.kind == .asciiString, reader.isASCIIString(target, equalTo: ArchiveKeys.null) {
        return nil
      }
      return try codedValue(target, key: key)
    case .date: return .double(reader.date(header).timeIntervalSinceReferenceDate)
    case .array, .set, .dictionary:
      throw ArchiveError(
        .typeMismatch, "expected a primitive value, found an inline \(header.kind)", at: .init(keyPath: key))
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

  /// Defers decoding the object under a key to the link phase.
  public func decodeDeferred(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void
  ) throws {
    guard let frame = frames.last else {
      throw ArchiveError(.other, "decodeReference(forKey:into:) can only be used inside init(coder:)")
    }
    guard let ref = fieldRef(key) else {
      return
    }
    links.append(
      Link(
        owner: nil, ownerUID: frame.uid, ownerClass: className(of: frame), targetRef: ref, key: key,
        allowed: allowedClasses, assign: assign))
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

  /// Runs `body` and adds the current object's index, class and key path to any ``ArchiveError`` it throws.
  private func located<T>(_ key: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as ArchiveError {
      throw error.located(in: currentLocation(key))
    }
  }

  func currentLocation(_ key: String) -> ArchiveError.Location {
    let path = (frames.map(\.pathComponent) + [key]).joined(separator: ".")
    guard let frame = frames.last else { return .init(keyPath: path) }
    return .init(objectIndex: frame.uid, className: className(of: frame), keyPath: path)
  }

  /// The archived class name of the object of a frame.
  private func className(of frame: Frame) -> String {
    classEntries[Int(frame.classSlot)].info.name
  }

  /// Decodes `$objects[uid]` (memoised), checking the allowed classes.
  func decode(uid: Int, key: String, index: Int = -1, allowed: Set<String>?) throws -> Any? {
    if uid == 0 { return nil }
    switch cache[state: uid] {
    case .done:
      let chainIndex = Int(cache[chain: uid])
      if chainIndex >= 0 { try checkAllowed(chainIndex: chainIndex, allowed: allowed, uid: uid) }
      if !openGenericObjects.isEmpty, openGenericObjects.contains(uid), let object = cache[uid] as? ArchivedObject {
        return ArchivedObject.BackReference(object)
      }
      return cache[uid]
    case .inProgress:
      let chainIndex = Int(cache[chain: uid])
      let name = chainIndex >= 0 ? chain(at: chainIndex).first ?? "?" : "?"
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
      // read in place (through `plainValue`, two calls and a `PropertyListValue` in between cost about 90
      // instructions more a number). It is never cached, and never in progress. A 16-byte integer and a 4-byte
      // real take the general path.
      switch header.kind {
      case .integer:
        if let value = reader.int64(header) {
          try checkAllowed(chainIndex: Self.numberChainIndex, allowed: allowed, uid: uid)
          return Int(value)
        }
      case .real where header.count == 8:
        try checkAllowed(chainIndex: Self.numberChainIndex, allowed: allowed, uid: uid)
        return reader.double(header)
      case .bool:
        try checkAllowed(chainIndex: Self.numberChainIndex, allowed: allowed, uid: uid)
        return header.count == 1
      default:
        break
      }
      // Bound from the call's result, not from an `Any?` variable: binding one copies it through `Optional`'s
      // generic witnesses (about 130 instructions).
      guard let value = try plainValue(ref, header: header) else {
        if !header.kind.isScalar { cache[state: uid] = .done }
        return nil
      }
      let chainIndex = Self.plainChainIndex(of: header.kind)
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
    if frames.isEmpty { stackGuard = StackGuard() }
    let slot = try classSlot(classUID: classUID, objectUID: uid)
    // The class entry's fields are read in place: copying the entry would retain every string and array in it.
    let chainIndex = classEntries[slot].chainIndex
    if requiresSecureCoding {
      if !classEntries[slot].secureChecked || !(allowed.map { chainHasPassed(Int(chainIndex), $0) } ?? false) {
        let resolved = classEntries[slot].resolved
        try checkAllowed(chain: resolved.chain, allowed: allowed, uid: uid, resolved: resolved)
        setChainPassed(Int(chainIndex), allowed)
        classEntries[slot].secureChecked = true
      }
    }
    cache[state: uid] = .inProgress
    cache[chain: uid] = chainIndex
    frames.append(
      Frame(
        uid: uid, header: header, key: key, index: index,
        linkStart: links.count, classSlot: Int32(slot)))
    let value: Any?
    var instance: (any Coding)?
    var stored = false
    do {
      if case .coding(let type) = classEntries[slot].resolved.kind {
        // The common case, as `instantiate` does it.
        let object = try type.init(coder: self)
        awakeList.append((uid, object))
        instance = object
        value = object
      } else if case .foundation(let name) = classEntries[slot].resolved.kind {
        // Without copying the class entry's description (its strings and lists). Stored here, bound from the
        // call's result: binding the `Any?` variable later would copy it through `Optional`'s generic witnesses.
        if let decoded = try decodeFoundation(className: name, uid: uid, allowed: allowed) {
          cache.store(copy decoded, uid: uid)
          stored = true
          value = decoded
        } else {
          value = nil
        }
      } else {
        value = try instantiate(
          classEntries[slot].resolved, info: classEntries[slot].info, uid: uid, allowed: allowed)
      }
    } catch let error as ArchiveError {
      throw unwind(error, uid: uid, className: classEntries[slot].info.name)
    } catch {
      throw unwind(
        ArchiveError(.other, "init(coder:) failed", underlying: error), uid: uid,
        className: classEntries[slot].info.name)
    }
    let linkStart = frames[frames.count - 1].linkStart
    frames.removeLast()
    classEntries[slot].recordsHints = true
    // Only class instances from `init(coder:)` own link requests; `as AnyObject` on a value would bridge it.
    if linkStart < links.count, let instance {
      for index in linkStart..<links.count where links[index].owner == nil { links[index].owner = instance }
    }
    cache[state: uid] = .done
    if let instance {
      cache.setObject(instance, uid: uid)
    } else if !stored {
      cache[uid] = value
    }
    if frames.isEmpty, !linking {
      // The object under the key is done. A collector a typed call left for it (it was not an array) is dropped,
      // so that no array the link or awake phase decodes at the same depth takes it: that array would be collected
      // as the call's type, and its copy given back to the call (Decision 0020).
      pendingCollector = nil
      try runLinkAndAwakePhases()
      // An error an init(coder:) reported with failWithError(_:) fails the top-level decode.
      if decodingFailurePolicy == .throwError, let error { throw error }
      // The awake phase may have replaced the object.
      return cache[uid]
    }
    return value
  }

  /// The value of `$class` in an object's dictionary: at the position where it was found last time when the same
  /// key object is there, else by scanning the keys from the first (the first `$class` of a dictionary that holds
  /// two, as Foundation and the Codable bridge read it; starting from the last key, where ``KeyedArchiver`` writes
  /// it, saved about 200 instructions an archive but took the last one).
  private func classRef(in header: BinaryPropertyListReader.Header) -> Int? {
    for i in 0..<RecentPairs.count {
      let (keyRef, position) = classKeyHints.pair(i)
      if position >= 0, position < header.count, reader.element(header, position) == keyRef {
        return reader.dictionaryValue(header, position)
      }
    }
    guard let position = reader.lookupPosition(string: ArchiveKeys.class, inDictionary: header) else { return nil }
    classKeyHints.insert(position, for: reader.element(header, position))
    return reader.dictionaryValue(header, position)
  }

  /// The index in `classEntries` of the class description `classUID`, resolving it the first time (registry
  /// lookups take a lock). Also enforces the depth limit for the object about to be decoded.
  private func classSlot(classUID: Int, objectUID uid: Int) throws -> Int {
    let known: Int?
    if let recent = recentClasses.value(for: classUID) {
      known = recent
    } else {
      known = classSlots[classUID].map { Int($0) }
      if let known { recentClasses.insert(known, for: classUID) }
    }
    if let known {
      guard frames.count < options.maxDepth, stackGuard.hasRoom() else {
        throw depthError(uid: uid, className: classEntries[known].info.name)
      }
      return known
    }
    let info = try classInfo(uid: classUID, of: uid)
    guard frames.count < options.maxDepth, stackGuard.hasRoom() else {
      throw depthError(uid: uid, className: info.name)
    }
    // Another description of the same class (same name, same lists) shares its entry: resolving and checking the
    // chain once per description would let many descriptions of one long chain cost millions of lookups.
    if let same = slotsByIdentity[info.identity] {
      classSlots[classUID] = same
      recentClasses.insert(Int(same), for: classUID)
      return Int(same)
    }
    let resolved = try resolve(info, uid: uid)
    let chainIndex = Int32(Self.plainChainCount + chains.count)
    chains.append(ChainEntry(chain: resolved.chain))
    let slot = Int32(classEntries.count)
    classEntries.append(ClassEntry(info: info, resolved: resolved, chainIndex: chainIndex))
    classSlots[classUID] = slot
    slotsByIdentity[info.identity] = slot
    recentClasses.insert(Int(slot), for: classUID)
    return Int(slot)
  }

  private func depthError(uid: Int, className: String) -> ArchiveError {
    ArchiveError(
      .limitExceeded,
      "objects nest deeper than the limit of \(options.maxDepth) or than this thread's stack allows; "
        + "decode long chains with decodeReference(forKey:into:)",
      at: .init(objectIndex: uid, className: className))
  }

  /// The dictionary key at `uid` when it is a plain string already read twice, checked against `allowed`
  /// as ``decode(uid:key:index:allowed:)`` would check it; `nil` otherwise (the caller decodes it).
  func repeatedStringKey(_ uid: Int, allowed: Set<String>?) throws -> String? {
    guard let string = plainStrings[uid] else { return nil }
    try checkStringKeyAllowed(uid: uid, allowed: allowed)
    return string
  }

  /// The allowed-class check of plain string entry `uid` (a dictionary key).
  func checkStringKeyAllowed(uid: Int, allowed: Set<String>?) throws {
    try checkAllowed(chainIndex: 0, allowed: allowed, uid: uid)
  }

  /// Decodes dictionary key `uid` (at `index` of `NS.keys`), and remembers it for ``repeatedStringKey(_:allowed:)``
  /// when it is a plain string met before: keys used once (an outer dictionary's) are not kept.
  func decodeKey(_ uid: Int, index: Int, allowed: Set<String>?) throws -> Any? {
    // Read before (`.seenOnce`), or cached: a plain string is cached from its second read on.
    let metBefore = uid > 0 && uid < cache.count && (cache[state: uid] == .seenOnce || cache[state: uid] == .done)
    let key = try decode(uid: uid, key: ArchiveKeys.nsKeys, index: index, allowed: allowed)
    if metBefore, cache[chain: uid] == 0, let key, type(of: key) == String.self, let string = key as? String {
      plainStrings.insert(string, for: uid)
    }
    return key
  }

  /// The allowed-class check of a decoded entry's chain, skipped when the chain passed it with the same set.
  private func checkAllowed(chainIndex: Int, allowed: Set<String>?, uid: Int) throws {
    guard requiresSecureCoding else { return }
    if let allowed, chainHasPassed(chainIndex, allowed) { return }
    try checkAllowed(chain: chain(at: chainIndex), allowed: allowed, uid: uid)
    setChainPassed(chainIndex, allowed)
  }

  /// Leaves the frame of object `uid` after its decoding failed, locating the error. An error that has no object
  /// index yet was raised by this object's own `init(coder:)` (a typed decode helper, `failWithError`, or a
  /// Foundation class's field check), so its key is relative to this object and gets the path from the root.
  private func unwind(_ error: ArchiveError, uid: Int, className: String) -> ArchiveError {
    var located = error
    if error.location.objectIndex == nil {
      let path = frames.map(\.pathComponent).joined(separator: ".")
      located.location.keyPath = error.location.keyPath.map { path + "." + $0 } ?? path
    }
    frames.removeLast()
    cache[state: uid] = .notStarted
    return located.located(in: .init(objectIndex: uid, className: className))
  }

  /// Makes `object` the value of `$objects[uid]` before its contents are decoded, so references back to it (a
  /// collection that contains itself) resolve to it instead of being a cycle error.
  func publishEarly(_ object: AnyObject, uid: Int) {
    cache[uid] = object
    cache[state: uid] = .done
  }

  /// Decodes deferred references, then sends `awakeAfter(using:)` to every decoded ``Coding`` instance.
  private func runLinkAndAwakePhases() throws {
    linking = true
    defer { linking = false }
    var index = 0
    while index < links.count {
      let link = links[index]
      index += 1
      guard let owner = link.owner else { continue }
      let location = ArchiveError.Location(objectIndex: link.ownerUID, className: link.ownerClass, keyPath: link.key)
      do {
        let value = try object(atFieldRef: link.targetRef, key: link.key, allowed: link.allowed)
        try link.assign(owner, value)
      } catch let error as ArchiveError {
        throw error.located(in: location)
      }
    }
    links.removeAll()
    var pending = moveOut(&awakeList)
    for (uid, object) in pending {
      let replacement = try object.awakeAfter(using: self)
      if replacement !== object { cache[uid] = replacement }
    }
    // The list's buffer is kept for the tables' next archive (Decision 0021), unless an awake call added to it.
    if awakeList.isEmpty {
      pending.removeAll(keepingCapacity: true)
      awakeList = pending
    }
  }

  private func classInfo(uid classUID: Int, of objectUID: Int) throws -> ClassInfo {
    let ref = reader.element(objectsHeader, classUID)
    let header = try reader.header(of: ref)
    // Made only when thrown, as the messages.
    var location: ArchiveError.Location { ArchiveError.Location(objectIndex: objectUID, keyPath: ArchiveKeys.class) }
    guard header.kind == .dictionary else {
      throw ArchiveError(
        .corruptData, "$class refers to object #\(classUID), a \(header.kind), not a class description", at: location)
    }
    guard let nameRef = reader.lookup(string: ArchiveKeys.className, inDictionary: header),
      case let nameHeader = try reader.header(of: nameRef),
      nameHeader.kind == .asciiString || nameHeader.kind == .utf16String
    else {
      throw ArchiveError(
        .corruptData, "class description #\(classUID) has no string $classname", at: location)
    }
    // A name is hashed and compared while its class is resolved: a long one would make each lookup cost its length.
    func checkLength(_ header: BinaryPropertyListReader.Header, _ key: String, index: Int = -1) throws {
      guard header.count <= options.maxClassNameLength else {
        let what = index < 0 ? key : "\(key)[\(index)]"
        throw ArchiveError(
          .limitExceeded,
          "class description #\(classUID): \(what) is \(header.count) characters long, more than the limit of "
            + "\(options.maxClassNameLength)", at: location)
      }
    }
    try checkLength(nameHeader, ArchiveKeys.className)
    let name = try reader.string(nameHeader, object: nameRef)
    // `$classes` and `$classhints` are optional, but when present they are arrays of class names. A list shared by
    // many class descriptions is read once (ARC-043): read for each, a small archive could make millions of names.
    func strings(_ key: String, at position: Int?) throws -> (names: [String], list: Int) {
      guard let position else { return ([], -1) }
      let ref = reader.dictionaryValue(header, position)
      if let known = classNameLists[ref] { return (known, ref) }
      let list = try reader.header(of: ref)
      // Made only when thrown: the message's interpolation would cost more than reading a short list.
      func corrupt() -> ArchiveError {
        ArchiveError(
          .corruptData, "class description #\(classUID): \(key) is not an array of class names", at: location)
      }
      guard list.kind == .array else { throw corrupt() }
      guard list.count <= options.maxClassChainLength else {
        throw ArchiveError(
          .limitExceeded,
          "class description #\(classUID): \(key) lists \(list.count) class names, more than the limit of "
            + "\(options.maxClassChainLength)", at: location)
      }
      let names = try (0..<list.count).map { i in
        let element = reader.element(list, i)
        let h = try reader.header(of: element)
        guard h.kind == .asciiString || h.kind == .utf16String else { throw corrupt() }
        try checkLength(h, key, index: i)
        return try reader.string(h, object: element)
      }
      classNameLists[ref] = names
      return (names, ref)
    }
    let classesPosition = reader.lookupPosition(string: ArchiveKeys.classes, inDictionary: header)
    let chain = try strings(ArchiveKeys.classes, at: classesPosition)
    // A description of two keys, `$classname` and `$classes` (what archivers write), has no `$classhints`: a key
    // that is not there costs a scan of every key, twice (as ASCII, then as UTF-16).
    let hintsPosition =
      header.count == 2 && classesPosition != nil
      ? nil : reader.lookupPosition(string: ArchiveKeys.classHints, inDictionary: header)
    let hints = try strings(ArchiveKeys.classHints, at: hintsPosition)
    let info = ClassInfo(
      name: name, chain: chain.names, hints: hints.names,
      identity: .init(name: name, chainList: chain.list, hintsList: hints.list))
    return info
  }

  // MARK: Class resolution

  struct Resolved {
    enum Kind {
      case coding(any Coding.Type)
      case foundation(String)
      case generic
    }
    var kind: Kind
    /// The chain the allowed-class check uses: from our own knowledge of the class, never from the archive's
    /// `$classes` (a file must not be able to claim a superclass it does not have).
    var chain: [String]
    /// The ``SecureCoding`` class of a `.coding` kind, `nil` when it is not one (or the kind is another).
    var secureType: (any SecureCoding.Type)?

    init(kind: Kind, chain: [String], secureType: (any SecureCoding.Type)? = nil) {
      self.kind = kind
      self.chain = chain
      if case .coding(let type) = kind { self.secureType = secureType ?? (type as? any SecureCoding.Type) }
    }
  }

  private func resolve(_ info: ClassInfo, uid: Int) throws -> Resolved {
    // The class's own name, then its superclasses' (but `NSObject`), then the hints.
    func candidate(_ name: String) -> Resolved? {
      if let type = instanceClasses[name] {
        return Resolved(kind: .coding(type), chain: registry.classChain(for: type))
      }
      let resolution = registry.resolution(forClassName: name)
      if let type = resolution.type {
        return Resolved(kind: .coding(type), chain: resolution.chain, secureType: resolution.secureType)
      }
      if Self.foundationClassNames.contains(name) { return Resolved(kind: .foundation(name), chain: resolution.chain) }
      return nil
    }
    if let resolved = candidate(info.name) { return resolved }
    for name in info.chain.dropFirst() where name != FoundationClass.object {
      if let resolved = candidate(name) { return resolved }
    }
    for name in info.hints {
      if let resolved = candidate(name) { return resolved }
    }
    if let resolver = classResolver, let type = resolver(info.name, info.chain) {
      return Resolved(kind: .coding(type), chain: registry.classChain(for: type))
    }
    if decodesUnknownClassesGenerically, !requiresSecureCoding {
      return Resolved(kind: .generic, chain: [info.name])
    }
    throw ArchiveError(
      .classNotFound,
      "cannot decode object of class \(info.name): no class is registered under that name"
        + (info.chain.count > 1 ? " or its superclasses \(info.chain.dropFirst().joined(separator: ", "))" : ""),
      at: .init(objectIndex: uid, className: info.name))
  }

  private func checkAllowed(chain: [String], allowed: Set<String>?, uid: Int, resolved: Resolved? = nil) throws {
    guard requiresSecureCoding else { return }
    let name = chain.first ?? "?"
    guard let allowed else {
      throw ArchiveError(
        .classNotAllowed,
        "secure decoding needs the allowed classes: use decodeObject(of:forKey:) to decode the \(name)",
        at: .init(objectIndex: uid, className: name))
    }
    guard registry.isAllowed(chain: chain, by: allowed) else {
      throw ArchiveError(
        .classNotAllowed,
        "value is of class \(name), which is not among the allowed classes "
          + allowed.filter { !$0.contains("#") }.sorted().joined(separator: ", "),
        at: .init(objectIndex: uid, className: name))
    }
    if let resolved, case .coding = resolved.kind {
      guard let secure = resolved.secureType, secure.supportsSecureCoding else {
        throw ArchiveError(
          .classNotAllowed, "class \(name) does not support secure coding", at: .init(objectIndex: uid, className: name)
        )
      }
    }
  }

  private func instantiate(_ resolved: Resolved, info: ClassInfo, uid: Int, allowed: Set<String>?) throws -> Any? {
    switch resolved.kind {
    case .coding(let type):
      let object = try type.init(coder: self)
      awakeList.append((uid, object))
      return object
    case .foundation(let name):
      return try decodeFoundation(className: name, uid: uid, allowed: allowed)
    case .generic:
      let object = ArchivedObject(className: info.name, classChain: info.chain, objectIndex: uid)
      // Cached before its fields are read, so generic objects may refer back to themselves.
      cache[uid] = object
      cache[state: uid] = .done
      openGenericObjects.insert(uid)
      defer { openGenericObjects.remove(uid) }
      object.fields = try genericFields(allowed: allowed)
      return object
    }
  }

  /// The current object's fields, decoded generically.
  private func genericFields(allowed: Set<String>?) throws -> [ArchivedObject.Entry] {
    let header = currentHeader
    var entries: [ArchivedObject.Entry] = []
    for i in 0..<header.count {
      let keyRef = reader.element(header, i)
      let keyHeader = try reader.header(of: keyRef)
      guard keyHeader.kind == .asciiString || keyHeader.kind == .utf16String else { continue }
      let key = try reader.string(keyHeader, object: keyRef)
      if key == ArchiveKeys.class { continue }
      let valueRef = reader.dictionaryValue(header, i)
      let valueHeader = try reader.header(of: valueRef)
      switch valueHeader.kind {
      case .uid:
        let uid = try checkedUID(reader.uid(valueHeader), key: key)
        entries.append(.init(key: key, value: .object(try decode(uid: uid, key: key, allowed: allowed))))
      case .array:
        var objects: [Any?] = []
        for j in 0..<valueHeader.count {
          let element = reader.element(valueHeader, j)
          let elementHeader = try reader.header(of: element)
          if elementHeader.kind == .uid {
            objects.append(
              try decode(uid: try checkedUID(reader.uid(elementHeader), key: key), key: key, allowed: allowed))
          } else {
            objects.append(try reader.value(of: element))
          }
        }
        entries.append(.init(key: key, value: .objects(objects)))
      default:
        entries.append(.init(key: key, value: .value(try reader.value(of: valueRef))))
      }
    }
    return entries
  }

  /// A plain `$objects` entry (string, number, data) as a Swift value; `"$null"` is `nil`.
  func plainValue(_ ref: Int, header: BinaryPropertyListReader.Header) throws -> Any? {
    switch header.kind {
    case .asciiString, .utf16String:
      let string = try reader.string(header, object: ref)
      return string == ArchiveKeys.null ? nil : string
    case .bool: return header.count == 1
    case .integer:
      switch try reader.integer(header, object: ref) {
      case .integer(let v): return Int(v)
      case .unsignedInteger(let v): return v
      default: return nil
      }
    case .real:
      switch reader.real(header) {
      case .float(let v): return v
      case .real(let v): return v
      default: return nil
      }
    case .data: return reader.data(header)
    case .date: return reader.date(header)
    case .uid, .array, .set, .dictionary:
      throw ArchiveError(
        .corruptData, "expected an object or a plain value, found a \(header.kind)",
        at: .init(byteOffset: (try? reader.offset(of: ref)) ?? 0, objectIndex: nil))
    }
  }

  /// The number of ``plainChains`` (a constant: the array's count is read through its global's accessor).
  static var plainChainCount: Int { 4 }

  /// The chains of plain `$objects` entries, at the first chain indexes (see `chains`).
  static let plainChains: [[String]] = [
    [FoundationClass.string, FoundationClass.object], [FoundationClass.data, FoundationClass.object],
    [FoundationClass.date, FoundationClass.object],
    [FoundationClass.number, FoundationClass.value, FoundationClass.object],
  ]

  /// The index in `plainChains` of `NSNumber`'s chain (integers, reals and booleans).
  static var numberChainIndex: Int { 3 }

  /// The index in `plainChains` of the value ``plainValue(_:header:)`` makes of an entry of this kind (read from
  /// the kind: a cast of the value would look up its type).
  static func plainChainIndex(of kind: BinaryPropertyListReader.Kind) -> Int {
    switch kind {
    case .asciiString, .utf16String: 0
    case .data: 1
    case .date: 2
    default: numberChainIndex
    }
  }

}

extension KeyedUnarchiver {
  /// Decodes `$objects[uid]` with no class restriction (for validation); class descriptions are skipped.
  public func decodeAny(uid: Int) throws -> Any? {
    guard uid > 0, uid < objectCount else { return nil }
    let ref = reader.element(objectsHeader, uid)
    let header = try reader.header(of: ref)
    if header.kind == .dictionary, reader.lookup(string: ArchiveKeys.className, inDictionary: header) != nil {
      return nil
    }
    return try decode(uid: uid, key: "$objects[\(uid)]", allowed: nil)
  }
}

import ArchiveCoding
import ArchiveSupport

extension KeyedUnarchiver {
  /// The tables and counters one unarchiver changes while it decodes: every field lookup of every `init(coder:)`
  /// reads and writes them.
  struct UnarchiverState {
    /// ``KeyedUnarchiver/registry``.
    var registry: ClassRegistry = .shared
    /// ``KeyedUnarchiver/requiresSecureCoding``.
    var requiresSecureCoding: Bool
    /// ``KeyedUnarchiver/decodingFailurePolicy``.
    var decodingFailurePolicy: DecodingFailurePolicy = .throwError
    /// ``KeyedUnarchiver/error``.
    var error: (any Error)?
    /// Each entry's state (`cache[state: uid]`), the index of its class chain in `secureCoding` (`cache[chain: uid]`, -1
    /// before it is decoded) and its decoded value.
    var cache: ObjectCache
    /// Plain string entries read more than once, by UID: dictionary keys met twice (``decodeKey(_:index:allowed:)``)
    /// and short ASCII strings ``decodeString(forKey:)`` read twice (not cached in `cache`, see there).
    var plainStrings = PlainStringTable()
    /// The keys of the dictionaries being decoded, when the last ones shared one key list (``DictionaryTemplate``),
    /// and the digest of the last key list of strings met before.
    var dictionaryTemplate: DictionaryTemplate?
    var lastKeysDigest = 0
    /// The class chains met so far and the allowed-class sets they passed the secure-coding check with.
    var secureCoding = SecureCodingMemo()

    /// Index in `classEntries` by class-description UID.
    var classSlots = SmallMap<Int, Int32>()
    var classEntries: [ClassEntry] = []
    /// The last classes looked up (class-description UID, slot): arrays usually hold objects of one class, and a
    /// few classes alternate.
    var recentClasses = RecentPairs()
    /// Where `$class` was found in the last few objects: its key object and position in the object's dictionary
    /// (objects of one class have one layout; those of a few classes alternate).
    var classKeyHints = RecentPairs()
    /// Class entries by the identity of their description (ARC-043).
    var slotsByIdentity = SmallMap<ClassInfo.Identity, Int32>()
    /// `$classes` and `$classhints` lists already read, by their plist object (ARC-043).
    var classNameLists = SmallMap<Int, [String]>()
    var instanceClasses: [String: any Coding.Type] = [:]

    var frames: [Frame] = []
    /// ``KeyedUnarchiver/allowedClasses`` while an `init(coder:)` runs.
    var allowedClasses: Set<String>?
    /// The next unkeyed slot of `$top`.
    var topUnkeyed = 0

    var links: [Link] = []
    var linking = false
    /// Set by `decodeTopLevelObject(of:forKey:)` and `decodeArrayOfObjects(ofClass:forKey:)` for the array they are
    /// about to decode.
    var pendingCollector: PendingCollector?
    /// The allowed class names and the `[T]` collector of the last element type
    /// ``decodeArrayOfObjects(ofClass:forKey:)`` was called with.
    var arrayAllowedMemo: ArrayAllowedMemo?
    var awakeList: [(uid: Int, object: any Coding)] = []
    /// Indexes of the generic objects whose fields are being decoded: a reference to one of them closes a cycle and
    /// is handed out as an ``ArchivedObject/BackReference`` (weak), so generic graphs never form strong cycles.
    var openGenericObjects = Set<Int>()
    /// Stops nesting before the current thread's stack runs out.
    var stackGuard = StackGuard()

    init(cache: ObjectCache, requiresSecureCoding: Bool) {
      self.cache = cache
      self.requiresSecureCoding = requiresSecureCoding
    }
  }

  /// Holds ``UnarchiverState``, whose accesses skip the run-time exclusivity checks: the checks cost more than
  /// most of the lookups they guard. Each access reads or writes one field of the state and ends before any other
  /// code runs (no access spans a call out of the unarchiver, such as an `init(coder:)`), so accesses never overlap.
  final class Storage {
    @exclusivity(unchecked) var state: UnarchiverState

    init(state: UnarchiverState) { self.state = state }
  }
}

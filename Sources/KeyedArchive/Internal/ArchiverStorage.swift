import ArchiveCoding
import PropertyList

extension KeyedArchiver {
  /// The writer and the tables one archiver changes while it encodes: every encode call reads and writes them.
  struct ArchiverState: ~Copyable {
    /// The archive, written object by object as objects are encoded.
    var writer = BinaryPropertyListWriter()
    /// The writer's object number of every `$objects` entry, by UID; -1 until the entry is written.
    var entryRefs: [Int] = []
    /// Where the fields of the object being encoded start on the writer's stack (0: the fields of `$top`).
    var scopeMark = 0
    /// 0 while a ``Coding`` object (or `$top`) writes its fields, 1 for a Foundation object's: keys the key cache.
    var scopeKind = 0
    /// The writer's object number of recently used keys, by (position in the object, scope kind).
    var keyCache = [KeyCacheEntry](
      repeating: KeyCacheEntry(key: "", ref: -1, isASCII: true), count: 2 * KeyedArchiver.keyCachePositions)
    var inObject = false
    var unkeyedCount = 0
    var queue: [(uid: Int, object: any Coding)] = []
    var identities = IdentityTable()
    var retained: [AnyObject] = []
    /// Recently used Foundation class names and their class descriptions' UIDs.
    var recentClasses: [(name: String, uid: Int)] = []
    var integerUIDs = IdentityTable()
    /// By bit pattern (so `0.0` and `-0.0`, and NaNs with different payloads, stay apart).
    var realUIDs = IdentityTable()
    var booleanUIDs: (false: Int, true: Int) = (-1, -1)
    var plainUIDs: [PropertyListValue: Int] = [:]
  }

  /// The number of key positions per scope kind in ``ArchiverState/keyCache``.
  static let keyCachePositions = 32

  /// Holds ``ArchiverState``, whose accesses skip the run-time exclusivity checks: the checks cost more than most of
  /// the encode calls they guard. Each access reads or writes one field of the state and ends before any other code
  /// runs (no access spans a call out of the archiver, such as an `encode(with:)`), so accesses never overlap.
  final class Storage {
    @exclusivity(unchecked) var state: ArchiverState
    /// The UID of every string written, by its code units. Apart from the state, with its exclusivity checked: a
    /// lookup that misses writes the new string to the state's writer while the table is being updated.
    var strings = StringUIDTable()

    init(state: consuming ArchiverState) { self.state = state }
  }
}

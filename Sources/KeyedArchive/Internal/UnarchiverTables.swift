import ArchiveCoding
import Synchronization

/// The tables a ``KeyedUnarchiver`` fills for one archive (the entries' states, the decoded instances, the frames,
/// the class tables, the awake list), kept empty with their capacity for the next archive, so that decoding a small
/// archive does not allocate, grow and free each of them (Decision 0021).
///
/// One set is kept, process-wide, behind a `Mutex`: an unarchiver takes it when it opens an archive and gives it
/// back when it ends. Two unarchivers at once (two threads, or a nested decode) make the second allocate its own.
/// Tables that grew past ``maxKept`` elements are not kept, so a large archive's tables do not stay
/// allocated after it.
///
/// `@unchecked Sendable`: the tables are empty whenever they are in the pool (``giveBack(_:)`` empties them before
/// it stores them), so no element is ever shared between threads; each unarchiver owns the set it took.
struct UnarchiverTables: @unchecked Sendable {
  var entries: [ObjectCache.Entry] = []
  var objects: [AnyObject] = []
  var frames: [KeyedUnarchiver.Frame] = []
  var classEntries: [KeyedUnarchiver.ClassEntry] = []
  var chains: [SecureCodingMemo.ChainEntry] = []
  var awakeList: [(uid: Int, object: any Coding)] = []

  /// The most elements a table may hold room for and be kept (about 50 KB for the entries).
  static let maxKept = 4_096

  private static let spare = Mutex<UnarchiverTables?>(nil)

  /// The kept tables, empty, or new ones.
  static func take() -> UnarchiverTables {
    let tables = spare.withLock { $0.take() } ?? UnarchiverTables()
    assert(tables.isEmpty, "kept tables hold elements")
    return tables
  }

  /// `true` when no table holds an element.
  var isEmpty: Bool {
    entries.isEmpty && objects.isEmpty && frames.isEmpty && classEntries.isEmpty && chains.isEmpty
      && awakeList.isEmpty
  }

  /// The largest capacity among the kept tables (0 when none are kept), for tests of ARC-044.
  static var largestKeptCapacity: Int {
    spare.withLock { kept in
      guard let kept else { return 0 }
      return [
        kept.entries.capacity, kept.objects.capacity, kept.frames.capacity, kept.classEntries.capacity,
        kept.chains.capacity, kept.awakeList.capacity,
      ].max() ?? 0
    }
  }

  /// Empties `tables` and keeps them for the next unarchiver, unless a set is kept already or one of them is
  /// larger than ``maxKept``.
  static func giveBack(_ tables: consuming UnarchiverTables) {
    guard tables.entries.capacity <= maxKept, tables.objects.capacity <= maxKept, tables.frames.capacity <= maxKept,
      tables.classEntries.capacity <= maxKept, tables.chains.capacity <= maxKept,
      tables.awakeList.capacity <= maxKept
    else { return }
    tables.entries.removeAll(keepingCapacity: true)
    tables.objects.removeAll(keepingCapacity: true)
    tables.frames.removeAll(keepingCapacity: true)
    tables.classEntries.removeAll(keepingCapacity: true)
    tables.chains.removeAll(keepingCapacity: true)
    tables.awakeList.removeAll(keepingCapacity: true)
    let emptied = tables
    spare.withLock { if $0 == nil { $0 = emptied } }
  }
}

/// The elements of `array`, leaving it empty (the buffer moves: it stays uniquely referenced).
@inline(__always)
func moveOut<Element>(_ array: inout [Element]) -> [Element] {
  var taken: [Element] = []
  swap(&taken, &array)
  return taken
}

import ArchiveCoding

/// The decoding state of each `$objects` entry and its decoded value, stored compactly: 12 bytes per entry (its
/// state, the index of its class chain, its value's slot), and a value only for the entries that hold one (class
/// instances, shared data and strings). An `Any?` per entry would cost 32 bytes for every entry, most of which
/// (small strings re-read on demand, inline numbers) never hold a value; class instances, the most common cached
/// values, take 8 bytes in an array of their own.
///
/// The three per-entry fields are one array: one allocation per archive instead of three, and one cache line per
/// entry touched instead of three in a large archive.
struct ObjectCache {
  struct Entry {
    /// -1 for no value, `i >= 0` for `values[i]`, `i <= -2` for `objects[-2 - i]`.
    var slot: Int32 = -1
    /// The index of the entry's class chain in the unarchiver's ``SecureCodingMemo``, -1 before the entry is decoded.
    var chain: Int32 = -1
    var state: KeyedUnarchiver.State = .notStarted
  }
  private var entries: [Entry]
  private var values: [Any?] = []
  private var objects: [AnyObject] = []

  /// The number of entries.
  var count: Int { entries.count }

  /// The decoding state of entry `uid`.
  subscript(state uid: Int) -> KeyedUnarchiver.State {
    @inline(__always) get { entries[uid].state }
    @inline(__always) set { entries[uid].state = newValue }
  }

  /// The index of entry `uid`'s class chain, -1 before it is decoded.
  subscript(chain uid: Int) -> Int32 {
    @inline(__always) get { entries[uid].chain }
    @inline(__always) set { entries[uid].chain = newValue }
  }

  /// Stands in `objects` for an instance whose entry was given another value.
  private final class Vacated: Sendable {}
  private static let vacated = Vacated()

  /// A cache of `count` empty entries, in the (empty) tables given.
  /// - Precondition: `count` is below `Int32.max` (the unarchiver checks the object count first).
  init(count: Int, entries: consuming [Entry], objects: consuming [AnyObject]) {
    if entries.capacity >= count {
      entries.append(contentsOf: repeatElement(Entry(), count: count))
      self.entries = entries
    } else {
      self.entries = [Entry].filled(with: Entry(), count: count)
    }
    self.objects = objects
  }

  /// Moves the entries and the instances into `tables`, leaving this cache empty.
  mutating func moveTables(into tables: inout UnarchiverTables) {
    swap(&entries, &tables.entries)
    swap(&objects, &tables.objects)
  }

  /// The value of entry `uid`, or `nil`.
  subscript(uid: Int) -> Any? {
    get {
      let slot = Int(entries[uid].slot)
      if slot >= 0 { return values[slot] }
      if slot <= -2 { return objects[-2 - slot] }
      return nil
    }
    set {
      var slot = Int(entries[uid].slot)
      if slot <= -2 {
        objects[-2 - slot] = Self.vacated
        entries[uid].slot = -1
        slot = -1
      }
      if slot >= 0 {
        values[slot] = newValue
      } else if let newValue {
        // Each entry gets at most one slot in `values`, so it never outgrows the entry count (below Int32.max).
        entries[uid].slot = Int32(truncatingIfNeeded: values.count)
        values.append(newValue)
      }
    }
  }

  /// Makes `value` the value of entry `uid`, taking it: the subscript's setter copies its `Any?` through the
  /// runtime's generic witnesses.
  mutating func store(_ value: consuming Any, uid: Int) {
    guard entries[uid].slot == -1 else {
      self[uid] = value
      return
    }
    // As in the setter: at most one slot per entry.
    entries[uid].slot = Int32(truncatingIfNeeded: values.count)
    values.append(.some(value))
  }

  /// The class instance stored with ``setObject(_:uid:)`` for entry `uid`, or `nil` when it holds another value.
  @inline(__always)
  func instance(_ uid: Int) -> AnyObject? {
    let slot = Int(entries[uid].slot)
    return slot <= -2 ? objects[-2 - slot] : nil
  }

  /// Makes a class instance the value of entry `uid`.
  mutating func setObject(_ object: AnyObject, uid: Int) {
    guard entries[uid].slot == -1 else {
      self[uid] = object
      return
    }
    // Each entry gets at most one slot in `objects`, so `-2 - count` stays above Int32.min.
    entries[uid].slot = Int32(truncatingIfNeeded: -2 - objects.count)
    objects.append(object)
  }
}

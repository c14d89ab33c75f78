/// A map that keeps its first entry inline, its next few in an array searched in order, and moves them all into a
/// `Dictionary` when it grows past them.
///
/// An unarchiver keeps several maps per archive (class descriptions by UID, by identity, name lists): most
/// archives hold one to a handful of classes, and hashing each key, allocating a dictionary's storage and freeing
/// it cost a small archive more than decoding its fields. An archive of one class allocates nothing for its maps.
/// Past ``linearLimit`` entries every lookup is a hash lookup, so a hostile archive with many classes stays linear.
struct SmallMap<Key: Hashable, Value> {
  /// A key is in at most one of `first`, `entries` and `table`; once `table` exists, it holds every entry.
  private var first: (key: Key, value: Value)?
  private var entries: [(key: Key, value: Value)] = []
  private var table: [Key: Value]?

  /// The most entries searched in order (the inline one included).
  static var linearLimit: Int { 8 }

  /// The value for `key`, or `nil`.
  subscript(key: Key) -> Value? {
    get {
      if let table { return table[key] }
      if let first, first.key == key { return first.value }
      for entry in entries where entry.key == key { return entry.value }
      return nil
    }
    set {
      if table != nil {
        table?[key] = newValue
        return
      }
      if let current = first, current.key == key {
        first = newValue.map { (key, $0) }
        return
      }
      if let index = entries.firstIndex(where: { $0.key == key }) {
        if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
        return
      }
      guard let newValue else { return }
      if first == nil {
        first = (key, newValue)
        return
      }
      if entries.count + 1 < Self.linearLimit {
        if entries.isEmpty { entries.reserveCapacity(2) }
        entries.append((key, newValue))
        return
      }
      var moved = [Key: Value](minimumCapacity: (entries.count + 2) * 2)
      if let first { moved[first.key] = first.value }
      for entry in entries { moved[entry.key] = entry.value }
      moved[key] = newValue
      first = nil
      entries = []
      table = moved
    }
  }
}

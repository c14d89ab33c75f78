/// A map that keeps its first few entries in an array searched in order, and moves them into a `Dictionary` when
/// it grows past them.
///
/// An unarchiver keeps several maps per archive (class descriptions by UID, by identity, name lists): most
/// archives hold one to a handful of classes, and hashing each key, allocating a dictionary's storage and freeing
/// it cost a small archive more than decoding its fields. Past ``linearLimit`` entries every lookup is a hash
/// lookup, so a hostile archive with many classes stays linear.
struct SmallMap<Key: Hashable, Value> {
  private var entries: [(key: Key, value: Value)] = []
  private var table: [Key: Value]?

  /// The most entries searched in order.
  static var linearLimit: Int { 8 }

  /// The value for `key`, or `nil`.
  subscript(key: Key) -> Value? {
    get {
      if let table { return table[key] }
      for entry in entries where entry.key == key { return entry.value }
      return nil
    }
    set {
      if table != nil {
        table?[key] = newValue
        return
      }
      if let index = entries.firstIndex(where: { $0.key == key }) {
        if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
        return
      }
      guard let newValue else { return }
      if entries.count < Self.linearLimit {
        if entries.isEmpty { entries.reserveCapacity(2) }
        entries.append((key, newValue))
        return
      }
      var moved = [Key: Value](minimumCapacity: entries.count * 2)
      for entry in entries { moved[entry.key] = entry.value }
      moved[key] = newValue
      entries = []
      table = moved
    }
  }
}

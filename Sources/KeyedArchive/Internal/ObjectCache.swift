/// The decoded value of each `$objects` entry, stored compactly: a 4-byte slot per entry, and a value only for the
/// entries that hold one (class instances, shared data and strings). An `Any?` per entry would cost 32 bytes for
/// every entry, most of which (small strings re-read on demand, inline numbers) never hold a value.
struct ObjectCache {
  /// For each entry, the index of its value in `values`, or -1.
  private var slots: [Int32]
  private var values: [Any?] = []

  /// A cache of `count` empty entries.
  /// - Precondition: `count` is below `Int32.max` (the unarchiver checks the object count first).
  init(count: Int) {
    slots = [Int32](repeating: -1, count: count)
  }

  /// The value of entry `uid`, or `nil`.
  subscript(uid: Int) -> Any? {
    get {
      let slot = Int(slots[uid])
      return slot < 0 ? nil : values[slot]
    }
    set {
      let slot = Int(slots[uid])
      if slot >= 0 {
        values[slot] = newValue
      } else if let newValue {
        // Each entry gets at most one slot, so `values` never outgrows the entry count (below Int32.max).
        slots[uid] = Int32(truncatingIfNeeded: values.count)
        values.append(newValue)
      }
    }
  }
}

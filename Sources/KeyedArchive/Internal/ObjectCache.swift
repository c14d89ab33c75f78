import ArchiveCoding

/// The decoded value of each `$objects` entry, stored compactly: a 4-byte slot per entry, and a value only for the
/// entries that hold one (class instances, shared data and strings). An `Any?` per entry would cost 32 bytes for
/// every entry, most of which (small strings re-read on demand, inline numbers) never hold a value; class
/// instances, the most common cached values, take 8 bytes in an array of their own.
struct ObjectCache {
  /// For each entry: -1 for none, `i >= 0` for `values[i]`, `i <= -2` for `objects[-2 - i]`.
  private var slots: [Int32]
  private var values: [Any?] = []
  private var objects: [AnyObject] = []

  /// Stands in `objects` for an instance whose entry was given another value.
  private final class Vacated: Sendable {}
  private static let vacated = Vacated()

  /// A cache of `count` empty entries.
  /// - Precondition: `count` is below `Int32.max` (the unarchiver checks the object count first).
  init(count: Int) {
    slots = [Int32].filled(with: -1, count: count)
  }

  /// The value of entry `uid`, or `nil`.
  subscript(uid: Int) -> Any? {
    get {
      let slot = Int(slots[uid])
      if slot >= 0 { return values[slot] }
      if slot <= -2 { return objects[-2 - slot] }
      return nil
    }
    set {
      var slot = Int(slots[uid])
      if slot <= -2 {
        objects[-2 - slot] = Self.vacated
        slots[uid] = -1
        slot = -1
      }
      if slot >= 0 {
        values[slot] = newValue
      } else if let newValue {
        // Each entry gets at most one slot in `values`, so it never outgrows the entry count (below Int32.max).
        slots[uid] = Int32(truncatingIfNeeded: values.count)
        values.append(newValue)
      }
    }
  }

  /// Makes `value` the value of entry `uid`, taking it: the subscript's setter copies its `Any?` through the
  /// runtime's generic witnesses.
  mutating func store(_ value: consuming Any, uid: Int) {
    guard slots[uid] == -1 else {
      self[uid] = value
      return
    }
    // As in the setter: at most one slot per entry.
    slots[uid] = Int32(truncatingIfNeeded: values.count)
    values.append(.some(value))
  }

  /// The class instance stored with ``setObject(_:uid:)`` for entry `uid`, or `nil` when it holds another value.
  @inline(__always)
  func instance(_ uid: Int) -> AnyObject? {
    let slot = Int(slots[uid])
    return slot <= -2 ? objects[-2 - slot] : nil
  }

  /// Makes a class instance the value of entry `uid`.
  mutating func setObject(_ object: AnyObject, uid: Int) {
    guard slots[uid] == -1 else {
      self[uid] = object
      return
    }
    // Each entry gets at most one slot in `objects`, so `-2 - count` stays above Int32.min.
    slots[uid] = Int32(truncatingIfNeeded: -2 - objects.count)
    objects.append(object)
  }
}

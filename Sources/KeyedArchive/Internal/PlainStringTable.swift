/// Plain string entries an unarchiver read as `String` more than once, by UID: the keys every dictionary of a model
/// repeats (see `KeyedUnarchiver.repeatedStringKey(_:allowed:)`), and the short strings many objects share (see
/// `KeyedUnarchiver.decodeString(forKey:)`), read back without the cache's `Any` and a cast.
///
/// A direct-mapped table of 64 entries, with a `Dictionary` for the UIDs that collide: a model's dozen keys are each
/// found with one comparison instead of hashing an integer key per dictionary entry decoded. Nothing is allocated until the first string is kept.
struct PlainStringTable {
  private var slots: [(uid: Int, string: String)] = []
  private var overflow: [Int: String] = [:]

  private static let slotCount = 64

  /// The string kept for `uid`, or `nil`.
  @inline(__always)
  subscript(uid: Int) -> String? {
    guard uid >= 0, !slots.isEmpty else { return nil }
    let slot = slots[uid & (Self.slotCount - 1)]
    if slot.uid == uid { return slot.string }
    return overflow.isEmpty ? nil : overflow[uid]
  }

  /// Keeps `string` for `uid` (a negative UID, which no entry has, is ignored).
  mutating func insert(_ string: String, for uid: Int) {
    guard uid >= 0 else { return }
    if slots.isEmpty { slots = Array(repeating: (-1, ""), count: Self.slotCount) }
    let index = uid & (Self.slotCount - 1)
    if slots[index].uid == -1 || slots[index].uid == uid {
      slots[index] = (uid, string)
    } else {
      overflow[uid] = string
    }
  }
}

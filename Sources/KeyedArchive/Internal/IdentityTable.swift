/// Numbers by a machine word: for the archiver, the UIDs of object identities (their addresses) and of the bit
/// patterns of shared numbers; for the archive index, the numbers of the key objects, key lists and class
/// descriptions it met. An open-addressing table keyed by the word.
///
/// The archiver keeps every object it records alive until it finishes, so an address cannot be reused by another
/// object while the table holds it. Entries are only added or updated, never removed. Cheaper than a `Dictionary`
/// keyed by `ObjectIdentifier` or `Int64` (whose `Hasher` costs more than the whole lookup here): a seeded
/// multiply-xorshift mix of the word, and linear probing over one flat array that holds each word next to its UID
/// (one cache line per probe). The seed is per process, so numbers chosen to collide cannot be precomputed; UIDs do
/// not depend on it, so the archive's bytes do not either.
struct IdentityTable {
  /// Word, UID pairs (word 0: empty slot; the word 0 itself is kept in `zeroValue`).
  private var slots: [UInt64] = []
  private var count = 0
  private var shift: UInt64 = 64
  private var zeroValue: Int?
  /// The process's seed, read once per table (a global's accessor costs a call per read).
  private let seed = Self.processSeed
  private static let processSeed = UInt64.random(in: 0...UInt64.max)
  /// The log2 of the pairs the table makes room for first.
  private let initialBits: Int

  /// An empty table that makes room for 2^`initialBits` pairs on its first insertion (half of them used before it
  /// grows).
  init(initialBits: Int = 6) { self.initialBits = initialBits }

  @inline(__always)
  private func slot(_ key: UInt64) -> Int {
    var h = (key ^ seed) &* 0x9E37_79B9_7F4A_7C15
    h ^= h &>> 29
    h = h &* 0xBF58_476D_1CE4_E5B9
    return Int(truncatingIfNeeded: h &>> shift) &* 2
  }

  /// `true` when nothing was recorded.
  var isEmpty: Bool { count == 0 && zeroValue == nil }

  /// The UID recorded for an object, or `nil`.
  subscript(id: ObjectIdentifier) -> Int? { self[word: UInt64(UInt(bitPattern: id))] }

  /// The UID recorded for a word, or `nil`.
  subscript(word key: UInt64) -> Int? {
    if key == 0 { return zeroValue }
    guard count > 0 else { return nil }
    let mask = slots.count &- 1
    var index = slot(key)
    while true {
      let found = slots[index]
      if found == key { return Int(truncatingIfNeeded: slots[index &+ 1]) }
      if found == 0 { return nil }
      index = (index &+ 2) & mask
    }
  }

  /// Records (or replaces) the UID of an object.
  mutating func set(_ id: ObjectIdentifier, _ value: Int) { set(word: UInt64(UInt(bitPattern: id)), value) }

  /// Records (or replaces) the UID of a word.
  mutating func set(word key: UInt64, _ value: Int) {
    if key == 0 {
      zeroValue = value
      return
    }
    if (count &+ 1) &* 4 > slots.count { grow() }
    let mask = slots.count &- 1
    var index = slot(key)
    while true {
      let found = slots[index]
      if found == key || found == 0 {
        if found == 0 { count &+= 1 }
        slots[index] = key
        slots[index &+ 1] = UInt64(truncatingIfNeeded: value)
        return
      }
      index = (index &+ 2) & mask
    }
  }

  private mutating func grow() {
    let old = slots
    let bits = old.isEmpty ? initialBits : 64 - Int(shift) + 1
    shift = UInt64(64 - bits)
    slots = [UInt64].filled(with: 0, count: 2 << bits)
    let mask = slots.count &- 1
    var position = 0
    while position < old.count {
      let key = old[position]
      if key != 0 {
        var index = slot(key)
        while slots[index] != 0 { index = (index &+ 2) & mask }
        slots[index] = key
        slots[index &+ 1] = old[position &+ 1]
      }
      position &+= 2
    }
  }
}

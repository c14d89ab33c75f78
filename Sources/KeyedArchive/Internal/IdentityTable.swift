/// UIDs by object identity for the archiver: an open-addressing table keyed by the object's address.
///
/// The archiver keeps every object it records alive until it finishes, so an address cannot be reused by another
/// object while the table holds it. Entries are only added or updated, never removed. Cheaper than a `Dictionary`
/// keyed by `ObjectIdentifier`: a multiplicative hash of the address and linear probing over one flat array that
/// holds each address next to its UID (one cache line per probe).
struct IdentityTable {
  /// Address, UID pairs (address 0: empty slot).
  private var slots: [UInt] = []
  private var count = 0
  private var shift: UInt64 = 64

  @inline(__always)
  private func slot(_ key: UInt) -> Int {
    Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) &>> shift) &* 2
  }

  /// The UID recorded for an object, or `nil`.
  subscript(id: ObjectIdentifier) -> Int? {
    guard count > 0 else { return nil }
    let key = UInt(bitPattern: id)
    let mask = slots.count &- 1
    var index = slot(key)
    while true {
      let found = slots[index]
      if found == key { return Int(bitPattern: slots[index &+ 1]) }
      if found == 0 { return nil }
      index = (index &+ 2) & mask
    }
  }

  /// Records (or replaces) the UID of an object.
  mutating func set(_ id: ObjectIdentifier, _ value: Int) {
    if (count &+ 1) &* 4 > slots.count { grow() }
    let key = UInt(bitPattern: id)
    let mask = slots.count &- 1
    var index = slot(key)
    while true {
      let found = slots[index]
      if found == key || found == 0 {
        if found == 0 { count &+= 1 }
        slots[index] = key
        slots[index &+ 1] = UInt(bitPattern: value)
        return
      }
      index = (index &+ 2) & mask
    }
  }

  private mutating func grow() {
    let old = slots
    let bits = old.isEmpty ? 6 : 64 - Int(shift) + 1
    shift = UInt64(64 - bits)
    slots = [UInt](repeating: 0, count: 2 << bits)
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

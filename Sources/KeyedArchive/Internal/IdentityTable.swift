/// UIDs by object identity for the archiver: an open-addressing table keyed by the object's address.
///
/// The archiver keeps every object it records alive until it finishes, so an address cannot be reused by another
/// object while the table holds it. Entries are only added or updated, never removed. Cheaper than a `Dictionary`
/// keyed by `ObjectIdentifier`: a multiplicative hash of the address and linear probing over two flat arrays.
struct IdentityTable {
  /// Addresses (0: empty slot).
  private var keys: [UInt] = []
  private var values: [Int] = []
  private var count = 0
  private var shift: UInt = 64

  @inline(__always)
  private static func address(_ id: ObjectIdentifier) -> UInt { UInt(bitPattern: id) }

  @inline(__always)
  private func slot(_ key: UInt) -> Int {
    Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(shift))
  }

  /// The UID recorded for an object, or `nil`.
  subscript(id: ObjectIdentifier) -> Int? {
    guard count > 0 else { return nil }
    let key = Self.address(id)
    let mask = keys.count &- 1
    var index = slot(key)
    while true {
      let found = keys[index]
      if found == key { return values[index] }
      if found == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// Records (or replaces) the UID of an object.
  mutating func set(_ id: ObjectIdentifier, _ value: Int) {
    if (count &+ 1) &* 2 > keys.count { grow() }
    let key = Self.address(id)
    let mask = keys.count &- 1
    var index = slot(key)
    while true {
      let found = keys[index]
      if found == key {
        values[index] = value
        return
      }
      if found == 0 {
        keys[index] = key
        values[index] = value
        count &+= 1
        return
      }
      index = (index &+ 1) & mask
    }
  }

  private mutating func grow() {
    let oldKeys = keys
    let oldValues = values
    let bits = oldKeys.isEmpty ? 6 : 64 - Int(shift) + 1
    shift = UInt(64 - bits)
    keys = [UInt](repeating: 0, count: 1 << bits)
    values = [Int](repeating: 0, count: 1 << bits)
    let mask = keys.count &- 1
    for (position, key) in oldKeys.enumerated() where key != 0 {
      var index = slot(key)
      while keys[index] != 0 { index = (index &+ 1) & mask }
      keys[index] = key
      values[index] = oldValues[position]
    }
  }
}

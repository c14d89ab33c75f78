/// Shares one `String` per distinct element or attribute name, so that a document with a hundred thousand
/// `<constraint>` elements builds the name once. Keys are byte ranges of the input, hashed with FNV-1a.
struct NameInterner {
  private struct Slot {
    var hash: UInt64
    var start: Int
    var count: Int
    var string: String
  }

  private var slots: [Slot?] = Array(repeating: nil, count: 512)
  private var used = 0

  /// The FNV-1a offset basis; names are hashed while they are scanned.
  static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325
  /// The FNV-1a prime.
  static let hashPrime: UInt64 = 0x0000_0100_0000_01B3

  /// The shared string for the name in `bytes[start ..< start + count]`, whose hash is `hash`; `nil` when the bytes
  /// are not valid UTF-8.
  mutating func intern(hash: UInt64, start: Int, count: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let mask = slots.count - 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while let slot = slots[index] {
      if slot.hash == hash && slot.count == count && NameInterner.equal(bytes, slot.start, start, count) {
        return slot.string
      }
      index = (index + 1) & mask
    }
    guard let string = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<(start + count)]), as: UTF8.self)
    else { return nil }
    slots[index] = Slot(hash: hash, start: start, count: count, string: string)
    used += 1
    if used * 2 > slots.count { grow() }
    return string
  }

  private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ second: Int, _ count: Int) -> Bool {
    var index = 0
    while index < count {
      if bytes[first + index] != bytes[second + index] { return false }
      index += 1
    }
    return true
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: nil, count: old.count * 2)
    let mask = slots.count - 1
    for case let slot? in old {
      var index = Int(truncatingIfNeeded: slot.hash) & mask
      while slots[index] != nil {
        index = (index + 1) & mask
      }
      slots[index] = slot
    }
  }
}

import ArchiveCoding
import PropertyList

/// UIDs of the strings an archive holds, shared by value: an open-addressing table over the strings' UTF-8 bytes.
///
/// Cheaper than a `Dictionary<String, Int>` for the archiver's pattern (mostly new, short strings): one pass of a
/// seeded hash over the bytes, linear probing over one flat array of entry numbers tagged with hash bits, and a byte
/// comparison with the stored string only when the tags agree. Strings are equal here when their UTF-8 bytes are
/// (so canonically equivalent spellings stay distinct, as archives compare strings by Unicode scalars). Entries are only added.
struct StringUIDTable {
  /// Per slot: entry number + 1 in the high 32 bits (0: empty), the hash's high 32 bits in the low ones, so a probe
  /// touches one array.
  private var slots: [UInt64] = []
  private var hashes: [UInt64] = []
  private var strings: [String] = []
  private var uids: [Int] = []
  private var shift: UInt64 = 64
  private static let seed: UInt64 = UInt64.random(in: 1...UInt64.max)

  @inline(__always)
  private func hash(_ string: String) -> UInt64 {
    var copy = string
    return copy.withUTF8 { bytes -> UInt64 in
      var h = Self.seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
      var index = 0
      let count = bytes.count
      guard let base = bytes.baseAddress else { return h }
      let raw = UnsafeRawPointer(base)
      while index &+ 8 <= count {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
        h ^= h &>> 29
        index &+= 8
      }
      var tail: UInt64 = 0
      var shiftBits: UInt64 = 0
      while index < count {
        tail |= UInt64(base[index]) &<< shiftBits
        shiftBits &+= 8
        index &+= 1
      }
      h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
      h ^= h &>> 31
      return h
    }
  }

  @inline(__always)
  private func slot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) &>> shift) }

  /// The UID of `string`, or the one `make` returns (recorded for the next equal string).
  @inline(__always)
  mutating func uid(for string: String, make: () -> Int) -> Int {
    if (strings.count &+ 1) &* 2 > slots.count { grow() }
    let h = hash(string)
    let mask = slots.count &- 1
    var index = slot(h)
    let tag = h &>> 32
    while true {
      let found = slots[index]
      if found == 0 { break }
      let entry = Int(truncatingIfNeeded: found &>> 32) &- 1
      if found & 0xFFFF_FFFF == tag && strings[entry].hasSameCodeUnits(as: string) { return uids[entry] }
      index = (index &+ 1) & mask
    }
    let uid = make()
    strings.append(string)
    hashes.append(h)
    uids.append(uid)
    slots[index] = UInt64(strings.count) &<< 32 | tag
    return uid
  }

  private mutating func grow() {
    let bits = slots.isEmpty ? 6 : 64 - Int(shift) + 1
    precondition(bits < 32, "more strings than a table of 32-bit entry numbers holds")
    shift = UInt64(64 - bits)
    slots = [UInt64](repeating: 0, count: 1 << bits)
    let mask = slots.count &- 1
    for (entry, h) in hashes.enumerated() {
      var index = slot(h)
      while slots[index] != 0 { index = (index &+ 1) & mask }
      slots[index] = UInt64(entry &+ 1) &<< 32 | h &>> 32
    }
  }
}

import TestSupport
import Testing

@testable import KeyedArchive

/// `SmallMap` keeps the unarchiver's per-archive class tables: in order up to its limit, hashed past it (ARC-043:
/// an archive of many classes must stay linear). Either way it must answer as a `Dictionary` would.
@Suite("SmallMap")
struct SmallMapTests {
  @Test(
    "ARC-043: the class tables answer as a dictionary on both sides of the linear limit",
    arguments: [1, 2, 3, 8, 9, 40])
  func answersAsADictionary(count: Int) {
    var map = SmallMap<Int, String>()
    var reference: [Int: String] = [:]
    var generator = SplitMix64(seed: UInt64(count))
    for step in 0..<(count * 6) {
      let key = generator.below(count * 2)
      switch step % 3 {
      case 0, 1:
        map[key] = "v\(step)"
        reference[key] = "v\(step)"
      default:
        map[key] = nil
        reference[key] = nil
      }
      for probe in 0..<(count * 2) { #expect(map[probe] == reference[probe], "key \(probe) after step \(step)") }
    }
  }
}

import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import KeyedArchive

/// Hostile variants of the real-world archives: truncated and bit-flipped copies must decode or fail with an
/// ``ArchiveError``, never crash, hang or fail otherwise.
@Suite("Corpus mutations", .enabled(if: ArchiveCorpus.isPresent, "../shared/corpus is absent: corpus tests skipped"))
struct CorpusMutationTests {
  /// Deterministic mutants of `data`: truncations, then flips of one to three random bits.
  static func mutants(of data: Data, seed: UInt64, count: Int) -> [Data] {
    var rng = SplitMix64(seed: seed)
    var result: [Data] = []
    let bytes = [UInt8](data)
    for _ in 0..<count / 4 {
      result.append(Data(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng))))
    }
    while result.count < count {
      var copy = bytes
      for _ in 0..<Int.random(in: 1...3, using: &rng) {
        let index = Int.random(in: 0..<copy.count, using: &rng)
        copy[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
      }
      result.append(Data(copy))
    }
    return result
  }

  @Test(
    "ARC-041: truncated and bit-flipped corpus archives decode or throw an ArchiveError", arguments: ArchiveCorpus.valid
  )
  func mutations(file: String) throws {
    let data = try ArchiveCorpus.data(file)
    let count = data.count > 20_000 ? 24 : (data.count > 4_000 ? 64 : 256)
    var rejected = 0
    for (index, mutant) in Self.mutants(of: data, seed: UInt64(data.count), count: count).enumerated() {
      do {
        _ = try ArchiveCorpus.decodeEverything(mutant)
      } catch is ArchiveError {
        rejected += 1
      } catch {
        Issue.record("\(file) mutant \(index): not an ArchiveError: \(error)")
      }
    }
    // Every truncation breaks the container, so at least those are rejected.
    #expect(rejected >= count / 4)
  }
}

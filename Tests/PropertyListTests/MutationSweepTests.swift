import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// Fixtures for the sweeps: lists we generate, in both forms, plus every property list in the corpus.
func sweepFixtures() throws -> [(String, Data)] {
  var fixtures: [(String, Data)] = []
  var rng = SplitMix64(seed: 2024)
  for i in 0..<6 {
    let value: PropertyListValue = ["root": randomValue(&rng, depth: 0), "more": randomValue(&rng, depth: 1)]
    fixtures.append(("generated-\(i).bplist", try PropertyListWriter.write(value, format: .binary)))
    fixtures.append(("generated-\(i).xml", try PropertyListWriter.write(value, format: .xml)))
  }
  for url in corpusFiles("archives") {
    guard let data = try? Data(contentsOf: url), PropertyListReader.format(of: data) != nil else { continue }
    fixtures.append((url.lastPathComponent, data))
  }
  return fixtures
}

/// Reads the bytes; the only acceptable outcomes are a value or an `ArchiveError`.
func readNeverCrashes(_ bytes: Data) -> Bool {
  do {
    _ = try PropertyListReader.read(bytes)
    return true
  } catch is ArchiveError {
    return true
  } catch {
    return false
  }
}

@Suite("Mutation sweeps over property lists")
struct MutationSweepTests {
  @Test("ARC-002: every fixture truncated at every byte ends in a value or a thrown error")
  func truncations() throws {
    for (name, data) in try sweepFixtures() {
      // Small files at every byte; larger ones at a stride that still visits every region.
      let stride = max(1, data.count / 4096)
      var failures = 0
      for cut in Swift.stride(from: 0, to: data.count, by: stride) where !readNeverCrashes(data.prefix(cut)) {
        failures += 1
      }
      #expect(failures == 0, "\(name)")
      // A truncated binary list always loses its trailer: it must be an error, not a value.
      if PropertyListReader.format(of: data) == .binary {
        #expect(throws: ArchiveError.self) { try PropertyListReader.read(data.prefix(data.count - 1)) }
      }
    }
  }

  @Test("ARC-002: seeded bit flips end in a value or a thrown error")
  func bitFlips() throws {
    var rng = SplitMix64(seed: 7)
    for (name, data) in try sweepFixtures() {
      var bytes = [UInt8](data)
      for _ in 0..<150 {
        let index = Int(rng.next() % UInt64(bytes.count))
        let bit = UInt8(1) << UInt8(rng.next() % 8)
        bytes[index] ^= bit
        #expect(readNeverCrashes(Data(bytes)), "\(name) flip at \(index)")
        bytes[index] ^= bit
      }
    }
  }

  @Test("ARC-002: splices of two fixtures end in a value or a thrown error")
  func splices() throws {
    let fixtures = try sweepFixtures()
    var rng = SplitMix64(seed: 11)
    for _ in 0..<2000 {
      let a = fixtures[Int(rng.next() % UInt64(fixtures.count))].1
      let b = fixtures[Int(rng.next() % UInt64(fixtures.count))].1
      let cutA = Int(rng.next() % UInt64(a.count + 1))
      let cutB = Int(rng.next() % UInt64(b.count + 1))
      #expect(readNeverCrashes(a.prefix(cutA) + b.suffix(from: b.startIndex + cutB)))
    }
  }
}

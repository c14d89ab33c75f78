import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import TestSupport
import Testing

@testable import KeyedCommands
@testable import Typedstream

/// Truncations and bit flips of the corpus files: every one ends in a value or an `ArchiveError`, never a crash
/// (TS-041). A mutated stream that still reads is also decoded, rendered in both JSON views, written back and
/// unarchived through the sequential coder with the interface catalog's classes (COD-127) and read as a nib
/// (NIB-203).
@Suite(
  "Typedstream mutations", .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)))
struct MutationTests {
  /// Files up to this size are cut at every byte and flipped at every byte; larger ones at sampled positions.
  static let fullSweepLimit = 800
  static let samples = 80
  /// Mutations of files up to this size are also rendered in both JSON views.
  static let renderLimit = 40_000
  /// A registry with the interface catalog's classes (`NSColor`, `NSFont`, views), whose keyed `init(coder:)`s meet
  /// the sequential coder too.
  static let registry: ClassRegistry = {
    let registry = ClassRegistry()
    InterfaceCatalog.register(in: registry)
    return registry
  }()

  static func positions(_ count: Int, seed: UInt64) -> [Int] {
    guard count > fullSweepLimit else { return Array(0..<count) }
    var generator = SplitMix64(seed: seed)
    return (0..<samples).map { _ in generator.below(count) }
  }

  /// Reads `data`; when it reads, exercises every later stage. Records any error that is not an `ArchiveError`.
  static func exercise(_ data: Data, _ what: String) {
    do {
      let archive = try TypedstreamReader.read(data)
      if data.count <= renderLimit {
        _ = try? TypedstreamCommand.rawJSON(data)
        _ = try? TypedstreamCommand.decodedJSON(data)
      }
      let written = try TypedstreamWriter.write(archive)
      #expect(try TypedstreamReader.read(written) == archive, "\(what): the re-encoded stream reads differently")
      if let nib = try? TypedstreamNib(data: data) { _ = nib.connections.count }
      let unarchiver = try TypedstreamUnarchiver(archive: archive, registry: registry)
      while let encoding = unarchiver.nextEncoding { _ = try unarchiver.decodeValues(ofObjCTypes: encoding) }
    } catch is ArchiveError {
    } catch {
      Issue.record("\(what): \(error) is not an ArchiveError")
    }
  }

  @Test(
    "TS-041: every truncation of a corpus file reads or throws an ArchiveError",
    arguments: TypedstreamCorpus.manifest.map(\.file))
  func truncations(_ name: String) throws {
    let data = try TypedstreamCorpus.data(name)
    for cut in Self.positions(data.count, seed: 0x7457) { Self.exercise(data.prefix(cut), "\(name) cut at \(cut)") }
  }

  @Test(
    "TS-041: every one-bit flip of a corpus file reads or throws an ArchiveError",
    arguments: TypedstreamCorpus.manifest.map(\.file))
  func bitFlips(_ name: String) throws {
    let data = try TypedstreamCorpus.data(name)
    var generator = SplitMix64(seed: 0xF11F)
    for position in Self.positions(data.count, seed: 0xB17) {
      var mutated = data
      let bit = UInt8(1) << UInt8(generator.below(8))
      mutated[mutated.startIndex + position] ^= bit
      Self.exercise(mutated, "\(name) byte \(position) ^ \(bit)")
    }
  }
}

import ArchiveCoding
import Foundation
import Testing

@testable import Typedstream

@Suite(
  "Typedstream corpus", .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)))
struct CorpusTests {
  @Test("TS-001: the corpus lists 49 valid files and 1 negative file")
  func manifestCounts() {
    #expect(TypedstreamCorpus.valid.count == 49)
    #expect(TypedstreamCorpus.negative.count == 1)
  }

  @Test("TS-001: every valid corpus file reads to the end of its data", arguments: TypedstreamCorpus.valid)
  func validFileReads(_ name: String) throws {
    let archive = try TypedstreamReader.read(TypedstreamCorpus.data(name))
    #expect(!archive.groups.isEmpty)
    #expect(archive.streamerVersion == 4)
  }

  @Test("TS-041: the negative corpus file is refused with an ArchiveError", arguments: TypedstreamCorpus.negative)
  func negativeFileThrows(_ name: String) throws {
    let data = try TypedstreamCorpus.data(name)
    #expect(throws: ArchiveError.self) { try TypedstreamReader.read(data) }
  }

  @Test(
    "TS-053: every valid corpus file re-encodes to a stream that reads back to the same tree",
    arguments: TypedstreamCorpus.valid)
  func reencodesToSameTree(_ name: String) throws {
    let archive = try TypedstreamReader.read(TypedstreamCorpus.data(name))
    let encoded = try TypedstreamWriter.write(archive)
    #expect(try TypedstreamReader.read(encoded) == archive)
  }

  @Test("TS-054: every valid corpus file re-encodes byte for byte", arguments: TypedstreamCorpus.valid)
  func reencodesByteForByte(_ name: String) throws {
    let data = try TypedstreamCorpus.data(name)
    let encoded = try TypedstreamWriter.write(try TypedstreamReader.read(data))
    #expect(encoded == data)
  }
}

import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList
import TestSupport
import Testing

@testable import KeyedArchive

/// CLI-190: a binary list opened with the reader's checks and the walk's checking pass side by side gives what the
/// two give one after the other: the same error, or the same walk (written as canonical JSON).
@Suite("Checks side by side")
struct CheckedPropertyListTests {
  /// What opening `data` and writing its walk gives: the JSON, or the error.
  static func outcome(_ data: Data, sideBySideFrom threshold: Int) -> String {
    data.withUnsafeBytes { bytes in
      do {
        let checked = try CheckedPropertyList(store: ByteStore(borrowing: bytes), sideBySideFrom: threshold)
        guard var walk = checked.walk else { return "not a keyed archive" }
        var writer = CanonicalJSONWriter()
        try walk.write(to: &writer)
        return writer.text
      } catch {
        return "error: \(error)"
      }
    }
  }

  /// What walking `data` as the comparison does gives (the second pass run while the reader's checks may still be
  /// running): the JSON the second pass writes, or the error.
  static func walkingOutcome(_ data: Data, sideBySideFrom threshold: Int) -> String {
    data.withUnsafeBytes { bytes in
      do {
        let written = try CheckedPropertyList.walking(store: ByteStore(borrowing: bytes), sideBySideFrom: threshold) {
          walk in
          var writer = CanonicalJSONWriter()
          try walk.write(to: &writer)
          return writer.text
        }
        return written ?? "not a keyed archive"
      } catch {
        return "error: \(error)"
      }
    }
  }

  static func expectSameBothWays(_ data: Data, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let sideBySide = outcome(data, sideBySideFrom: 0)
    let oneAfterTheOther = outcome(data, sideBySideFrom: .max)
    #expect(sideBySide == oneAfterTheOther, "\(name)", sourceLocation: sourceLocation)
    #expect(
      walkingOutcome(data, sideBySideFrom: 0) == oneAfterTheOther, "\(name), walked", sourceLocation: sourceLocation)
    #expect(
      walkingOutcome(data, sideBySideFrom: .max) == oneAfterTheOther, "\(name), walked one after the other",
      sourceLocation: sourceLocation)
  }

  /// An archive of `rows` dictionaries of a few Foundation values each.
  static func rowsArchive(_ rows: Int) throws -> Data {
    let values: [[String: Any]] = (0..<rows).map { row in
      var fields: [String: Any] = ["id": row, "name": "row \(row) é"]
      fields["score"] = Double(row) / 7
      fields["flag"] = row % 2 == 0
      fields["blob"] = Data([UInt8(row & 255)])
      return fields
    }
    return try KeyedArchiver.archivedData(withRootObject: values)
  }

  @Test("CLI-190: an archive checked side by side is written as one checked after the other is")
  func validArchive() throws {
    let data = try Self.rowsArchive(500)
    let json = Self.outcome(data, sideBySideFrom: 0)
    #expect(json.hasPrefix("[{"), "\(json.prefix(80))")
    Self.expectSameBothWays(data, "500 rows")
  }

  @Test("CLI-190: a property list that is no keyed archive is opened without a walk either way")
  func plainList() throws {
    let data = try PropertyListWriter.write(.array([.string("a"), .integer(1)]), format: .binary)
    #expect(Self.outcome(data, sideBySideFrom: 0) == "not a keyed archive")
    Self.expectSameBothWays(data, "plain list")
  }

  static func bigEndian(_ bytes: [UInt8], at position: Int, width: Int) -> UInt64 {
    bytes[position..<(position + width)].reduce(0) { $0 << 8 | UInt64($1) }
  }

  @Test("CLI-190: the reader's error comes first, as one after the other, when both checks fail")
  func readerErrorFirst() throws {
    let data = try Self.rowsArchive(50)
    // A reference past the object count in the last object: the reader's checks refuse it; the walk may meet it.
    var bytes = [UInt8](data)
    let trailer = bytes.count - 32
    let table = Int(Self.bigEndian(bytes, at: trailer + 24, width: 8))
    let offsetSize = Int(bytes[trailer + 6])
    let count = Int(Self.bigEndian(bytes, at: trailer + 8, width: 8))
    let last = Int(Self.bigEndian(bytes, at: table + (count - 1) * offsetSize, width: offsetSize))
    bytes[last] = 0xAF  // an array whose length does not follow
    let sideBySide = Self.outcome(Data(bytes), sideBySideFrom: 0)
    #expect(sideBySide.hasPrefix("error:"))
    Self.expectSameBothWays(Data(bytes), "corrupt last object")
  }

  @Test("CLI-190: truncated and bit-flipped copies of a generated archive give the same result both ways")
  func mutatedArchives() throws {
    let data = try Self.rowsArchive(40)
    for (index, mutant) in CorpusMutationTests.mutants(of: data, seed: 190, count: 160).enumerated() {
      Self.expectSameBothWays(mutant, "mutant \(index)")
    }
  }

  @Test(
    "CLI-190: every binary corpus archive and its mutants give the same result both ways",
    .enabled(if: ArchiveCorpus.isPresent, "../shared/corpus is absent: corpus tests skipped"),
    arguments: ArchiveCorpus.valid + ArchiveCorpus.negative)
  func corpus(file: String) throws {
    let data = try ArchiveCorpus.data(file)
    guard data.starts(with: Array("bplist0".utf8)) else { return }
    Self.expectSameBothWays(data, file)
    let count = data.count > 20_000 ? 8 : 24
    for (index, mutant) in CorpusMutationTests.mutants(of: data, seed: UInt64(data.count), count: count).enumerated() {
      Self.expectSameBothWays(mutant, "\(file) mutant \(index)")
    }
  }

  @Test("CLI-190: a list of a megabyte or more is checked side by side by default, with the same result")
  func defaultThreshold() throws {
    let data = try Self.rowsArchive(12_000)
    #expect(data.count >= CheckedPropertyList.sideBySideByteCount)
    let byDefault = data.withUnsafeBytes { bytes -> String in
      do {
        guard var walk = try CheckedPropertyList(store: ByteStore(borrowing: bytes)).walk else { return "none" }
        var writer = CanonicalJSONWriter()
        try walk.write(to: &writer)
        return writer.text
      } catch {
        return "error: \(error)"
      }
    }
    #expect(byDefault == Self.outcome(data, sideBySideFrom: .max))
  }
}

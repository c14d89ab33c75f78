import ArchiveCoding
import ArchiveSupport
import Foundation
import FoundationForms
import PropertyList
import Synchronization
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

  @Test("CLI-190: the reader's error comes first, as one after the other, when both checks fail differently")
  func readerErrorFirst() throws {
    // The last entry of `$objects` refers past the end of the list. The reader refuses the `$objects` array itself;
    // the walk meets the entry only when it reaches the row that refers to it, and names that entry instead.
    var bytes = [UInt8](try Self.rowsArchive(50))
    let reader = try BinaryPropertyListReader(bytes: bytes)
    let top = try reader.header(of: reader.topObject)
    let objectsKey = try #require(
      (0..<top.count).first { reader.isASCIIString(reader.element(top, $0), equalTo: ArchiveKeys.objects) })
    let objects = try reader.header(of: reader.dictionaryValue(top, objectsKey))
    let position = objects.start + (objects.count - 1) * reader.objectRefSize
    for byte in 0..<reader.objectRefSize { bytes[position + byte] = 0xFF }
    let sideBySide = Self.outcome(Data(bytes), sideBySideFrom: 0)
    let walkAlone = Data(bytes).withUnsafeBytes { buffer -> String in
      do {
        let onAccess = try BinaryPropertyListReader(store: ByteStore(borrowing: buffer), validation: .onAccess)
        var walk = KeyedArchiveWalk(try KeyedArchiveGraph(reader: onAccess))
        try walk.check()
        return "no error"
      } catch {
        return "error: \(error)"
      }
    }
    #expect(sideBySide.hasPrefix("error:") && walkAlone.hasPrefix("error:"))
    #expect(sideBySide != walkAlone, "the walk's error must differ from the reader's for this case to tell them apart")
    Self.expectSameBothWays(Data(bytes), "a reference past the list in $objects")
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

  @Test("CLI-190: without a thread, the background work runs once, on the caller's thread, after the foreground work")
  func noThread() throws {
    let order = Mutex<[String]>([])
    let (background, foreground) = SideBySide.run(
      startingThread: false,
      background: { () throws -> Int in
        order.withLock { $0.append("background") }
        return 7
      },
      foreground: { () throws -> Int in
        order.withLock { $0.append("foreground") }
        throw ArchiveError(.corruptData, "foreground")
      })
    #expect(try background.get() == 7)
    #expect(throws: ArchiveError.self) { try foreground.get() }
    #expect(order.withLock { $0 } == ["foreground", "background"])
  }

  @Test("CLI-190: with a thread, the background work runs once, on another thread, and its error is returned")
  func withThread() throws {
    let threads = Mutex<[ObjectIdentifier]>([])
    let caller = ObjectIdentifier(Thread.current)
    let (background, foreground) = SideBySide.run(
      background: { () throws -> Int in
        threads.withLock { $0.append(ObjectIdentifier(Thread.current)) }
        throw ArchiveError(.corruptData, "background")
      },
      foreground: { () -> ObjectIdentifier in
        // Long enough for the thread to claim the work (a foreground that ends first runs it itself).
        let deadline = Date().addingTimeInterval(10)
        while threads.withLock({ $0.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        return ObjectIdentifier(Thread.current)
      })
    #expect(throws: ArchiveError.self) { try background.get() }
    #expect(try foreground.get() == caller)
    let ran = threads.withLock { $0 }
    #expect(ran.count == 1 && ran.first != caller)
  }

  @Test("CLI-102: work for a thread of its own runs on the caller's thread when no thread starts, and once otherwise")
  func ownThread() throws {
    let alone = SideBySide.onOwnThread(stackSize: 1 << 20, patience: 0.01, startingThread: false) {
      ObjectIdentifier(Thread.current)
    }
    #expect(try alone.get() == ObjectIdentifier(Thread.current))
    // Work that outlasts the patience stays on its thread: the caller's claim fails and it waits.
    let runs = Mutex(0)
    let long = SideBySide.onOwnThread(stackSize: 1 << 20, patience: 0.01) { () -> ObjectIdentifier in
      runs.withLock { $0 += 1 }
      Thread.sleep(forTimeInterval: 0.2)
      return ObjectIdentifier(Thread.current)
    }
    #expect(try long.get() != ObjectIdentifier(Thread.current))
    #expect(runs.withLock { $0 } == 1)
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

import ArchiveCoding
import ArchiveComparison
import Foundation
import KeyedArchive
import PropertyList
import TestSupport
import Testing

/// Two keyed archives that store one value alike are compared without walking either (`Specs/ArchiveFormat.md`
/// ARC-315): the first is checked as it would be read, the second by its reader's checks, and the results are
/// those of comparing their trees, errors included.
@Suite("Comparison of inputs stored alike")
struct StoredAlikeTests {
  /// What comparing `a` with `b` gives, as text: the differences, or the error.
  static func outcome(_ compare: () throws -> [ArchiveDifference]) -> String {
    do {
      return "differences: " + (try compare()).map { "\($0)" }.joined(separator: "; ")
    } catch {
      return "error: \(error)"
    }
  }

  /// The comparison of `a` with `b` (stored alike or not).
  static func compared(_ a: Data, _ b: Data) -> String {
    outcome { try ArchiveComparison.differences(between: a, and: b) }
  }

  /// The comparison of `a` with `b` through their trees, each input read on its own (ARC-314).
  static func twoTrees(_ a: Data, _ b: Data) -> String {
    outcome {
      let first = try ComparedDocument(data: a, fileName: "A")
      return try ArchiveComparison.differences(
        between: first, and: ComparedDocument(data: b, fileName: "B", comparedWith: { first }))
    }
  }

  /// Whether `a` and `b` are read as stored alike.
  static func storedAlike(_ a: Data, _ b: Data) -> Bool {
    ComparedDocument.storedAlike(a, b, fileNames: ("A", "B")) != nil
  }

  static func reader(_ bytes: [UInt8]) throws -> BinaryPropertyListReader {
    try BinaryPropertyListReader(bytes: bytes, validation: .onAccess)
  }

  static func notes(_ count: Int, changing changed: Int? = nil) throws -> Data {
    let notes = (0..<count).map { LinkedNote("note \($0) é", score: Double($0) / 3, tags: ["t\($0 % 5)"]) }
    if let changed { notes[changed].title = "changed" }
    return try KeyedArchiver.archivedData(withRootObject: notes)
  }

  @Test("ARC-315: a list stores alike its copy and a list of the same graph numbered otherwise, nothing else")
  func storesAlike() throws {
    // [["a", 1], "a"] with the string stored once: objects numbered in two orders.
    var first = RawPropertyList()
    let (a, one) = (first.string("a"), first.integer(1))
    let top = first.array([first.array([a, one]), a])
    var renumbered = RawPropertyList()
    let (one2, a2) = (renumbered.integer(1), renumbered.string("a"))
    let inner2 = renumbered.array([a2, one2])
    let top2 = renumbered.array([inner2, a2])
    let list = try Self.reader(first.bytes(top: UInt64(top)))
    #expect(list.storesAlike(try Self.reader(first.bytes(top: UInt64(top)))))
    #expect(list.storesAlike(try Self.reader(renumbered.bytes(top: UInt64(top2)))))
    #expect(list.storesAlike(try Self.reader(first.bytes(top: UInt64(top), refSize: 4, offsetSize: 4))))

    // The same value stored otherwise, or another value: no conclusion.
    func variant(_ change: (inout RawPropertyList) -> Int) throws -> BinaryPropertyListReader {
      var plist = RawPropertyList()
      let top = change(&plist)
      return try Self.reader(plist.bytes(top: UInt64(top)))
    }
    let twoCopies = try variant { plist in
      plist.array([plist.array([plist.string("a"), plist.integer(1)]), plist.string("a")])
    }
    let otherText = try variant { plist in
      let a = plist.string("b")
      return plist.array([plist.array([a, plist.integer(1)]), a])
    }
    let utf16 = try variant { plist in
      let a = plist.add([0x61, 0x00, 0x61])
      return plist.array([plist.array([a, plist.integer(1)]), a])
    }
    let narrowInteger = try variant { plist in
      let a = plist.string("a")
      return plist.array([plist.array([a, plist.add([0x10, 0x01])]), a])
    }
    let dangling = try variant { plist in
      let a = plist.string("a")
      return plist.array([plist.array([a, 99]), a])
    }
    for (name, other) in [
      ("two copies of a shared string", twoCopies), ("another string", otherText), ("UTF-16", utf16),
      ("a narrower integer", narrowInteger), ("a reference past the list", dangling),
    ] {
      #expect(!list.storesAlike(other), "\(name)")
      #expect(!other.storesAlike(list), "\(name), the other way")
    }
  }

  @Test("ARC-315: dictionaries store alike only with their keys in the same order")
  func dictionaryOrder() throws {
    func dictionary(_ keys: [String]) throws -> BinaryPropertyListReader {
      var plist = RawPropertyList()
      let entries = keys.map { (key: plist.string($0), value: plist.integer($0.count)) }
      let top = plist.dictionary(entries)
      return try Self.reader(plist.bytes(top: UInt64(top)))
    }
    #expect(try dictionary(["a", "bb"]).storesAlike(try dictionary(["a", "bb"])))
    #expect(try !dictionary(["a", "bb"]).storesAlike(try dictionary(["bb", "a"])))
  }

  @Test("ARC-315: an archive compared with its own bytes is stored alike and has no difference")
  func copies() throws {
    let archive = try Self.notes(300)
    let copy = Data(Array(archive))
    #expect(Self.storedAlike(archive, copy))
    #expect(Self.compared(archive, copy) == "differences: ")
    #expect(Self.compared(archive, copy) == Self.twoTrees(archive, copy))
    // Another value, an XML copy and a plain property list are read on their own.
    let changed = try Self.notes(300, changing: 120)
    #expect(!Self.storedAlike(archive, changed))
    #expect(Self.compared(archive, changed) == "differences: root[120].title: \"note 120 é\" -> \"changed\"")
    let xml = try KeyedArchiver.archivedData(withRootObject: [LinkedNote("x")], format: .xml)
    #expect(!Self.storedAlike(xml, Data(Array(xml))))
    let plist = try PropertyListWriter.write(.array([.string("a")]), format: .binary)
    #expect(!Self.storedAlike(plist, Data(Array(plist))))
  }

  @Test(
    "ARC-315: what the value does not hold is checked in each input: an object nothing reaches",
    arguments: [300, 9_000])
  func unreachableObject(notes: Int) throws {
    let archive = try Self.notes(notes)
    // An array referring past the list: the reader's checks refuse it, though nothing refers to it.
    let corrupt = Data(RawPropertyList.appendingArray(to: [UInt8](archive)) { count in count + 5 })
    let sound = Data(RawPropertyList.appendingArray(to: [UInt8](archive)) { _ in 0 })
    #expect(try Self.reader([UInt8](sound)).storesAlike(try Self.reader([UInt8](archive))))
    #expect(throws: ArchiveError.self) { try BinaryPropertyListReader(corrupt) }
    _ = try BinaryPropertyListReader(sound)
    for (a, b, side) in [(archive, corrupt, "B"), (corrupt, archive, "A"), (sound, corrupt, "B")] {
      #expect(Self.storedAlike(a, b))
      let error = try #require(throws: ArchiveError.self) { try ArchiveComparison.differences(between: a, and: b) }
      #expect(error.location.file == side, "\(error)")
      #expect(Self.compared(a, b) == Self.twoTrees(a, b))
    }
    #expect(Self.compared(archive, sound) == "differences: ")
    #expect(Self.compared(archive, sound) == Self.twoTrees(archive, sound))
  }

  /// Expects the comparison to give what two trees give for `a` with its copy and with each of `mutants`, and for
  /// each mutant with its copy.
  static func expectSameOutcomes(
    _ a: Data, _ mutants: [Data], _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (index, mutant) in ([a] + mutants).enumerated() {
      let copy = Data(Array(mutant))
      #expect(
        compared(mutant, copy) == twoTrees(mutant, copy), "\(name) \(index) with its copy",
        sourceLocation: sourceLocation)
      #expect(compared(a, mutant) == twoTrees(a, mutant), "\(name) with \(index)", sourceLocation: sourceLocation)
    }
  }

  @Test("ARC-315: generated archives, truncated and bit-flipped, compare as two trees compare them")
  func mutants() throws {
    let archive = try CheckedPropertyListTests.rowsArchive(40)
    #expect(Self.storedAlike(archive, Data(Array(archive))))
    Self.expectSameOutcomes(archive, CorpusMutationTests.mutants(of: archive, seed: 315, count: 120), "rows")
  }

  @Test(
    "ARC-315: every binary corpus archive and its mutants compare as two trees compare them",
    .enabled(if: ArchiveCorpus.isPresent, "../shared/corpus is absent: corpus tests skipped"),
    arguments: ArchiveCorpus.valid + ArchiveCorpus.negative)
  func corpus(file: String) throws {
    let data = try ArchiveCorpus.data(file)
    guard data.starts(with: Array("bplist0".utf8)) else { return }
    let count = data.count > 20_000 ? 4 : 16
    Self.expectSameOutcomes(
      data, CorpusMutationTests.mutants(of: data, seed: UInt64(data.count) &+ 315, count: count), file)
  }
}

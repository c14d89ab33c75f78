import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// Writes a title and a body but reads the title only: the kind of bug round-trip checks exist for.
final class LossyNote: Coding {
  var title: String
  var body: String?
  init(title: String, body: String?) {
    self.title = title
    self.body = body
  }
  required init(coder: any DecodingCoder) throws { title = try coder.decodeString(forKey: "title") ?? "" }
  func encode(with coder: any EncodingCoder) {
    coder.encode(title, forKey: "title")
    coder.encode(body, forKey: "body")
  }
}

@Suite("ArchiveTesting")
struct ArchiveTestingTests {
  init() {
    registerTestClasses
    ClassRegistry.shared.register(LossyNote.self, as: "LossyNote")
  }

  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("archive-testing-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("ARC-001: ArchiveRoundTrip.check passes a faithful graph in binary and XML and returns what it decoded")
  func roundTripPasses() throws {
    let record = Record()
    record.title = "x"
    record.tags = ["a"]
    let outcomes = try ArchiveRoundTrip.check(
      [record, record, "text", 3, ["k": Date(timeIntervalSinceReferenceDate: 1)]] as [Any])
    #expect(outcomes.map(\.format) == [.binary, .xml])
    let decoded = try #require(outcomes.first?.decoded as? [Any])
    #expect(decoded[0] as AnyObject === decoded[1] as AnyObject)
    let typed = try ArchiveRoundTrip.check(record, allowedClasses: [Record.self], equal: ==)
    #expect(typed.count == 2)
  }

  @Test("ARC-001, ARC-313: a lossy class fails the check with the path of the first difference")
  func roundTripReportsDifference() throws {
    do {
      try ArchiveRoundTrip.check(["notes": [LossyNote(title: "t", body: "the body")]])
      Issue.record("the lossy class passed")
    } catch let error as ArchiveError {
      #expect(error.code == .roundTripMismatch)
      #expect(error.message.contains("binary round trip"))
      // ARC-313: the archives of the original and of the decoded copy, compared by meaning; the copy's body is
      // nil, archived as `$null`, which is not the same as absent (ARC-302).
      #expect(
        error.message.contains("differs from the original at root.notes[0].body: \"the body\" -> null"), "\(error)")
      #expect(
        error.message.contains("Differences (expected -> actual):\n  root.notes[0].body: \"the body\" -> null"),
        "\(error)")
    }
    do {
      try ArchiveRoundTrip.check(LossyNote(title: "t", body: "b")) { $0.body == $1.body }
      Issue.record("the equality closure was ignored")
    } catch let error as ArchiveError {
      #expect(error.message.contains("root.body"), "\(error)")
    }
  }

  @Test("ARC-001: the Swift Testing front end records an issue at the caller")
  func expectationsRecordIssues() {
    withKnownIssue {
      ArchiveExpectations.expectRoundTrip(LossyNote(title: "t", body: "b"))
    }
    #expect(ArchiveExpectations.expectRoundTrip(["plain": 1]).count == 2)
  }

  @Test("ARC-022, ARC-300: snapshots compare sharing, not only values, through the one comparison")
  func snapshotSharing() {
    let a = ListNode(value: 1)
    let b = ListNode(value: 1)
    let shared = ValueSnapshot(of: [a, a])
    let distinct = ValueSnapshot(of: [a, b])
    #expect(ValueSnapshot.difference(expected: shared, actual: ValueSnapshot(of: [b, b])) == nil)
    let difference = ValueSnapshot.difference(expected: shared, actual: distinct)
    #expect(difference?.path == "root[1]")
    // ARC-172 through the one comparison: a side met before is a reference to where it was first met.
    #expect(difference?.message.contains(#"expected {"$ref":"root[0]"}"#) == true, "\(String(describing: difference))")
    let other = ValueSnapshot.difference(expected: distinct, actual: shared)
    #expect(other?.message.contains(#"found {"$ref":"root[0]"}"#) == true, "\(String(describing: other))")
  }

  @Test("ARC-003: snapshots treat every NaN as equal, keep the sign of zero and compare strings by scalars")
  func snapshotLeaves() {
    func same(_ a: Any?, _ b: Any?) -> Bool {
      ValueSnapshot.difference(expected: ValueSnapshot(of: a), actual: ValueSnapshot(of: b)) == nil
    }
    #expect(same(Double.nan, -Double.nan))
    #expect(!same(0.0, -0.0))
    #expect(!same("é", "e\u{301}"))
    #expect(!same(1, true))
    #expect(!same(Float(1.5), 1.5))
    #expect(same(1, Int64(1)))
    #expect(same(NSNumber(value: 7), 7))
    #expect(same(NSNumber(value: true), true))
    #expect(same(Set([1, 2, 3]), Set([3, 2, 1])))
    #expect(same(["a": 1, "b": 2], ["b": 2, "a": 1]))
    #expect(!same(["a": 1], ["a": 2]))
    #expect(!same([1, 2], [2, 1]))
    #expect(same(NSArray(array: ["x", 1]), ["x", 1] as [Any]))
    #expect(
      same(
        URL(string: "a", relativeTo: URL(string: "https://h/")), URL(string: "a", relativeTo: URL(string: "https://h/"))
      ))
    #expect(!same(URL(string: "https://h/a"), URL(string: "a", relativeTo: URL(string: "https://h/"))))
  }

  @Test("ARC-021: the structure of an archive ignores $objects numbering, string sharing and dictionary order")
  func archiveStructure() throws {
    let value: [String: Any] = ["b": ["x", "x", 2.5], "a": ["k": Set(["p", "q"])], "c": NSNull()]
    let ours = try ValueSnapshot(archive: try KeyedArchiver.archivedData(withRootObject: value))
    let theirs = try ValueSnapshot(archive: FoundationOracle.archive(value))
    #expect(ValueSnapshot.difference(expected: ours, actual: theirs) == nil)
    let xml = try ValueSnapshot(archive: try KeyedArchiver.archivedData(withRootObject: value, format: .xml))
    #expect(ValueSnapshot.difference(expected: ours, actual: xml) == nil)
    var changed = value
    changed["b"] = ["x", "y", 2.5]
    let other = try ValueSnapshot(archive: try KeyedArchiver.archivedData(withRootObject: changed))
    let difference = try #require(ValueSnapshot.difference(expected: ours, actual: other))
    #expect(difference.path.contains("[1]") && difference.message == #"expected "x", found "y""#, "\(difference)")
  }

  @Test("ARC-021: golden archives are recorded on request and compared by structure")
  func golden() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("library.plist")
    let value: [String: Any] = ["books": ["Dune", "Emma"], "count": 2]
    do {
      try GoldenArchive.check(rootObject: value, against: url, record: false)
      Issue.record("a missing golden file passed")
    } catch let error as ArchiveError {
      #expect(error.code == .fileIO && error.message.contains(GoldenArchive.recordVariable))
    }
    try GoldenArchive.check(rootObject: value, against: url, record: true)
    #expect(String(decoding: try Data(contentsOf: url).prefix(5), as: UTF8.self) == "<?xml")
    try GoldenArchive.check(rootObject: value, against: url, record: false)
    // Foundation's archive of the same value matches the golden file: the comparison is semantic.
    try GoldenArchive.check(FoundationOracle.archive(value), against: url, record: false)
    do {
      try GoldenArchive.check(rootObject: ["books": ["Dune"], "count": 2], against: url, record: false)
      Issue.record("a changed archive matched")
    } catch let error as ArchiveError {
      #expect(error.code == .goldenMismatch)
      #expect(error.message.contains(#"at root.books[1]: "Emma" -> (absent)"#), "\(error)")
    }
  }

  @Test("ARC-011: the Foundation oracle reads our archives and refuses the ones that would crash it")
  func oracle() throws {
    try FoundationOracle.check(["a": [1, 2], "b": "text", "c": UUID(), "d": Data([1])])
    let head = ListNode(value: 1)
    let tail = ListNode(value: 2)
    head.next = tail
    tail.previous = head
    let cyclic = try KeyedArchiver.archivedData(withRootObject: head)
    do {
      _ = try FoundationOracle.unarchive(cyclic, classes: ["ListNode": NSObject.self])
      Issue.record("a cyclic archive was handed to NSKeyedUnarchiver")
    } catch let error as ArchiveError {
      #expect(error.code == .oracleFailed && error.message.contains("cycle"))
    }
    let unknown = try KeyedArchiver.archivedData(withRootObject: ["k": ArchivedObject(className: "Nowhere.Thing")])
    #expect(throws: ArchiveError.self) { _ = try FoundationOracle.unarchive(unknown) }
    head.next = nil
  }
}

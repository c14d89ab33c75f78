import ArchiveCoding
import Foundation
import NibLoading
import Synchronization
import Testing

/// An object that asks its nib coder the queries of ``script`` and keeps what it was told.
private final class LookupProbe: Coding {
  /// The queries the next instances ask, in order.
  static let script = Mutex<[[String]]>([])
  /// The key each query found (`nil` when none of its keys is present).
  let answers: [String?]
  /// The key a fresh lookup of each query finds in the object's fields.
  let expected: [String?]
  /// How many answers came from the recorded lookups.
  let replayed: Int

  init(coder: any DecodingCoder) throws {
    let coder = try #require(coder as? NibObjectCoder)
    let queries = Self.script.withLock { $0 }
    let keys = coder.fields.entries.map(\.key)
    answers = queries.map { query in coder.position(ofFirst: query).map { keys[$0] } }
    expected = queries.map { query in query.first { keys.contains($0) } }
    replayed = coder.replayedLookups
  }

  func encode(with coder: any EncodingCoder) {}
}

/// NIB-041: lookups recorded on one instantiation and replayed on the later ones.
@Suite("Nib lookup replay", .serialized)
struct NibLookupReplayTests {
  // Constant arrays, as a catalog initialiser's literals are: the same storage on every instantiation.
  static let alpha = ["alpha", "UIAlpha"]
  static let absent = ["nope", "NSNope"]
  static let tag = ["UITag", "tag"]
  static let hidden = ["hidden", "UIHidden", "isHidden"]
  static let queries = [alpha, absent, tag, hidden]

  private func probeNib() -> Nib {
    let registry = ClassRegistry()
    registry.register(LookupProbe.self, as: "LookupProbe")
    return Nib(
      data: xib(#"<view id="p" customClass="LookupProbe" alpha="0.5" tag="3" hidden="YES" contentMode="center"/>"#),
      registry: registry)
  }

  private func probe(_ nib: Nib, asking queries: [[String]]) throws -> LookupProbe {
    LookupProbe.script.withLock { $0 = queries }
    return try #require(try nib.instantiate(owner: nil).first as? LookupProbe)
  }

  @Test("NIB-041: the first instantiation records nothing, the second records, the third replays every answer")
  func recordThenReplay() throws {
    let nib = probeNib()
    let runs = try (0..<3).map { _ in try probe(nib, asking: Self.queries) }
    #expect(runs.map(\.replayed) == [0, 0, Self.queries.count])
    for run in runs {
      #expect(run.answers == run.expected)
    }
    #expect(runs[0].answers == ["alpha", nil, "tag", "hidden"])
  }

  @Test("NIB-041: a query with other keys than the recorded one is looked up afresh, and so is every later one")
  func divergence() throws {
    let nib = probeNib()
    for _ in 0..<2 { _ = try probe(nib, asking: Self.queries) }
    // The same keys in new storage at step 1 are the recorded query: compared key by key, and replayed.
    let copy = try probe(nib, asking: [Self.alpha, Self.absent.map { $0 }, Self.tag, Self.hidden])
    #expect(copy.replayed == Self.queries.count)
    #expect(copy.answers == copy.expected)
    // Other keys at step 1: looked up, and so is everything after it, though the later arrays are the recorded ones.
    let fresh = try probe(nib, asking: [Self.alpha, ["tag"], Self.tag, Self.hidden])
    #expect(fresh.replayed == 1)
    #expect(fresh.answers == fresh.expected)
    #expect(fresh.answers == ["alpha", "tag", "tag", "hidden"])
    // Recorded arrays, asked in another order: each answer is still the one of its own keys.
    let reordered = try probe(nib, asking: [Self.hidden, Self.tag, Self.alpha, Self.absent])
    #expect(reordered.replayed == 0)
    #expect(reordered.answers == ["hidden", "tag", "alpha", nil])
    // A longer script than the recorded one: the extra query is looked up.
    let longer = try probe(nib, asking: Self.queries + [["contentMode"]])
    #expect(longer.replayed == Self.queries.count)
    #expect(longer.answers == longer.expected)
    #expect(longer.answers.last == "contentMode")
  }

  @Test("NIB-041: a prefix of the recorded array (same storage start, fewer keys) is not taken for it")
  func sameStartOtherCount() throws {
    let nib = probeNib()
    let wide = ["nope", "alpha"]
    for _ in 0..<2 { _ = try probe(nib, asking: [wide]) }
    // `wide.dropLast()` as an array may share `wide`'s storage start, but it has one key, which is absent.
    let narrow = Array(wide.dropLast())
    let run = try probe(nib, asking: [narrow])
    #expect(run.answers == [nil])
    #expect(run.replayed == 0)
  }

  @Test("NIB-041: concurrent instantiations of one nib all get the fresh lookups' answers")
  func concurrent() async throws {
    let nib = probeNib()
    LookupProbe.script.withLock { $0 = Self.queries }
    let answers = try await withThrowingTaskGroup(of: [String?].self) { group in
      for _ in 0..<16 {
        group.addTask { try #require(try nib.instantiate(owner: nil).first as? LookupProbe).answers }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(answers.count == 16)
    #expect(answers.allSatisfy { $0 == ["alpha", nil, "tag", "hidden"] })
  }
}

import ArchiveCoding
import Foundation
import NibLoading
import Synchronization
import Testing

/// The result a ``MemoProbe`` keeps: what its function made of the fields.
private final class ProbeValues {
  let tag: String?
  let hidden: String?
  init(tag: String?, hidden: String?) {
    self.tag = tag
    self.hidden = hidden
  }
}

/// An object whose initialiser asks one query, then runs a memoised function of two queries (and, when told, of a
/// field that refers to an object), then asks one more query, like a catalog initialiser does.
private final class MemoProbe: Coding {
  /// Whether the memoised function also reads the `child` field (an object reference).
  static let readsChild = Mutex(false)
  /// How many times the memoised function ran.
  static let runs = Mutex(0)
  /// The query asked before the memoised function.
  static let firstQuery = Mutex(alpha)
  static let alpha = ["alpha", "UIAlpha"]
  static let tag = ["UITag", "tag"]
  static let hidden = ["hidden", "UIHidden"]
  static let absent = ["nope"]

  let values: ProbeValues
  /// Whether the values came from an earlier instantiation.
  let fromMemo: Bool
  let alphaKey: String?
  let absentKey: String?
  let replayed: Int

  init(coder: any DecodingCoder) throws {
    let coder = try #require(coder as? NibObjectCoder)
    let keys = coder.fields.entries.map(\.key)
    alphaKey = coder.position(ofFirst: Self.firstQuery.withLock { $0 }).map { keys[$0] }
    if let kept = coder.replayedMemo(ProbeValues.self) {
      values = kept
      fromMemo = true
    } else {
      let start = coder.memoStart
      Self.runs.withLock { $0 += 1 }
      let values = ProbeValues(
        tag: coder.position(ofFirst: Self.tag).map { keys[$0] },
        hidden: coder.position(ofFirst: Self.hidden).map { keys[$0] })
      if Self.readsChild.withLock({ $0 }) { _ = try coder.decodeObject(forKey: "child") }
      if let start { coder.recordMemo(values, start: start) }
      self.values = values
      fromMemo = false
    }
    absentKey = coder.position(ofFirst: Self.absent).map { keys[$0] }
    replayed = coder.replayedLookups
  }

  func encode(with coder: any EncodingCoder) {}
}

/// An object that keeps the coder its initialiser was given.
private final class CoderKeeper: Coding {
  let coder: any DecodingCoder
  init(coder: any DecodingCoder) throws { self.coder = coder }
  func encode(with coder: any EncodingCoder) {}
}

/// NIB-042: results of constant fields kept per nib object; NIB-043: coders handed on at one depth.
@Suite("Nib constant-field memos", .serialized)
struct NibConstantMemoTests {
  private func probeNib() -> Nib {
    let registry = ClassRegistry()
    registry.register(MemoProbe.self, as: "MemoProbe")
    registry.register(CoderKeeper.self, as: "CoderKeeper")
    return Nib(
      data: xib(
        #"""
        <view id="p" customClass="MemoProbe" alpha="0.5" tag="3" hidden="YES">
          <view key="child" id="c" customClass="CoderKeeper" tag="7"/>
        </view>
        """#),
      registry: registry)
  }

  private func probe(_ nib: Nib) throws -> MemoProbe {
    try #require(try nib.instantiate(owner: nil).first as? MemoProbe)
  }

  @Test("NIB-042: the second instantiation keeps the function's result, the third takes it and skips its lookups")
  func recordThenReplay() throws {
    MemoProbe.readsChild.withLock { $0 = false }
    MemoProbe.runs.withLock { $0 = 0 }
    let nib = probeNib()
    let runs = try (0..<4).map { _ in try probe(nib) }
    #expect(runs.map(\.fromMemo) == [false, false, true, true])
    #expect(MemoProbe.runs.withLock { $0 } == 2)
    // The lookups after the memo are still replayed: 1 before, 2 skipped, 1 after.
    #expect(runs.map(\.replayed) == [0, 0, 4, 4])
    for run in runs {
      #expect(run.alphaKey == "alpha")
      #expect(run.values.tag == "tag")
      #expect(run.values.hidden == "hidden")
      #expect(run.absentKey == nil)
    }
    // The later instantiations share the kept values; the objects themselves are fresh.
    #expect(runs[2].values === runs[1].values)
    #expect(runs[2] !== runs[3])
  }

  @Test("NIB-042: a function that read a field referring to an object keeps nothing")
  func objectFieldKeepsNothing() throws {
    MemoProbe.readsChild.withLock { $0 = true }
    defer { MemoProbe.readsChild.withLock { $0 = false } }
    MemoProbe.runs.withLock { $0 = 0 }
    let nib = probeNib()
    let runs = try (0..<3).map { _ in try probe(nib) }
    #expect(runs.map(\.fromMemo) == [false, false, false])
    #expect(MemoProbe.runs.withLock { $0 } == 3)
    // The lookups are still recorded and replayed.
    #expect(runs[2].replayed == 4)
  }

  @Test("NIB-042: after a lookup off the record, no kept result is taken")
  func divergenceStopsMemos() throws {
    MemoProbe.readsChild.withLock { $0 = false }
    let nib = probeNib()
    for _ in 0..<2 { _ = try probe(nib) }
    // Another array with the same keys is still the recorded query (NIB-041): the memo applies.
    MemoProbe.firstQuery.withLock { $0 = MemoProbe.alpha.map { $0 } }
    #expect(try probe(nib).fromMemo)
    // Other keys before the function: the record no longer applies, and neither does the memo.
    MemoProbe.firstQuery.withLock { $0 = ["tag"] }
    defer { MemoProbe.firstQuery.withLock { $0 = MemoProbe.alpha } }
    let diverged = try probe(nib)
    #expect(!diverged.fromMemo)
    #expect(diverged.replayed == 0)
    #expect(diverged.alphaKey == "tag")
    #expect(diverged.values.tag == "tag")
  }

  @Test("NIB-043: a coder an object keeps is not handed to the next object, and still describes its own")
  func keptCoderStaysItsObjects() throws {
    let registry = ClassRegistry()
    registry.register(CoderKeeper.self, as: "CoderKeeper")
    let nib = Nib(
      data: xib(
        #"""
        <view id="a" customClass="CoderKeeper" tag="1"/>
        <view id="b" customClass="CoderKeeper" tag="2"/>
        <view id="c" customClass="CoderKeeper" tag="3"/>
        """#),
      registry: registry)
    for _ in 0..<3 {
      let keepers = try nib.instantiate(owner: nil).compactMap { $0 as? CoderKeeper }
      #expect(keepers.count == 3)
      #expect(try keepers.map { try $0.coder.decodeInt(forKey: "tag") } == [1, 2, 3])
      #expect(Set(keepers.map { ObjectIdentifier($0.coder as AnyObject) }).count == 3)
    }
  }
}

import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import KeyedArchive

/// An element of a mutable array (of a generic object's field, decoded as an instance) that holds the array (`owner`) and refers to itself through a deferred reference
/// (`peer`): it closes a cycle with the array, owns a link and is awoken after the link phase. Each instance and
/// each awake call is noted in the task's ``Probes``.
private final class CycleProbe: Coding {
  final class Probes: @unchecked Sendable {
    struct Entry { weak var probe: CycleProbe? }
    var made: [Entry] = []
    var awoken = 0
    var alive: Int { made.filter { $0.probe != nil }.count }
  }
  @TaskLocal static var probes: Probes?
  var owner: Any?
  weak var peer: CycleProbe?
  required init(coder: any DecodingCoder) throws {
    owner = try coder.decodeObject(forKey: "owner")
    try coder.decodeReference(forKey: "peer", into: \CycleProbe.peer)
    Self.probes?.made.append(.init(probe: self))
  }
  func encode(with coder: any EncodingCoder) {}
  func awakeAfter(using coder: any DecodingCoder) throws -> AnyObject {
    Self.probes?.awoken += 1
    return self
  }
}

/// A decode that fails takes back what it made (ARC-044): the objects of a failed decode that close a cycle through
/// a mutable collection (published before its elements) are freed, and a later decode of the same unarchiver makes
/// them afresh instead of handing out what the failed one left, without running its deferred references or awake
/// calls.
@Suite("Failed decodes take back their objects")
struct FailedDecodeTakeBackTests {
  static let registry: ClassRegistry = {
    let registry = ClassRegistry()
    registry.register(CycleProbe.self, as: "CycleProbe")
    registry.register(TrackedLeaf.self, as: "CycleLeaf")
    return registry
  }()

  /// `$top`: `root` → an object of a class no one registered, `Holder` (1), decoded generically, whose `list` is an
  /// `NSMutableArray` (3) holding a ``CycleProbe`` (5) whose `owner` is the array and whose `peer` is itself, and
  /// whose `broken` refers to `$objects[999]`; `again` → another `Holder` (9) with the same `list`; `other` → a leaf
  /// (7) of its own.
  static func archive() -> Data {
    var plist = RawPropertyList()
    let classKey = plist.string("$class")
    let listKey = plist.string("list")
    let null = plist.string("$null")
    let holder = plist.dictionary([
      (classKey, plist.uid(2)), (listKey, plist.uid(3)), (plist.string("broken"), plist.uid(999)),
    ])
    let holderClass = plist.classDescription("Holder")
    let list = plist.dictionary([(classKey, plist.uid(4)), (plist.string("NS.objects"), plist.array([plist.uid(5)]))])
    let listClass = plist.classDescription("NSMutableArray")
    let probe = plist.dictionary([
      (classKey, plist.uid(6)), (plist.string("owner"), plist.uid(3)), (plist.string("peer"), plist.uid(5)),
    ])
    let probeClass = plist.classDescription("CycleProbe")
    let leaf = plist.dictionary([(classKey, plist.uid(8)), (plist.string("n"), plist.integer(7))])
    let leafClass = plist.classDescription("CycleLeaf")
    let holderAgain = plist.dictionary([(classKey, plist.uid(2)), (listKey, plist.uid(3))])
    return Data(
      plist.keyedArchiveBytes(
        objects: [null, holder, holderClass, list, listClass, probe, probeClass, leaf, leafClass, holderAgain],
        top: [("root", 1), ("again", 9), ("other", 7)]))
  }

  static func unarchiver() throws -> KeyedUnarchiver {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive(), requiringSecureCoding: false)
    unarchiver.registry = registry
    unarchiver.decodesUnknownClassesGenerically = true
    return unarchiver
  }

  @Test("ARC-044: objects of a failed decode in a cycle through a mutable collection are freed with the unarchiver")
  func cycleOfFailedDecodeFreed() throws {
    let probes = CycleProbe.Probes()
    try CycleProbe.$probes.withValue(probes) {
      let unarchiver = try Self.unarchiver()
      let error = #expect(throws: ArchiveError.self) { try unarchiver.decodeObject(forKey: "root") }
      #expect(error?.code == .corruptData)
      #expect(error?.location.keyPath?.hasSuffix("broken") == true, "\(String(describing: error))")
    }
    // The probe was made (and held the array that held it) before the decode failed.
    #expect(probes.made.count == 1)
    #expect(probes.alive == 0, "the failed decode's array and probe outlive it")
    #expect(probes.awoken == 0)
  }

  @Test("ARC-044: a decode after a failed one makes its objects afresh and runs none of the failed one's links")
  func laterDecodeAfterFailure() throws {
    let probes = CycleProbe.Probes()
    try CycleProbe.$probes.withValue(probes) {
      let unarchiver = try Self.unarchiver()
      #expect(throws: ArchiveError.self) { try unarchiver.decodeObject(forKey: "root") }
      #expect(probes.alive == 0, "the failed decode's probe is kept by the unarchiver")
      let holder = try #require(try unarchiver.decodeObject(forKey: "again") as? ArchivedObject)
      guard case .object(let value)? = holder["list"], let list = value as? NSMutableArray else {
        Issue.record("list is not a mutable array: \(holder)")
        return
      }
      #expect(probes.made.count == 2, "the array was handed out as the failed decode left it")
      let probe = try #require(list.firstObject as? CycleProbe)
      #expect(list.count == 1)
      let owner = probe.owner as? NSMutableArray
      #expect(owner.map { $0 === list } == true)
      #expect(probe.peer === probe)
      #expect(probes.awoken == 1)
      // Another top-level decode runs its own link and awake phases only.
      let leaf = try #require(try unarchiver.decodeObject(forKey: "other") as? TrackedLeaf)
      #expect(leaf.n == 7)
      #expect(probes.awoken == 1)
      list.removeAllObjects()
    }
    #expect(probes.alive == 0)
  }
}

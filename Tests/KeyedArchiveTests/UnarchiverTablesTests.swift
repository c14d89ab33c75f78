import ArchiveCoding
import Foundation
import Testing

@testable import KeyedArchive

/// A node whose `init(coder:)` decodes its name and leaves, then fails when its archive says so: the failure comes
/// after objects, frames and class entries were made.
private final class TablesNode: SecureCoding {
  var name: String
  var leaves: [TrackedLeaf]
  var failing: Bool
  init(name: String, leaves: [TrackedLeaf], failing: Bool = false) {
    self.name = name
    self.leaves = leaves
    self.failing = failing
  }
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeString(forKey: "name") ?? ""
    leaves = try coder.decodeArrayOfObjects(ofClass: TrackedLeaf.self, forKey: "leaves") ?? []
    failing = try coder.decodeBool(forKey: "fail")
    if failing { throw ArchiveError(.corruptData, "refused by the test") }
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encodeObject(leaves, forKey: "leaves")
    coder.encode(failing, forKey: "fail")
  }
}

/// The tables an unarchiver keeps for the next archive are empty buffers (ARC-044, Decision 0021): nothing of one
/// decode reaches the next, on any thread, and no decoded object stays alive in them.
@Suite("Tables kept between archives")
struct UnarchiverTablesTests {
  static let registry: ClassRegistry = {
    let registry = ClassRegistry()
    registry.register(TablesNode.self, as: "TablesNode")
    registry.register(TrackedLeaf.self, as: "TablesLeaf")
    return registry
  }()

  fileprivate static func archive(_ node: TablesNode) throws -> Data {
    let archiver = KeyedArchiver(registry: registry)
    archiver.encodeObject(node, forKey: "root")
    return try archiver.finishEncoding()
  }

  /// The node decoded from `data` as its name and leaf numbers, or the error's message.
  static func outcome(_ data: Data) -> String {
    do {
      let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: true)
      unarchiver.registry = registry
      guard let node = try unarchiver.decodeObject(of: TablesNode.self, forKey: "root") else { return "nil" }
      return node.name + ":" + node.leaves.map { String($0.n) }.joined(separator: ",")
    } catch {
      return "error: \(error)"
    }
  }

  /// Archives of different sizes and one that fails, with what each decodes to when decoded first.
  static func cases() throws -> [(data: Data, expected: String)] {
    let archives = [
      try archive(TablesNode(name: "alpha", leaves: (1...40).map { TrackedLeaf(n: $0) })),
      try archive(TablesNode(name: "beta", leaves: [TrackedLeaf(n: 7)])),
      try archive(TablesNode(name: "failing", leaves: (1...5).map { TrackedLeaf(n: $0) }, failing: true)),
      try archive(TablesNode(name: "gamma", leaves: [])),
    ]
    return archives.map { ($0, outcome($0)) }
  }

  @Test("ARC-044: an archive decodes alike whatever was decoded before it, a failing decode included")
  func noStateCrossesArchives() throws {
    let cases = try Self.cases()
    #expect(cases[0].expected == "alpha:" + (1...40).map(String.init).joined(separator: ","))
    #expect(cases[1].expected == "beta:7")
    #expect(cases[2].expected.contains("refused by the test"), "\(cases[2].expected)")
    #expect(cases[3].expected == "gamma:")
    // Every ordered pair, twice: the second of each pair starts from the tables the first left.
    for _ in 0..<2 {
      for first in cases.indices {
        for second in cases.indices {
          #expect(Self.outcome(cases[first].data) == cases[first].expected)
          #expect(Self.outcome(cases[second].data) == cases[second].expected, "after \(first)")
        }
      }
    }
  }

  @Test("ARC-044: no decoded object outlives its decode in the kept tables, also when the decode failed")
  func nothingKeptAlive() throws {
    let tracker = TrackedLeaf.Tracker()
    let cases = try Self.cases()
    TrackedLeaf.$tracker.withValue(tracker) {
      for item in cases { _ = Self.outcome(item.data) }
    }
    #expect(tracker.entries.count == 40 + 1 + 5)
    #expect(tracker.alive == 0, "\(tracker.alive) leaves still alive")
  }

  @Test("ARC-044: decodes on several threads at once each see their own archive")
  func concurrentDecodes() async throws {
    let cases = try Self.cases()
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var mismatches = 0
          for i in 0..<100 {
            let item = cases[(task + i) % cases.count]
            if Self.outcome(item.data) != item.expected { mismatches += 1 }
          }
          return mismatches
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  @Test("ARC-044: the tables of an archive of more than 4,096 objects are not kept")
  func largeTablesNotKept() throws {
    let data = try Self.archive(TablesNode(name: "large", leaves: (0..<5_000).map { TrackedLeaf(n: $0) }))
    #expect(Self.outcome(data).hasPrefix("large:0,1,2"))
    // Other tests decode meanwhile; none keeps more than the bound either.
    #expect(UnarchiverTables.largestKeptCapacity <= UnarchiverTables.maxKept)
  }
}

import ArchiveCoding
import Foundation
import PropertyList
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

/// A node whose `init(coder:)` decodes another archive (its `inner` data) with an unarchiver of its own, while
/// the outer one is decoding, and keeps its coder alive.
private final class NestingNode: SecureCoding {
  var inner: String
  var coder: (any DecodingCoder)?
  init(inner: String) { self.inner = inner }
  required init(coder: any DecodingCoder) throws {
    let data = try coder.decodeData(forKey: "inner") ?? Data()
    inner = IndependentDecodeTests.outcome(data)
    self.coder = coder
  }
  func encode(with coder: any EncodingCoder) {}
}

/// A leaf that counts its `awakeAfter(using:)` calls in the task's counter.
private final class AwakeLeaf: SecureCoding {
  final class Counter: @unchecked Sendable { var calls = 0 }
  @TaskLocal static var counter: Counter?
  var n: Int
  init(n: Int) { self.n = n }
  required init(coder: any DecodingCoder) throws { n = try coder.decodeInt(forKey: "n") }
  func encode(with coder: any EncodingCoder) { coder.encode(n, forKey: "n") }
  func awakeAfter(using coder: any DecodingCoder) throws -> AnyObject {
    Self.counter?.calls += 1
    return self
  }
}

/// Nothing of one decode reaches the next (ARC-044): each unarchiver builds its own index and store, on any thread,
/// and no decoded object stays alive after its decode.
@Suite("Independent decodes")
struct IndependentDecodeTests {
  static let registry: ClassRegistry = {
    let registry = ClassRegistry()
    registry.register(TablesNode.self, as: "TablesNode")
    registry.register(TrackedLeaf.self, as: "TablesLeaf")
    registry.register(NestingNode.self, as: "TablesNesting")
    registry.register(AwakeLeaf.self, as: "TablesAwakeLeaf")
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

  @Test("ARC-044: no decoded object outlives its decode, also when the decode failed")
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

  @Test("ARC-044: a decode nested in an init(coder:), and a coder kept by its object, leave the next decodes alike")
  func nestedDecodeAndKeptCoder() throws {
    let cases = try Self.cases()
    let encoding = ClassRegistry()
    encoding.register(FieldsOnly.self, as: "TablesNesting")
    var kept: [NestingNode] = []
    for item in cases {
      // The outer archive: one object whose `inner` field is another archive.
      let archiver = KeyedArchiver(registry: encoding)
      archiver.encodeObject(FieldsOnly(fields: ["inner": item.data]), forKey: "root")
      let outer = try archiver.finishEncoding()
      let unarchiver = try KeyedUnarchiver(forReadingFrom: outer, requiringSecureCoding: true)
      unarchiver.registry = Self.registry
      let node = try #require(try unarchiver.decodeObject(of: NestingNode.self, forKey: "root"))
      #expect(node.inner == item.expected)
      kept.append(node)
      // The kept coder (and its unarchiver) stay alive; other archives decode as before.
      for other in cases { #expect(Self.outcome(other.data) == other.expected) }
    }
    #expect(kept.allSatisfy { $0.coder != nil })
  }

  @Test("ARC-044: each decode awakes its own objects once, whatever the decodes before it awoke")
  func awakeOncePerDecode() throws {
    let archiver = KeyedArchiver(registry: Self.registry)
    archiver.encodeObject((1...6).map { AwakeLeaf(n: $0) }, forKey: "root")
    let data = try archiver.finishEncoding()
    let counter = AwakeLeaf.Counter()
    try AwakeLeaf.$counter.withValue(counter) {
      for round in 1...4 {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: true)
        unarchiver.registry = Self.registry
        let leaves = try unarchiver.decodeArrayOfObjects(ofClass: AwakeLeaf.self, forKey: "root")
        #expect(leaves?.map(\.n) == Array(1...6))
        #expect(counter.calls == 6 * round)
        // A failing decode in between.
        _ = Self.outcome(try Self.cases()[2].data)
      }
    }
  }

  @Test("ARC-044: the secure-coding checks of plain values are made again for each archive's allowed classes")
  func plainChecksPerArchive() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: ["text", Data([1, 2, 3])] as [Any])
    for _ in 0..<3 {
      let refused = #expect(throws: ArchiveError.self) {
        try KeyedUnarchiver.unarchivedObject(ofClasses: [[Any].self, String.self], from: data)
      }
      #expect(refused?.code == .classNotAllowed)
      let allowed = try KeyedUnarchiver.unarchivedObject(ofClasses: [[Any].self, String.self, Data.self], from: data)
      #expect((allowed as? [Any])?.count == 2)
    }
  }
}

/// An object with the given data fields, archived as `TablesNesting` (the outer archive of
/// ``IndependentDecodeTests/nestedDecodeAndKeptCoder()``).
private final class FieldsOnly: Coding {
  let fields: [String: Data]
  init(fields: [String: Data]) { self.fields = fields }
  required init(coder: any DecodingCoder) throws { fields = [:] }
  func encode(with coder: any EncodingCoder) { for (key, value) in fields { coder.encode(value, forKey: key) } }
}

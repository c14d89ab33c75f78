import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// Differential tests against the toolchain's `NSKeyedArchiver` / `NSKeyedUnarchiver`: random acyclic graphs of
/// Foundation values and twin objects, written by one library and read by the other, must decode to the same
/// graph (compared as ``ValueSnapshot``s, sharing included). Each batch runs `graphsPerBatch` seeds; a failure
/// names the seed, the format and the first difference.
@Suite("Foundation differential")
struct FoundationDifferentialTests {
  init() { registerTestClasses }

  static let batches = 0..<16
  static let graphsPerBatch = 25

  static let classes: [String: AnyClass] = [FoundationTwin.archivedName: FoundationTwin.self]

  static func seeds(_ batch: Int) -> Range<Int> { batch * graphsPerBatch..<(batch + 1) * graphsPerBatch }

  static func format(_ seed: Int) -> PropertyListFormat { seed % 3 == 2 ? .xml : .binary }

  @Test("ARC-011: archives written by Foundation's NSKeyedArchiver decode to the same graph", arguments: batches)
  func foundationWrites(batch: Int) throws {
    for seed in Self.seeds(batch) {
      let format = Self.format(seed)
      var generator = RandomGraph(seed: UInt64(seed), writer: .foundation, format: format)
      let graph = generator.root()
      var materializer = GraphMaterializer<FoundationTwin>.foundation
      let original = materializer.value(graph)
      let archive = FoundationOracle.archive(original, format: format)
      let expected = ValueSnapshot(of: original, describing: FoundationTwin.describer)
      // Half the seeds decode with the shared registry, half with a per-archive class mapping.
      let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
      if seed % 2 == 1 {
        unarchiver.registry = ClassRegistry()
        unarchiver.setClass(OurTwin.self, forClassName: FoundationTwin.archivedName)
      }
      let decoded: Any?
      do {
        decoded = try unarchiver.decodeObject(forKey: "root", allowedClasses: nil)
      } catch {
        Issue.record("seed \(seed) (\(format)): our unarchiver failed on Foundation's archive: \(error)")
        continue
      }
      let actual = ValueSnapshot(of: decoded, describing: FoundationTwin.describer)
      if let difference = ValueSnapshot.difference(expected: expected, actual: actual) {
        Issue.record("seed \(seed) (\(format)): \(difference)\nexpected:\n\(expected.rendered(maxLines: 60))")
      }
    }
  }

  @Test(
    "ARC-011: archives written by KeyedArchiver decode in Foundation's NSKeyedUnarchiver to the same graph",
    arguments: batches)
  func oursWrites(batch: Int) throws {
    for seed in Self.seeds(batch) {
      let format = Self.format(seed)
      var generator = RandomGraph(seed: UInt64(seed), writer: .ours, format: format)
      let graph = generator.root()
      var materializer = GraphMaterializer<OurTwin>.ours
      let original = materializer.value(graph)
      let archive: Data
      do {
        archive = try KeyedArchiver.archivedData(withRootObject: original, format: format)
      } catch {
        Issue.record("seed \(seed) (\(format)): KeyedArchiver failed: \(error)")
        continue
      }
      let expected = ValueSnapshot(of: original)
      let decoded: Any?
      do {
        decoded = try FoundationOracle.unarchive(archive, classes: Self.classes)
      } catch {
        Issue.record("seed \(seed) (\(format)): Foundation could not read our archive: \(error)")
        continue
      }
      // corelibs drops a decoded URL's base (keeping its absolute string): compare URLs resolved.
      let actual = ValueSnapshot(of: decoded, describing: FoundationTwin.describer).resolvingRelativeURLs()
      if let difference = ValueSnapshot.difference(expected: expected.resolvingRelativeURLs(), actual: actual) {
        Issue.record("seed \(seed) (\(format)): \(difference)\nexpected:\n\(expected.rendered(maxLines: 60))")
      }
      // And our own unarchiver reads what we wrote to the same graph.
      let ours = ValueSnapshot(of: try KeyedUnarchiver.unarchivedRootObject(from: archive))
      if let difference = ValueSnapshot.difference(expected: expected, actual: ours) {
        Issue.record("seed \(seed) (\(format)): our own round trip: \(difference)")
      }
    }
  }

  @Test("ARC-011: the random graphs cover every value kind, shared objects and kept and dropped conditional references")
  func coverage() {
    var kinds: Set<String> = []
    var twins = 0
    var shared = 0
    var keptBuddies = 0
    var droppedBuddies = 0
    for writer in [GraphWriter.foundation, .ours] {
      for seed in 0..<(Self.batches.count * Self.graphsPerBatch) {
        var generator = RandomGraph(seed: UInt64(seed), writer: writer, format: Self.format(seed))
        var seen: Set<Int> = []
        var inGraph: Set<Int> = []
        var buddies: [Int] = []
        var stack: [GraphValue] = [generator.root()]
        while let value = stack.popLast() {
          switch value {
          case .array(let elements):
            kinds.insert("array")
            stack.append(contentsOf: elements)
          case .dictionary(let entries):
            kinds.insert("dictionary")
            for entry in entries { stack.append(contentsOf: [entry.key, entry.value]) }
          case .set(let members):
            kinds.insert("set")
            stack.append(contentsOf: members)
          case .twin(let spec):
            inGraph.insert(spec.id)
            guard seen.insert(spec.id).inserted else {
              shared += 1
              continue
            }
            twins += 1
            if let payload = spec.payload { stack.append(payload) }
            if let buddy = spec.buddy { buddies.append(buddy.id) }
          case .string(let v): kinds.insert(v.unicodeScalars.allSatisfy(\.isASCII) ? "ascii" : "unicode")
          case .integer(let v): kinds.insert(v < 0 ? "negative" : "integer")
          case .unsigned: kinds.insert("unsigned")
          case .double(let v): kinds.insert(v.isNaN ? "nan" : (v.isInfinite ? "infinity" : "double"))
          case .float: kinds.insert("float")
          case .bool: kinds.insert("bool")
          case .data(let v): kinds.insert(v.isEmpty ? "empty data" : "data")
          case .date: kinds.insert("date")
          case .uuid: kinds.insert("uuid")
          case .url(_, let base): kinds.insert(base == nil ? "url" : "relative url")
          case .null: kinds.insert("null")
          }
        }
        for buddy in buddies {
          if inGraph.contains(buddy) { keptBuddies += 1 } else { droppedBuddies += 1 }
        }
      }
    }
    let expected: Set<String> = [
      "array", "dictionary", "set", "ascii", "unicode", "negative", "integer", "unsigned", "double", "nan", "infinity",
      "float", "bool", "empty data", "data", "date", "uuid", "url", "relative url", "null",
    ]
    #expect(expected.subtracting(kinds).isEmpty, "missing: \(expected.subtracting(kinds))")
    #expect(twins > 500 && shared > 50)
    #expect(keptBuddies > 20 && droppedBuddies > 20)
  }

  @Test("ARC-011: a class name set with KeyedArchiver.setClassName is found by Foundation's setClass(_:forClassName:)")
  func classNameMapping() throws {
    let twin = OurTwin()
    twin.label = "renamed"
    let archiver = KeyedArchiver()
    archiver.setClassName("Twin.Node", for: OurTwin.self)
    archiver.encodeObject(twin, forKey: "root")
    let archive = try archiver.finishEncoding()
    let decoded = try #require(
      try FoundationOracle.unarchive(archive, classes: ["Twin.Node": FoundationTwin.self]) as? FoundationTwin)
    #expect(decoded.label == "renamed")
  }
}

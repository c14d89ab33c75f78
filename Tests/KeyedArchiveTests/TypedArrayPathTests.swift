import ArchiveCoding
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// A tree node whose children (and a second key holding the same array) are read with the unarchiver's own
/// `decodeArrayOfObjects(ofClass:forKey:)`.
final class DirectArrayNode: SecureCoding {
  var name: String
  var children: [Any]
  var decodedChildren: [DirectArrayNode] = []
  var decodedAlias: [DirectArrayNode]?
  init(name: String, children: [Any]) {
    self.name = name
    self.children = children
  }
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeString(forKey: "name") ?? ""
    children = []
    decodedChildren = try coder.decodeArrayOfObjects(ofClass: DirectArrayNode.self, forKey: "children") ?? []
    decodedAlias = try coder.decodeArrayOfObjects(ofClass: DirectArrayNode.self, forKey: "alias")
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encodeObject(children, forKey: "children")
  }
}

/// The same node, decoded through the protocol's default implementation (the reference the direct path must
/// match).
final class DefaultArrayNode: SecureCoding {
  var name: String
  var decodedChildren: [DefaultArrayNode] = []
  var decodedAlias: [DefaultArrayNode]?
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeString(forKey: "name") ?? ""
    decodedChildren = try coder.defaultDecodeArrayOfObjects(ofClass: DefaultArrayNode.self, forKey: "children") ?? []
    decodedAlias = try coder.defaultDecodeArrayOfObjects(ofClass: DefaultArrayNode.self, forKey: "alias")
  }
  func encode(with coder: any EncodingCoder) {}
}

/// A node that writes one array under two keys, so both decode paths meet the same `$objects` entry.
final class SharingNode: Coding {
  var children: [Any]
  init(children: [Any]) { self.children = children }
  required init(coder: any DecodingCoder) throws { children = [] }
  func encode(with coder: any EncodingCoder) {
    coder.encode("shared", forKey: "name")
    coder.encodeObject(children, forKey: "children")
    coder.encodeObject(children, forKey: "alias")
  }
}

/// An object whose one field is an array read as a deferred reference: the link phase decodes it after the object.
final class DeferredArrayHolder: Coding {
  var items: [Any]?
  init(items: [Any]) { self.items = items }
  required init(coder: any DecodingCoder) throws {
    try coder.decodeReference(forKey: "items", into: \DeferredArrayHolder.items)
  }
  func encode(with coder: any EncodingCoder) { coder.encodeObject(items, forKey: "items") }
}

/// A leaf that records each instance `init(coder:)` makes in the task's ``Tracker``, weakly.
final class TrackedLeaf: SecureCoding {
  /// The instances one test decoded.
  final class Tracker: @unchecked Sendable {
    struct Entry { weak var leaf: TrackedLeaf? }
    var entries: [Entry] = []
    var alive: Int { entries.filter { $0.leaf != nil }.count }
  }
  @TaskLocal static var tracker: Tracker?
  var n: Int
  init(n: Int) { self.n = n }
  required init(coder: any DecodingCoder) throws {
    n = try coder.decodeInt(forKey: "n")
    Self.tracker?.entries.append(.init(leaf: self))
  }
  func encode(with coder: any EncodingCoder) { coder.encode(n, forKey: "n") }
}

/// A node holding arrays of two element types, each decoded directly: its children's own arrays are decoded while
/// its `nodes` array is still being collected, so the calls for the two types interleave.
final class TwoListNode: SecureCoding {
  var name: String
  var nodes: [TwoListNode]
  var leaves: [TrackedLeaf]
  init(name: String, nodes: [TwoListNode], leaves: [TrackedLeaf]) {
    self.name = name
    self.nodes = nodes
    self.leaves = leaves
  }
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeString(forKey: "name") ?? ""
    leaves = try coder.decodeArrayOfObjects(ofClass: TrackedLeaf.self, forKey: "leaves") ?? []
    nodes = try coder.decodeArrayOfObjects(ofClass: TwoListNode.self, forKey: "nodes") ?? []
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encodeObject(leaves, forKey: "leaves")
    coder.encodeObject(nodes, forKey: "nodes")
  }
  /// Each node's name, then its leaves' numbers, depth first.
  var outline: [String] { [name + ":" + leaves.map { String($0.n) }.joined(separator: ",")] + nodes.flatMap(\.outline) }
}

@Suite("Typed arrays: the unarchiver's direct path")
struct TypedArrayPathTests {
  /// Registries that decode the archived class `Node` as the direct or the default twin.
  static func registries() -> (direct: ClassRegistry, reference: ClassRegistry) {
    let direct = ClassRegistry()
    direct.register(DirectArrayNode.self, as: "Node")
    direct.register(PrivateLeaf.self, as: "Leaf")
    let reference = ClassRegistry()
    reference.register(DefaultArrayNode.self, as: "Node")
    reference.register(PrivateLeaf.self, as: "Leaf")
    return (direct, reference)
  }

  /// Archives `root` with the classes named as in ``registries()``.
  static func archive(_ root: Any) throws -> Data {
    let registry = ClassRegistry()
    registry.register(DirectArrayNode.self, as: "Node")
    registry.register(SharingNode.self, as: "Node")
    registry.register(PrivateLeaf.self, as: "Leaf")
    let archiver = KeyedArchiver(registry: registry)
    archiver.encodeObject(root, forKey: "root")
    return try archiver.finishEncoding()
  }

  /// Decodes `data`'s root with one registry; returns the root or the error.
  static func decode<T>(
    _ data: Data, as type: T.Type, registry: ClassRegistry, secure: Bool
  ) -> Result<T?, ArchiveError> {
    do {
      let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: secure)
      unarchiver.registry = registry
      return .success(try unarchiver.decodeObject(of: type, forKey: "root"))
    } catch let error as ArchiveError {
      return .failure(error)
    } catch {
      return .failure(ArchiveError(.other, "\(error)"))
    }
  }

  /// An error message with the twins' Swift names replaced by their archived name.
  static func normalized(_ message: String) -> String {
    message.replacingOccurrences(of: "DirectArrayNode", with: "Node").replacingOccurrences(
      of: "DefaultArrayNode", with: "Node")
  }

  static func names(_ node: DirectArrayNode) -> [String] {
    [node.name] + node.decodedChildren.flatMap(names)
  }
  static func names(_ node: DefaultArrayNode) -> [String] {
    [node.name] + node.decodedChildren.flatMap(names)
  }

  @Test("COD-022: nested arrays decoded directly give the tree the default path gives", arguments: [false, true])
  func nestedTree(secure: Bool) throws {
    let leaves = (0..<3).map { DirectArrayNode(name: "leaf\($0)", children: []) }
    let middle = DirectArrayNode(name: "middle", children: leaves)
    let root = DirectArrayNode(name: "root", children: [middle, DirectArrayNode(name: "empty", children: [])])
    let data = try Self.archive(root)
    let (direct, reference) = Self.registries()
    let fast = try #require(try Self.decode(data, as: DirectArrayNode.self, registry: direct, secure: secure).get())
    let slow = try #require(try Self.decode(data, as: DefaultArrayNode.self, registry: reference, secure: secure).get())
    #expect(Self.names(fast) == ["root", "middle", "leaf0", "leaf1", "leaf2", "empty"])
    #expect(Self.names(fast) == Self.names(slow))
    #expect(fast.decodedAlias == nil)
  }

  @Test("COD-013: an array under two keys decodes once; both keys give the same element instances")
  func sharedArray() throws {
    let children = (0..<4).map { DirectArrayNode(name: "c\($0)", children: []) as Any }
    let data = try Self.archive(SharingNode(children: children))
    let (direct, _) = Self.registries()
    let root = try #require(try Self.decode(data, as: DirectArrayNode.self, registry: direct, secure: true).get())
    let alias = try #require(root.decodedAlias)
    #expect(root.decodedChildren.map(\.name) == ["c0", "c1", "c2", "c3"])
    #expect(alias.count == 4)
    #expect(zip(root.decodedChildren, alias).allSatisfy { $0 === $1 })
  }

  /// Arrays the direct path must refuse exactly as the default path does: the same code, message and location.
  static var refusals: [(label: String, children: [Any])] {
    [
      ("a string element", [DirectArrayNode(name: "a", children: []), "text"]),
      ("an element of another class", [DirectArrayNode(name: "a", children: []), PrivateLeaf(n: 1)]),
      ("a nested array of the wrong type", [DirectArrayNode(name: "a", children: [1, 2])]),
    ]
  }

  @Test(
    "COD-022: a mismatched element fails on the direct path with the default path's error",
    arguments: [false, true], 0..<3)
  func mismatches(secure: Bool, index: Int) throws {
    let data = try Self.archive(DirectArrayNode(name: "root", children: Self.refusals[index].children))
    let (direct, reference) = Self.registries()
    let fast = Self.decode(data, as: DirectArrayNode.self, registry: direct, secure: secure)
    let slow = Self.decode(data, as: DefaultArrayNode.self, registry: reference, secure: secure)
    guard case .failure(let fastError) = fast, case .failure(let slowError) = slow else {
      Issue.record("\(Self.refusals[index].label): expected both paths to fail, got \(fast) and \(slow)")
      return
    }
    #expect(fastError.code == slowError.code, "\(Self.refusals[index].label)")
    #expect(Self.normalized(fastError.message) == Self.normalized(slowError.message), "\(Self.refusals[index].label)")
    #expect(fastError.location.keyPath == slowError.location.keyPath, "\(Self.refusals[index].label)")
    #expect(fastError.location.objectIndex == slowError.location.objectIndex, "\(Self.refusals[index].label)")
    #expect([ArchiveError.Code.typeMismatch, .classNotAllowed].contains(fastError.code))
  }

  @Test("COD-022: a key holding one object instead of an array fails as on the default path")
  func notAnArray() throws {
    let registry = ClassRegistry()
    registry.register(DirectArrayNode.self, as: "Node")
    let archiver = KeyedArchiver(registry: registry)
    // A node whose `children` is a single node, not an array.
    final class Odd: Coding {
      init() {}
      required init(coder: any DecodingCoder) throws {}
      func encode(with coder: any EncodingCoder) {
        coder.encode("odd", forKey: "name")
        coder.encodeObject(DirectArrayNode(name: "only", children: []), forKey: "children")
      }
    }
    registry.register(Odd.self, as: "Node")
    archiver.encodeObject(Odd(), forKey: "root")
    let data = try archiver.finishEncoding()
    let (direct, reference) = Self.registries()
    for secure in [false, true] {
      let fast = Self.decode(data, as: DirectArrayNode.self, registry: direct, secure: secure)
      let slow = Self.decode(data, as: DefaultArrayNode.self, registry: reference, secure: secure)
      guard case .failure(let fastError) = fast, case .failure(let slowError) = slow else {
        Issue.record("expected both paths to fail, got \(fast) and \(slow)")
        continue
      }
      #expect(fastError.code == .typeMismatch)
      #expect(fastError.code == slowError.code)
      #expect(Self.normalized(fastError.message) == Self.normalized(slowError.message))
      #expect(fastError.location.keyPath == slowError.location.keyPath)
    }
  }

  @Test("COD-020: under secure coding an element class outside the allowed set is refused on the direct path")
  func disallowedElement() throws {
    // `Leaf` is registered, so it resolves, but `decodeArrayOfObjects(ofClass: DirectArrayNode.self, …)` does not
    // allow it.
    let data = try Self.archive(DirectArrayNode(name: "root", children: [PrivateLeaf(n: 7)]))
    let (direct, _) = Self.registries()
    let result = Self.decode(data, as: DirectArrayNode.self, registry: direct, secure: true)
    guard case .failure(let error) = result else {
      Issue.record("expected classNotAllowed, got \(result)")
      return
    }
    #expect(error.code == .classNotAllowed)
    #expect(error.location.className == "Leaf")
  }

  static func twoListRegistry() -> ClassRegistry {
    let registry = ClassRegistry()
    registry.register(TwoListNode.self, as: "TwoList")
    registry.register(TrackedLeaf.self, as: "Leaf")
    return registry
  }

  /// Three levels of `TwoListNode`; leaf numbers count up in creation order.
  static func twoListTree() -> TwoListNode {
    var next = 0
    func leaves(_ count: Int) -> [TrackedLeaf] {
      defer { next += count }
      return (0..<count).map { TrackedLeaf(n: next + $0) }
    }
    let bottom = (0..<3).map { TwoListNode(name: "b\($0)", nodes: [], leaves: leaves($0)) }
    let middle = [
      TwoListNode(name: "m0", nodes: bottom, leaves: leaves(2)),
      TwoListNode(name: "m1", nodes: [], leaves: leaves(1)),
    ]
    return TwoListNode(name: "top", nodes: middle, leaves: leaves(2))
  }

  static func archive(_ root: TwoListNode, registry: ClassRegistry) throws -> Data {
    let archiver = KeyedArchiver(registry: registry)
    archiver.encodeObject(root, forKey: "root")
    return try archiver.finishEncoding()
  }

  @Test("COD-022: arrays of two element types decoded inside each other keep their elements", arguments: [false, true])
  func interleavedTypes(secure: Bool) throws {
    let registry = Self.twoListRegistry()
    let tree = Self.twoListTree()
    let data = try Self.archive(tree, registry: registry)
    let decoded = try #require(try Self.decode(data, as: TwoListNode.self, registry: registry, secure: secure).get())
    #expect(decoded.outline == ["top:6,7", "m0:3,4", "b0:", "b1:0", "b2:1,2", "m1:5"])
    #expect(decoded.outline == tree.outline)
  }

  @Test("COD-022: an array the link phase decodes is not taken for the object under the key, which is no array")
  func linkPhaseArrayNotTaken() throws {
    let registry = ClassRegistry()
    registry.register(DirectArrayNode.self, as: "Node")
    registry.register(DeferredArrayHolder.self, as: "Holder")
    let archiver = KeyedArchiver(registry: registry)
    let items: [Any] = ["a", "b"].map { DirectArrayNode(name: $0, children: []) }
    archiver.encodeObject(DeferredArrayHolder(items: items), forKey: "root")
    let data = try archiver.finishEncoding()
    func unarchiver() throws -> KeyedUnarchiver {
      let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
      unarchiver.registry = registry
      return unarchiver
    }
    let fast = Result { try unarchiver().decodeArrayOfObjects(ofClass: DirectArrayNode.self, forKey: "root") }
    let slow = Result { try unarchiver().defaultDecodeArrayOfObjects(ofClass: DirectArrayNode.self, forKey: "root") }
    guard case .failure(let fastError as ArchiveError) = fast, case .failure(let slowError as ArchiveError) = slow
    else {
      Issue.record("expected both paths to refuse a Holder as an array, got \(fast) and \(slow)")
      return
    }
    #expect(fastError.code == .typeMismatch)
    #expect(fastError.code == slowError.code && fastError.message == slowError.message, "\(fastError) / \(slowError)")
    // The holder itself decodes, its array linked as the untyped array the reference asks for.
    let holder = try #require(try unarchiver().decodeObject(forKey: "root") as? DeferredArrayHolder)
    let linked = try #require(holder.items)
    #expect(type(of: linked) == [Any].self)
    #expect(linked.compactMap { ($0 as? DirectArrayNode)?.name } == ["a", "b"])
  }

  @Test("COD-022: the direct path keeps no decoded array alive after the decode, whether it succeeds or fails")
  func noArrayKeptAlive() throws {
    let registry = Self.twoListRegistry()
    let tracker = TrackedLeaf.Tracker()
    weak var node: TwoListNode?
    try TrackedLeaf.$tracker.withValue(tracker) {
      let data = try Self.archive(Self.twoListTree(), registry: registry)
      let decoded = try #require(try Self.decode(data, as: TwoListNode.self, registry: registry, secure: true).get())
      node = decoded.nodes.first
      #expect(node != nil)
      #expect(tracker.alive == 8)
    }
    #expect(node == nil, "a node of the decoded tree outlived it")
    #expect(tracker.entries.count == 8)
    #expect(tracker.alive == 0, "leaves of the decoded tree outlived it")

    // The same tree with a string as the last of the top node's `nodes`: the decode fails after every array
    // under the first two nodes was collected.
    let failing = Self.twoListTree()
    final class Mixed: Coding {
      let tree: TwoListNode
      init(_ tree: TwoListNode) { self.tree = tree }
      required init(coder: any DecodingCoder) throws { tree = TwoListNode(name: "", nodes: [], leaves: []) }
      func encode(with coder: any EncodingCoder) {
        coder.encode(tree.name, forKey: "name")
        coder.encodeObject(tree.leaves, forKey: "leaves")
        coder.encodeObject(tree.nodes + ["not a node"] as [Any], forKey: "nodes")
      }
    }
    let writer = Self.twoListRegistry()
    writer.register(Mixed.self, as: "TwoList")
    let archiver = KeyedArchiver(registry: writer)
    archiver.encodeObject(Mixed(failing), forKey: "root")
    let data = try archiver.finishEncoding()
    let failed = TrackedLeaf.Tracker()
    let result = TrackedLeaf.$tracker.withValue(failed) {
      Self.decode(data, as: TwoListNode.self, registry: registry, secure: true)
    }
    guard case .failure(let error) = result else {
      Issue.record("expected the string among the nodes to fail the decode, got \(result)")
      return
    }
    #expect(error.code == .classNotAllowed)
    #expect(failed.entries.count == 8, "every leaf is decoded before the string is met")
    #expect(failed.alive == 0, "leaves of the failed decode outlived it")
  }
}

@Suite("Dictionaries: the unarchiver's direct path")
struct DictionaryPathTests {
  /// Decodes the root of a crafted archive as a Foundation dictionary.
  static func decode(_ objects: [PropertyListValue]) throws -> [AnyHashable: Any]? {
    let data = try CraftedArchiveTests.archive(objects)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    return try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? [AnyHashable: Any]
  }

  static let dictionaryClass = CraftedArchiveTests.classDescription("NSDictionary", "NSObject")

  @Test("COD-033: a dictionary keeps the later of two equal keys, and a $null value becomes NSNull")
  func duplicatesAndNull() throws {
    let result = try #require(
      try Self.decode([
        "$null",
        ["NS.keys": [.uid(3), .uid(4), .uid(3)], "NS.objects": [.uid(5), .uid(0), .uid(6)], "$class": .uid(2)],
        Self.dictionaryClass, "k", "n", "first", "second",
      ]))
    #expect(result.count == 2)
    #expect(result["k"] as? String == "second")
    #expect(result["n"] is NSNull)
  }

  @Test("ARC-042: a key that cannot be hashed is reported after every entry decoded, naming its index")
  func unhashableKeyAfterEntries() throws {
    // Key 1 is an array (`[Any]`, not hashable); entry 2's value is of a class that does not exist, decoded after
    // key 1. The decode error of entry 2 comes first, as when the keys were checked after decoding every entry.
    let objects: [PropertyListValue] = [
      "$null",
      ["NS.keys": [.uid(3), .uid(4), .uid(3)], "NS.objects": [.uid(3), .uid(3), .uid(5)], "$class": .uid(2)],
      Self.dictionaryClass, "k", ["NS.objects": [], "$class": .uid(7)], ["$class": .uid(6)],
      CraftedArchiveTests.classDescription("Nowhere"), CraftedArchiveTests.classDescription("NSArray", "NSObject"),
    ]
    do {
      _ = try Self.decode(objects)
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.code == .classNotFound, "\(error)")
    }
    var decodable = objects
    decodable[5] = "plain"
    do {
      _ = try Self.decode(decodable)
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.code == .typeMismatch, "\(error)")
      #expect(error.location.keyPath?.hasSuffix("NS.keys[1]") == true, "\(error)")
    }
  }

  @Test("ARC-042: NS.keys and NS.objects of different lengths are refused")
  func lengthMismatch() throws {
    #expect(throws: ArchiveError.self) {
      _ = try Self.decode([
        "$null", ["NS.keys": [.uid(3)], "NS.objects": [.uid(3), .uid(3)], "$class": .uid(2)], Self.dictionaryClass, "k",
      ])
    }
  }
}

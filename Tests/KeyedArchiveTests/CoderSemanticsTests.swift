import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import Synchronization
import Testing

@testable import KeyedArchive

/// Writes whatever fields it is given; decodes by running a closure against the coder.
final class Probe: Coding {
  nonisolated(unsafe) static var fields: [(String, Any?)] = []
  nonisolated(unsafe) static var values: [(String, CodedValue)] = []
  nonisolated(unsafe) static var decode: (any DecodingCoder) throws -> Void = { _ in }
  init() {}
  required init(coder: any DecodingCoder) throws { try Self.decode(coder) }
  func encode(with coder: any EncodingCoder) {
    for (key, value) in Self.values { coder.encodeValue(value, forKey: key) }
    for (key, value) in Self.fields { coder.encodeObject(value, forKey: key) }
  }
}

/// Replaces itself after decoding (`awakeAfter(using:)`).
final class Placeholder: Coding {
  init() {}
  required init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) {}
  func awakeAfter(using decoder: any DecodingCoder) throws -> AnyObject { NSString(string: "replaced") }
}

/// Reports corrupt input through `failWithError(_:)` and returns normally.
final class Complainer: Coding {
  init() {}
  required init(coder: any DecodingCoder) throws {
    coder.failWithError(ArchiveError(.corruptData, "the fields do not add up", at: .init(keyPath: "total")))
  }
  func encode(with coder: any EncodingCoder) {}
}

/// The probe's tests share static state, so they run one at a time.
/// A class known only to a private registry (as `Elsewhere.Leaf`).
final class PrivateLeaf: SecureCoding {
  var n: Int
  init(n: Int) { self.n = n }
  required init(coder: any DecodingCoder) throws { n = try coder.decodeInt(forKey: "n") }
  func encode(with coder: any EncodingCoder) { coder.encode(n, forKey: "n") }
}

/// A class known only to a private registry (as `Elsewhere.Branch`) whose fields are decoded by typed calls.
final class PrivateBranch: SecureCoding {
  var leaf: PrivateLeaf?
  weak var back: PrivateBranch?
  var point: ArchivedValue?
  init() {}
  required init(coder: any DecodingCoder) throws {
    leaf = try coder.decodeObject(of: PrivateLeaf.self, forKey: "leaf")
    point = try coder.decodeObject(of: ArchivedValue.self, forKey: "point")
    try coder.decodeReference(forKey: "back", into: \PrivateBranch.back)
  }
  func encode(with coder: any EncodingCoder) {
    coder.encodeObject(leaf, forKey: "leaf")
    coder.encodeObject(point, forKey: "point")
    coder.encodeConditionalObject(back, forKey: "back")
  }
}

@Suite("Coder semantics", .serialized)
struct CoderSemanticsTests {
  init() {
    registerTestClasses
    ClassRegistry.shared.register(Probe.self, as: "Probe")
    ClassRegistry.shared.register(Placeholder.self, as: "Placeholder")
    ClassRegistry.shared.register(Complainer.self, as: "Complainer")
  }

  /// Archives a probe with the given fields and decodes it with `body`.
  func probe(
    values: [(String, CodedValue)] = [], fields: [(String, Any?)] = [], policy: DecodingFailurePolicy = .throwError,
    _ body: @escaping (any DecodingCoder) throws -> Void
  ) throws {
    Probe.values = values
    Probe.fields = fields
    let archive = try KeyedArchiver.archivedData(withRootObject: Probe())
    Probe.decode = body
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    unarchiver.decodingFailurePolicy = policy
    _ = try unarchiver.decodeObject(forKey: "root", allowedClasses: nil)
    try unarchiver.finishDecoding()
  }

  @Test("COD-002: missing keys decode as nil, false and zero; containsValue is true for a key holding nil")
  func missingKeys() throws {
    try probe(fields: [("nothing", nil)]) { (coder: any DecodingCoder) throws in
      #expect(try coder.decodeBool(forKey: "absent") == false)
      #expect(try coder.decodeInt(forKey: "absent") == 0)
      #expect(try coder.decodeInt64(forKey: "absent") == 0)
      #expect(try coder.decodeDouble(forKey: "absent") == 0)
      #expect(try coder.decodeFloat(forKey: "absent") == 0)
      #expect(try coder.decodeBytes(forKey: "absent") == nil)
      #expect(try coder.decodeObject(forKey: "absent") == nil)
      #expect(try coder.decodeString(forKey: "absent") == nil)
      #expect(coder.containsValue(forKey: "absent") == false)
      #expect(coder.containsValue(forKey: "nothing") == true)
      #expect(try coder.decodeObject(forKey: "nothing") == nil)
    }
  }

  @Test("COD-003: integer widths, booleans and reals convert when the value fits")
  func conversions() throws {
    try probe(
      values: [("big", .integer(Int64.max)), ("one", .integer(1)), ("flag", .bool(true)), ("half", .float(0.5))],
      fields: [("text", "words"), ("number", 7)]
    ) { (coder: any DecodingCoder) throws in
      #expect(try coder.decodeInt64(forKey: "big") == Int64.max)
      #expect(try coder.decodeBool(forKey: "one") == true)
      #expect(try coder.decodeInt(forKey: "flag") == 1)
      #expect(try coder.decodeDouble(forKey: "one") == 1.0)
      #expect(try coder.decodeDouble(forKey: "half") == 0.5)
      #expect(try coder.decodeInt(forKey: "number") == 7)  // a plain number object reads as a primitive
    }
  }

  @Test("COD-032: a type mismatch leaving init(coder:) names the object index, class and key path from the root")
  func typeMismatch() throws {
    let attempts: [(String, (any DecodingCoder) throws -> Void)] = [
      ("big", { _ = try $0.decodeInt32(forKey: "big") }), ("text", { _ = try $0.decodeInt(forKey: "text") }),
      ("half", { _ = try $0.decodeBool(forKey: "half") }), ("number", { _ = try $0.decodeString(forKey: "number") }),
      ("one", { _ = try $0.decodeBytes(forKey: "one") }),
    ]
    for (key, attempt) in attempts {
      do {
        try probe(
          values: [("big", .integer(Int64.max)), ("one", .integer(1)), ("half", .float(0.5))],
          fields: [("text", "words"), ("number", 7)], attempt)
        Issue.record("expected a type mismatch for \(key)")
      } catch let error as ArchiveError {
        // Once the error leaves init(coder:), it names the object, its class and the key path from the root.
        #expect(error.code == .typeMismatch)
        #expect(error.location.objectIndex == 1 && error.location.className == "Probe")
        #expect(error.location.keyPath == "root.\(key)", "\(error)")
      }
    }
  }

  @Test(
    "COD-030: under setErrorAndReturn a failing call returns zero, later calls return zero, and finishDecoding throws")
  func failurePolicy() throws {
    var afterwards: (Int, String?) = (-1, "unset")
    do {
      try probe(values: [("n", .integer(5))], fields: [("text", "words")], policy: .setErrorAndReturn) {
        (coder: any DecodingCoder) throws in
        #expect(try coder.decodeInt(forKey: "text") == 0)
        #expect(coder.error != nil)
        afterwards = (try coder.decodeInt(forKey: "n"), try coder.decodeString(forKey: "text"))
      }
      Issue.record("finishDecoding did not throw the recorded error")
    } catch let error as ArchiveError {
      #expect(error.code == .typeMismatch)
    }
    #expect(afterwards.0 == 0 && afterwards.1 == nil)
  }

  @Test("COD-031: an error reported with failWithError(_:) from init(coder:) makes the decode fail")
  func failWithError() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: Complainer())
    do {
      _ = try KeyedUnarchiver.unarchivedRootObject(from: archive)
      Issue.record("the recorded error was ignored")
    } catch let error as ArchiveError {
      #expect(error.code == .corruptData)
      #expect(error.message.contains("do not add up"))
    }
  }

  @Test("ARC-026: user keys starting with $ are stored with one more $, and read back by the same key")
  func keyEscaping() throws {
    Probe.values = [("$weird", .integer(1)), ("$0", .integer(2)), ("plain", .integer(3))]
    Probe.fields = []
    let archive = try KeyedArchiver.archivedData(withRootObject: Probe())
    let (fields, _, _) = try rootObject(archive)
    #expect(Set(fields.entries.compactMap(\.key.stringValue)) == ["$$weird", "$$0", "plain", "$class"])
    var read: [Int] = []
    Probe.decode = { coder in
      read = [
        try coder.decodeInt(forKey: "$weird"), try coder.decodeInt(forKey: "$0"), try coder.decodeInt(forKey: "plain"),
      ]
    }
    _ = try KeyedUnarchiver.unarchivedRootObject(from: archive)
    #expect(read == [1, 2, 3])
  }

  @Test("ARC-026: a key is found wherever it sits, whatever order the fields are read in")
  func keysInAnyOrder() throws {
    Probe.values = (0..<8).map { ("k\($0)", .integer(Int64($0))) }
    Probe.fields = []
    let archive = try KeyedArchiver.archivedData(withRootObject: [Probe(), Probe(), Probe(), Probe(), Probe()])
    // Each object of the array reads in another order: the later ones meet the first one's remembered positions.
    let orders: [[String]] = [
      (0..<8).map { "k\($0)" }, (0..<8).reversed().map { "k\($0)" }, ["k3", "k3", "k7", "nope", "k0", "k4", "k1"],
      ["k1", "k0", "k3", "k2", "k5", "k4", "k7", "k6"], ["nope", "k7", "k6", "nope", "k0"],
    ]
    var read: [[Int]] = []
    Probe.decode = { coder in
      let order = orders[read.count]
      read.append(
        try order.map { $0 == "nope" ? (coder.containsValue(forKey: $0) ? -2 : -1) : try coder.decodeInt(forKey: $0) })
    }
    _ = try KeyedUnarchiver.unarchivedRootObject(from: archive)
    #expect(read.count == orders.count)
    for (order, values) in zip(orders, read) {
      #expect(values == order.map { $0 == "nope" ? -1 : Int($0.dropFirst()) ?? -3 })
    }
  }

  @Test("COD-005: unkeyed values are read back in order from $0, $1, … of their scope")
  func unkeyed() throws {
    let archiver = KeyedArchiver()
    archiver.encodeObject("first")
    archiver.encodeObject(2)
    archiver.encodeObject(nil)
    archiver.encodeObject(["third"])
    archiver.encodeObject("keyed", forKey: "$0")
    let archive = try archiver.finishEncoding()
    let top = try #require(try PropertyListReader.read(archive).dictionaryValue?["$top"]?.dictionaryValue)
    #expect(Set(top.entries.compactMap(\.key.stringValue)) == ["$0", "$1", "$2", "$3", "$$0"])
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    #expect(try unarchiver.decodeObject() as? String == "first")
    #expect(try unarchiver.decodeObject() as? Int == 2)
    #expect(try unarchiver.decodeObject() == nil)
    #expect(try unarchiver.decodeObject() as? [String] == ["third"])
    #expect(try unarchiver.decodeObject(forKey: "$0", allowedClasses: nil) as? String == "keyed")
  }

  @Test("COD-022: typed decoding checks every element and names the failing index")
  func typedCollections() throws {
    try probe(fields: [("mixed", ["a", 1] as [Any]), ("map", ["k": 1])]) { (coder: any DecodingCoder) throws in
      do {
        _ = try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "mixed")
        Issue.record("expected a mismatch")
      } catch let error as ArchiveError {
        #expect(error.code == .typeMismatch)
        #expect(error.location.keyPath?.hasSuffix("mixed[1]") == true)
      }
      #expect(try coder.decodeObject(of: [String: Int].self, forKey: "map") == ["k": 1])
      #expect(throws: ArchiveError.self) { _ = try coder.decodeObject(of: [String: String].self, forKey: "map") }
    }
  }

  @Test("COD-022: under secure coding the allowed classes reach into collections")
  func allowedClassesPropagate() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: ["id": UUID()])
    #expect(throws: ArchiveError.self) {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: [String: String].self, from: archive)
    }
    do {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: [String: String].self, from: archive)
    } catch let error as ArchiveError {
      #expect(error.code == .classNotAllowed && error.location.className == "NSUUID")
      #expect(!error.message.contains("#"))
    }
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: [String: UUID].self, from: archive)?.count == 1)
  }

  @Test("COD-020: under secure coding an untyped decode is refused")
  func secureNeedsTypes() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: ["a"])
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: true)
    #expect(throws: ArchiveError.self) { _ = try unarchiver.decodeObject(forKey: "root") }
  }

  @Test("COD-020: dictionary keys read back from memory are still checked against each call's allowed classes")
  func repeatedKeysChecked() throws {
    // Integer values only: the keys are the only strings.
    let rows: [[String: Any]] = (0..<4).map { ["count": $0, "index": $0 * 2] }
    let archiver = KeyedArchiver()
    archiver.encodeObject(rows, forKey: "first")
    // Other dictionaries (other values) under the same key strings, which the archiver writes once.
    archiver.encodeObject((4..<8).map { ["count": $0, "index": $0 * 2] } as [Any], forKey: "second")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try archiver.finishEncoding(), requiringSecureCoding: true)
    let first = try #require(
      try unarchiver.decodeObject(of: [[Any].self, [String: Int].self], forKey: "first") as? [[String: Any]])
    #expect(first.map { $0["index"] as? Int } == [0, 2, 4, 6])
    // "count" and "index" are now known strings; a call whose types allow no string is refused all the same.
    #expect {
      try unarchiver.decodeObject(of: [[Any].self, [AnyHashable: Int].self], forKey: "second")
    } throws: { error in
      (error as? ArchiveError)?.code == .classNotAllowed
    }
    let second = try #require(
      try unarchiver.decodeObject(of: [[Any].self, [String: Int].self], forKey: "second") as? [[String: Any]])
    #expect(second.map { $0["count"] as? Int } == [4, 5, 6, 7])
  }

  @Test("COD-033: dictionaries repeating hundreds of keys (more than the key table's direct slots) decode exactly")
  func manyRepeatedKeys() throws {
    // 300 keys written once each and shared by every row: their UIDs collide in the 64-slot table many times over.
    let keys = (0..<300).map { "key-\($0)" }
    let rows: [[String: Any]] = (0..<5).map { row in
      Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, row * 1000 + $0) })
    }
    let archive = try KeyedArchiver.archivedData(withRootObject: rows, requiringSecureCoding: true)
    let decoded = try #require(
      try KeyedUnarchiver.unarchivedObject(ofClasses: [[Any].self, [String: Int].self], from: archive)
        as? [[String: Any]])
    #expect(decoded.count == rows.count)
    for (row, dictionary) in decoded.enumerated() {
      #expect(dictionary.count == keys.count)
      for (index, key) in keys.enumerated() { #expect(dictionary[key] as? Int == row * 1000 + index, "\(key)") }
    }
  }

  @Test("COD-013: strings many objects share decode to their own values, through decodeString and the general path")
  func sharedStringsAcrossPaths() throws {
    // Short names (kept by UID from their second read), a long one (cached), an empty one, and the same strings as
    // tags, which the general path decodes from the same entries.
    let names = ["a", "bb", "ccc", "a title longer than fifteen bytes", "", "d"]
    let records = (0..<60).map { i -> Record in
      let record = Record()
      record.title = names[(i * 7) % names.count]
      record.tags = [names[i % names.count], names[(i + 1) % names.count]]
      return record
    }
    let registry = ClassRegistry()
    registerTestClasses(in: registry)
    let archiver = KeyedArchiver(requiringSecureCoding: true, registry: registry)
    archiver.encodeObject(records, forKey: "root")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try archiver.finishEncoding(), requiringSecureCoding: true)
    unarchiver.registry = registry
    let decoded = try #require(try unarchiver.decodeArrayOfObjects(ofClass: Record.self, forKey: "root"))
    #expect(decoded.map(\.title) == records.map(\.title))
    #expect(decoded.map(\.tags) == records.map(\.tags))
  }

  @Test("COD-014: awakeAfter(using:) replaces the decoded root object and later lookups of it")
  func awakeReplaces() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: Placeholder())
    #expect(try KeyedUnarchiver.unarchivedRootObject(from: archive) as? String == "replaced")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    _ = try unarchiver.decodeObject(forKey: "root", allowedClasses: nil)
    #expect(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? String == "replaced")
  }

  @Test("COD-013: an object referenced twice decodes as one instance; equal strings need not be shared")
  func sharing() throws {
    let node = ListNode(value: 1)
    let archive = try KeyedArchiver.archivedData(withRootObject: [node, node, "s", "s"] as [Any])
    let back = try #require(try KeyedUnarchiver.unarchivedRootObject(from: archive) as? [Any])
    #expect(back[0] as AnyObject === back[1] as AnyObject)
    let (fields, _, _) = try rootObject(archive)
    let uids = try #require(fields["NS.objects"]?.arrayValue).compactMap(\.uidValue)
    #expect(uids[0] == uids[1])
  }

  @Test("COD-023: class names map per archive (setClassName / setClass) and through module-less aliases")
  func classNameMapping() throws {
    let archiver = KeyedArchiver()
    archiver.setClassName("Renamed.Probe", for: Probe.self)
    Probe.values = [("n", .integer(3))]
    Probe.fields = []
    archiver.encodeObject(Probe(), forKey: "root")
    let archive = try archiver.finishEncoding()
    #expect(try rootObject(archive).className == "Renamed.Probe")
    var seen = 0
    Probe.decode = { seen = try $0.decodeInt(forKey: "n") }
    // "Renamed.Probe" finds the class registered as "Probe" without its module prefix.
    _ = try KeyedUnarchiver.unarchivedRootObject(from: archive)
    #expect(seen == 3)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    unarchiver.registry = ClassRegistry()
    #expect(throws: ArchiveError.self) { _ = try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) }
    let mapped = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    mapped.registry = ClassRegistry()
    mapped.setClass(Probe.self, forClassName: "Renamed.Probe")
    seen = 0
    #expect(try mapped.decodeObject(forKey: "root", allowedClasses: nil) is Probe)
    #expect(seen == 3)
  }

  @Test("COD-024: unknown classes decode generically only when asked, and never under secure coding")
  func genericDecoding() throws {
    let archive = try KeyedArchiver.archivedData(
      withRootObject: ArchivedObject(className: "Elsewhere.Thing", fields: [.init(key: "n", value: .value(4))]))
    let generic = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    generic.decodesUnknownClassesGenerically = true
    let thing = try #require(try generic.decodeObject(forKey: "root", allowedClasses: nil) as? ArchivedObject)
    #expect(thing.className == "Elsewhere.Thing")
    if case .value(let n)? = thing["n"] { #expect(n == 4) } else { Issue.record("no field n") }
    let secure = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: true)
    secure.decodesUnknownClassesGenerically = true
    #expect(throws: ArchiveError.self) { _ = try secure.decodeObject(of: [Any].self, forKey: "root") }
  }

  @Test("COD-025: cycles through generic objects decode as weak back references and re-archive the same graph")
  func genericCyclesHoldNoStrongCycle() throws {
    let a = ArchivedObject(className: "Elsewhere.A", classChain: ["Elsewhere.A", "NSObject"])
    let b = ArchivedObject(className: "Elsewhere.B", classChain: ["Elsewhere.B", "NSObject"])
    a.fields = [
      .init(key: "me", value: .object(a)), .init(key: "b", value: .object(b)),
      .init(key: "list", value: .object([a, b] as [Any])),
    ]
    b.fields = [.init(key: "a", value: .object(a)), .init(key: "peers", value: .objects([a, b]))]
    let archive = try KeyedArchiver.archivedData(withRootObject: a)
    a.fields = []
    b.fields = []
    weak var decodedA: ArchivedObject?
    weak var decodedB: ArchivedObject?
    do {
      let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
      unarchiver.decodesUnknownClassesGenerically = true
      let root = try #require(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? ArchivedObject)
      decodedA = root
      guard case .object(let meValue)? = root["me"], let me = meValue as? ArchivedObject.BackReference,
        case .object(let bValue)? = root["b"], let child = bValue as? ArchivedObject,
        case .object(let backValue)? = child["a"], let back = backValue as? ArchivedObject.BackReference,
        case .objects(let peers)? = child["peers"], case .object(let listValue)? = root["list"],
        let list = listValue as? [Any?]
      else {
        Issue.record("unexpected decoded shape: \(root)")
        return
      }
      decodedB = child
      #expect(me.object === root)
      #expect(back.object === root)
      #expect(
        peers.compactMap { ($0 as? ArchivedObject.BackReference)?.object }.map(ObjectIdentifier.init)
          == [ObjectIdentifier(root), ObjectIdentifier(child)])
      // The list is read after b was finished: its a is a back reference, its b the object itself.
      #expect((list.first as? ArchivedObject.BackReference)?.object === root)
      #expect(list.last as? ArchivedObject === child)
      let again = try KeyedArchiver.archivedData(withRootObject: root)
      let difference = ValueSnapshot.difference(
        expected: try ValueSnapshot(archive: archive), actual: try ValueSnapshot(archive: again))
      #expect(difference == nil, "\(String(describing: difference))")
    }
    #expect(decodedA == nil, "the decoded root leaked")
    #expect(decodedB == nil, "the decoded child leaked")
  }

  @Test("COD-041: a chain nested deeper than a small thread stack allows is a limit error, not a stack overflow")
  func stackGuard() throws {
    let length = 20_000
    let head = Eager(name: "head")
    var tail = head
    for i in 0..<length {
      let next = Eager(name: "\(i)")
      tail.other = next
      tail = next
    }
    let archive = try KeyedArchiver.archivedData(withRootObject: head)
    var cursor: Eager? = head
    while let current = cursor {
      cursor = current.other
      current.other = nil
    }
    let options = {
      var options = KeyedUnarchiverOptions()
      options.maxDepth = length * 2
      return options
    }()
    // A thread with a 512 KiB stack (Darwin's default for secondary threads): far too small for 20,000 levels.
    let outcome = Mutex<Result<Int, ArchiveError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      do {
        let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false, options: options)
        unarchiver.registry = corpusRegistry
        _ = try unarchiver.decodeObject(forKey: "root", allowedClasses: nil)
        outcome.withLock { $0 = .success(0) }
      } catch let error as ArchiveError {
        outcome.withLock { $0 = .failure(error) }
      } catch {
        outcome.withLock { $0 = .failure(ArchiveError(.other, "\(error)")) }
      }
      done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    done.wait()
    switch outcome.withLock({ $0 }) {
    case .failure(let error)?:
      #expect(error.code == .limitExceeded, "\(error)")
      #expect(error.message.contains("stack"), "\(error)")
    default: Issue.record("decoding 20,000 nested objects on a 512 KiB stack did not fail")
    }
  }

  @Test("COD-023: a private registry names the classes in $classes and in the allowed sets of typed calls")
  func privateRegistry() throws {
    let registry = ClassRegistry()
    registry.register(PrivateBranch.self, as: "Elsewhere.Branch")
    registry.register(PrivateLeaf.self, as: "Elsewhere.Leaf")
    let branch = PrivateBranch()
    branch.leaf = PrivateLeaf(n: 42)
    branch.point = .point(x: 1.5, y: -2)
    branch.back = branch
    let archiver = KeyedArchiver(requiringSecureCoding: true, registry: registry)
    archiver.encodeObject(branch, forKey: "root")
    let data = try archiver.finishEncoding()
    let names =
      try PropertyListReader.read(data).dictionaryValue?["$objects"]?.arrayValue?
      .compactMap { $0.dictionaryValue?["$classname"]?.stringValue } ?? []
    #expect(names.contains("Elsewhere.Branch") && names.contains("Elsewhere.Leaf"), "\(names)")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: true)
    unarchiver.registry = registry
    let decoded = try #require(try unarchiver.decodeObject(of: [PrivateBranch.self], forKey: "root") as? PrivateBranch)
    #expect(decoded.leaf?.n == 42)
    #expect(decoded.point == .point(x: 1.5, y: -2))
    #expect(decoded.back === decoded)
  }

  @Test("COD-040: nesting deeper than maxDepth and more objects than maxObjectCount are limit errors")
  func limits() throws {
    var chain: [Any] = ["leaf"]
    for _ in 0..<40 { chain = [Eager(name: "x"), chain] }
    let head = Eager(name: "head")
    var tail = head
    for i in 0..<40 {
      let next = Eager(name: "\(i)")
      tail.other = next
      tail = next
    }
    let archive = try KeyedArchiver.archivedData(withRootObject: head)
    var options = KeyedUnarchiverOptions()
    options.maxDepth = 10
    do {
      _ = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false, options: options)
        .decodeObject(forKey: "root", allowedClasses: nil)
      Issue.record("expected a depth error")
    } catch let error as ArchiveError {
      #expect(error.code == .limitExceeded)
    }
    options = KeyedUnarchiverOptions()
    options.maxObjectCount = 5
    #expect(throws: ArchiveError.self) {
      _ = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false, options: options)
    }
    var cursor: Eager? = head
    while let current = cursor {
      cursor = current.other
      current.other = nil
    }
  }
}

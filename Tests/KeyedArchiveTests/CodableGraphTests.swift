import ArchiveCoding
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// A class graph: employees share a team, reports point back to their manager (a cycle).
final class Team: Codable {
  var name: String
  init(name: String) { self.name = name }
}

final class Employee: Codable {
  var name: String
  var team: Team
  @ArchiveReference var manager: Employee?
  var reports: [Employee] = []

  init(name: String, team: Team) {
    self.name = name
    self.team = team
  }
}

/// A model mixing value types with the class graph.
struct Company: Codable {
  var founded: Date
  var site: URL
  var teams: [Team]
  var staff: [Employee]
  var chief: Employee?
}

/// A node of a doubly linked list: `next` is a plain (strong) property, `previous` a back reference.
final class CodableListNode: Codable {
  var value: Int
  var next: CodableListNode?
  @ArchiveReference var previous: CodableListNode?
  init(value: Int) { self.value = value }
}

/// A class that points to itself without ``ArchiveReference``: encodes, but cannot decode.
final class SelfLoop: Codable {
  var me: SelfLoop?
}

/// A `Coding` class holding `Codable` values; it also conforms to `Codable` so that a `Codable` struct can hold it
/// (through the archive coders it is written by `encode(with:)`).
final class Shelf: Coding, Codable {
  var label: String
  var books: [CodableModel.Item]
  var owner: Team?

  init(label: String, books: [CodableModel.Item], owner: Team?) {
    self.label = label
    self.books = books
    self.owner = owner
  }

  required init(coder: any DecodingCoder) throws {
    label = try coder.decodeString(forKey: "label") ?? ""
    books = try coder.decodeCodable([CodableModel.Item].self, forKey: "books") ?? []
    owner = try coder.decodeCodable(Team.self, forKey: "owner")
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(label, forKey: "label")
    coder.encodeCodable(books, forKey: "books")
    coder.encodeCodable(owner, forKey: "owner")
  }
}

/// A secure-coding class holding a `Codable` value with Foundation leaves.
final class Stamp: SecureCoding {
  struct Info: Codable, Equatable {
    var when: Date
    var link: URL
    var tags: [String]
  }
  var info: Info?
  init(info: Info) { self.info = info }
  required init(coder: any DecodingCoder) throws { info = try coder.decodeCodable(Info.self, forKey: "info") }
  func encode(with coder: any EncodingCoder) { coder.encodeCodable(info, forKey: "info") }
}

/// A `Codable` value holding `Coding` objects and a shared `Codable` class instance.
struct Library: Codable {
  var shelves: [Shelf]
  var favourite: Shelf
  var curator: Team
}

/// The entries of an archive's `$objects`.
func archiveObjects(_ data: Data) throws -> [PropertyListValue] {
  let top = try PropertyListReader.read(data)
  guard case .dictionary(let root) = top, case .array(let objects)? = root["$objects"] else {
    Issue.record("not a keyed archive")
    return []
  }
  return objects
}

/// The UIDs of `NS.objects` of a dictionary entry.
func objectUIDs(_ entry: PropertyListValue) -> [UInt64] {
  guard case .dictionary(let fields) = entry, case .array(let refs)? = fields["NS.objects"] else { return [] }
  return refs.compactMap { if case .uid(let uid) = $0 { uid } else { nil } }
}

func sampleCompany() -> Company {
  let core = Team(name: "core")
  let tools = Team(name: "tools")
  let chief = Employee(name: "Ada", team: core)
  let grace = Employee(name: "Grace", team: core)
  let linus = Employee(name: "Linus", team: tools)
  chief.reports = [grace, linus]
  grace.manager = chief
  linus.manager = chief
  return Company(
    founded: Date(timeIntervalSinceReferenceDate: 1000),
    site: URL(string: "https://example.com") ?? URL(fileURLWithPath: "/"),
    teams: [core, tools], staff: [chief, grace, linus], chief: chief)
}

@Suite("Codable class graphs")
struct CodableGraphTests {
  init() {
    ClassRegistry.shared.register(Shelf.self, as: "Shelf")
  }

  @Test("COD-068: the same class instance encoded twice is one object in $objects")
  func sharedInstanceIsOneObject() throws {
    let team = Team(name: "core")
    let data = try KeyedArchiveEncoder().encode([team, team, Team(name: "core")])
    let objects = try archiveObjects(data)
    guard case .uid(let rootUID)? = try PropertyListReader.read(data).dictionaryValue?["$top"]?.dictionaryValue?["root"]
    else {
      Issue.record("no root")
      return
    }
    let elements = objectUIDs(objects[Int(rootUID)])
    #expect(elements.count == 3)
    #expect(elements[0] == elements[1])
    #expect(elements[0] != elements[2])
    let back = try KeyedArchiveDecoder().decode([Team].self, from: data)
    #expect(back[0] === back[1])
    #expect(back[0] !== back[2])
    #expect(back.map(\.name) == ["core", "core", "core"])
  }

  @Test("COD-068: the toolchain's NSKeyedUnarchiver reads an archive with a shared instance as dictionaries")
  func foundationSeesOneDictionary() throws {
    let team = Team(name: "core")
    let data = try KeyedArchiveEncoder().encode(["a": team, "b": team])
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    let root = try #require(unarchiver.decodeObject(forKey: "root") as? NSDictionary)
    // (corelibs bridges each value it hands out, so the identity of the two dictionaries is not observable here;
    // the previous test checks that the archive holds one.)
    for key in ["a", "b"] {
      let team = try #require(root[key] as? NSDictionary)
      #expect(team["name"] as? String == "core")
    }
  }

  @Test("COD-069: a class graph with shared instances and a cycle round-trips", arguments: CodableTests.formats)
  func companyRoundTrip(format: PropertyListFormat) throws {
    let data = try KeyedArchiveEncoder(outputFormat: format).encode(sampleCompany())
    let back = try KeyedArchiveDecoder().decode(Company.self, from: data)
    #expect(back.founded == Date(timeIntervalSinceReferenceDate: 1000))
    #expect(back.site.absoluteString == "https://example.com")
    #expect(back.staff.map(\.name) == ["Ada", "Grace", "Linus"])
    let chief = try #require(back.chief)
    #expect(chief === back.staff[0])
    #expect(chief.reports.count == 2)
    #expect(chief.reports[0] === back.staff[1])
    #expect(chief.reports[1] === back.staff[2])
    // The back references (cycles) are filled in the link phase.
    #expect(back.staff[1].manager === chief)
    #expect(back.staff[2].manager === chief)
    #expect(chief.manager == nil)
    // Shared teams are one instance each.
    #expect(chief.team === back.teams[0])
    #expect(back.staff[1].team === back.teams[0])
    #expect(back.staff[2].team === back.teams[1])
  }

  @Test("COD-069: a doubly linked list of 300 nodes round-trips with its back references")
  func linkedList() throws {
    let head = CodableListNode(value: 0)
    var tail = head
    for value in 1..<300 {
      let node = CodableListNode(value: value)
      node.previous = tail
      tail.next = node
      tail = node
    }
    let back = try KeyedArchiveDecoder().decode(CodableListNode.self, from: KeyedArchiveEncoder().encode(head))
    var node: CodableListNode? = back
    var previous: CodableListNode?
    var values: [Int] = []
    while let current = node {
      values.append(current.value)
      #expect(current.previous === previous)
      previous = current
      node = current.next
    }
    #expect(values == Array(0..<300))
  }

  @Test("COD-069: a self cycle without ArchiveReference encodes, and decoding names the cycle and its object")
  func cycleWithoutReference() throws {
    let loop = SelfLoop()
    loop.me = loop
    let data = try KeyedArchiveEncoder().encode(loop)
    let objects = try archiveObjects(data)
    // The loop is one dictionary whose value refers to itself.
    let dictionaries = objects.indices.filter { objectUIDs(objects[$0]).count == 1 }
    #expect(dictionaries.count == 1)
    if let index = dictionaries.first { #expect(objectUIDs(objects[index]) == [UInt64(index)]) }
    do {
      _ = try KeyedArchiveDecoder().decode(SelfLoop.self, from: data)
      Issue.record("decoding succeeded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(pathText(context.codingPath) == "me")
      let underlying = try #require(context.underlyingError as? ArchiveError)
      #expect(underlying.code == .referenceCycle)
      #expect(underlying.location.objectIndex == dictionaries.first)
      #expect(context.debugDescription.contains("ArchiveReference"))
    }
    loop.me = nil
  }

  @Test("COD-067: a chain of class instances deeper than 512 levels is an EncodingError, not a crash")
  func deepChain() throws {
    let head = CodableListNode(value: 0)
    var tail = head
    for value in 1...600 {
      let node = CodableListNode(value: value)
      tail.next = node
      tail = node
    }
    #expect(throws: EncodingError.self) { try KeyedArchiveEncoder().encode(head) }
  }

  @Test("COD-070: a Codable value holds Coding objects, which hold Codable values, sharing class instances")
  func mixedGraph() throws {
    let curator = Team(name: "curators")
    let items = CodableModel.sample.items
    let shelf = Shelf(label: "A", books: items, owner: curator)
    let other = Shelf(label: "B", books: [], owner: nil)
    let library = Library(shelves: [shelf, other], favourite: shelf, curator: curator)
    let data = try KeyedArchiveEncoder().encode(library)
    let back = try KeyedArchiveDecoder().decode(Library.self, from: data)
    #expect(back.shelves.map(\.label) == ["A", "B"])
    #expect(back.shelves[0].books == items)
    #expect(back.shelves[1].books.isEmpty)
    #expect(back.shelves[1].owner == nil)
    // One Shelf object, and the Team reached from the struct and from inside the Coding object is one instance.
    #expect(back.favourite === back.shelves[0])
    #expect(back.shelves[0].owner === back.curator)
    // Shelf is written as its own class, with its Codable fields as dictionaries and arrays.
    let plain = try KeyedUnarchiver.unarchivedRootObject(from: data) as? [AnyHashable: Any]
    let shelves = try #require(plain?["shelves"] as? [Any])
    #expect(shelves.first is Shelf)
  }

  @Test("COD-070: a Coding root archived by KeyedArchiver holds Codable values")
  func codingRoot() throws {
    let team = Team(name: "t")
    let shelf = Shelf(label: "X", books: [CodableModel.Item(name: "n", count: 2, tags: [], note: nil)], owner: team)
    let data = try KeyedArchiver.archivedData(withRootObject: shelf)
    let back = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? Shelf)
    #expect(back.label == "X")
    #expect(back.books == shelf.books)
    #expect(back.owner?.name == "t")
  }

  @Test("COD-070: a secure-coding class decodes its Codable value under secure coding")
  func secureCodingRoot() throws {
    ClassRegistry.shared.register(Stamp.self, as: "Stamp")
    let info = Stamp.Info(
      when: Date(timeIntervalSinceReferenceDate: 5), link: URL(fileURLWithPath: "/tmp/x"), tags: ["a", "b"])
    let data = try KeyedArchiver.archivedData(withRootObject: Stamp(info: info), requiringSecureCoding: true)
    let back = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Stamp.self, from: data))
    #expect(back.info == info)
  }

  @Test("COD-071: a decoding error carries the coding path and the object index of the failing value")
  func errorObjectIndex() throws {
    let entries: [[String: Any]] = [["count": 1], ["count": 2], ["count": "three"]]
    let data = try KeyedArchiver.archivedData(withRootObject: ["items": entries])
    let objects = try archiveObjects(data)
    let three = try #require(objects.firstIndex(of: .string("three")))
    do {
      _ = try KeyedArchiveDecoder().decode(Counted.self, from: data)
      Issue.record("decoding succeeded")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(pathText(context.codingPath) == "items[2].count")
      let underlying = try #require(context.underlyingError as? ArchiveError)
      #expect(underlying.location.objectIndex == three)
      #expect(underlying.location.keyPath == "items[2].count")
      #expect(context.debugDescription.contains("object #\(three)"))
    }
    // A missing key names the dictionary that lacks it.
    let missing = try KeyedArchiver.archivedData(withRootObject: ["items": [["count": 1], [String: Any]()]])
    let missingObjects = try archiveObjects(missing)
    do {
      _ = try KeyedArchiveDecoder().decode(Counted.self, from: missing)
      Issue.record("decoding succeeded")
    } catch DecodingError.keyNotFound(_, let context) {
      let index = try #require((context.underlyingError as? ArchiveError)?.location.objectIndex)
      // The empty dictionary: NS.keys and NS.objects with no entries.
      #expect(objectUIDs(missingObjects[index]).isEmpty)
      guard case .dictionary(let fields) = missingObjects[index] else {
        Issue.record("object #\(index) is not a dictionary entry")
        return
      }
      #expect(fields["NS.keys"] != nil)
    }
  }

  @Test("COD-067: an archive nesting a dictionary in itself ends in a DecodingError at the depth limit")
  func hostileNesting() throws {
    /// Decodes itself from the key `me` without end: only the depth limit stops it.
    struct Deep: Decodable {
      enum Keys: CodingKey { case me }
      init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: Keys.self).decodeIfPresent(Deep.self, forKey: .me)
      }
    }
    let loop = SelfLoop()
    loop.me = loop
    let data = try KeyedArchiveEncoder().encode(loop)
    loop.me = nil
    let decoder = KeyedArchiveDecoder()
    decoder.options.maxDepth = 100
    do {
      _ = try decoder.decode(Deep.self, from: data)
      Issue.record("decoding succeeded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect((context.underlyingError as? ArchiveError)?.code == .limitExceeded)
      #expect(context.codingPath.count > 100)
    }
  }
}

/// A class whose single value is another class instance (both share one `$objects` entry).
final class Wrapper: Codable {
  let inner: Team
  init(inner: Team) { self.inner = inner }
  init(from decoder: any Decoder) throws { inner = try decoder.singleValueContainer().decode(Team.self) }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(inner)
  }
}

@Suite("Codable bridge edge cases")
struct CodableEdgeTests {
  @Test("COD-068: a class whose single value is another class decodes both, sharing the entry")
  func singleValueClass() throws {
    let team = Team(name: "w")
    let data = try KeyedArchiveEncoder().encode([Wrapper(inner: team), Wrapper(inner: team)])
    let back = try KeyedArchiveDecoder().decode([Wrapper].self, from: data)
    #expect(back[0].inner.name == "w")
    #expect(back[0].inner === back[1].inner)
    #expect(back[0] === back[1])
  }

  @Test("COD-063: a key encoded twice in one keyed container keeps the last value")
  func repeatedKey() throws {
    struct Twice: Encodable {
      enum Keys: CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .a)
        try container.encode(2, forKey: .b)
        try container.encode(3, forKey: .a)
      }
    }
    let plain = try KeyedUnarchiver.unarchivedRootObject(from: KeyedArchiveEncoder().encode(Twice()))
    let dictionary = try #require(plain as? [AnyHashable: Any])
    #expect(dictionary.count == 2)
    #expect(dictionary["a"] as? Int == 3)
    #expect(dictionary["b"] as? Int == 2)
  }

  @Test("COD-066: truncated and bit-flipped archives of a class graph throw, never crash")
  func damageSweep() throws {
    let data = try KeyedArchiveEncoder().encode(sampleCompany())
    var outcomes = (thrown: 0, decoded: 0)
    func attempt(_ bytes: Data) {
      do {
        _ = try KeyedArchiveDecoder().decode(Company.self, from: bytes)
        outcomes.decoded += 1
      } catch is DecodingError {
        outcomes.thrown += 1
      } catch {
        Issue.record("expected a DecodingError, got \(error)")
      }
    }
    for length in stride(from: 0, to: data.count, by: 7) { attempt(data.prefix(length)) }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<400 {
      var damaged = data
      let index = Int.random(in: 0..<damaged.count, using: &generator)
      damaged[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
      attempt(damaged)
    }
    // Every truncation fails; a flip may land in a string and still decode.
    #expect(outcomes.thrown >= data.count / 7)
  }
}

import ArchiveCoding
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

@Suite("Keyed archive round trips")
struct KeyedArchiveRoundTripTests {
  init() { registerTestClasses }

  @Test(
    "COD-001: every primitive and Foundation value survives, in binary and XML", arguments: PropertyListFormat.allCases)
  func primitives(format: PropertyListFormat) throws {
    let record = Record()
    record.flag = true
    record.small = Int32.min
    record.big = Int64.max
    record.unsigned = UInt64.max
    record.ratio = .nan
    record.single = -0.0
    record.title = "Grüße 🎉"
    record.blob = Data()
    record.tags = ["a", "b", "a"]
    record.extra = ["x": 1, "y": -2]
    record.stamp = Date(timeIntervalSinceReferenceDate: 1234.5)
    record.id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    record.link = URL(string: "index.xml", relativeTo: URL(string: "https://www.swift.org"))
    let data = try KeyedArchiver.archivedData(withRootObject: record, requiringSecureCoding: true, format: format)
    let back = try KeyedUnarchiver.unarchivedObject(ofClass: Record.self, from: data)
    #expect(back == record)
  }

  @Test("ARC-020: the archive has Apple's top-level layout")
  func layout() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: ["a": 1])
    let plist = try PropertyListReader.read(data)
    let top = try #require(plist.dictionaryValue)
    #expect(top["$archiver"] == "NSKeyedArchiver")
    #expect(top["$version"] == 100_000)
    #expect(top["$top"]?.dictionaryValue?["root"]?.uidValue != nil)
    #expect(top["$objects"]?.arrayValue?.first == "$null")
  }

  @Test("ARC-021: output is deterministic")
  func deterministic() throws {
    let value: [String: Any] = [
      "b": [1, 2, 3], "a": ["x": "y", "z": Set([1, 2, 3])], "c": Date(timeIntervalSinceReferenceDate: 9),
    ]
    let first = try KeyedArchiver.archivedData(withRootObject: value)
    for _ in 0..<5 { #expect(try KeyedArchiver.archivedData(withRootObject: value) == first) }
  }

  @Test("COD-010: a doubly linked list of 100,000 nodes round-trips through the link phase")
  func longCycle() throws {
    let head = ListNode(value: 0)
    var tail = head
    for i in 1..<100_000 {
      let node = ListNode(value: i)
      tail.next = node
      node.previous = tail
      tail = node
    }
    let data = try KeyedArchiver.archivedData(withRootObject: head, requiringSecureCoding: true)
    let back = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: ListNode.self, from: data))
    var count = 0
    var node: ListNode? = back
    var previous: ListNode?
    while let current = node {
      #expect(current.value == count)
      #expect(current.previous === previous)
      previous = current
      node = current.next
      count += 1
    }
    #expect(count == 100_000)
    // Break the retain chain iteratively so deallocation does not recurse 100,000 deep.
    var cursor: ListNode? = back
    while let current = cursor {
      cursor = current.next
      current.next = nil
    }
    cursor = head
    while let current = cursor {
      cursor = current.next
      current.next = nil
    }
  }

  @Test("COD-011: a cycle requested inside init(coder:) is a thrown error naming the key path")
  func eagerCycle() throws {
    let a = Eager(name: "a")
    let b = Eager(name: "b")
    a.other = b
    b.other = a
    let data = try KeyedArchiver.archivedData(withRootObject: a)
    do {
      _ = try KeyedUnarchiver.unarchivedRootObject(from: data)
      Issue.record("expected a cycle error")
    } catch let error as ArchiveError {
      #expect(error.code == .referenceCycle)
      #expect(error.location.keyPath == "root.other.other")
      #expect(error.description.contains("reference cycle"))
    }
    a.other = nil
  }

  @Test("ARC-022: shared references decode as one instance; conditional objects follow Apple's rule")
  func sharing() throws {
    let shared = ListNode(value: 7)
    let holder = ListNode(value: 1)
    holder.next = shared
    holder.previous = shared  // conditional, but encoded unconditionally as `next`
    let lonely = ListNode(value: 2)
    let orphan = ListNode(value: 3)
    lonely.previous = orphan  // conditional only (weak, kept alive by `orphan`): decodes as nil
    let data = try KeyedArchiver.archivedData(withRootObject: [holder, lonely])
    let back = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? [Any])
    let h = try #require(back[0] as? ListNode)
    let l = try #require(back[1] as? ListNode)
    #expect(h.next === h.previous)
    #expect(l.previous == nil)
    withExtendedLifetime(orphan) {}
  }

  @Test("COD-020: secure decoding rejects a class outside the allowed set before init runs")
  func secureRejects() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: [ListNode(value: 1)])
    #expect(throws: ArchiveError.self) { try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: data) }
    do {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: data)
    } catch let error as ArchiveError {
      #expect(error.code == .classNotAllowed)
      #expect(error.location.className == "ListNode")
    }
  }

  @Test("COD-021: an unknown class is an error naming the class and object index")
  func unknownClass() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: ArchivedObject(className: "Nowhere.Thing"))
    do {
      _ = try KeyedUnarchiver.unarchivedRootObject(from: data)
      Issue.record("expected an error")
    } catch let error as ArchiveError {
      #expect(error.code == .classNotFound)
      #expect(error.location.className == "Nowhere.Thing")
      #expect(error.location.objectIndex == 1)
    }
  }
}

import ArchiveCoding
import Foundation
import Testing

@testable import KeyedArchive

@Suite("Property-list coding calls")
struct PropertyListCodingTests {
  @Test("COD-106: encodePropertyList writes what NSKeyedUnarchiver's decodePropertyList reads, and back")
  func propertyListBothWays() throws {
    let plist: [String: Any] = [
      "name": "shelf", "count": 3, "tags": ["a", "b"], "when": Date(timeIntervalSince1970: 0),
    ]
    let archiver = KeyedArchiver()
    archiver.encodePropertyList(plist)
    let ours = try archiver.finishEncoding()
    let theirs = try NSKeyedUnarchiver(forReadingFrom: ours)
    theirs.requiresSecureCoding = false
    let read = try #require(theirs.decodePropertyList() as? [String: Any])
    #expect(
      read["name"] as? String == "shelf" && read["count"] as? Int == 3 && read["tags"] as? [String] == ["a", "b"])

    let foundation = NSKeyedArchiver(requiringSecureCoding: false)
    foundation.encodePropertyList(plist as NSDictionary)
    foundation.finishEncoding()
    let unarchiver = try KeyedUnarchiver(forReadingFrom: foundation.encodedData, requiringSecureCoding: true)
    let back = try #require(try unarchiver.decodePropertyList() as? [String: Any])
    #expect(back["name"] as? String == "shelf" && back["when"] as? Date == Date(timeIntervalSince1970: 0))
  }

  @Test("COD-106: decodePropertyList(forKey:) reads a property list under secure coding and refuses other classes")
  func keyedPropertyListIsRestricted() throws {
    ClassRegistry.shared.register(RenamedBook.self, as: "RenamedBook")
    let archiver = KeyedArchiver()
    archiver.encode(["a": [1, 2], "b": Data([1])] as Any?, forKey: "plist")
    archiver.encode([RenamedBook(title: "x", pages: 1)] as Any?, forKey: "objects")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try archiver.finishEncoding(), requiringSecureCoding: true)
    let plist = try #require(try unarchiver.decodePropertyList(forKey: "plist") as? [String: Any])
    #expect(plist["a"] as? [Int] == [1, 2])
    #expect(try unarchiver.decodePropertyList(forKey: "missing") == nil)
    let error = try #require(throws: ArchiveError.self) { try unarchiver.decodePropertyList(forKey: "objects") }
    #expect(error.code == .classNotAllowed)
    #expect(error.location.className == "RenamedBook")
  }
}

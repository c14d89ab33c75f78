import ArchiveCoding
import Foundation
import Testing

@testable import KeyedArchive

@Suite("Typed collection roots and encodedData")
struct TypedCollectionRootTests {
  @Test("COD-102: an array NSKeyedArchiver writes reads with unarchivedArrayOfObjects(ofClass:)")
  func foundationArrayReads() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: ["a", "b", "c"] as NSArray, requiringSecureCoding: true)
    #expect(try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: String.self, from: data) == ["a", "b", "c"])
    let loose = try #require(try KeyedUnarchiver.unarchivedArrayOfObjects(ofClasses: [String.self], from: data))
    #expect(loose.compactMap { $0 as? String } == ["a", "b", "c"])
  }

  @Test("COD-102: a dictionary NSKeyedArchiver writes reads with unarchivedDictionary(keysOfClass:objectsOfClass:)")
  func foundationDictionaryReads() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: ["x": 1, "y": 2] as NSDictionary, requiringSecureCoding: true)
    #expect(
      try KeyedUnarchiver.unarchivedDictionary(keysOfClass: String.self, objectsOfClass: Int.self, from: data)
        == ["x": 1, "y": 2])
    let loose = try #require(
      try KeyedUnarchiver.unarchivedDictionary(keysOfClasses: [String.self], objectsOfClasses: [Int.self], from: data))
    #expect(loose["x"] as? Int == 1)
  }

  @Test("COD-102: our typed roots read back in NSKeyedUnarchiver")
  func ourRootsReadInFoundation() throws {
    // The toolchain has no unarchivedArrayOfObjects / unarchivedDictionary: its secure unarchivedObject(ofClasses:)
    // with the collection and element classes is the same check.
    let array = try KeyedArchiver.archivedData(withRootObject: ["a", "b"], requiringSecureCoding: true)
    let arrayBack = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: array)
    #expect(arrayBack as? [String] == ["a", "b"])
    let dictionary = try KeyedArchiver.archivedData(withRootObject: ["k": 3], requiringSecureCoding: true)
    let back = try NSKeyedUnarchiver.unarchivedObject(
      ofClasses: [NSDictionary.self, NSString.self, NSNumber.self], from: dictionary)
    #expect(back as? [String: Int] == ["k": 3])
  }

  @Test("COD-102: a root of another element class is refused, naming the element")
  func otherElementClassIsRefused() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: ["a", 2] as [Any], requiringSecureCoding: true)
    let error = try #require(throws: ArchiveError.self) {
      try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: String.self, from: data)
    }
    #expect(error.code == .classNotAllowed || error.code == .typeMismatch)
    #expect(error.location.keyPath?.hasPrefix("root") == true)
    let notDictionary = try #require(throws: ArchiveError.self) {
      try KeyedUnarchiver.unarchivedDictionary(keysOfClass: String.self, objectsOfClass: Int.self, from: data)
    }
    #expect(notDictionary.code == .classNotAllowed || notDictionary.code == .typeMismatch)
  }

  @Test("COD-102: a nil root gives nil")
  func nilRootGivesNil() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: nil)
    #expect(try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: String.self, from: data) == nil)
    #expect(
      try KeyedUnarchiver.unarchivedDictionary(keysOfClass: String.self, objectsOfClass: Int.self, from: data) == nil)
  }

  @Test("COD-102: encodedData finishes encoding once and gives the same archive again")
  func encodedDataFinishesOnce() throws {
    let archiver = KeyedArchiver()
    archiver.encode("hello", forKey: "greeting")
    let first = try archiver.encodedData
    let second = try archiver.encodedData
    #expect(first == second)
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: first)
    #expect(unarchiver.decodeObject(forKey: "greeting") as? String == "hello")
  }

  @Test("COD-102: encodedData after a failed encode throws the same error each time")
  func encodedDataRethrows() throws {
    let archiver = KeyedArchiver()
    archiver.failWithError(ArchiveError(.invalidValue, "refused"))
    let first = try #require(throws: ArchiveError.self) { try archiver.encodedData }
    let second = try #require(throws: ArchiveError.self) { try archiver.encodedData }
    #expect(first.message == "refused" && second.message == "refused")
  }
}

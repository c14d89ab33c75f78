import ArchiveCoding
import Foundation
import Testing

@testable import KeyedArchive

/// A class written with `NSCoder`'s names only: the calls a Foundation `init(coder:)` / `encode(with:)` makes.
final class AppleNamedShelf: SecureCoding {
  var name = ""
  var count = 0
  var small: Int32 = 0
  var big: Int64 = 0
  var flag = false
  var ratio = 0.0
  var single: Float = 0
  var tags: [String] = []
  var extras: [String: Int] = [:]
  var raw = Data()
  var rawLength = 0
  var mixed: [Any] = []
  init() {}
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeObject(of: String.self, forKey: "name") ?? ""
    count = try coder.decodeInteger(forKey: "count")
    small = try coder.decodeInt32(forKey: "small")
    big = try coder.decodeInt64(forKey: "big")
    flag = try coder.decodeBool(forKey: "flag")
    ratio = try coder.decodeDouble(forKey: "ratio")
    single = try coder.decodeFloat(forKey: "single")
    tags = try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "tags") ?? []
    extras = try coder.decodeDictionary(withKeysOfClass: String.self, objectsOfClass: Int.self, forKey: "extras") ?? [:]
    raw = try coder.decodeBytes(forKey: "raw", returnedLength: &rawLength) ?? Data()
    mixed = try coder.decodeArrayOfObjects(ofClasses: [String.self, Int.self], forKey: "mixed") ?? []
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(count, forKey: "count")
    coder.encode(small, forKey: "small")
    coder.encode(big, forKey: "big")
    coder.encode(flag, forKey: "flag")
    coder.encode(ratio, forKey: "ratio")
    coder.encode(single, forKey: "single")
    coder.encode(tags, forKey: "tags")
    coder.encode(extras, forKey: "extras")
    coder.encodeBytes([1, 2, 3, 4, 5], length: 3, forKey: "raw")
    coder.encode(mixed, forKey: "mixed")
  }
}

@Suite("Apple's coder names")
struct AppleNamesTests {
  @Test("COD-100: an init(coder:) written with NSCoder's names round-trips under secure coding")
  func appleNamedClassRoundTrips() throws {
    ClassRegistry.shared.register(AppleNamedShelf.self, as: "AppleNamedShelf")
    let shelf = AppleNamedShelf()
    shelf.name = "Poetry"
    shelf.count = -7
    shelf.small = .min
    shelf.big = .max
    shelf.flag = true
    shelf.ratio = 0.1
    shelf.single = 2.5
    shelf.tags = ["a", "b"]
    shelf.extras = ["x": 1, "y": 2]
    shelf.mixed = ["one", 2]
    let data = try KeyedArchiver.archivedData(withRootObject: shelf, requiringSecureCoding: true)
    let back = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: AppleNamedShelf.self, from: data))
    #expect(back.name == "Poetry")
    #expect(back.count == -7)
    #expect(back.small == .min)
    #expect(back.big == .max)
    #expect(back.flag)
    #expect(back.ratio == 0.1)
    #expect(back.single == 2.5)
    #expect(back.tags == ["a", "b"])
    #expect(back.extras == ["x": 1, "y": 2])
    #expect(back.raw == Data([1, 2, 3]))
    #expect(back.rawLength == 3)
    #expect(back.mixed.count == 2 && back.mixed[0] as? String == "one" && back.mixed[1] as? Int == 2)
  }

  @Test("COD-100: values NSKeyedArchiver writes read back through NSCoder's names")
  func foundationWrittenValuesReadThroughAppleNames() throws {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.encode(42, forKey: "integer")
    archiver.encode(Int32(-5), forKey: "int32")
    archiver.encode(Int64.min, forKey: "int64")
    archiver.encode(true, forKey: "bool")
    archiver.encode(1.25, forKey: "double")
    archiver.encode(Float(0.5), forKey: "float")
    archiver.encode("text" as NSString, forKey: "string")
    archiver.encode(["a", "b"] as NSArray, forKey: "array")
    archiver.encode(["k": 1] as NSDictionary, forKey: "dictionary")
    archiver.encodeBytes([9, 8, 7], length: 3, forKey: "bytes")
    archiver.finishEncoding()
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archiver.encodedData, requiringSecureCoding: false)
    #expect(try unarchiver.decodeInteger(forKey: "integer") == 42)
    #expect(try unarchiver.decodeInt32(forKey: "int32") == -5)
    #expect(try unarchiver.decodeInt64(forKey: "int64") == .min)
    #expect(try unarchiver.decodeBool(forKey: "bool"))
    #expect(try unarchiver.decodeDouble(forKey: "double") == 1.25)
    #expect(try unarchiver.decodeFloat(forKey: "float") == 0.5)
    #expect(try unarchiver.decodeObject(forKey: "string") as? String == "text")
    #expect(try unarchiver.decodeObject(ofClasses: [String.self], forKey: "string") as? String == "text")
    #expect(try unarchiver.decodeArrayOfObjects(ofClasses: [String.self], forKey: "array") as? [String] == ["a", "b"])
    #expect(
      try unarchiver.decodeDictionary(withKeysOfClass: String.self, objectsOfClass: Int.self, forKey: "dictionary")
        == ["k": 1])
    let loose = try unarchiver.decodeDictionary(
      withKeysOfClasses: [String.self], objectsOfClasses: [Int.self], forKey: "dictionary")
    #expect(loose?["k"] as? Int == 1)
    var length = -1
    #expect(try unarchiver.decodeBytes(forKey: "bytes", returnedLength: &length) == Data([9, 8, 7]))
    #expect(length == 3)
    #expect(unarchiver.containsValue(forKey: "bytes"))
    #expect(!unarchiver.containsValue(forKey: "absent"))
    #expect(try unarchiver.decodeBytes(forKey: "absent", returnedLength: &length) == nil)
    #expect(length == 0)
    #expect(unarchiver.allowsKeyedCoding)
  }

  @Test("COD-100: values written through NSCoder's names read back in NSKeyedUnarchiver")
  func appleNamedWritesReadByFoundation() throws {
    let archiver = KeyedArchiver()
    archiver.encode(42, forKey: "integer")
    archiver.encode(Int32(-5), forKey: "int32")
    archiver.encode(true, forKey: "bool")
    archiver.encode(Float(0.5), forKey: "float")
    archiver.encode(["a", "b"] as Any?, forKey: "array")
    archiver.encode(Date(timeIntervalSinceReferenceDate: 10) as Any?, forKey: "date")
    archiver.encodeBytes(Data([9, 8, 7, 6]), length: 2, forKey: "bytes")
    #expect(archiver.allowsKeyedCoding)
    let data = try archiver.finishEncoding()
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    #expect(unarchiver.decodeInteger(forKey: "integer") == 42)
    #expect(unarchiver.decodeInt32(forKey: "int32") == -5)
    #expect(unarchiver.decodeBool(forKey: "bool"))
    #expect(unarchiver.decodeFloat(forKey: "float") == 0.5)
    #expect(unarchiver.decodeObject(forKey: "array") as? [String] == ["a", "b"])
    #expect(unarchiver.decodeObject(forKey: "date") as? Date == Date(timeIntervalSinceReferenceDate: 10))
    let bytes = unarchiver.withDecodedUnsafeBufferPointer(forKey: "bytes") { $0.map { Data(buffer: $0) } }
    #expect(bytes == Data([9, 8]))
  }

  @Test("COD-100: a dictionary of the wrong value type is a typeMismatch naming the key")
  func dictionaryOfWrongTypeNamesTheKey() throws {
    let archiver = KeyedArchiver()
    archiver.encode(["k": "not a number"] as Any?, forKey: "dictionary")
    archiver.encode(["k": 1] as Any?, forKey: "notArray")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try archiver.finishEncoding(), requiringSecureCoding: false)
    let error = try #require(throws: ArchiveError.self) {
      try unarchiver.decodeDictionary(withKeysOfClass: String.self, objectsOfClass: Int.self, forKey: "dictionary")
    }
    #expect(error.code == .typeMismatch)
    #expect(error.location.keyPath == "dictionary")
    let arrayError = try #require(throws: ArchiveError.self) {
      try unarchiver.decodeArrayOfObjects(ofClasses: [Int.self], forKey: "notArray")
    }
    #expect(arrayError.code == .typeMismatch)
    #expect(arrayError.location.keyPath == "notArray")
  }

  @Test("COD-100: under secure coding, decodeArrayOfObjects(ofClasses:) refuses an element of another class")
  func secureArrayOfClassesRefusesOtherElements() throws {
    let archiver = KeyedArchiver()
    archiver.encode(["a", 1] as [Any] as Any?, forKey: "array")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try archiver.finishEncoding(), requiringSecureCoding: true)
    let error = try #require(throws: ArchiveError.self) {
      try unarchiver.decodeArrayOfObjects(ofClasses: [String.self], forKey: "array")
    }
    #expect(error.code == .classNotAllowed)
    #expect(try unarchiver.decodeArrayOfObjects(ofClasses: [String.self, Int.self], forKey: "array")?.count == 2)
  }
}

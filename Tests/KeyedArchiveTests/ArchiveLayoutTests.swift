import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

@Suite("Archive layout")
struct ArchiveLayoutTests {
  init() { registerTestClasses }

  @Test("ARC-023: UID 0 and every $objects entry equal to \"$null\" decode as nil")
  func nullEntries() throws {
    // $objects: 1 array [UID 2 ("$null" at index 2), UID 0, UID 3 ("x")], 3 "x", 4 class.
    let archive = try PropertyListWriter.write([
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1), "none": .uid(2)],
      "$objects": [
        "$null", ["$class": .uid(4), "NS.objects": [.uid(2), .uid(0), .uid(3)]], "$null", "x",
        ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
      ],
    ])
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    #expect(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? [String] == ["x"])
    #expect(try unarchiver.decodeObject(forKey: "none", allowedClasses: nil) == nil)
    // The typed string read (its direct path) too, first thing in an unarchiver of its own.
    let typed = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    #expect(try typed.decodeString(forKey: "none") == nil)
    #expect(unarchiver.containsValue(forKey: "none"))
    // Hence the string "$null" itself cannot survive an archive: it reads back as nil (on Darwin too).
    let back = try KeyedUnarchiver.unarchivedRootObject(
      from: try KeyedArchiver.archivedData(withRootObject: ["$null", "y"]))
    #expect(back as? [String] == ["y"])
  }

  @Test(
    "ARC-024: NSString, NSNumber and NSData are plain entries; other classes are dictionaries with $class and a full $classes chain"
  )
  func entries() throws {
    let archive = try KeyedArchiver.archivedData(
      withRootObject: ["s", 1, Data([1]), Date(timeIntervalSinceReferenceDate: 2)] as [Any])
    let (fields, name, objects) = try rootObject(archive)
    #expect(name == "NSArray")
    let uids = try #require(fields["NS.objects"]?.arrayValue).compactMap(\.uidValue).map { Int($0) }
    #expect(objects[uids[0]] == "s" && objects[uids[1]] == 1 && objects[uids[2]] == .data(Data([1])))
    let date = try #require(objects[uids[3]].dictionaryValue)
    let classUID = try #require(date["$class"]?.uidValue)
    #expect(objects[Int(classUID)] == ["$classname": "NSDate", "$classes": ["NSDate", "NSObject"]])
    // One class description per class.
    let descriptions = objects.filter { $0.dictionaryValue?["$classname"] != nil }
    #expect(descriptions.count == 2)
  }

  @Test("ARC-031: mutable strings and data keep their class with inline NS.string / NS.data; dates are NS.time")
  func stringsDataDates() throws {
    let cases: [(Any, String, String)] = [
      (NSMutableString(string: "m"), "NSMutableString", "NS.string"),
      (NSMutableData(data: Data([9])), "NSMutableData", "NS.data"),
      (Date(timeIntervalSinceReferenceDate: -1.5), "NSDate", "NS.time"),
    ]
    for (value, className, key) in cases {
      let (fields, name, _) = try rootObject(try KeyedArchiver.archivedData(withRootObject: value))
      #expect(name == className)
      #expect(fields[key] != nil && fields[key]?.uidValue == nil, "\(key) is inline")
    }
    let (fields, _, _) = try rootObject(
      try KeyedArchiver.archivedData(withRootObject: Date(timeIntervalSinceReferenceDate: -1.5)))
    #expect(fields["NS.time"] == .real(-1.5))
  }

  @Test("ARC-034: NSNull, NSError and NSDateInterval round-trip with their keys")
  func otherClasses() throws {
    let error = NSError(domain: "test.domain", code: -42, userInfo: ["reason": "because"])
    let interval = DateInterval(start: Date(timeIntervalSinceReferenceDate: 10), duration: 5)
    let back = try #require(
      try KeyedUnarchiver.unarchivedRootObject(
        from: try KeyedArchiver.archivedData(withRootObject: [NSNull(), error, interval] as [Any])) as? [Any])
    #expect(back[0] is NSNull)
    let decodedError = try #require(back[1] as? NSError)
    #expect(decodedError.domain == "test.domain" && decodedError.code == -42)
    #expect(decodedError.userInfo["reason"] as? String == "because")
    #expect(back[2] as? DateInterval == interval)
    let (fields, name, _) = try rootObject(try KeyedArchiver.archivedData(withRootObject: error))
    #expect(name == "NSError" && fields["NSCode"] == -42 && fields["NSDomain"]?.uidValue != nil)
    let (intervalFields, _, _) = try rootObject(try KeyedArchiver.archivedData(withRootObject: interval))
    #expect(intervalFields["NS.startDate"]?.uidValue != nil && intervalFields["NS.endDate"]?.uidValue != nil)
  }

  @Test("COD-033: Foundation classes decode to the Swift types of the representation table")
  func representation() throws {
    let values: [Any] = [
      "s", 1, UInt64.max, 2.5, Float(1.5), true, Data([1]), Date(timeIntervalSinceReferenceDate: 0), UUID(),
      URL(string: "https://a.example/")!, ["a"], ["k": 1], [1: "v"] as [AnyHashable: Any], Set([1]), NSNull(),
      NSOrderedSet(array: [1, 2]), Decimal(string: "1.5")!, Notification(name: .init("n")),
      NSAttributedString(string: "a"),
    ]
    let back = try #require(
      try KeyedUnarchiver.unarchivedRootObject(from: try KeyedArchiver.archivedData(withRootObject: values)) as? [Any])
    let types = back.map { String(describing: type(of: $0)) }
    #expect(
      types == [
        "String", "Int", "UInt64", "Double", "Float", "Bool", "Data", "Date", "UUID", "URL", "Array<Any>",
        "Dictionary<String, Any>", "Dictionary<AnyHashable, Any>", "Set<AnyHashable>", "NSNull", "NSOrderedSet",
        "Decimal", "Notification", "NSAttributedString",
      ])
  }

  @Test("COD-033: a dictionary keeps String keys until a key of another type, which moves every entry to AnyHashable")
  func dictionaryKeyTypes() throws {
    func decoded(_ value: Any) throws -> Any? {
      try KeyedUnarchiver.unarchivedRootObject(from: try KeyedArchiver.archivedData(withRootObject: value))
    }
    let strings = try #require(try decoded(["a": 1, "b": "x", "é": Data()] as [String: Any]) as? [String: Any])
    #expect(type(of: strings) == [String: Any].self)
    #expect(strings.count == 3 && strings["a"] as? Int == 1 && strings["b"] as? String == "x")
    #expect(strings["é"] as? Data == Data())
    #expect(try type(of: #require(try decoded([String: Any]()))) == [String: Any].self)
    // The archiver writes string keys before UUID keys (its order sorts by type name), so the string entries are
    // built first and move over when the UUID key comes; an Int key comes first and starts the general form.
    let id = UUID()
    for mixed in [["a": 1, id: "id", "c": NSNull()], ["a": 1, 2: "id", "c": NSNull()]] as [[AnyHashable: Any]] {
      let back = try #require(try decoded(mixed))
      #expect(type(of: back) == [AnyHashable: Any].self)
      let general = try #require(back as? [AnyHashable: Any])
      let other = try #require(mixed.keys.first { !($0.base is String) })
      #expect(general.count == 3 && general["a"] as? Int == 1 && general[other] as? String == "id")
      #expect(general["c"] is NSNull && general[AnyHashable("\(other.base)")] == nil)
    }
    // The usual cast of a property-list dictionary gets the same dictionary without converting it.
    let nested = try #require(try decoded(["outer": ["inner": 1]]) as? [String: Any])
    #expect((nested["outer"] as? [String: Any])?["inner"] as? Int == 1)
  }
}

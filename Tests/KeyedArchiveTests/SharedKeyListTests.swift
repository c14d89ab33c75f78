import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import TestSupport
import Testing

@testable import KeyedArchive

/// Dictionaries that share one `NS.keys` list (records of one shape, whose key strings are kept after their second
/// read): each must still hold its own values, under the keys its own list names.
@Suite("Dictionaries of one key list")
struct SharedKeyListTests {
  /// `count` records of one shape, with values that differ from record to record (nested arrays and dictionaries
  /// of another and of the same key list among them).
  static func records(_ count: Int) -> [Any] {
    (0..<count).map { i in
      var record: [String: Any] = [
        "name": "record \(i)", "index": i, "ratio": Double(i) / 4, "flag": i % 2 == 0,
        "blob": Data((0..<(i % 5)).map { UInt8($0) }), "tags": [i, i + 1],
        "inner": ["x": i, "y": "\(i)"],
      ]
      // Every third record holds a record of its own shape, decoded while the outer one is being built.
      if i % 3 == 0 { record["child"] = ["name": "child \(i)", "index": -i, "ratio": 0.5, "flag": true] }
      return record
    }
  }

  @Test("COD-033: dictionaries of one key list each decode their own values")
  func recordsKeepTheirValues() throws {
    let records = Self.records(40)
    let data = try KeyedArchiver.archivedData(withRootObject: records)
    let decoded = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? [[String: Any]])
    #expect(decoded.count == 40)
    let difference = ValueSnapshot.difference(
      expected: ValueSnapshot(of: records), actual: ValueSnapshot(of: decoded))
    #expect(difference == nil, "\(String(describing: difference))")
    // The toolchain's unarchiver reads the same bytes to the same values.
    let foundation = try #require(
      try NSKeyedUnarchiver.unarchivedObject(
        ofClasses: [NSArray.self, NSDictionary.self, NSString.self, NSNumber.self, NSData.self], from: data))
    let againstFoundation = ValueSnapshot.difference(
      expected: ValueSnapshot(of: foundation), actual: ValueSnapshot(of: decoded))
    #expect(againstFoundation == nil, "\(String(describing: againstFoundation))")
  }

  /// Two arrays of `count` dictionaries each, under `root` and `more`, whose `NS.keys` all list the UIDs of the
  /// strings `keys`, with the value `value(i, k)` for dictionary `i` (counted across both arrays) and key position
  /// `k`.
  static func crafted(count: Int, keys: [String], value: (Int, Int) -> PropertyListValue) throws -> Data {
    // 1 and 2: the two arrays (filled in below), 3 and 4: the class descriptions, then the keys, then each
    // dictionary followed by its values.
    var objects: [PropertyListValue] = [
      "$null", "", "", CraftedArchiveTests.classDescription("NSDictionary", "NSObject"),
      CraftedArchiveTests.classDescription("NSArray", "NSObject"),
    ]
    let keyBase = objects.count
    objects += keys.map { .string($0) }
    var dictionaries: [PropertyListValue] = []
    for i in 0..<(2 * count) {
      let dictionaryUID = objects.count
      let valueBase = dictionaryUID + 1
      objects.append(
        [
          "$class": .uid(3), "NS.keys": .array(keys.indices.map { .uid(UInt64(keyBase + $0)) }),
          "NS.objects": .array(keys.indices.map { .uid(UInt64(valueBase + $0)) }),
        ])
      objects += keys.indices.map { value(i, $0) }
      dictionaries.append(.uid(UInt64(dictionaryUID)))
    }
    objects[1] = ["$class": .uid(4), "NS.objects": .array(Array(dictionaries[..<count]))]
    objects[2] = ["$class": .uid(4), "NS.objects": .array(Array(dictionaries[count...]))]
    return try PropertyListWriter.write([
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1), "more": .uid(2)],
      "$objects": .array(objects),
    ])
  }

  @Test("COD-033: a key listed twice keeps its later value in every dictionary of the run, templated or not")
  func repeatedKeyLaterValueWins() throws {
    let data = try Self.crafted(count: 12, keys: ["a", "b", "a"]) { i, k in .string("\(i).\(k)") }
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    let root = try #require(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? [[String: Any]])
    let more = try #require(try unarchiver.decodeObject(forKey: "more", allowedClasses: nil) as? [[String: Any]])
    let decoded = root + more
    #expect(decoded.count == 24)
    for (i, dictionary) in decoded.enumerated() {
      #expect(dictionary.count == 2)
      #expect(dictionary["a"] as? String == "\(i).2", "dictionary \(i): \(dictionary)")
      #expect(dictionary["b"] as? String == "\(i).1", "dictionary \(i): \(dictionary)")
    }
  }

  @Test("COD-020: a key list made a template is still checked against each call's allowed classes")
  func templatedKeysStillChecked() throws {
    let data = try Self.crafted(count: 10, keys: ["a", "b"]) { i, k in .integer(Int64(10 * i + k)) }
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: true)
    let first = try unarchiver.decodeObject(
      of: [NSArray.self, NSDictionary.self, NSString.self, NSNumber.self], forKey: "root")
    #expect((first as? [[String: Any]])?.count == 10)
    // Dictionaries of the same key list, with strings not allowed: their keys are strings, so they are refused
    // (their values, numbers, are allowed).
    let second = #expect(throws: ArchiveError.self) {
      try unarchiver.decodeObject(of: [NSArray.self, NSDictionary.self, NSNumber.self], forKey: "more")
    }
    #expect(second?.code == .classNotAllowed, "\(String(describing: second))")
  }

  @Test("COD-033: key lists written with a UID object per dictionary are matched by their UIDs, not their objects")
  func separateUIDObjects() throws {
    var plist = RawPropertyList()
    let (classKey, keysKey, objectsKey) = (plist.string("$class"), plist.string("NS.keys"), plist.string("NS.objects"))
    let (a, b, c) = (plist.string("a"), plist.string("b"), plist.string("c"))
    let names = ["a", "b", "c"]
    let sharedKeys = [plist.uid(4), plist.uid(5)]
    // $objects: 1 the root array, 2 NSDictionary's description, 3 NSArray's, 4...6 the keys "a", "b", "c", then
    // the dictionaries and their values.
    var entries = [plist.string("$null"), -1, -1, -1, a, b, c]
    var expected: [[String: String]] = []
    var roots: [Int] = []
    for i in 0..<16 {
      // Every other dictionary has UID objects of its own; dictionary 9 lists "a" and "c" instead.
      let keyUIDs = i == 9 ? [4, 6] : [4, 5]
      let keyObjects = i % 2 == 0 ? sharedKeys : keyUIDs.map { plist.uid($0) }
      let values = keyUIDs.map { "\(i).\(names[$0 - 4])" }
      let valueUIDs = values.map { value -> Int in
        entries.append(plist.string(value))
        return entries.count - 1
      }
      entries.append(
        plist.dictionary([
          (classKey, plist.uid(2)), (keysKey, plist.array(keyObjects)),
          (objectsKey, plist.array(valueUIDs.map { plist.uid($0) })),
        ]))
      roots.append(entries.count - 1)
      expected.append(Dictionary(uniqueKeysWithValues: zip(keyUIDs.map { names[$0 - 4] }, values)))
    }
    let classNameKey = plist.string("$classname")
    let classesKey = plist.string("$classes")
    func description(_ name: String) -> Int {
      plist.dictionary([
        (classNameKey, plist.string(name)), (classesKey, plist.array([plist.string(name), plist.string("NSObject")])),
      ])
    }
    entries[2] = description("NSDictionary")
    entries[3] = description("NSArray")
    entries[1] = plist.dictionary([(classKey, plist.uid(3)), (objectsKey, plist.array(roots.map { plist.uid($0) }))])
    let top = plist.dictionary([
      (plist.string("$archiver"), plist.string("NSKeyedArchiver")), (plist.string("$version"), plist.integer(100_000)),
      (plist.string("$top"), plist.dictionary([(plist.string("root"), plist.uid(1))])),
      (plist.string("$objects"), plist.array(entries)),
    ])
    let data = Data(plist.bytes(top: UInt64(top)))
    let decoded = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? [[String: Any]])
    #expect(decoded.count == expected.count)
    for (i, dictionary) in decoded.enumerated() {
      #expect(dictionary.mapValues { $0 as? String } == expected[i].mapValues { $0 }, "dictionary \(i)")
    }
  }

  @Test("COD-033: a dictionary with another key list after a run is decoded under its own keys")
  func anotherKeyListAfterARun() throws {
    var records = Self.records(10)
    records.append(["name": "other", "extra": 1])
    records.append(["index": 7, "name": "reordered", "ratio": 1.5, "flag": false])
    records += Self.records(3)
    let data = try KeyedArchiver.archivedData(withRootObject: records)
    let decoded = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? [[String: Any]])
    let difference = ValueSnapshot.difference(
      expected: ValueSnapshot(of: records), actual: ValueSnapshot(of: decoded))
    #expect(difference == nil, "\(String(describing: difference))")
  }

  @Test(
    "COD-033: a key list that differs from the run's in one position, or in order, is decoded under its own keys",
    arguments: [0, 70_000])
  func keyListDifferingInOnePosition(padding: Int) throws {
    // $objects: 0 $null, 1 the root array, 2 and 3 the class descriptions, the run's keys, the other keys, unused
    // strings (70,000 of them make every reference four bytes wide instead of two), then each dictionary followed
    // by its values.
    let keys = (0..<5).map { "k\($0)" }
    let others = (0..<5).map { "z\($0)" }
    var objects: [PropertyListValue] = [
      "$null", "", CraftedArchiveTests.classDescription("NSDictionary", "NSObject"),
      CraftedArchiveTests.classDescription("NSArray", "NSObject"),
    ]
    let keyUIDs = (keys + others).map { key in
      objects.append(.string(key))
      return objects.count - 1
    }
    objects += (0..<padding).map { .string("unused \($0)") }
    // Four of the run's list, then each variant followed by one of the run's: the run's keys are kept from the
    // second list on, the others read for each list.
    var lists = Array(repeating: Array(0..<5), count: 4)
    for position in 0..<5 {
      var list = Array(0..<5)
      list[position] = 5 + position
      lists += [list, Array(0..<5)]
    }
    lists += [[1, 0, 2, 3, 4], Array(0..<5), [0, 1, 2, 4, 3], Array(0..<5)]
    var expected: [[String: String]] = []
    var dictionaries: [PropertyListValue] = []
    for (i, list) in lists.enumerated() {
      let uid = objects.count
      let values = list.map { "d\(i).\((keys + others)[$0])" }
      objects.append(
        [
          "$class": .uid(2), "NS.keys": .array(list.map { .uid(UInt64(keyUIDs[$0])) }),
          "NS.objects": .array(values.indices.map { .uid(UInt64(uid + 1 + $0)) }),
        ])
      objects += values.map { .string($0) }
      dictionaries.append(.uid(UInt64(uid)))
      expected.append(Dictionary(uniqueKeysWithValues: zip(list.map { (keys + others)[$0] }, values)))
    }
    objects[1] = ["$class": .uid(3), "NS.objects": .array(dictionaries)]
    let data = try PropertyListWriter.write([
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(objects),
    ])
    // The trailer's reference width: two bytes, or four with the unused strings.
    let width = Int(data[data.count - 25])
    #expect(width == (padding == 0 ? 2 : 4))
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    let decoded = try #require(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? [[String: Any]])
    try #require(decoded.count == expected.count)
    for (i, dictionary) in decoded.enumerated() {
      #expect(dictionary.mapValues { $0 as? String } == expected[i].mapValues { $0 }, "dictionary \(i): \(lists[i])")
    }
    // The run's keys are kept as strings after their second read.
    for uid in keyUIDs[..<5] { #expect(unarchiver.store.state.cache.string(uid) != nil) }
  }
}

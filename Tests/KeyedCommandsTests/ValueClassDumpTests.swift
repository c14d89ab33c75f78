import ArchiveCoding
import ArchiveComparison
import ArchiveTesting
import Foundation
import KeyedArchive
import PropertyList
import Testing

@testable import KeyedCommands

/// `dump --json` of archives the toolchain's own `NSKeyedArchiver` writes: each Foundation value class prints its
/// canonical form (CLI-011's table).
@Suite("dump --json of Foundation value classes")
struct ValueClassDumpTests {
  /// `value` archived under `root` by the toolchain's `NSKeyedArchiver`.
  static func foundationArchive(_ value: Any) -> Data { FoundationOracle.archive(value) }

  static func dump(_ data: Data) throws -> String {
    try ArchiveJSON.render(try KeyedArchiveGraph(data: data), pretty: false)
  }

  /// The values the toolchain archives, with the JSON each must dump as.
  static var cases: [(name: String, value: @Sendable () -> Any, json: String)] {
    [
      ("time zone", { NSTimeZone(name: "America/New_York") as Any }, #"{"$timeZone":"America/New_York"}"#),
      ("fixed time zone", { NSTimeZone(forSecondsFromGMT: 3600) }, #"{"$timeZone":"GMT+0100"}"#),
      ("locale", { NSLocale(localeIdentifier: "fr_CA") }, #"{"$locale":"fr_CA"}"#),
      ("calendar", { NSCalendar(identifier: .gregorian) as Any }, #"{"$calendar":"gregorian"}"#),
      ("one-range index set", { NSIndexSet(indexesIn: NSRange(location: 3, length: 4)) }, #"{"$indexSet":[[3,4]]}"#),
      ("empty index set", { NSIndexSet() }, #"{"$indexSet":[]}"#),
      (
        "packed mutable index set",
        {
          let set = NSMutableIndexSet(indexesIn: NSRange(location: 1, length: 2))
          set.add(in: NSRange(location: 300, length: 200))
          set.add(100_000)
          return set
        },
        #"{"$indexSet":[[1,2],[300,200],[100000,1]]}"#
      ),
      ("one-index index path", { NSIndexPath(index: 7) }, #"{"$indexPath":[7]}"#),
      ("empty index path", { NSIndexPath() }, #"{"$indexPath":[]}"#),
      ("packed index path", { IndexPath(indexes: [0, 3, 500]) as NSIndexPath }, #"{"$indexPath":[0,3,500]}"#),
      (
        "date components",
        {
          var components = DateComponents()
          components.year = 2024
          components.month = 2
          components.day = 29
          components.nanosecond = 5
          components.calendar = Calendar(identifier: .gregorian)
          components.timeZone = TimeZone(identifier: "America/New_York")
          return components as NSDateComponents
        },
        #"{"$dateComponents":{"calendar":{"$calendar":"gregorian"},"day":29,"month":2,"nanosecond":5,"#
          + #""timeZone":{"$timeZone":"America/New_York"},"year":2024}}"#
      ),
      (
        "leap-month date components",
        {
          var components = DateComponents()
          components.month = 6
          components.isLeapMonth = true
          return components as NSDateComponents
        },
        #"{"$dateComponents":{"isLeapMonth":true,"month":6}}"#
      ),
      (
        "person name",
        {
          var name = PersonNameComponents()
          name.givenName = "Ada"
          name.familyName = "Lovelace"
          name.nickname = "Countess"
          return name as NSPersonNameComponents
        },
        #"{"$personName":{"familyName":"Lovelace","givenName":"Ada","nickname":"Countess"}}"#
      ),
      (
        "measurement", { NSMeasurement(doubleValue: 3.5, unit: UnitLength.kilometers) },
        #"{"$measurement":{"unit":"km","unitClass":"NSUnitLength","value":3.5}}"#
      ),
      (
        "temperature", { NSMeasurement(doubleValue: -40, unit: UnitTemperature.celsius) },
        #"{"$measurement":{"unit":"°C","unitClass":"NSUnitTemperature","value":-40.0}}"#
      ),
      ("string character set", { NSCharacterSet(charactersIn: "abc") }, #"{"$characterSet":{"string":"abc"}}"#),
      ("mutable character set", { NSMutableCharacterSet(charactersIn: "q") }, #"{"$characterSet":{"string":"q"}}"#),
      (
        "builtin character set", { NSCharacterSet.alphanumerics as NSCharacterSet },
        #"{"$characterSet":{"builtin":10}}"#
      ),
    ]
  }

  @Test("CLI-011, ARC-150…ARC-157: a toolchain-written archive of each value class dumps as its canonical form")
  func toolchainArchivesDumpCanonically() throws {
    for item in Self.cases {
      let json = try Self.dump(Self.foundationArchive(item.value()))
      #expect(json == item.json, "\(item.name)")
    }
  }

  @Test(
    "CLI-011, ARC-155, ARC-161, ARC-162: our archives of Measurement, AffineTransform and sort descriptors dump as the toolchain's do"
  )
  func ourValueArchivesDumpAsTheToolchains() throws {
    let measurement = Measurement<Unit>(value: -40, unit: UnitTemperature.celsius)
    #expect(
      try Self.dump(try KeyedArchiver.archivedData(withRootObject: measurement))
        == Self.dump(Self.foundationArchive(NSMeasurement(doubleValue: -40, unit: UnitTemperature.celsius))))
    // No canonical form: class objects, with Apple's class names and keys.
    let transform = try Self.dump(
      try KeyedArchiver.archivedData(withRootObject: AffineTransform(translationByX: 1, byY: 2)))
    #expect(
      transform.hasPrefix(
        #"{"$0":{"$0":1.0,"$1":0.0,"$2":0.0,"$3":1.0,"$4":1.0,"$5":2.0,"$class":"_NSKeyedCoderOldStyleArray""#))
    #expect(transform.contains(#""$class":"NSAffineTransform","NSTransformStruct":{"$data":""#))
    let descriptor = try Self.dump(
      try KeyedArchiver.archivedData(withRootObject: ArchivedSortDescriptor(key: "name", ascending: false)))
    #expect(descriptor == #"{"$class":"NSSortDescriptor","NSAscending":false,"NSKey":"name","NSSelector":"compare:"}"#)
  }

  @Test("ARC-157: an inverted character set the toolchain writes as a bitmap dumps as that bitmap")
  func invertedCharacterSetDumpsItsBitmap() throws {
    let json = try Self.dump(Self.foundationArchive(CharacterSet(charactersIn: "xyz").inverted as NSCharacterSet))
    #expect(json.hasPrefix(#"{"$characterSet":{"bitmap":{"$data":""#))
  }

  @Test("CLI-011: value classes inside a collection are written in full at every appearance, without $id")
  func sharedValueObjectsAreWrittenInFull() throws {
    let zone = NSTimeZone(name: "Europe/Paris") ?? NSTimeZone.default as NSTimeZone
    let set = NSIndexSet(index: 4)
    let json = try Self.dump(Self.foundationArchive([zone, set, zone, set] as NSArray))
    #expect(
      json
        == #"[{"$timeZone":"Europe/Paris"},{"$indexSet":[[4,1]]},{"$timeZone":"Europe/Paris"},{"$indexSet":[[4,1]]}]"#)
  }

  @Test("CLI-011: the keyed executable prints the canonical form of a toolchain-written index set")
  func executablePrintsIndexSet() throws {
    let set = NSMutableIndexSet(indexesIn: NSRange(location: 10, length: 5))
    set.add(2)
    let output = try runExecutable(["dump", "--json", "-"], stdin: Self.foundationArchive(set))
    #expect(output.status == 0)
    #expect(output.output.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"$indexSet":[[2,1],[10,5]]}"#)
  }
}

/// Hand-made value objects with corrupt fields: packed data that cannot be read is an `ArchiveError` naming the
/// object and key; a field of the wrong type makes the object a class object; nothing crashes.
@Suite("dump --json of hostile Foundation value objects")
struct HostileValueClassDumpTests {
  /// An archive whose root is object 1 of class `className` with `fields`, followed by `extra` objects (from
  /// index 3).
  static func archive(
    _ className: String, _ fields: [(String, PropertyListValue)], extra: [PropertyListValue] = []
  ) -> PropertyListValue {
    let object = PropertyListDictionary([(.string("$class"), .uid(2))] + fields.map { (.string($0.0), $0.1) })
    let description: PropertyListValue = [
      "$classname": .string(className), "$classes": [.string(className), "NSObject"],
    ]
    return .dictionary(
      PropertyListDictionary([
        ("$archiver", "NSKeyedArchiver"), ("$version", 100_000),
        ("$top", .dictionary(PropertyListDictionary([("root", .uid(1))]))),
        ("$objects", .array(["$null", .dictionary(object), description] + extra)),
      ]))
  }

  static func expectError(
    _ value: PropertyListValue, key: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      _ = try ArchiveJSON.render(value, pretty: false)
      Issue.record("expected an error", sourceLocation: sourceLocation)
    } catch let error as ArchiveError {
      #expect(error.location.objectIndex == 1, sourceLocation: sourceLocation)
      #expect(error.location.keyPath == key, sourceLocation: sourceLocation)
    } catch {
      Issue.record("expected an ArchiveError, got \(error)", sourceLocation: sourceLocation)
    }
  }

  @Test("ARC-151: truncated, overflowing or miscounted NSRangeData is an error naming the object and key")
  func corruptRangeData() {
    // A varint whose last byte has its continuation bit set.
    Self.expectError(
      Self.archive("NSIndexSet", [("NSRangeCount", 1), ("NSRangeData", .data(Data([0x01, 0x82])))]), key: "NSRangeData")
    // Two ranges announced, one held.
    Self.expectError(
      Self.archive("NSIndexSet", [("NSRangeCount", 2), ("NSRangeData", .data(Data([0x01, 0x02, 0x03, 0x04, 0x05])))]),
      key: "NSRangeData")
    // An absurd count against four bytes: refused before anything is sized by it.
    Self.expectError(
      Self.archive(
        "NSMutableIndexSet", [("NSRangeCount", .integer(Int64.max)), ("NSRangeData", .uid(3))],
        extra: [.data(Data([1, 2, 3, 4]))]),
      key: "NSRangeData")
    // A negative count.
    Self.expectError(
      Self.archive("NSIndexSet", [("NSRangeCount", -1), ("NSRangeData", .data(Data([1, 2])))]), key: "NSRangeData")
    // A location past 64 bits.
    Self.expectError(
      Self.archive(
        "NSIndexSet",
        [
          ("NSRangeCount", 1),
          ("NSRangeData", .data(Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 1]))),
        ]),
      key: "NSRangeData")
  }

  @Test("ARC-152: truncated or miscounted NSIndexPathData is an error naming the object and key")
  func corruptIndexPathData() {
    Self.expectError(
      Self.archive("NSIndexPath", [("NSIndexPathLength", 3), ("NSIndexPathData", .data(Data([0, 0x83])))]),
      key: "NSIndexPathData")
    Self.expectError(
      Self.archive(
        "NSIndexPath", [("NSIndexPathLength", .integer(1 << 40)), ("NSIndexPathData", .data(Data([1, 2])))]),
      key: "NSIndexPathData")
    Self.expectError(
      Self.archive("NSIndexPath", [("NSIndexPathLength", 2), ("NSIndexPathData", .data(Data([1, 2, 3])))]),
      key: "NSIndexPathData")
  }

  /// Each value class with a field of the wrong type.
  static let wrongTypes: [(String, [(String, PropertyListValue)])] = [
    ("NSTimeZone", [("NS.name", 12)]),
    ("NSLocale", [("NS.identifier", .data(Data()))]),
    ("NSCalendar", [("NS.identifier", .real(1))]),
    ("NSIndexSet", [("NSRangeCount", "two")]),
    ("NSIndexSet", [("NSRangeCount", 1), ("NSLocation", "three"), ("NSLength", 1)]),
    ("NSIndexSet", [("NSRangeCount", 2), ("NSRangeData", "bytes")]),
    ("NSIndexPath", [("NSIndexPathLength", 1), ("NSIndexPathValue", .bool(true))]),
    ("NSIndexPath", [("NSIndexPathLength", 2), ("NSIndexPathData", 7)]),
    ("NSDateComponents", [("NS.year", "2024")]),
    ("NSDateComponents", [("NS.calendar", .uid(1))]),
    ("NSPersonNameComponents", [("NS.givenName", 5)]),
    ("NSMeasurement", [("NS.value", "3"), ("NS.unit", .uid(0))]),
    ("NSCharacterSet", [("NSBuiltinID", "letters")]),
    ("NSCharacterSet", []),
  ]

  @Test("ARC-150…ARC-157: a value object with a field of the wrong type is written as a class object")
  func wrongTypesFallBackToClassObjects() throws {
    for (className, fields) in Self.wrongTypes {
      let json = try ArchiveJSON.render(Self.archive(className, fields), pretty: false)
      #expect(json.hasPrefix(#"{"$class":"\#(className)""#), "\(className) \(fields)")
    }
  }

  @Test("ARC-151: every truncation of a toolchain-written index set and index path dumps or fails with an ArchiveError")
  func truncationsNeverCrash() throws {
    let set = NSMutableIndexSet(indexesIn: NSRange(location: 1, length: 2))
    set.add(in: NSRange(location: 1_000, length: 70_000))
    for data in [
      ValueClassDumpTests.foundationArchive(set),
      ValueClassDumpTests.foundationArchive(IndexPath(indexes: [1, 300, 70_000]) as NSIndexPath),
    ] {
      for length in 0..<data.count {
        do { _ = try ValueClassDumpTests.dump(data.prefix(length)) } catch is ArchiveError {} catch {
          Issue.record("truncated to \(length): \(error)")
        }
      }
    }
  }
}

/// `keyed dump --raw --json` of binary property lists holding the null object (marker `0x00`).
@Suite("dump of binary property list nulls")
struct NullPlistDumpTests {
  @Test("ARC-160, CLI-011: a binary plist whose root is the null object dumps as null")
  func rootNull() throws {
    // bplist00, the object 0x00 at offset 8, its offset, and a trailer: 1-byte offsets and references, one object,
    // top 0, offset table at 9.
    var data: [UInt8] = Array("bplist00".utf8) + [0x00, 0x08] + [UInt8](repeating: 0, count: 6) + [1, 1]
    data += [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, 9]
    let output = try runExecutable(["dump", "--raw", "--json", "-"], stdin: Data(data))
    #expect(output.status == 0, "\(output.errors)")
    #expect(output.output.trimmingCharacters(in: .whitespacesAndNewlines) == "null")
  }

  @Test("ARC-160: a null inside a dictionary dumps as null; converting it to XML is refused naming the key")
  func nullInDictionary() throws {
    let value: PropertyListValue = ["a": .null, "b": 1]
    let data = BinaryPropertyListWriter.write(value)
    let output = try runExecutable(["dump", "--raw", "--json", "-"], stdin: data)
    #expect(output.output.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"a":null,"b":1}"#)
    let directory = try makeTemporaryDirectory("null-xml")
    defer { try? FileManager.default.removeItem(at: directory) }
    let xml = try runExecutable(
      ["convert", "-", "-o", directory.appendingPathComponent("out.xml").path, "--format", "xml"], stdin: data)
    #expect(xml.status == 65)
    #expect(xml.errors.contains(#"key "a""#))
  }
}

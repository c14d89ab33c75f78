import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// `IndexSet`, `IndexPath`, `TimeZone`, `Locale`, `Calendar` and `DateComponents` against the toolchain's
/// `NSKeyedArchiver` / `NSKeyedUnarchiver`, both ways, through the typed decode calls under secure coding.
@Suite("Foundation value classes against the toolchain")
struct FoundationValueInteropTests {
  /// `value` archived by the toolchain's `NSKeyedArchiver`.
  static func theirs(_ value: Any) -> Data { FoundationOracle.archive(value) }

  /// `data` read back by the toolchain's `NSKeyedUnarchiver`.
  static func theirRoot(_ data: Data) throws -> Any? {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    defer { unarchiver.finishDecoding() }
    return unarchiver.decodeObject(forKey: "root")
  }

  static func ours<T>(_ value: T) throws -> Data { try KeyedArchiver.archivedData(withRootObject: value) }

  static var indexSets: [IndexSet] {
    var packed = IndexSet(integersIn: 1..<3)
    packed.insert(integersIn: 300..<500)
    packed.insert(100_000)
    return [IndexSet(), IndexSet(integer: 7), IndexSet(integersIn: 3..<7), packed]
  }

  @Test("ARC-151: IndexSet: toolchain archives decode to equal IndexSets, ours decode in the toolchain")
  func indexSets() throws {
    for set in Self.indexSets {
      #expect(try KeyedUnarchiver.unarchivedObject(ofClass: IndexSet.self, from: Self.theirs(set as NSIndexSet)) == set)
      #expect(
        try KeyedUnarchiver.unarchivedObject(
          ofClass: IndexSet.self, from: Self.theirs(NSMutableIndexSet(indexSet: set)))
          == set)
      let back = try Self.theirRoot(try Self.ours(set))
      #expect((back as? NSIndexSet).map { $0 as IndexSet } == set, "\(set)")
    }
  }

  @Test("ARC-152: IndexPath both ways")
  func indexPaths() throws {
    for path in [IndexPath(), IndexPath(index: 7), IndexPath(indexes: [0, 3, 500, 70_000])] {
      #expect(
        try KeyedUnarchiver.unarchivedObject(ofClass: IndexPath.self, from: Self.theirs(path as NSIndexPath)) == path)
      let back = try Self.theirRoot(try Self.ours(path))
      #expect((back as? NSIndexPath).map { $0 as IndexPath } == path, "\(path)")
    }
  }

  @Test("ARC-150: TimeZone, Locale and Calendar both ways")
  func zonesLocalesCalendars() throws {
    for zone in [TimeZone(identifier: "America/New_York"), TimeZone(secondsFromGMT: 3600), TimeZone(identifier: "UTC")]
    {
      let zone = try #require(zone)
      #expect(
        try KeyedUnarchiver.unarchivedObject(ofClass: TimeZone.self, from: Self.theirs(zone as NSTimeZone))?.identifier
          == zone.identifier)
      let back = try Self.theirRoot(try Self.ours(zone))
      #expect((back as? NSTimeZone)?.name == zone.identifier)
    }
    let locale = Locale(identifier: "fr_CA")
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Locale.self, from: Self.theirs(locale as NSLocale)) == locale)
    #expect((try Self.theirRoot(try Self.ours(locale)) as? NSLocale).map { $0 as Locale }?.identifier == "fr_CA")

    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "Europe/Paris"))
    calendar.locale = Locale(identifier: "fr_FR")
    calendar.firstWeekday = 2
    calendar.minimumDaysInFirstWeek = 4
    let decoded = try #require(
      try KeyedUnarchiver.unarchivedObject(ofClass: Calendar.self, from: Self.theirs(calendar as NSCalendar)))
    #expect(decoded.identifier == .gregorian && decoded.timeZone == calendar.timeZone)
    #expect(decoded.locale?.identifier == "fr_FR")
    #expect(decoded.firstWeekday == 2 && decoded.minimumDaysInFirstWeek == 4)
    let theirs = try #require(try Self.theirRoot(try Self.ours(calendar)) as? NSCalendar)
    #expect(theirs.calendarIdentifier == .gregorian && theirs.timeZone.identifier == "Europe/Paris")
    #expect(theirs.firstWeekday == 2 && theirs.minimumDaysInFirstWeek == 4)
    #expect(theirs.locale?.identifier == "fr_FR")
  }

  @Test("ARC-153: DateComponents both ways, with calendar, time zone and leap month")
  func dateComponents() throws {
    var components = DateComponents()
    components.year = 2024
    components.month = 2
    components.day = 29
    components.hour = 13
    components.nanosecond = 5
    components.weekOfYear = 9
    components.isLeapMonth = true
    components.calendar = Calendar(identifier: .gregorian)
    components.timeZone = TimeZone(identifier: "America/New_York")
    let decoded = try #require(
      try KeyedUnarchiver.unarchivedObject(
        ofClass: DateComponents.self, from: Self.theirs(components as NSDateComponents)))
    #expect(decoded.year == 2024 && decoded.month == 2 && decoded.day == 29 && decoded.hour == 13)
    #expect(decoded.nanosecond == 5 && decoded.weekOfYear == 9 && decoded.isLeapMonth == true)
    #expect(decoded.minute == nil && decoded.era == nil)
    #expect(decoded.calendar?.identifier == .gregorian && decoded.timeZone?.identifier == "America/New_York")
    let theirs = try #require(try Self.theirRoot(try Self.ours(components)) as? NSDateComponents)
    let back = theirs as DateComponents
    #expect(back.year == 2024 && back.month == 2 && back.day == 29 && back.hour == 13 && back.nanosecond == 5)
    #expect(back.weekOfYear == 9 && back.minute == nil && back.isLeapMonth == true)
    #expect(back.calendar?.identifier == .gregorian && back.timeZone?.identifier == "America/New_York")
  }

  @Test("ARC-154: PersonNameComponents both ways")
  func personNames() throws {
    var name = PersonNameComponents()
    name.givenName = "Ada"
    name.familyName = "Lovelace"
    name.namePrefix = "Lady"
    name.nickname = "Countess"
    #expect(
      try KeyedUnarchiver.unarchivedObject(
        ofClass: PersonNameComponents.self, from: Self.theirs(name as NSPersonNameComponents)) == name)
    let back = try #require(try Self.theirRoot(try Self.ours(name)) as? NSPersonNameComponents)
    #expect(back as PersonNameComponents == name)
  }

  @Test("ARC-157: CharacterSet both ways: string, builtin, mutable and inverted sets")
  func characterSets() throws {
    let probes: [Unicode.Scalar] = ["a", "b", "q", "x", "Z", "5", " ", "\n", "é", "😀", "\u{0}"]
    let sets: [(NSCharacterSet, CharacterSet)] = [
      (NSCharacterSet(charactersIn: "abc"), CharacterSet(charactersIn: "abc")),
      (NSCharacterSet.alphanumerics as NSCharacterSet, .alphanumerics),
      (NSCharacterSet.letters.inverted as NSCharacterSet, CharacterSet.letters.inverted),
      (NSMutableCharacterSet(charactersIn: "q"), CharacterSet(charactersIn: "q")),
      (CharacterSet(charactersIn: "xyz").inverted as NSCharacterSet, CharacterSet(charactersIn: "xyz").inverted),
    ]
    for (theirs, expected) in sets {
      let decoded = try #require(
        try KeyedUnarchiver.unarchivedObject(ofClass: CharacterSet.self, from: Self.theirs(theirs)))
      for probe in probes { #expect(decoded.contains(probe) == expected.contains(probe), "\(expected) \(probe)") }
      let back = try #require(try Self.theirRoot(try Self.ours(expected)) as? NSCharacterSet)
      for probe in probes {
        #expect((back as CharacterSet).contains(probe) == expected.contains(probe), "ours → theirs \(probe)")
      }
    }
  }

  @Test("ARC-150…ARC-153: under secure coding, a value class is refused when the call asked for another type")
  func secureCodingRefusesOtherTypes() throws {
    let data = Self.theirs(NSIndexSet(index: 3))
    #expect(throws: ArchiveError.self) { try KeyedUnarchiver.unarchivedObject(ofClass: TimeZone.self, from: data) }
    #expect(throws: ArchiveError.self) { try KeyedUnarchiver.unarchivedObject(ofClass: String.self, from: data) }
  }

  @Test("ARC-150…ARC-153: our archive of each value uses the toolchain's class names and keys")
  func sameKeysAsTheToolchain() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en_US")
    let values: [(Any, Any)] = [
      (IndexSet(integersIn: 3..<7), NSIndexSet(indexesIn: NSRange(location: 3, length: 4))),
      (IndexSet([1, 5, 9]), NSIndexSet(indexSet: IndexSet([1, 5, 9]))),
      (IndexPath(indexes: [1, 2]), IndexPath(indexes: [1, 2]) as NSIndexPath),
      (IndexPath(index: 4), NSIndexPath(index: 4)),
      (Locale(identifier: "de_DE"), NSLocale(localeIdentifier: "de_DE")),
      (calendar, calendar as NSCalendar),
    ]
    for (mine, theirs) in values {
      let (ourFields, ourName, _) = try rootObject(try Self.ours(mine))
      let (theirFields, theirName, _) = try rootObject(Self.theirs(theirs))
      #expect(ourName == theirName)
      let keys = { (fields: PropertyListDictionary) in Set(fields.entries.compactMap(\.key.stringValue)) }
      // The toolchain writes NS.gstartdate for a calendar (the Gregorian change date); ours leaves it out.
      #expect(keys(ourFields) == keys(theirFields).subtracting(["NS.gstartdate"]), "\(ourName)")
    }
  }
}

/// Hand-made value objects whose fields are of the wrong type, truncated or absurd: each is an `ArchiveError`
/// naming the object and the key.
@Suite("Hostile Foundation value objects")
struct HostileFoundationValueTests {
  static func expectError<T>(
    _ type: T.Type, _ className: String, _ fields: [(String, PropertyListValue)], extra: [PropertyListValue] = [],
    key: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let data = try handMadeArchive(className: className, fields: fields, extra: extra)
    do {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: type, from: data)
      Issue.record("expected an error", sourceLocation: sourceLocation)
    } catch let error as ArchiveError {
      #expect(error.location.keyPath?.hasSuffix(key) == true, "\(error)", sourceLocation: sourceLocation)
      #expect(
        error.location.objectIndex == 1 || error.description.contains("#1"), "\(error)", sourceLocation: sourceLocation)
    }
  }

  @Test("ARC-151: corrupt NSIndexSet fields")
  func indexSets() throws {
    try Self.expectError(IndexSet.self, "NSIndexSet", [("NSRangeCount", "one")], key: "NSRangeCount")
    try Self.expectError(
      IndexSet.self, "NSIndexSet", [("NSRangeCount", 1), ("NSLocation", .data(Data())), ("NSLength", 1)],
      key: "NSLocation")
    try Self.expectError(
      IndexSet.self, "NSIndexSet", [("NSRangeCount", 1), ("NSLocation", -4), ("NSLength", 1)], key: "NSLocation")
    try Self.expectError(
      IndexSet.self, "NSIndexSet", [("NSRangeCount", 1), ("NSLocation", .integer(Int64.max - 1)), ("NSLength", 5)],
      key: "NSRangeData")
    try Self.expectError(
      IndexSet.self, "NSIndexSet", [("NSRangeCount", 2), ("NSRangeData", .data(Data([1, 2, 3, 0x84])))],
      key: "NSRangeData")
    try Self.expectError(
      IndexSet.self, "NSMutableIndexSet",
      [("NSRangeCount", .integer(Int64.max)), ("NSRangeData", .data(Data([1, 2])))],
      key: "NSRangeData")
    try Self.expectError(IndexSet.self, "NSIndexSet", [("NSRangeCount", 2), ("NSRangeData", 12)], key: "NSRangeData")
    try Self.expectError(IndexSet.self, "NSIndexSet", [("NSRangeCount", 2)], key: "NSRangeData")
  }

  @Test("ARC-152: corrupt NSIndexPath fields")
  func indexPaths() throws {
    try Self.expectError(IndexPath.self, "NSIndexPath", [("NSIndexPathLength", "x")], key: "NSIndexPathLength")
    try Self.expectError(
      IndexPath.self, "NSIndexPath", [("NSIndexPathLength", 1), ("NSIndexPathValue", "x")], key: "NSIndexPathValue")
    try Self.expectError(
      IndexPath.self, "NSIndexPath", [("NSIndexPathLength", 3), ("NSIndexPathData", .data(Data([1, 0x81])))],
      key: "NSIndexPathData")
    try Self.expectError(
      IndexPath.self, "NSIndexPath", [("NSIndexPathLength", .integer(1 << 50)), ("NSIndexPathData", .data(Data([1])))],
      key: "NSIndexPathData")
  }

  @Test("ARC-154, ARC-157: corrupt NSPersonNameComponents and NSCharacterSet fields")
  func namesAndCharacterSets() throws {
    try Self.expectError(
      PersonNameComponents.self, "NSPersonNameComponents", [("NS.givenName", 5)], key: "NS.givenName")
    try Self.expectError(CharacterSet.self, "NSCharacterSet", [("NSString", 5)], key: "NSString")
    try Self.expectError(CharacterSet.self, "NSCharacterSet", [("NSBuiltinID", 99)], key: "NSBuiltinID")
    try Self.expectError(CharacterSet.self, "NSCharacterSet", [("NSBuiltinID", "letters")], key: "NSBuiltinID")
    try Self.expectError(CharacterSet.self, "NSCharacterSet", [("NSBitmap", 1)], key: "NSBitmap")
    try Self.expectError(
      CharacterSet.self, "NSCharacterSet", [("NSBitmap", .data(Data(count: 300_000)))], key: "NSBitmap")
    try Self.expectError(
      CharacterSet.self, "NSCharacterSet", [("NSString", "a"), ("NSIsInverted", "yes")], key: "NSIsInverted")
  }

  @Test("ARC-150, ARC-153: corrupt NSTimeZone, NSLocale, NSCalendar and NSDateComponents fields")
  func zonesAndComponents() throws {
    try Self.expectError(TimeZone.self, "NSTimeZone", [("NS.name", 5)], key: "NS.name")
    try Self.expectError(TimeZone.self, "NSTimeZone", [("NS.name", .uid(2))], extra: ["No/Such_Zone"], key: "NS.name")
    try Self.expectError(Locale.self, "NSLocale", [("NS.identifier", .real(2))], key: "NS.identifier")
    try Self.expectError(
      Calendar.self, "NSCalendar", [("NS.identifier", .uid(2))], extra: ["martian"], key: "NS.identifier")
    try Self.expectError(
      Calendar.self, "NSCalendar", [("NS.identifier", .uid(2)), ("NS.firstwkdy", 99)], extra: ["gregorian"],
      key: "NS.firstwkdy")
    try Self.expectError(DateComponents.self, "NSDateComponents", [("NS.year", "2024")], key: "NS.year")
    try Self.expectError(DateComponents.self, "NSDateComponents", [("NS.isLeapMonth", "yes")], key: "NS.isLeapMonth")
    // A nested value of another class is refused by secure coding, which names the object it found.
    for (type, className, key) in [
      (Calendar.self as Any.Type, "NSCalendar", "NS.timezone"),
      (DateComponents.self, "NSDateComponents", "NS.calendar"),
    ] {
      let data = try handMadeArchive(
        className: className, fields: [("NS.identifier", .uid(2)), (key, .uid(2))], extra: ["gregorian"])
      #expect {
        _ = try KeyedUnarchiver.unarchivedObject(ofClasses: [type], from: data)
      } throws: { error in
        (error as? ArchiveError)?.code == .classNotAllowed && (error as? ArchiveError)?.location.objectIndex == 2
      }
    }
  }
}

import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

extension KeyedUnarchiver {
  /// The value classes of issue #27 decoded here, by archived class name.
  static let foundationValueClassNames: Set<String> =
    ([
      FoundationClass.indexSet, FoundationClass.mutableIndexSet, FoundationClass.indexPath, FoundationClass.timeZone,
      FoundationClass.locale, FoundationClass.calendar, FoundationClass.dateComponents,
      FoundationClass.personNameComponents, FoundationClass.characterSet, FoundationClass.mutableCharacterSet,
      FoundationClass.measurement, FoundationClass.unitConverterLinear, FoundationClass.affineTransform,
      FoundationClass.oldStyleArray, FoundationClass.sortDescriptor,
    ] as Set<String>).union(FoundationClass.unitClassNames)

  /// Decodes the current object as one of Foundation's value classes (ARC-150…ARC-153), or `nil` for another class.
  func decodeFoundationValue(className: String) throws -> Any? {
    switch className {
    case FoundationClass.indexSet, FoundationClass.mutableIndexSet: return try indexSet()
    case FoundationClass.indexPath: return try indexPath()
    case FoundationClass.timeZone: return try timeZone()
    case FoundationClass.locale: return Locale(identifier: try string(FoundationKeys.nsIdentifier) ?? "")
    case FoundationClass.calendar: return try calendar()
    case FoundationClass.dateComponents: return try dateComponents()
    case FoundationClass.personNameComponents: return try personNameComponents()
    case FoundationClass.characterSet, FoundationClass.mutableCharacterSet: return try characterSet()
    case FoundationClass.measurement: return try measurement()
    case FoundationClass.unitConverterLinear: return try unitConverter()
    case FoundationClass.affineTransform: return try affineTransform()
    case FoundationClass.oldStyleArray: return try oldStyleArray()
    case FoundationClass.sortDescriptor: return try sortDescriptor()
    case _ where FoundationClass.unitClassNames.contains(className): return try unit(className: className)
    default: return nil
    }
  }

  /// The bytes of packed field `key`.
  func packedBytes(_ key: String) throws -> Data {
    switch try decodeValue(forKey: key) {
    case .bytes(let bytes)?: return bytes
    case nil: throw ArchiveError(.corruptData, "missing \(key)", at: .init(keyPath: key))
    case let other?:
      throw ArchiveError(.typeMismatch, "expected data, found \(other.typeName)", at: .init(keyPath: key))
    }
  }

  /// `count` packed integers of field `key`, refused when they cannot be read or do not fit in `Int`.
  private func packedIntegers(_ key: String, count: Int64, perItem: Int64) throws -> [Int] {
    let bytes = try packedBytes(key)
    let (total, overflow) = count.multipliedReportingOverflow(by: perItem)
    guard count >= 0, !overflow, total <= bytes.count else {
      throw ArchiveError(
        .corruptData, "a count of \(count) does not fit in the \(bytes.count) bytes of \(key)", at: .init(keyPath: key))
    }
    let values: [UInt64]
    do { values = try PackedIntegers.decode(bytes, count: Int(total)) } catch {
      throw ArchiveError(.corruptData, "the packed integers of \(key) are corrupt (\(error))", at: .init(keyPath: key))
    }
    return try values.map { value in
      guard let int = Int(exactly: value), int < Int.max else {
        throw ArchiveError(.corruptData, "\(value) in \(key) is past the largest index", at: .init(keyPath: key))
      }
      return int
    }
  }

  /// A non-negative integer field.
  private func index(_ key: String) throws -> Int {
    let value = try int(key)
    guard value >= 0, value < Int64.max else {
      throw ArchiveError(.corruptData, "expected an index, found \(value)", at: .init(keyPath: key))
    }
    return Int(value)
  }

  /// `NSIndexSet` (ARC-151).
  func indexSet() throws -> IndexSet {
    let count = try int(FoundationKeys.nsRangeCount)
    var ranges: [(Int, Int)] = []
    if count == 1, !containsValue(forKey: FoundationKeys.nsRangeData) {
      ranges = [(try index(FoundationKeys.nsIndexSetLocation), try index(FoundationKeys.nsIndexSetLength))]
    } else if count != 0 || containsValue(forKey: FoundationKeys.nsRangeData) {
      let values = try packedIntegers(FoundationKeys.nsRangeData, count: count, perItem: 2)
      ranges = stride(from: 0, to: values.count, by: 2).map { (values[$0], values[$0 + 1]) }
    }
    var set = IndexSet()
    for (location, length) in ranges where length > 0 {
      guard location <= Int.max - length else {
        throw ArchiveError(
          .corruptData, "the range at \(location) of length \(length) runs past the largest index",
          at: .init(keyPath: FoundationKeys.nsRangeData))
      }
      set.insert(integersIn: location..<(location + length))
    }
    return set
  }

  /// `NSIndexPath` (ARC-152).
  func indexPath() throws -> IndexPath {
    let length = try int(FoundationKeys.nsIndexPathLength)
    if length == 0 { return IndexPath() }
    if length == 1, !containsValue(forKey: FoundationKeys.nsIndexPathData) {
      return IndexPath(index: try index(FoundationKeys.nsIndexPathValue))
    }
    return IndexPath(indexes: try packedIntegers(FoundationKeys.nsIndexPathData, count: length, perItem: 1))
  }

  /// `NSTimeZone` (ARC-150): by name; a name the system does not know (`GMT+0100`) as a fixed offset.
  func timeZone() throws -> TimeZone {
    guard let name = try string(FoundationKeys.nsName) else {
      throw ArchiveError(
        .corruptData, "NSTimeZone without \(FoundationKeys.nsName)", at: .init(keyPath: FoundationKeys.nsName))
    }
    if let zone = TimeZone(identifier: name) { return zone }
    if let offset = Self.offsetFromGMT(name), let zone = TimeZone(secondsFromGMT: offset) { return zone }
    throw ArchiveError(.corruptData, "unknown time zone \"\(name)\"", at: .init(keyPath: FoundationKeys.nsName))
  }

  /// The offset `GMT+0100`, `GMT-05:30` or `UTC+2` names, in seconds.
  static func offsetFromGMT(_ name: String) -> Int? {
    guard name.hasPrefix("GMT") || name.hasPrefix("UTC") else { return nil }
    let rest = name.dropFirst(3)
    if rest.isEmpty { return 0 }
    guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
    let digits = rest.dropFirst().filter { $0 != ":" }
    guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCII), let number = Int(digits) else {
      return nil
    }
    let (hours, minutes) = digits.count <= 2 ? (number, 0) : (number / 100, number % 100)
    guard hours <= 18, minutes < 60 else { return nil }
    return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
  }

  /// The calendar identifiers archives hold (CFCalendar's names), with Swift's.
  static let calendarIdentifiers: [String: Calendar.Identifier] = [
    "gregorian": .gregorian, "buddhist": .buddhist, "chinese": .chinese, "coptic": .coptic,
    "ethiopic": .ethiopicAmeteMihret, "ethiopic-amete-alem": .ethiopicAmeteAlem, "hebrew": .hebrew,
    "iso8601": .iso8601, "indian": .indian, "islamic": .islamic, "islamic-civil": .islamicCivil,
    "japanese": .japanese, "persian": .persian, "roc": .republicOfChina, "islamic-tbla": .islamicTabular,
    "islamic-umalqura": .islamicUmmAlQura,
  ]

  /// The Foundation value of class `className` under `key`, as `T`, or `nil` when the key is absent or holds `$null`.
  /// - Throws: ``ArchiveError``: the object's own errors, or `typeMismatch` naming the key when it is not a `T`.
  private func nested<T>(_ key: String, _ className: String, expected: String) throws -> T? {
    guard let ref = fieldRef(key), let object = try object(atFieldRef: ref, key: key, allowed: [className]) else {
      return nil
    }
    guard let value = object as? T else {
      throw ArchiveError(.typeMismatch, "expected \(expected)", at: .init(keyPath: key))
    }
    return value
  }

  /// A number of days from 1 to 7 under `key`, or `nil` when the key is absent.
  /// - Throws: ``ArchiveError`` (`corruptData`) naming the key when the number is outside 1…7.
  private func dayOfWeek(_ key: String, _ what: String) throws -> Int? {
    guard containsValue(forKey: key) else { return nil }
    let day = try int(key)
    guard (1...7).contains(day) else {
      throw ArchiveError(.corruptData, "\(what) \(day) is not 1…7", at: .init(keyPath: key))
    }
    return Int(day)
  }

  /// `NSCalendar` (ARC-150): identifier, time zone, locale, first weekday, minimum days in the first week.
  func calendar() throws -> Calendar {
    guard let name = try string(FoundationKeys.nsIdentifier) else {
      throw ArchiveError(
        .corruptData, "NSCalendar without \(FoundationKeys.nsIdentifier)",
        at: .init(keyPath: FoundationKeys.nsIdentifier))
    }
    guard let identifier = Self.calendarIdentifiers[name] else {
      throw ArchiveError(.corruptData, "unknown calendar \"\(name)\"", at: .init(keyPath: FoundationKeys.nsIdentifier))
    }
    var calendar = Calendar(identifier: identifier)
    if let zone: TimeZone = try nested(FoundationKeys.nsTimeZone, FoundationClass.timeZone, expected: "a time zone") {
      calendar.timeZone = zone
    }
    if let locale: Locale = try nested(FoundationKeys.nsLocale, FoundationClass.locale, expected: "a locale") {
      calendar.locale = locale
    }
    if let day = try dayOfWeek(FoundationKeys.nsFirstWeekday, "first weekday") { calendar.firstWeekday = day }
    if let days = try dayOfWeek(FoundationKeys.nsMinimumDays, "minimum days") { calendar.minimumDaysInFirstWeek = days }
    return calendar
  }

  /// `NSDateComponents` (ARC-153).
  func dateComponents() throws -> DateComponents {
    var components = DateComponents()
    for (field, path) in zip(FoundationKeys.dateComponentFields, DateComponents.archivedFields)
    where containsValue(forKey: field.key) {
      let value = try int(field.key)
      guard value != FoundationKeys.dateComponentUndefined, let int = Int(exactly: value) else { continue }
      components[keyPath: path] = int
    }
    if containsValue(forKey: FoundationKeys.nsIsLeapMonth), try decodeBool(forKey: FoundationKeys.nsIsLeapMonth) {
      components.isLeapMonth = true
    }
    if let calendar: Calendar = try nested(FoundationKeys.nsCalendar, FoundationClass.calendar, expected: "a calendar")
    {
      components.calendar = calendar
    }
    if let zone: TimeZone = try nested(FoundationKeys.nsTimeZone, FoundationClass.timeZone, expected: "a time zone") {
      components.timeZone = zone
    }
    return components
  }

  /// `NSPersonNameComponents` (ARC-154).
  func personNameComponents() throws -> PersonNameComponents {
    var name = PersonNameComponents()
    let parts: [WritableKeyPath<PersonNameComponents, String?>] = [
      \.namePrefix, \.givenName, \.middleName, \.familyName, \.nameSuffix, \.nickname,
    ]
    for (part, path) in zip(FoundationKeys.personNameParts, parts) { name[keyPath: path] = try string(part.key) }
    let phonetic: PersonNameComponents? = try nested(
      FoundationKeys.nsPhoneticRepresentation, FoundationClass.personNameComponents, expected: "person name components")
    if let phonetic { name.phoneticRepresentation = phonetic }
    return name
  }

  /// The predefined sets `NSBuiltinID` numbers (CoreFoundation's numbering).
  static let builtinCharacterSets: [Int64: CharacterSet] = [
    1: .controlCharacters, 2: .whitespaces, 3: .whitespacesAndNewlines, 4: .decimalDigits, 5: .letters,
    6: .lowercaseLetters, 7: .uppercaseLetters, 8: .nonBaseCharacters, 9: .decomposables, 10: .alphanumerics,
    11: .punctuationCharacters, 12: .illegalCharacters, 13: .capitalizedLetters, 14: .symbols, 15: .newlines,
  ]

  /// `NSCharacterSet` (ARC-157): a string, a builtin set's number or a bitmap, inverted when `NSIsInverted`.
  func characterSet() throws -> CharacterSet {
    var set: CharacterSet
    if containsValue(forKey: FoundationKeys.nsCharacterSetString) {
      guard let text = try string(FoundationKeys.nsCharacterSetString) else {
        throw ArchiveError(
          .typeMismatch, "expected a string", at: .init(keyPath: FoundationKeys.nsCharacterSetString))
      }
      set = CharacterSet(charactersIn: text)
    } else if containsValue(forKey: FoundationKeys.nsBuiltinID) {
      let number = try int(FoundationKeys.nsBuiltinID)
      guard let builtin = Self.builtinCharacterSets[number] else {
        throw ArchiveError(
          .corruptData, "unknown builtin character set \(number)", at: .init(keyPath: FoundationKeys.nsBuiltinID))
      }
      set = builtin
    } else if containsValue(forKey: FoundationKeys.nsBitmap) {
      let bitmap = try packedBytes(FoundationKeys.nsBitmap)
      // Plane 0 takes 8,192 bytes; each further plane a plane number and 8,192 bytes.
      guard bitmap.count <= 8_192 + 16 * 8_193 else {
        throw ArchiveError(
          .corruptData, "a bitmap of \(bitmap.count) bytes is longer than 17 planes",
          at: .init(keyPath: FoundationKeys.nsBitmap))
      }
      set = CharacterSet(bitmapRepresentation: bitmap)
    } else {
      throw ArchiveError(
        .corruptData, "NSCharacterSet without NSString, \(FoundationKeys.nsBuiltinID) or \(FoundationKeys.nsBitmap)")
    }
    if containsValue(forKey: FoundationKeys.nsIsInverted), try decodeBool(forKey: FoundationKeys.nsIsInverted) {
      set.invert()
    }
    return set
  }
}

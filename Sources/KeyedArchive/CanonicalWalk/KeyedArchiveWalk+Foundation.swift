import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

// Foundation's classes in the walk: collections expanded, strings and data (or the objects they pass on to),
// and the value classes read through their forms (`FoundationForms`) and written as their canonical forms.
extension KeyedArchiveWalk {
  /// Object `uid` as the Foundation class `className`; `false` for another class, or a value class whose fields do
  /// not hold its form (the object is then a class object).
  mutating func foundation(_ uid: Int, _ object: WalkedObject, _ visitor: inout some CanonicalVisitor) throws -> Bool {
    let className = object.className
    if !counting, kinds[uid] == .foundationValue, let known = sharedValues[uid] {
      known.visit(with: &visitor)
      return true
    }
    switch className {
    case FoundationClass.array, FoundationClass.mutableArray, FoundationClass.set, FoundationClass.mutableSet,
      FoundationClass.orderedSet, FoundationClass.mutableOrderedSet, FoundationClass.dictionary,
      FoundationClass.mutableDictionary:
      guard let expansion = try beginCollection(uid, &visitor) else { return true }
      try collection(uid, object, &visitor)
      endCollection(expansion)
      return true
    case FoundationClass.string, FoundationClass.mutableString:
      guard let form = try readForm(object, { try TextForm(keyed: &$0) }) else { return false }
      switch form {
      case .text(let text): try value(uid, .string(text), &visitor)
      case .contents(let contents): try passThrough(uid, contents, &visitor)
      }
      return true
    case FoundationClass.data, FoundationClass.mutableData:
      guard let form = try readForm(object, { try BytesForm(keyed: &$0) }) else { return false }
      switch form {
      case .bytes(let bytes): try value(uid, .data(bytes), &visitor)
      case .contents(let contents): try passThrough(uid, contents, &visitor)
      }
      return true
    case FoundationClass.date:
      guard let form = try readForm(object, { try DateForm(keyed: &$0) }) else { return false }
      try value(uid, .date(form.seconds), &visitor)
      return true
    default:
      guard let value = try foundationValue(object, uid: uid) else { return false }
      try self.value(uid, .form(value), &visitor)
      return true
    }
  }

  /// A string or data object whose contents are object `contents`.
  private mutating func passThrough(_ uid: Int, _ contents: Int, _ visitor: inout some CanonicalVisitor) throws {
    if counting { kinds[uid] = .passthrough }
    try passThrough(uid, to: .uid(UInt64(contents)), &visitor)
  }

  /// What a value writes at every appearance.
  enum WrittenValue {
    case string(String)
    case data(Data)
    case date(CanonicalNumber)
    case form(FoundationValue)
    /// A plain entry.
    case plain(PropertyListValue)

    func visit(with visitor: inout some CanonicalVisitor) {
      switch self {
      case .plain(let value): value.visit(with: &visitor)
      case .string(let text): visitor.visitString(text)
      case .data(let bytes): visitor.visitData(bytes)
      case .date(let seconds): visitor.visitDate(seconds)
      case .form(let value): visitor.visitFoundationValue(value)
      }
    }
  }

  /// Writes the value of object `uid`; while counting, measures its text once (an `NSValue`'s geometry or an
  /// `NSURL` can be long and shared), which later appearances are charged.
  private mutating func value(_ uid: Int, _ value: WrittenValue, _ visitor: inout some CanonicalVisitor) throws {
    if counting {
      measuring.reset()
      value.visit(with: &measuring)
      let bytes = measuring.bytes.count
      kinds[uid] = .foundationValue
      valueBytes[uid] = Int32(clamping: bytes)
      try spendText(bytes)
      return
    }
    if reached[uid] > 1 { sharedValues[uid] = value }
    value.visit(with: &visitor)
  }

  /// Reads a form from `fields`; `nil` when they do not hold it.
  mutating func readForm<Form>(_ object: WalkedObject, _ read: (inout KeyedArchiveWalk) throws -> Form) throws -> Form?
  {
    let outer = formObject
    formObject = object
    defer { formObject = outer }
    do {
      return try read(&self)
    } catch is FormMismatch {
      return nil
    }
  }

  // MARK: Collections

  /// Walks collection `uid` of class `className` (``expandCollection(_:cycle:_:)`` checked its cycles).
  mutating func collection(_ uid: Int, _ object: WalkedObject, _ visitor: inout some CanonicalVisitor) throws {
    if counting { kinds[uid] = .collection }
    let className = object.className
    let archive = self.archive
    func field(_ key: String) -> PropertyListValue? { object.value(forKey: key, in: archive) }
    if KeyedCollectionForm.dictionaryClasses.contains(className) {
      let keys = field(FoundationKeys.nsKeys)?.arrayValue ?? []
      let values = field(FoundationKeys.nsObjects)?.arrayValue ?? []
      guard keys.count == values.count else {
        throw KeyedCollectionForm.countMismatch(
          keys: keys.count, objects: values.count, at: .init(objectIndex: uid, className: className))
      }
      try dictionary(keys: keys, values: values, &visitor)
      return
    }
    let elements =
      field(FoundationKeys.nsObjects)?.arrayValue ?? object.numberedValues(FoundationKeys.nsObjectPrefix, in: archive)
    if KeyedCollectionForm.setClasses.contains(className) {
      visitor.beginObject()
      visitor.visitKey(CanonicalMember.set)
      visitor.beginArray(.byText)
    } else if KeyedCollectionForm.orderedSetClasses.contains(className) {
      visitor.beginObject()
      visitor.visitKey(CanonicalMember.orderedSet)
      visitor.beginArray(.asWalked)
    } else {
      visitor.beginArray(.asWalked)
    }
    for element in elements { try node(element, &visitor) }
    visitor.endArray()
    if !KeyedCollectionForm.arrayClasses.contains(className) { visitor.endObject() }
  }

  /// The entries of a dictionary, walked in the order they are written: by key when the keys are all strings, by
  /// the keys' text when they are all plain values (numbers, strings, null). Keys that are objects are walked in
  /// stored order (their text depends on where `$id` goes), then sorted by the view.
  private mutating func dictionary(
    keys: [PropertyListValue], values: [PropertyListValue], _ visitor: inout some CanonicalVisitor
  ) throws {
    if let (names, order) = stringKeys(keys) {
      visitor.beginObject()
      var none = NullCanonicalVisitor()
      for index in order {
        // The key is walked (it is counted and checked) but written as the member's name. A string entry's walk
        // writes nothing and finds nothing the first pass did not: the second pass takes only the name.
        if counting || !isPlainString(keys[index]) { try node(keys[index], &none) }
        visitor.visitKey(names[index])
        try node(values[index], &visitor)
      }
      visitor.endObject()
      return
    }
    var order = Array(keys.indices)
    let texts = keys.map { plainText($0) }
    let plainKeys = texts.allSatisfy { $0 != nil }
    if plainKeys { order.sort { CanonicalText.precedes(texts[$0] ?? "", texts[$1] ?? "") } }
    visitor.beginObject()
    visitor.visitKey(CanonicalMember.dictionary)
    visitor.beginArray(.byKeyText)
    for index in order {
      visitor.beginArray(.asWalked)
      try node(keys[index], &visitor)
      try node(values[index], &visitor)
      visitor.endArray()
    }
    visitor.endArray()
    visitor.endObject()
  }

  /// The names of a dictionary's keys when they are all strings (``plainString(_:depth:)``), and the order of its
  /// members by name; `nil` for another dictionary. Keys that are the same string entries as the last such
  /// dictionary's (an archiver writes each key string once) are not read again.
  private mutating func stringKeys(_ keys: [PropertyListValue]) -> (names: [String], order: [Int])? {
    if let last = lastStringKeys, keys.count == last.objects.count,
      keys.indices.allSatisfy({ stringEntryObject(keys[$0], known: true) == last.objects[$0] })
    {
      return (last.names, last.order)
    }
    var names: [String] = []
    names.reserveCapacity(keys.count)
    for key in keys {
      guard let name = plainString(key) else { return nil }
      names.append(name)
    }
    let order = names.indices.sorted { CanonicalText.precedes(names[$0], names[$1]) }
    let objects = keys.map { stringEntryObject($0, known: false) }
    lastStringKeys = objects.allSatisfy { $0 != nil } ? StringKeys(objects: objects, names: names, order: order) : nil
    return (names, order)
  }

  /// The property-list object of a key that is a string entry (its name is that object's text); `nil` for another
  /// key. With `known`, the key is compared with keys found to be string entries, and its entry is not read.
  private func stringEntryObject(_ key: PropertyListValue, known: Bool) -> Int? {
    guard case .uid(let reference) = key, reference > 0, reference < UInt64(archive.objectCount) else { return nil }
    let uid = Int(reference)
    if !known {
      guard let header = archive.entryHeader(ofEntry: uid), header.kind == .asciiString || header.kind == .utf16String
      else { return nil }
    }
    return archive.entryObject(uid)
  }

  /// `true` for a dictionary key that is a string, inline or a string entry the first pass found (``EntryKind``).
  private func isPlainString(_ key: PropertyListValue) -> Bool {
    switch key {
    case .string: return true
    case .uid(let reference): return reference > 0 && reference < kinds.count && kinds[Int(reference)] == .plainValue
    default: return false
    }
  }

  /// The string a dictionary key is written as (a plain string, or an `NSString` however its text is stored), or
  /// `nil` when it is written as anything else: the entries of a dictionary whose keys are all strings are walked
  /// in the order of those strings, which is the order they are written in. An `NSString` whose text is another
  /// object is followed 64 deep at most (a key asked at every appearance of its dictionary must cost little): past
  /// that its dictionary is written as one with other keys.
  mutating func plainString(_ value: PropertyListValue, depth: Int = 0) -> String? {
    switch value {
    case .string(let text): return text
    case .uid(let reference):
      guard reference > 0, reference < UInt64(archive.objectCount), depth < 64 else { return nil }
      let uid = Int(reference)
      if let header = archive.entryHeader(ofEntry: uid), header.kind == .asciiString || header.kind == .utf16String {
        // A string entry, as most keys are: read from the header in hand (`nil` for the `$null` marker).
        return archive.plainEntry(header, ofEntry: uid)?.stringValue
      }
      switch try? archive.kind(of: uid) {
      case .string?: return (try? archive.plainValue(of: uid))??.stringValue
      case .classObject?:
        guard let description = try? archive.classDescription(ofObject: uid),
          description.name == FoundationClass.string || description.name == FoundationClass.mutableString,
          let object = try? walkedObject(uid, description: description)
        else { return nil }
        let form = (try? readForm(object, { try TextForm(keyed: &$0) })) ?? nil
        switch form {
        case .text(let text)?: return text
        case .contents(let contents)?: return plainString(.uid(UInt64(contents)), depth: depth + 1)
        case nil: return nil
        }
      default: return nil
      }
    default: return nil
    }
  }

  /// The canonical text of a plain value (a number, string, data, date, boolean or null, inline or behind a UID):
  /// what it is written as wherever it appears. `nil` for anything else (an object, whose text depends on where
  /// its `$id` goes).
  private mutating func plainText(_ value: PropertyListValue) -> String? {
    if let text = plainString(value) { return CanonicalText.quoted(text) }
    var plain = value
    if case .uid(let reference) = value {
      guard reference < UInt64(archive.objectCount) else { return nil }
      let uid = Int(reference)
      if (try? archive.kind(of: uid)) == .null { return "null" }
      guard let entry = try? archive.plainValue(of: uid) else { return nil }
      plain = entry
    }
    switch plain {
    case .bool, .integer, .unsignedInteger, .real, .float, .date, .data: return plain.canonicalText
    default: return nil
    }
  }

  // MARK: Value classes

  /// The canonical form of an object of one of Foundation's value classes (`NSUUID`, `NSURL`, `NSNull`,
  /// `NSValue`, `NSTimeZone`, `NSLocale`, `NSCalendar`, `NSIndexSet`, `NSIndexPath`, `NSDateComponents`,
  /// `NSPersonNameComponents`, `NSMeasurement`, `NSCharacterSet`), or `nil` for another class or when its fields do
  /// not hold its form (``FormMismatch``). Packed data that is corrupt is an error naming the key.
  mutating func foundationValue(_ object: WalkedObject, uid: Int, nesting: Int = 0) throws -> FoundationValue? {
    let className = object.className
    func located<T>(_ body: () throws -> T) throws -> T {
      do { return try body() } catch let error as ArchiveError {
        throw error.located(in: .init(objectIndex: uid, className: className))
      }
    }
    switch className {
    case FoundationClass.uuid:
      return try readForm(object) { try UUIDForm(keyed: &$0) }?.value
    case FoundationClass.url:
      return try resolvedURL(object, depth: 0).map { .url($0.absoluteString) }
    case FoundationClass.null:
      return .null
    case FoundationClass.value:
      return try readForm(object) { try ValueForm(keyed: &$0) }?.value
    case FoundationClass.timeZone:
      return try readForm(object) { try TimeZoneForm(keyed: &$0) }?.value
    case FoundationClass.locale:
      return try readForm(object) { try LocaleForm(keyed: &$0) }?.value
    case FoundationClass.calendar:
      return try readForm(object) { try CalendarForm(keyed: &$0) }?.value
    case FoundationClass.indexSet, FoundationClass.mutableIndexSet:
      guard let form = try located({ try readForm(object) { try IndexSetForm(keyed: &$0) } }) else { return nil }
      try spend(form.ranges.count)
      return form.value
    case FoundationClass.indexPath:
      guard let form = try located({ try readForm(object) { try IndexPathForm(keyed: &$0) } }) else { return nil }
      try spend(form.indexes.count)
      return form.value
    case FoundationClass.dateComponents:
      guard let form = try readForm(object, { try DateComponentsForm(keyed: &$0) }) else { return nil }
      let calendar = try nestedValue(form.calendar, expecting: FoundationClass.calendar, nesting: nesting)
      let timeZone = try nestedValue(form.timeZone, expecting: FoundationClass.timeZone, nesting: nesting)
      guard case .some(let calendarValue) = calendar, case .some(let timeZoneValue) = timeZone else { return nil }
      return form.value(calendar: calendarValue, timeZone: timeZoneValue)
    case FoundationClass.personNameComponents:
      guard let form = try readForm(object, { try PersonNameForm(keyed: &$0) }) else { return nil }
      var phonetic: FoundationValue?
      if nesting < 1, let reference = form.phonetic.value {
        guard
          case .some(let value) = try nestedValue(
            reference, expecting: FoundationClass.personNameComponents, nesting: nesting)
        else { return nil }
        phonetic = value
      } else if nesting < 1, case .invalid = form.phonetic {
        return nil
      }
      return form.value(phonetic: phonetic)
    case FoundationClass.measurement:
      guard let form = try readForm(object, { try MeasurementForm(keyed: &$0) }),
        case .classObject? = try? archive.kind(of: form.unit),
        let unitObject = try? walkedObject(form.unit),
        let unit = try readForm(unitObject, { try UnitForm(keyed: &$0, className: unitObject.className) })
      else { return nil }
      return form.value(unitSymbol: unit.symbol, unitClass: unitObject.className)
    case FoundationClass.characterSet, FoundationClass.mutableCharacterSet:
      return try readForm(object) { try CharacterSetForm(keyed: &$0) }?.value
    default:
      return nil
    }
  }

  /// The form of the value object `reference` refers to when it is of `expectedClass`: `.some(nil)` for no object,
  /// `nil` when it is another object or has no form (its holder then has no form either).
  private mutating func nestedValue(
    _ reference: Int?, expecting expectedClass: String, nesting: Int
  ) throws -> FoundationValue?? {
    guard let reference else { return .some(nil) }
    guard case .classObject? = try? archive.kind(of: reference),
      let description = try? archive.classDescription(ofObject: reference), description.name == expectedClass,
      let object = try? walkedObject(reference, description: description)
    else { return nil }
    guard let value = try foundationValue(object, uid: reference, nesting: nesting + 1) else { return nil }
    return .some(value)
  }

  /// An `NSURL`'s URL, its relative string resolved against its bases (16 at most).
  private mutating func resolvedURL(_ object: WalkedObject, depth: Int) throws -> URL? {
    guard depth < 16, let form = try readForm(object, { try URLForm(keyed: &$0) }) else { return nil }
    var base: URL?
    if let reference = form.base, case .classObject? = try? archive.kind(of: reference),
      let baseObject = try? walkedObject(reference)
    {
      base = try resolvedURL(baseObject, depth: depth + 1)
    }
    return URLForm.resolved(form.relative, against: base)?.absoluteURL
  }
}

// The walk reads Foundation's forms from the fields of the object being read (``KeyedArchiveWalk/formFields``).
extension KeyedArchiveWalk: KeyedFormSource {
  package mutating func field(_ key: String) throws -> KeyedFormField? {
    guard let value = formObject?.value(forKey: key, in: archive) else { return nil }
    switch value {
    case .uid(let raw):
      let uid = Int(raw)
      if uid == 0 { return .null }
      // An entry that cannot be read is a field of no use to the form, as the view has always read it.
      switch try? archive.kind(of: uid) {
      case .null?: return .null
      case .classObject?: return .object(uid)
      case .scalar?, .string?, .data?:
        guard let plain = try? archive.plainValue(of: uid) else { return .other("an unreadable entry") }
        return Self.formField(plain).map { field in
          if case .value(let coded) = field { return .entry(uid, coded) }
          return field
        }
      case .dictionary?: return .other("a dictionary")
      case .collection?: return .other("an array")
      case nil: return .other("an unreadable entry")
      }
    default:
      return Self.formField(value)
    }
  }

  /// A plain value as a form's field.
  private static func formField(_ value: PropertyListValue) -> KeyedFormField? {
    switch value {
    case .null: .null
    case .bool(let v): .value(.bool(v))
    case .integer(let v): .value(.integer(v))
    case .unsignedInteger(let v): .value(.unsignedInteger(v))
    case .real(let v): .value(.double(v))
    case .float(let v): .value(.float(v))
    case .string(let v): .value(.string(v))
    case .data(let v): .value(.bytes(v))
    case .date: .other("a date")
    case .uid: .other("a reference")
    case .array, .set: .other("an array")
    case .dictionary: .other("a dictionary")
    }
  }

  package mutating func text(ofObject index: Int, forKey key: String) throws -> String? {
    plainString(.uid(UInt64(index)))
  }

  package mutating func bytes(ofObject index: Int, forKey key: String) throws -> Data? {
    guard let description = try? archive.classDescription(ofObject: index),
      description.name == FoundationClass.data || description.name == FoundationClass.mutableData,
      let object = try? walkedObject(index, description: description)
    else { return nil }
    if case .bytes(let bytes)? = try readForm(object, { try BytesForm(keyed: &$0) }) {
      return bytes
    }
    return nil
  }
}

extension KeyedArchiveWalk {
  /// What object `uid` means when it is of one of Foundation's value classes whose fields hold its form (a time
  /// zone, a UUID, an `NSValue`'s geometry, …), as the canonical view writes it; `nil` for another object.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` for packed data that cannot be read.
  package mutating func foundationValue(ofObject uid: Int) throws -> FoundationValue? {
    guard uid > 0, uid < archive.objectCount, case .classObject? = try? archive.kind(of: uid),
      let object = try? walkedObject(uid)
    else { return nil }
    return try foundationValue(object, uid: uid)
  }
}

import ArchiveCoding
import Foundation
import PropertyList

/// A keyed archive's object graph read in place, without decoding any class: the one reader of the `$archiver`
/// layout for the modules that walk an archive's structure (the compiled-nib front end, `keyed dump`, the testing
/// helpers).
///
/// Opening checks the container once (ARC-020, ``KeyedArchiveContainer``) and that `$objects[0]` is the `$null`
/// marker. Objects are then read by their `$objects` index, each on demand, never recursively: a reference is a
/// checked index, so cycles cost nothing to the graph and are left to the walker. A field's value is a
/// ``PropertyListValue`` whose `.uid` (also inside an inline array or set) is below ``objectCount``.
///
/// Errors are ``/ArchiveCoding/ArchiveError``s located at the object index, class name and key they concern.
package struct KeyedArchiveGraph {
  package typealias Header = BinaryPropertyListReader.Header

  /// What an `$objects` entry is.
  package enum Kind: Equatable, Sendable {
    /// UID 0, or any entry that is the string `$null` (ARC-023).
    case null
    /// A number, Boolean or date.
    case scalar
    /// A string.
    case string
    /// Data.
    case data
    /// An archived object: a dictionary with `$class`.
    case classObject
    /// A dictionary without `$class`: a class description, not an object.
    case dictionary
    /// An array or set (not written by `NSKeyedArchiver`).
    case collection
  }

  /// One keyed field of an object, or one `$top` entry, as stored.
  package struct Field: Sendable {
    /// The key as stored (a key the object wrote with a leading `$` has one more: ``unescaped(_:)``).
    package var key: String
    /// The value; a reference is a `.uid` below ``objectCount``.
    package var value: PropertyListValue
  }

  /// A class description: `$classname` and its lists.
  package typealias ClassDescription = KeyedArchiveClassDescription

  /// An archived object with its class and its fields (`$class` apart).
  package struct Object: Sendable {
    /// The object's `$objects` index.
    package var index: Int
    /// Its class description.
    package var classDescription: ClassDescription
    /// Its fields by stored key, in stored order.
    package var fields: PropertyListDictionary

    /// `$classname`.
    package var className: String { classDescription.name }
    /// The value of the field stored under `key`.
    package subscript(key: String) -> PropertyListValue? { fields[key] }
    /// The string-keyed fields in stored order.
    package var storedFields: [Field] {
      fields.entries.compactMap { entry in entry.key.stringValue.map { Field(key: $0, value: entry.value) } }
    }
  }

  /// An `$objects` entry as a whole.
  package enum Entry: Sendable {
    /// UID 0 or the `$null` marker.
    case null
    /// A string, number, Boolean, date or data entry.
    case value(PropertyListValue)
    /// An archived object.
    case object(Object)
    /// A dictionary without `$class` (a class description).
    case dictionary
    /// An array or set entry, its elements checked as field values are.
    case collection([PropertyListValue])
  }

  let reader: BinaryPropertyListReader
  let objectsHeader: Header
  let topHeader: Header
  let options: KeyedUnarchiverOptions
  /// The number of `$objects` entries.
  package let objectCount: Int

  /// Class descriptions already read, by `$objects` index.
  var descriptions: [Int: ClassDescription] = [:]
  /// `$classes` and `$classhints` lists already read, by property-list object number: many class descriptions may
  /// share one (ARC-043).
  var nameLists: [Int: [String]] = [:]
  /// Keys already read, by property-list object number: archivers write each key string once.
  var keyStrings: [Int: String] = [:]
  /// Entries already read through ``entry(_:)``.
  var entries: [Int: Entry] = [:]
  /// For a reader that keeps what it reads (the nib reader's nodes): the strings and data read, shared by the
  /// entries and fields that refer to one object. `nil` for a reader that keeps nothing (the walk).
  package var payloads: SharedPayloads?
  /// What materialising inline containers counted, kept from one container to the next, so that each costs what it
  /// holds, not the size of the list (the values themselves are kept by ``payloads``' memo, when there is one).
  let counts = MaterialisationMemo(keepingValues: false)

  /// The memo inline containers are materialised with: ``payloads``' when the graph keeps what it reads (a value
  /// reached from several fields is then made once), else one that keeps the counts only.
  var materialisation: MaterialisationMemo { payloads?.materialisation ?? counts }

  /// Opens an archive, binary or XML (an XML one is re-encoded as binary, keeping its `$objects` indexes).
  /// - Parameters:
  ///   - data: the archive.
  ///   - options: the limits (the property-list reader's, the object count, class names and lists).
  /// - Throws: ``/ArchiveCoding/ArchiveError``: the property-list reader's, or the container's (see ``init(reader:options:)``).
  package init(data: Data, options: KeyedUnarchiverOptions = .default) throws {
    let reader: BinaryPropertyListReader
    switch PropertyListReader.format(of: data) {
    case .binary?:
      reader = try BinaryPropertyListReader(data, options: options.propertyList)
    case .xml?:
      let value = try PropertyListReader.read(data, options: options.propertyList)
      reader = try BinaryPropertyListReader(BinaryPropertyListWriter.write(value), options: options.propertyList)
    case nil:
      throw ArchiveError(
        .corruptData,
        data.isEmpty ? "expected a keyed archive, found an empty input" : "expected a keyed archive (a property list)",
        at: .init(byteOffset: 0))
    }
    try self.init(reader: reader, options: options)
  }

  /// Opens the archive `reader` reads.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: the container's errors (``KeyedArchiveContainer``), or `corruptData` naming
  ///   `$objects` when its entry 0 is not the string `$null`.
  package init(reader: BinaryPropertyListReader, options: KeyedUnarchiverOptions = .default) throws {
    let container = try KeyedArchiveContainer(reader: reader, maxObjectCount: options.maxObjectCount)
    self.reader = reader
    self.options = options
    topHeader = container.top
    objectsHeader = container.objects
    objectCount = container.objects.count
    guard objectCount > 0, reader.isASCIIString(reader.element(objectsHeader, 0), equalTo: ArchiveKeys.null) else {
      throw ArchiveError(
        .corruptData,
        "expected \(ArchiveKeys.objects)[0] to be the string \"\(ArchiveKeys.null)\", found "
          + (objectCount == 0 ? "an empty array" : describe(entryObject(0))),
        at: .init(objectIndex: 0, keyPath: ArchiveKeys.objects))
    }
  }

  // MARK: Top level

  /// The `$top` entries in stored order, their references checked.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` naming the key whose value is unreadable or refers past `$objects`.
  package mutating func topLevelFields() throws -> [Field] {
    try fields(topHeader, index: nil, className: nil).fields
  }

  /// The keys of `$top`, in stored order.
  package mutating func topLevelKeys() throws -> [String] { try topLevelFields().map(\.key) }

  // MARK: References

  /// `raw` as an `$objects` index.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`corruptData`, at `location`) when it is past the end of `$objects`.
  package func index(_ raw: UInt64, at location: @autoclosure () -> ArchiveError.Location) throws -> Int {
    guard raw < UInt64(objectCount) else {
      throw ArchiveError(
        .corruptData, "reference to object #\(raw), but \(ArchiveKeys.objects) has \(objectCount) entries",
        at: location())
    }
    return Int(raw)
  }

  /// The property-list object number of `$objects[index]`.
  @inline(__always)
  func entryObject(_ index: Int) -> Int { reader.element(objectsHeader, index) }

  /// A short description of a property-list object for messages.
  func describe(_ object: Int) -> String {
    guard let header = try? reader.header(of: object) else { return "an unreadable object" }
    if header.kind == .asciiString || header.kind == .utf16String,
      let text = try? reader.string(header, object: object)
    {
      return "\"\(text)\""
    }
    return "a \(header.kind)"
  }

  /// `$$key` as `$key`: an archiver stores a key that starts with `$` with one more (ARC-026).
  package static func unescaped(_ key: String) -> String { key.hasPrefix("$$") ? String(key.dropFirst()) : key }

  /// `true` for the key every archived object stores its class under (`$class`).
  package static func isClassKey(_ key: String) -> Bool { key == ArchiveKeys.class }

  // MARK: Entries

  /// What `$objects[index]` is.
  /// - Precondition: `index` is below ``objectCount``.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the entry is unreadable or is a UID (which no entry can be).
  package func kind(of index: Int) throws -> Kind {
    precondition(index >= 0 && index < objectCount, "$objects index \(index) out of range")
    if index == 0 { return .null }
    let object = entryObject(index)
    let header = try reader.header(of: object)
    switch header.kind {
    case .dictionary:
      return reader.lookupPosition(string: ArchiveKeys.class, inDictionary: header) == nil ? .dictionary : .classObject
    case .array, .set: return .collection
    case .uid:
      throw ArchiveError(
        .corruptData, "expected an archived object or value, found a UID",
        at: .init(objectIndex: index, keyPath: ArchiveKeys.objects))
    case .asciiString:
      return reader.isASCIIString(object, equalTo: ArchiveKeys.null) ? .null : .string
    case .utf16String: return .string
    case .data: return .data
    case .bool, .integer, .real, .date, .null: return .scalar
    }
  }

  /// An entry that is not an archived object as a property-list value: a string, number, Boolean, date or data
  /// entry as read, an array or set with its UIDs checked, a dictionary without `$class` as stored; `nil` for the
  /// null marker and for a class object.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` located at the entry when it is unreadable.
  package func plainValue(of index: Int) throws -> PropertyListValue? {
    // The entry's header is read once here: what ``kind(of:)`` decides, without a second read.
    let object = entryObject(index)
    let header = try reader.header(of: object)
    do {
      switch header.kind {
      case .uid, .dictionary:
        guard try kind(of: index) == .dictionary else { return nil }
        return try reader.value(of: object, memo: materialisation)
      case .array, .set: return .array(try elements(of: index))
      case .asciiString:
        if index == 0 || reader.isASCIIString(object, equalTo: ArchiveKeys.null) { return nil }
        return try scalar(header, object: object)
      default:
        if index == 0 { return nil }
        return try scalar(header, object: object)
      }
    } catch let error as ArchiveError {
      throw error.located(in: .init(objectIndex: index))
    }
  }

  /// `$objects[index]` as a whole, read once and kept.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` located at the object: an unreadable or UID entry, a `$class` that is not a
  ///   class description, a field that refers past `$objects`.
  package mutating func entry(_ index: Int) throws -> Entry {
    if let known = entries[index] { return known }
    let entry: Entry
    switch try kind(of: index) {
    case .null: entry = .null
    case .scalar, .string, .data:
      let object = entryObject(index)
      entry = .value(try scalar(reader.header(of: object), object: object))
    case .dictionary: entry = .dictionary
    case .collection: entry = .collection(try elements(of: index))
    case .classObject:
      let description = try classDescription(ofObject: index)
      let fields = try fields(of: index, className: description.name)
      entry = .object(
        Object(
          index: index, classDescription: description,
          fields: PropertyListDictionary(fields.map { (.string($0.key), $0.value) })))
    }
    entries[index] = entry
    return entry
  }

  /// The elements of an array or set entry (kind ``Kind/collection``), checked as field values are.
  package func elements(of index: Int) throws -> [PropertyListValue] {
    let header = try reader.header(of: entryObject(index))
    guard header.kind == .array || header.kind == .set else {
      throw ArchiveError(
        .corruptData, "expected an array, found a \(header.kind)", at: .init(objectIndex: index))
    }
    return try (0..<header.count).map { position in
      try fieldValue(reader.element(header, position), at: .init(objectIndex: index))
    }
  }
}

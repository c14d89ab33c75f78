import ArchiveCoding
import Foundation
import PropertyList

extension KeyedArchiveGraph {
  // MARK: Fields

  /// The fields of class object `index` (its entries but `$class`), in stored order, their references checked.
  /// Entries whose key is not a string are skipped.
  /// - Parameters:
  ///   - index: an `$objects` index of kind ``Kind/classObject``.
  ///   - className: the object's class name, for error locations.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` naming the object, class and key of an unreadable value or a reference past
  ///   `$objects`.
  package mutating func fields(of index: Int, className: String? = nil) throws -> [Field] {
    let header = try reader.header(of: entryObject(index))
    guard header.kind == .dictionary else {
      throw ArchiveError(
        .corruptData, "expected an archived object, found a \(header.kind)",
        at: .init(objectIndex: index, className: className))
    }
    return try fields(header, index: index, className: className).fields
  }

  /// A dictionary's string-keyed entries, `$class` apart when `index` is an object's.
  mutating func fields(
    _ header: Header, index: Int?, className: String?
  ) throws -> (fields: [Field], classValue: Int?) {
    var fields: [Field] = []
    fields.reserveCapacity(header.count)
    var classValue: Int?
    for position in 0..<header.count {
      guard let key = try key(reader.element(header, position)) else { continue }
      let valueObject = reader.dictionaryValue(header, position)
      if index != nil, Self.isClassKey(key) {
        classValue = valueObject
        continue
      }
      let value = try fieldValue(
        valueObject, at: .init(objectIndex: index, className: className, keyPath: key))
      fields.append(Field(key: key, value: value))
    }
    return (fields, classValue)
  }

  /// The string of a dictionary key object, read once per object number; `nil` for a key that is not a string.
  mutating func key(_ object: Int) throws -> String? {
    if let known = keyStrings[object] { return known }
    let header = try reader.header(of: object)
    guard header.kind == .asciiString || header.kind == .utf16String else { return nil }
    let key = try reader.string(header, object: object)
    keyStrings[object] = key
    return key
  }

  /// The value of a field: a scalar as read; a UID checked against `$objects`; an inline container materialised
  /// (within the reader's expansion limit), the UIDs of its arrays and sets checked.
  func fieldValue(_ object: Int, at location: @autoclosure () -> ArchiveError.Location) throws -> PropertyListValue {
    do {
      let header = try reader.header(of: object)
      switch header.kind {
      case .uid:
        return .uid(UInt64(try self.index(reader.uid(header), at: location())))
      case .array, .set:
        // A flat array (of references and scalars, as archivers write) is read element by element; one that holds
        // containers is materialised with the reader's depth and expansion limits.
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(header.count)
        // The strings and data read for this array (kept with it), by object: an element that refers to one again
        // shares it (ARC-007: a large data object behind many elements costs its size once). Made at the first.
        var read = payloads
        for position in 0..<header.count {
          let element = reader.element(header, position)
          if let raw = reader.uidValue(ofObject: element) {
            // A reference, as most elements are: read from its marker (what its header gives).
            elements.append(.uid(UInt64(try self.index(raw, at: location()))))
            continue
          }
          let elementHeader = try reader.header(of: element)
          switch elementHeader.kind {
          case .uid: elements.append(.uid(UInt64(try self.index(reader.uid(elementHeader), at: location()))))
          case .array, .set, .dictionary: return try container(object, at: location())
          case .data, .asciiString, .utf16String:
            let shared = read ?? SharedPayloads()
            read = shared
            elements.append(
              try shared.value(element, count: elementHeader.count) { try scalar(elementHeader, object: element) })
          default: elements.append(try scalar(elementHeader, object: element))
          }
        }
        return header.kind == .set ? .set(elements) : .array(elements)
      case .dictionary:
        return try container(object, at: location())
      case .asciiString, .utf16String, .integer, .real, .bool, .data, .date, .null:
        return try scalar(header, object: object)
      }
    } catch let error as ArchiveError {
      throw error.located(in: location())
    }
  }

  /// A string, number, Boolean, date or data object as read.
  func scalar(_ header: Header, object: Int) throws -> PropertyListValue {
    switch header.kind {
    case .asciiString, .utf16String:
      guard let payloads else { return .string(try reader.string(header, object: object)) }
      return try payloads.value(object, count: header.count) { .string(try reader.string(header, object: object)) }
    case .integer: return try reader.integer(header, object: object)
    case .real: return reader.real(header)
    case .bool: return .bool(header.count == 1)
    case .null: return .null
    case .data:
      return payloads?.value(object, count: header.count) { .data(reader.data(header)) } ?? .data(reader.data(header))
    case .date: return .date(reader.date(header))
    case .uid, .array, .set, .dictionary: return try reader.value(of: object, memo: materialisation)
    }
  }

  /// An inline container materialised, the UIDs of its arrays and sets checked.
  private func container(
    _ object: Int, at location: @autoclosure () -> ArchiveError.Location
  ) throws
    -> PropertyListValue
  {
    let value = try reader.value(of: object, memo: materialisation)
    try checkReferences(in: value, at: location())
    return value
  }

  /// Checks the UIDs of an inline array or set (a dictionary's are its own: a keyed archive writes none).
  private func checkReferences(
    in value: PropertyListValue, at location: @autoclosure () -> ArchiveError.Location
  )
    throws
  {
    switch value {
    case .uid(let raw): _ = try index(raw, at: location())
    case .array(let elements), .set(let elements):
      for element in elements { try checkReferences(in: element, at: location()) }
    default: break
    }
  }

  // MARK: Classes

  /// The class description `$objects[index]`'s `$class` refers to, read once per description.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`corruptData`, naming the object and `$class`) when the object has no `$class`,
  ///   when `$class` is not a UID of another entry that is a dictionary with a string `$classname`, or when
  ///   `$classes` or `$classhints` is not an array of strings; `limitExceeded` for a list or name past the limits
  ///   (ARC-043).
  package mutating func classDescription(ofObject index: Int) throws -> ClassDescription {
    let header = try reader.header(of: entryObject(index))
    let location = ArchiveError.Location(objectIndex: index, keyPath: ArchiveKeys.class)
    guard header.kind == .dictionary,
      let classRef = reader.lookup(string: ArchiveKeys.class, inDictionary: header)
    else {
      throw ArchiveError(
        .corruptData,
        "expected an object with \(ArchiveKeys.class), found a \(header.kind) without \(ArchiveKeys.class)",
        at: .init(objectIndex: index))
    }
    let classHeader = try reader.header(of: classRef)
    guard classHeader.kind == .uid else {
      throw ArchiveError(
        .corruptData, "expected \(ArchiveKeys.class) to be a UID, found a \(classHeader.kind)", at: location)
    }
    let classIndex = try self.index(reader.uid(classHeader), at: location)
    guard classIndex != index else {
      throw ArchiveError(
        .corruptData, "expected \(ArchiveKeys.class) to refer to a class description, found the object itself",
        at: location)
    }
    return try classDescription(classIndex, of: index)
  }

  /// Class description `classIndex`, read for object `objectIndex`.
  mutating func classDescription(_ classIndex: Int, of objectIndex: Int) throws -> ClassDescription {
    if let known = descriptions[classIndex] { return known }
    guard classIndex != 0 else {
      throw ArchiveError(
        .corruptData, "expected \(ArchiveKeys.class) to refer to a class description, found \(ArchiveKeys.null)",
        at: .init(objectIndex: objectIndex, keyPath: ArchiveKeys.class))
    }
    // Moved out for the read, so that a list added to it is not a copy of the table.
    var lists = nameLists
    nameLists = [:]
    defer { nameLists = lists }
    let description = try ClassDescription(
      reading: classIndex, for: objectIndex, reader: reader, objects: objectsHeader, options: options,
      cachedList: { lists[$0] }, rememberList: { lists[$0] = $1 })
    descriptions[classIndex] = description
    return description
  }
}

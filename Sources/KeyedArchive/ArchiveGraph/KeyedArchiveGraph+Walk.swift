import ArchiveCoding
import PropertyList

// What the canonical walk reads without keeping it: it walks an archive of a million objects twice, and
// ``KeyedArchiveGraph/entry(_:)`` keeps every entry it reads.
extension KeyedArchiveGraph {
  /// A string, number, Boolean, date or data entry as ``entry(_:)`` reads it (its `.value`), without keeping it.
  /// - Precondition: `index` is below ``objectCount``.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the entry is unreadable.
  package func scalarEntry(_ index: Int) throws -> PropertyListValue {
    let object = entryObject(index)
    return try scalar(reader.header(of: object), object: object)
  }
}

extension KeyedArchiveGraph {
  /// Class object `index` read in one pass over its dictionary: its class description, and its fields (as
  /// ``fields(of:className:)`` reads them) in `fields`. `nil` when the entry is not a class object, or anything about
  /// it is out of the ordinary (a key or value that cannot be read, `$class` stored twice or not a reference to a
  /// class description): ``kind(of:)``, ``classDescription(ofObject:)`` and ``fields(of:className:)`` then read it
  /// one at a time and say what is wrong.
  package mutating func classObject(_ index: Int, fields: inout [Field]) -> ClassDescription? {
    guard index > 0, index < objectCount, let header = try? reader.header(of: entryObject(index)),
      header.kind == .dictionary
    else { return nil }
    fields.removeAll(keepingCapacity: true)
    var classValue: Int?
    for position in 0..<header.count {
      guard let key = try? key(reader.element(header, position)) else {
        // A key that is not a string is skipped; one that cannot be read takes the other path.
        guard (try? reader.header(of: reader.element(header, position))) != nil else { return nil }
        continue
      }
      let valueObject = reader.dictionaryValue(header, position)
      if Self.isClassKey(key) {
        guard classValue == nil else { return nil }
        classValue = valueObject
        continue
      }
      guard let value = try? fieldValue(valueObject, at: .init()) else { return nil }
      fields.append(Field(key: key, value: value))
    }
    guard let classValue, let classHeader = try? reader.header(of: classValue), classHeader.kind == .uid else {
      return nil
    }
    let classIndex = reader.uid(classHeader)
    guard classIndex > 0, classIndex < UInt64(objectCount), Int(classIndex) != index else { return nil }
    return try? classDescription(Int(classIndex), of: index)
  }

  /// The header of entry `index`, or `nil` when it cannot be read (``kind(of:)`` then says why).
  @inline(__always)
  package func entryHeader(ofEntry index: Int) -> Header? {
    guard index > 0, index < objectCount else { return nil }
    return try? reader.header(of: entryObject(index))
  }

  /// The bytes of text an ASCII string or data entry whose header is `header` writes, read without making the
  /// value; `nil` for another kind of entry (a UTF-16 string is read to count it).
  @inline(__always)
  package func textByteCount(_ header: Header, ofEntry index: Int) -> Int? {
    switch header.kind {
    case .data: return header.count
    case .asciiString:
      // The `$null` marker is no string; a string whose bytes are not all ASCII is read (and refused) as such.
      guard !reader.isASCIIString(entryObject(index), equalTo: ArchiveKeys.null),
        reader.isASCII(header)
      else { return nil }
      return header.count
    default: return nil
    }
  }
}

extension KeyedArchiveGraph {
  /// A string, number or data entry whose header is `header`, as ``scalarEntry(_:)`` reads it; `nil` for the
  /// `$null` marker, another kind of entry, or one that cannot be read.
  @inline(__always)
  package func plainEntry(_ header: Header, ofEntry index: Int) -> PropertyListValue? {
    switch header.kind {
    case .dictionary, .array, .set, .uid, .null: return nil
    case .asciiString where reader.isASCIIString(entryObject(index), equalTo: ArchiveKeys.null): return nil
    default: return try? scalar(header, object: entryObject(index))
    }
  }

  /// The property-list object number of the key at `position` of a dictionary: archivers write each key string
  /// once, so objects of one class share them.
  package func keyObject(_ header: Header, _ position: Int) -> Int { reader.element(header, position) }

  /// The property-list object number of the value at `position` of a dictionary.
  package func valueObject(_ header: Header, _ position: Int) -> Int { reader.dictionaryValue(header, position) }

  /// The `$objects` index a UID object refers to, when it is a well-formed UID below ``objectCount``.
  package func reference(ofObject object: Int) -> Int? {
    guard let raw = reader.uidValue(ofObject: object), raw < UInt64(objectCount) else { return nil }
    return Int(raw)
  }

  /// The key string of a dictionary key object (`nil` for a key that is not a string), read once per object.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` for a key that cannot be read.
  package mutating func keyString(_ object: Int) throws -> String? { try key(object) }

  /// The value of a field's object as ``fields(of:className:)`` reads it, or `nil` when it cannot be read (that
  /// reading then says why).
  package func fieldValue(ofObject object: Int) -> PropertyListValue? { try? fieldValue(object, at: .init()) }
}

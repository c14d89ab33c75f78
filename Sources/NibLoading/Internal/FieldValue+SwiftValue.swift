import ArchiveCoding
import KeyedArchive

extension FieldValue {
  /// The Swift value nib loading gives for this value: primitives as Swift values (integers as `Int`), geometry as
  /// ``ArchivedValue``s, collections element by element with their `nil` elements left out, and object references and
  /// records as the caller makes them.
  /// - Parameters:
  ///   - object: the value of a reference to the object at an index of the table.
  ///   - record: the value of a structured value (an element name and its fields).
  func swiftValue(object: (Int) throws -> Any?, record: (String, [ObjectField]) throws -> Any) rethrows -> Any? {
    switch self {
    case .null: return nil
    case .bool(let v): return v
    case .integer(let v): return Int(v)
    case .real(let v): return v
    case .string(let v): return v
    case .data(let v): return v
    case .object(let index): return try object(index)
    case .array(let elements):
      var values: [Any] = []
      values.reserveCapacity(elements.count)
      for element in elements {
        if let value = try element.swiftValue(object: object, record: record) { values.append(value) }
      }
      return values
    case .point(let x, let y): return ArchivedValue.point(x: x, y: y)
    case .size(let w, let h): return ArchivedValue.size(width: w, height: h)
    case .rect(let x, let y, let w, let h): return ArchivedValue.rect(x: x, y: y, width: w, height: h)
    case .record(let name, let fields): return try record(name, fields)
    }
  }

  /// The value an object of a nib reads: ``swiftValue(object:record:)`` with a compiled nib's dictionaries (records
  /// named `NSDictionary` or `NSMutableDictionary`) as `[String: Any]`, their values converted the same way and their
  /// `nil` values left out, and every other record as a ``NibRecord`` (NIB-106).
  func nibValue(object: (Int) throws -> Any?) rethrows -> Any? {
    try swiftValue(object: object) { name, fields in
      guard CompiledNibWireNames.dictionaryClasses.contains(name) else { return NibRecord(name: name, fields: fields) }
      var dictionary: [String: Any] = [:]
      dictionary.reserveCapacity(fields.count)
      for field in fields {
        if let value = try field.value.nibValue(object: object) { dictionary[field.key] = value }
      }
      return dictionary
    }
  }
}

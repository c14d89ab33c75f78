import ArchiveCoding
import KeyedArchive

extension FieldValue {
  /// The Swift value nib loading gives for this value: primitives as Swift values (integers as `Int`), geometry as
  /// ``ArchivedValue``s, collections element by element with their `nil` elements left out, and object references and
  /// records as the caller makes them.
  /// - Parameters:
  ///   - object: the value of a reference to the object at an index of the table.
  ///   - record: the value of a structured value (an element name and its fields).
  func swiftValue(object: (Int) throws -> Any?, record: (String, [ObjectField]) -> Any) rethrows -> Any? {
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
    case .record(let name, let fields): return record(name, fields)
    }
  }
}

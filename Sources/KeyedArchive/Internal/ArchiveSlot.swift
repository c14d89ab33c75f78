import ArchiveCoding
import Foundation
import PropertyList

/// Where the fields of a Foundation object go while ``KeyedArchiver/foundationObject(className:chain:identity:_:)``
/// encodes it: each appended field is written at once into the archiver's binary writer, so no object keeps a list
/// of its fields. Append a field only after computing its value (a reference may encode a nested object first).
struct ArchiveFieldSink {
  let archiver: KeyedArchiver

  /// Writes one field of the object being encoded.
  func append(_ field: ArchiveField) {
    archiver.appendField(key: field.key, value: field.value)
  }
}

/// One field of an archived object.
struct ArchiveField {
  var key: String
  var value: ArchiveFieldValue
}

/// The value of a field: inline, a reference, or an inline array of references (`NS.objects`, `NS.keys`).
enum ArchiveFieldValue {
  case inline(PropertyListValue)
  case uid(Int)
  case uids([Int])
}

extension CodedValue {
  /// The property-list form of an inline primitive.
  var propertyListValue: PropertyListValue {
    switch self {
    case .bool(let v): .bool(v)
    case .integer(let v): .integer(v)
    case .unsignedInteger(let v): .unsignedInteger(v)
    case .float(let v): .float(v)
    case .double(let v): .real(v)
    case .bytes(let v): .data(v)
    case .string(let v): .string(v)
    }
  }
}

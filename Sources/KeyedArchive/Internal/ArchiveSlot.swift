import ArchiveCoding
import Foundation
import PropertyList

/// One entry of `$objects` while an archive is being built.
enum ArchiveSlot {
  /// The string `"$null"`: index 0, and conditional objects never encoded unconditionally.
  case null
  /// A plain property-list value (strings, numbers, data: what Apple stores without a class).
  case plain(PropertyListValue)
  /// A class instance: its fields, with `$class` referring to a class description.
  case object(fields: [ArchiveField], classUID: Int)
  /// A class description (`$classname`, `$classes`, `$classhints`).
  case classDescription(name: String, chain: [String], hints: [String])
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

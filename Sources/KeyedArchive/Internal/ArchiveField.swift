import ArchiveCoding
import Foundation
import PropertyList

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

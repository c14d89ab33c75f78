import ArchiveCoding
import PropertyList

// What the canonical walk reads without keeping it: it walks an archive of a million objects twice, and
// ``KeyedArchiveGraph/entry(_:)`` keeps every entry it reads.
extension KeyedArchiveGraph {
  /// A string, number, Boolean, date or data entry as ``entry(_:)`` reads it (its `.value`), without keeping it.
  /// - Precondition: `index` is below ``objectCount``.
  /// - Throws: ``ArchiveError`` when the entry is unreadable.
  package func scalarEntry(_ index: Int) throws -> PropertyListValue {
    let object = entryObject(index)
    return try scalar(reader.header(of: object), object: object)
  }
}

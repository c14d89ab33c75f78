/// The wire names of the keyed-archive layout. Every literal the layout fixes lives here; other modules read an
/// archive's layout through ``KeyedArchiveGraph``. The Foundation classes' keys are `FoundationForms`'s
/// (`FoundationKeys`).
package enum ArchiveKeys {
  package static let archiver = "$archiver"
  package static let archiverName = "NSKeyedArchiver"
  package static let version = "$version"
  package static let versionNumber: Int64 = 100_000
  package static let top = "$top"
  package static let objects = "$objects"
  package static let null = "$null"
  package static let `class` = "$class"
  package static let className = "$classname"
  package static let classes = "$classes"
  package static let classHints = "$classhints"
  package static let root = "root"
  /// The stored key of the unkeyed value number `index` of an object (`$0`, `$1`, …).
  package static func unkeyedKey(_ index: Int) -> String { "$\(index)" }
  /// The four top-level keys as static strings: opening an archive compares them with the stored keys as bytes,
  /// without making a `String`.
  package static let archiverKey: StaticString = "$archiver"
  package static let versionKey: StaticString = "$version"
  package static let topKey: StaticString = "$top"
  package static let objectsKey: StaticString = "$objects"
  /// `$class` and `$null` as static strings: the archive index compares them with stored strings as bytes.
  package static let classKey: StaticString = "$class"
  package static let nullKey: StaticString = "$null"
}

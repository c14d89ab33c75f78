import ArchiveCoding

/// The keyed forms of Foundation's collections (ARC-030): `NSArray`, `NSSet` and their mutable subclasses hold
/// their elements in `NS.objects`, an inline array of references (or, in the old form, `NS.object.0`,
/// `NS.object.1`, …); `NSDictionary` holds `NS.keys` and `NS.objects` of equal length (or `NS.key.i` with
/// `NS.object.i`); `NSOrderedSet` holds `NS.object.i`. Every reader of these forms (the unarchiver, the Codable
/// decoder, the canonical walk, the nib front ends) reports a broken one with the errors made here.
package enum KeyedCollectionForm {
  /// The error of a dictionary whose `NS.keys` and `NS.objects` hold different numbers of entries.
  /// - Parameters:
  ///   - keys: the number of keys.
  ///   - objects: the number of values.
  ///   - location: where the dictionary is.
  package static func countMismatch(keys: Int, objects: Int, at location: ArchiveError.Location) -> ArchiveError {
    ArchiveError(
      .corruptData, "\(FoundationKeys.nsKeys) has \(keys) entries but \(FoundationKeys.nsObjects) has \(objects)",
      at: location)
  }

  /// The classes whose form is an array of elements (`NS.objects`).
  package static let arrayClasses: Set<String> = [FoundationClass.array, FoundationClass.mutableArray]
  /// The classes whose form is a set of members (`NS.objects`).
  package static let setClasses: Set<String> = [FoundationClass.set, FoundationClass.mutableSet]
  /// The classes whose form is an ordered set of members (`NS.object.i`).
  package static let orderedSetClasses: Set<String> = [FoundationClass.orderedSet, FoundationClass.mutableOrderedSet]
  /// The classes whose form is a dictionary (`NS.keys` and `NS.objects`).
  package static let dictionaryClasses: Set<String> = [FoundationClass.dictionary, FoundationClass.mutableDictionary]
}

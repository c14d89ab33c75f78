import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

/// The calls the `Codable` bridge (``KeyedArchiveEncoder``) writes through: each returns the UID of an entry of
/// `$objects`. They are the whole surface the bridge uses, so a change to how the archiver lays out objects only
/// has to keep these few calls.
extension KeyedArchiver {
  /// `$classes` of an `NSDictionary` and of an `NSArray`, as Apple writes them (no registry lookup per object).
  private static let dictionaryChain = [FoundationClass.dictionary, FoundationClass.object]
  private static let arrayChain = [FoundationClass.array, FoundationClass.object]

  /// A string object, shared with equal strings of the archive.
  func codableString(_ value: String) -> Int { plainReference(.string(value)) }

  /// A plain number or boolean object, shared with equal values of the same type.
  func codablePlain(_ value: PropertyListValue) -> Int { plainReference(value) }

  /// Any value the archiver writes natively (a Foundation value or a ``Coding`` instance, queued as usual).
  func codableObject(_ value: Any) -> Int { reference(for: value) }

  /// An `NSDictionary` whose keys are the string objects `keys` and whose values `values()` gives. With an
  /// `identity`, the dictionary is written once and its UID is reserved before `values()` runs, so a value may
  /// refer back to it (a cycle through class instances).
  func codableDictionary(identity: AnyObject?, keys: [Int], values: () -> [Int]) -> Int {
    foundationObject(className: FoundationClass.dictionary, chain: Self.dictionaryChain, identity: identity) {
      fields in
      let uids = values()
      fields.append(ArchiveField(key: FoundationKeys.nsKeys, value: .uids(keys)))
      fields.append(ArchiveField(key: FoundationKeys.nsObjects, value: .uids(uids)))
    }
  }

  /// An `NSArray` of the objects `elements()` gives; `identity` as for ``codableDictionary(identity:keys:values:)``.
  func codableArray(identity: AnyObject?, elements: () -> [Int]) -> Int {
    foundationObject(className: FoundationClass.array, chain: Self.arrayChain, identity: identity) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsObjects, value: .uids(elements())))
    }
  }
}

/// An entry already written to `$objects`, handed to ``KeyedArchiver/encodeObject(_:forKey:)`` (the root of a
/// `Codable` value, or a `Codable` value inside a ``Coding`` object) so that the archiver stores its UID.
struct ArchivedEntry: KeyedArchiveValue {
  let uid: Int
  func archiveReference(in archiver: KeyedArchiver) -> Int { uid }
}

import ArchiveCoding
import Foundation

// `NSKeyedUnarchiver`'s one-call readers for a root that is an array or a dictionary. Each requires secure coding,
// as ``KeyedUnarchiver/unarchivedObject(ofClass:from:options:)`` does (COD-102).
extension KeyedUnarchiver {
  /// Decodes the root of an untrusted archive as an array whose elements are all `T`, as
  /// `NSKeyedUnarchiver.unarchivedArrayOfObjects(ofClass:from:)`.
  /// - Returns: the array, or `nil` when the archive's root is `nil`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` for corrupt data, a root that is not an array (`typeMismatch`), or an
  ///   element of another class (`classNotAllowed`).
  public static func unarchivedArrayOfObjects<T>(
    ofClass type: T.Type, from data: Data, options: KeyedUnarchiverOptions = .default
  ) throws -> [T]? {
    try withTemporaryUnarchiver(data, requiringSecureCoding: true, options: options) { unarchiver in
      try unarchiver.decodeArrayOfObjects(ofClass: type, forKey: ArchiveKeys.root)
    }
  }

  /// Decodes the root of an untrusted archive as an array whose elements are each of one of `types`, as
  /// `NSKeyedUnarchiver.unarchivedArrayOfObjects(ofClasses:from:)`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` as ``unarchivedArrayOfObjects(ofClass:from:options:)``.
  public static func unarchivedArrayOfObjects(
    ofClasses types: [Any.Type], from data: Data, options: KeyedUnarchiverOptions = .default
  ) throws -> [Any]? {
    try withTemporaryUnarchiver(data, requiringSecureCoding: true, options: options) { unarchiver in
      try unarchiver.decodeArrayOfObjects(ofClasses: types, forKey: ArchiveKeys.root)
    }
  }

  /// Decodes the root of an untrusted archive as a dictionary of `K` to `V`, as
  /// `NSKeyedUnarchiver.unarchivedDictionary(keysOfClass:objectsOfClass:from:)`.
  /// - Returns: the dictionary, or `nil` when the archive's root is `nil`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` for corrupt data, a root that is not such a dictionary (`typeMismatch`),
  ///   or a key or value of a class not allowed (`classNotAllowed`).
  public static func unarchivedDictionary<K: Hashable, V>(
    keysOfClass keyType: K.Type, objectsOfClass objectType: V.Type, from data: Data,
    options: KeyedUnarchiverOptions = .default
  ) throws -> [K: V]? {
    try withTemporaryUnarchiver(data, requiringSecureCoding: true, options: options) { unarchiver in
      try unarchiver.decodeDictionary(withKeysOfClass: keyType, objectsOfClass: objectType, forKey: ArchiveKeys.root)
    }
  }

  /// Decodes the root of an untrusted archive as a dictionary whose keys are each of one of `keyTypes` and values of
  /// one of `objectTypes`, as `NSKeyedUnarchiver.unarchivedDictionary(keysOfClasses:objectsOfClasses:from:)`.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` as ``unarchivedDictionary(keysOfClass:objectsOfClass:from:options:)``.
  public static func unarchivedDictionary(
    keysOfClasses keyTypes: [Any.Type], objectsOfClasses objectTypes: [Any.Type], from data: Data,
    options: KeyedUnarchiverOptions = .default
  ) throws -> [AnyHashable: Any]? {
    try withTemporaryUnarchiver(data, requiringSecureCoding: true, options: options) { unarchiver in
      try unarchiver.decodeDictionary(
        withKeysOfClasses: keyTypes, objectsOfClasses: objectTypes, forKey: ArchiveKeys.root)
    }
  }
}

import Foundation

// `NSCoder`'s names for the decode calls, beside the project's own, so that an `init(coder:)` written for
// Foundation moves with little more than `try`. None of these is a protocol requirement: each is a default that
// forwards to the required core or to a typed call built on it, and gives the same results as that call (COD-100).
extension DecodingCoder {
  /// An `Int`, as `NSCoder.decodeInteger(forKey:)`; missing is 0. Not a requirement: forwards to
  /// ``decodeInt(forKey:)``.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the key holds something other than a number or boolean, or a
  ///   number that does not fit in `Int`.
  public func decodeInteger(forKey key: String) throws -> Int { try decodeInt(forKey: key) }

  /// An object of one of the given types, as `NSCoder.decodeObject(of:forKey:)` with a list of classes; `nil` for
  /// the list allows any class (refused under secure coding, as ``decodeObject(forKey:)``). Not a requirement:
  /// forwards to ``decodeObject(of:forKey:)->Any?`` or ``decodeObject(forKey:)``.
  /// - Throws: ``ArchiveError`` (`classNotAllowed`) when the object's class is not one of `types`.
  public func decodeObject(ofClasses types: [Any.Type]?, forKey key: String) throws -> Any? {
    guard let types else { return try decodeObject(forKey: key) }
    return try decodeObject(of: types, forKey: key)
  }

  /// An array whose elements are each of one of `types`, as `NSCoder.decodeArrayOfObjects(ofClasses:forKey:)`;
  /// missing is `nil`. Not a requirement: forwards to ``decodeObject(forKey:allowedClasses:)``.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the object is not an array; `classNotAllowed` when an element
  ///   is of another class.
  public func decodeArrayOfObjects(ofClasses types: [Any.Type], forKey key: String) throws -> [Any]? {
    try applyingFailurePolicy(nil) {
      // The array classes plus the elements' classes: under secure coding each element is checked against them.
      let allowed = registry.allowedClassNames(for: [[Any].self] + types)
      guard let object = try decodeObject(forKey: key, allowedClasses: allowed) else { return nil }
      return try castArrayOfObjects(object, to: Any.self, forKey: key)
    }
  }

  /// A dictionary whose keys are `K` and values `V`, as
  /// `NSCoder.decodeDictionary(withKeysOfClass:objectsOfClass:forKey:)`; missing is `nil`. Not a requirement:
  /// forwards to ``decodeObject(of:forKey:)->T?`` with `[K: V]`.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the object is not such a dictionary.
  public func decodeDictionary<K: Hashable, V>(
    withKeysOfClass keyType: K.Type, objectsOfClass objectType: V.Type, forKey key: String
  ) throws -> [K: V]? {
    try decodeObject(of: [K: V].self, forKey: key)
  }

  /// A dictionary whose keys are each of one of `keyTypes` and values of one of `objectTypes`, as
  /// `NSCoder.decodeDictionary(withKeysOfClasses:objectsOfClasses:forKey:)`; missing is `nil`. Not a requirement:
  /// forwards to ``decodeObject(forKey:allowedClasses:)``.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the object is not a dictionary; `classNotAllowed` when a key
  ///   or value is of another class.
  public func decodeDictionary(
    withKeysOfClasses keyTypes: [Any.Type], objectsOfClasses objectTypes: [Any.Type], forKey key: String
  ) throws -> [AnyHashable: Any]? {
    try applyingFailurePolicy(nil) {
      let allowed = registry.allowedClassNames(for: [[AnyHashable: Any].self] + keyTypes + objectTypes)
      guard let object = try decodeObject(forKey: key, allowedClasses: allowed) else { return nil }
      guard let dictionary = object as? [AnyHashable: Any] else {
        throw ArchiveError(
          .typeMismatch, "expected a dictionary, found \(Swift.type(of: object))", at: .init(keyPath: key))
      }
      return dictionary
    }
  }

  /// Raw bytes written with `encodeBytes`, and their count in `returnedLength`, as
  /// `NSCoder.decodeBytes(forKey:returnedLength:)`; missing is `nil` with a length of 0. Not a requirement: forwards
  /// to ``decodeBytes(forKey:)``.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the key holds something other than bytes.
  public func decodeBytes(forKey key: String, returnedLength: inout Int) throws -> Data? {
    let bytes = try decodeBytes(forKey: key)
    returnedLength = bytes?.count ?? 0
    return bytes
  }
}

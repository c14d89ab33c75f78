extension DecodingCoder {
  /// `defaultDecodeObjectReferences(forKey:)`.
  public func decodeObjectReferences(forKey key: String) throws -> [AnyObject]? {
    try defaultDecodeObjectReferences(forKey: key)
  }

  /// The default implementation of ``decodeObjectReferences(forKey:)``, for coders that override it to fall back
  /// on: decodes the object under `key` allowing arrays and any class, then keeps each element that is a class
  /// instance (an element of another kind is `typeMismatch` naming `key[i]`).
  package func defaultDecodeObjectReferences(forKey key: String) throws -> [AnyObject]? {
    try applyingFailurePolicy(nil) {
      var allowed: Set<String>?
      if requiresSecureCoding {
        allowed = registry.allowedClassNames(for: [[Any].self])
        allowed?.formUnion(registry.allowedClassNames(for: [AnyObject.self]))
      }
      guard let object = try decodeObject(forKey: key, allowedClasses: allowed) else { return nil }
      guard let array = object as? [Any] else {
        throw ArchiveError(
          .typeMismatch, "expected an array, found \(Swift.type(of: object))", at: .init(keyPath: key))
      }
      return try array.enumerated().map { index, element in
        // A class instance in `Any` is that instance; anything else would be boxed, which is no reference.
        guard Swift.type(of: element) is AnyClass else {
          throw ArchiveError(
            .typeMismatch, "expected an object, found \(Swift.type(of: element))",
            at: .init(keyPath: "\(key)[\(index)]"))
        }
        return element as AnyObject
      }
    }
  }
}

extension DecodingCoder {
  /// ``decodeDeferred(forKey:allowedClasses:assign:)``, handing `assign` the decoded object (or `nil`); a value
  /// that is not an object fails the link with `typeMismatch` naming the key.
  public func decodeDeferredObject(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, AnyObject?) throws -> Void
  ) throws {
    try defaultDecodeDeferredObject(forKey: key, allowedClasses: allowedClasses, assign: assign)
  }

  /// The default implementation of ``decodeDeferredObject(forKey:allowedClasses:assign:)``, for coders that
  /// override it to fall back on.
  package func defaultDecodeDeferredObject(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, AnyObject?) throws -> Void
  ) throws {
    try decodeDeferred(forKey: key, allowedClasses: allowedClasses) { owner, value in
      guard let value else { return try assign(owner, nil) }
      // A class instance in `Any` is that instance; anything else would be boxed, which is no reference.
      guard Swift.type(of: value) is AnyClass else {
        throw ArchiveError(.typeMismatch, "expected an object, found \(Swift.type(of: value))", at: .init(keyPath: key))
      }
      try assign(owner, value as AnyObject)
    }
  }
}

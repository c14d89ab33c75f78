import Foundation

// `NSCoder`'s names for the encode calls, beside the project's own, so that an `encode(with:)` written for Foundation
// moves unchanged. None of these is a protocol requirement: each is a default that forwards to the required core
// (COD-100).
extension EncodingCoder {
  /// Writes an object or a value of any type, as `NSCoder.encode(_:forKey:)` with an object: a ``Coding`` instance,
  /// a Foundation value (`String`, `Data`, `Date`, `URL`, `UUID`, numbers, arrays, dictionaries, sets), or `nil`.
  /// Numbers, booleans, strings and data given with their static type take their own overloads (written inline or
  /// shared as those say); through `Any` they are written as objects. Not a requirement: forwards to
  /// ``encodeObject(_:forKey:)``.
  public func encode(_ object: Any?, forKey key: String) { encodeObject(object, forKey: key) }

  /// Writes the first `length` bytes of `bytes` inline, as `NSCoder.encodeBytes(_:length:forKey:)`. Not a
  /// requirement: forwards to ``encodeValue(_:forKey:)``. A `length` outside 0 and the number of bytes writes nothing
  /// and records an ``ArchiveError`` (`invalidValue`) with ``failWithError(_:)`` naming the key, which the archiver
  /// throws when it finishes (COD-232).
  public func encodeBytes(_ bytes: some Collection<UInt8>, length: Int, forKey key: String) {
    guard length >= 0, length <= bytes.count else {
      return failWithError(
        ArchiveError(
          .invalidValue, "encodeBytes: the length \(length) is outside the \(bytes.count) bytes given",
          at: .init(keyPath: key)))
    }
    encodeValue(.bytes(Data(bytes.prefix(length))), forKey: key)
  }
}

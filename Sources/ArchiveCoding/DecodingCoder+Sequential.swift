import Foundation

// Sequential decoding: the unkeyed half of `NSCoder`, for typedstreams (`NSUnarchiver`). A keyed coder keeps the
// defaults; a sequential coder implements ``DecodingCoder/decodeValues(ofObjCTypes:)`` and answers
// ``DecodingCoder/allowsKeyedCoding`` with `false`, so that one `init(coder:)` reads either format (COD-120,
// COD-121).
extension DecodingCoder {
  /// Default: `true` (every keyed coder).
  public var allowsKeyedCoding: Bool { true }

  /// Default: throws `unsupportedFormat`, as a keyed coder holds no values in order.
  public func decodeValues(ofObjCTypes types: String) throws -> [SequentialValue] {
    throw ArchiveError(
      .unsupportedFormat, "a keyed coder holds no values in order (asked for type \"\(types)\"); use the keyed calls")
  }

  /// Default: the one value of an `"@"` group.
  public func decodeObject() throws -> Any? {
    guard case .object(let object) = try decodeValue(ofObjCType: "@") else { return nil }
    return object
  }

  /// The value of the next typed group, whose encoding must be the single type `type`, as
  /// `NSCoder.decodeValue(ofObjCType:at:size:)`. Not a requirement: forwards to ``decodeValues(ofObjCTypes:)``.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the group has another encoding.
  public func decodeValue(ofObjCType type: String) throws -> SequentialValue {
    try applyingFailurePolicy(.ignored) {
      let values = try decodeValues(ofObjCTypes: type)
      guard values.count == 1, let value = values.first else {
        throw ArchiveError(.typeMismatch, "expected one value of type \"\(type)\", found \(values.count)")
      }
      return value
    }
  }

  /// An integer of the next group, of the single integer type `type` (`c C B s S i I l L q Q`), checked to fit
  /// `T`. Not a requirement: forwards to ``decodeValue(ofObjCType:)``.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) for another type or a value out of `T`'s range.
  public func decodeValue<T: FixedWidthInteger>(ofObjCType type: String, as integerType: T.Type) throws -> T {
    try applyingFailurePolicy(0) { try integer(ofObjCType: type, as: integerType) }
  }

  private func integer<T: FixedWidthInteger>(ofObjCType type: String, as integerType: T.Type) throws -> T {
    let value = try decodeValue(ofObjCType: type)
    let exact: T?
    switch value {
    case .integer(let v): exact = T(exactly: v)
    case .unsignedInteger(let v): exact = T(exactly: v)
    case .bool(let v): exact = v ? 1 : 0
    default:
      throw ArchiveError(.typeMismatch, "expected an integer of type \"\(type)\", found \(value.kindName)")
    }
    guard let exact else {
      throw ArchiveError(.typeMismatch, "integer of type \"\(type)\" does not fit in \(T.self)")
    }
    return exact
  }

  /// A real of the next group, of the single type `f` or `d`. Not a requirement: forwards to
  /// ``decodeValue(ofObjCType:)``.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) for another type.
  public func decodeReal(ofObjCType type: String) throws -> Double {
    try applyingFailurePolicy(0) {
      let value = try decodeValue(ofObjCType: type)
      guard let real = value.realValue else {
        throw ArchiveError(.typeMismatch, "expected a real of type \"\(type)\", found \(value.kindName)")
      }
      return real
    }
  }

  /// The bytes of the next `+` group, as `NSCoder.decodeBytes(withReturnedLength:)`; nil when none were stored.
  /// Not a requirement: forwards to ``decodeValue(ofObjCType:)``.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the next group is not `+`.
  public func decodeBytes() throws -> Data? {
    guard case .bytes(let bytes) = try decodeValue(ofObjCType: "+") else { return nil }
    return bytes
  }

  /// The next unkeyed object, which must be a `T` (or nil). Not a requirement: forwards to ``decodeObject()``.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the object is of another type.
  public func decodeObject<T>(of type: T.Type) throws -> T? {
    try applyingFailurePolicy(nil) {
      guard let object = try decodeObject() else { return nil }
      guard let typed = ArchivedValueCast.cast(object, to: T.self) else {
        throw ArchiveError(.typeMismatch, "expected \(T.self), found \(Swift.type(of: object))")
      }
      return typed
    }
  }
}

import Foundation

// Sequential encoding: the unkeyed half of `NSCoder`, for typedstreams (`NSArchiver`). A keyed coder keeps the
// defaults; a sequential coder implements ``EncodingCoder/encodeValues(_:ofObjCTypes:)`` and answers
// ``EncodingCoder/allowsKeyedCoding`` with `false`, so that one `encode(with:)` writes either format (COD-120,
// COD-122).
extension EncodingCoder {
  /// Default: `true` (every keyed coder).
  public var allowsKeyedCoding: Bool { true }

  /// Default: records `unsupportedFormat`, as a keyed coder writes no values in order.
  public func encodeValues(_ values: [SequentialValue], ofObjCTypes types: String) {
    failWithError(
      ArchiveError(
        .unsupportedFormat, "a keyed coder writes no values in order (type \"\(types)\"); use the keyed calls"))
  }

  /// Default: an `"@"` group.
  public func encodeObject(_ object: Any?) { encodeValues([.object(object)], ofObjCTypes: "@") }

  /// Writes one value of the single type `type`, as `NSCoder.encodeValue(ofObjCType:at:)`. Not a requirement:
  /// forwards to ``encodeValues(_:ofObjCTypes:)``.
  public func encodeValue(_ value: SequentialValue, ofObjCType type: String) {
    encodeValues([value], ofObjCTypes: type)
  }

  /// Writes an unkeyed object, as `NSCoder.encode(_:)`. Not a requirement: forwards to ``encodeObject(_:)``.
  public func encode(_ object: Any?) { encodeObject(object) }

  /// Writes a `+` group of bytes, as `NSCoder.encodeBytes(_:length:)`. Not a requirement: forwards to
  /// ``encodeValues(_:ofObjCTypes:)``.
  public func encodeBytes(_ bytes: Data?) { encodeValues([.bytes(bytes)], ofObjCTypes: "+") }
}

import Foundation

/// A coder that writes an object's fields, in the spirit of `NSCoder` when encoding.
///
/// The required core is three calls: ``encodeValue(_:forKey:)`` for inline primitives,
/// ``encodeObject(_:forKey:)`` for objects and ``encodeConditionalObject(_:forKey:)``. Every typed overload
/// (`encode(_: Int, forKey:)`, `encode(_: String?, forKey:)`, …) has a default that forwards to them.
public protocol EncodingCoder: AnyObject {
  /// Writes an inline primitive under a key. Required; no default.
  func encodeValue(_ value: CodedValue, forKey key: String)

  /// Writes an object under a key: a ``Coding`` instance, a Foundation value (`String`, `Data`, `Date`, `URL`,
  /// `UUID`, numbers, arrays, dictionaries, sets), or `nil`. The same instance encoded twice is one object in
  /// the archive. Required; no default.
  func encodeObject(_ object: Any?, forKey key: String)

  /// Writes a reference that is kept only if the object is also encoded unconditionally somewhere in the archive,
  /// before or after this call; otherwise it decodes as `nil`. Required; no default.
  func encodeConditionalObject(_ object: AnyObject?, forKey key: String)

  /// `true` when every encoded class must support secure coding. Default: `false`.
  var requiresSecureCoding: Bool { get }

  /// Records an error that makes the whole encode fail; the top-level call throws it. Default: ignored.
  func failWithError(_ error: any Error)

  /// Writes a string as an object (`NSString`). Default: ``encodeObject(_:forKey:)``; coders may override it
  /// with a faster path that writes the same thing.
  func encode(_ value: String?, forKey key: String)

  /// Writes data as an object (`NSData`). Default: ``encodeObject(_:forKey:)``; coders may override it.
  func encode(_ value: Data?, forKey key: String)

  /// `true` for a keyed coder, `false` for a sequential one (a typedstream), as `NSCoder.allowsKeyedCoding`: an
  /// ``Coding/encode(with:)`` that writes both formats asks it first. Default: `true`.
  var allowsKeyedCoding: Bool { get }

  /// Writes one typed group: `values`, one for each type of `types` (a type encoding such as `"i"`, `"iI"` or
  /// `"{_NSPoint=ff}"`), as `NSCoder.encodeValues(ofObjCTypes:)`. Default: records `unsupportedFormat` through
  /// ``failWithError(_:)`` (a keyed coder writes no values in order).
  func encodeValues(_ values: [SequentialValue], ofObjCTypes types: String)

  /// Writes an unkeyed object, as `NSCoder.encode(_:)` with an object: for a sequential coder an `@` group.
  /// Default: ``encodeValues(_:ofObjCTypes:)`` with `"@"`.
  func encodeObject(_ object: Any?)
}

extension EncodingCoder {
  /// Default: `false`.
  public var requiresSecureCoding: Bool { false }
  /// Default: does nothing.
  public func failWithError(_ error: any Error) {}

  /// Writes a boolean inline.
  public func encode(_ value: Bool, forKey key: String) { encodeValue(.bool(value), forKey: key) }
  /// Writes an integer inline.
  public func encode(_ value: Int, forKey key: String) { encodeValue(.integer(Int64(value)), forKey: key) }
  /// Writes an integer inline.
  public func encode(_ value: Int8, forKey key: String) { encodeValue(.integer(Int64(value)), forKey: key) }
  /// Writes an integer inline.
  public func encode(_ value: Int16, forKey key: String) { encodeValue(.integer(Int64(value)), forKey: key) }
  /// Writes an integer inline.
  public func encode(_ value: Int32, forKey key: String) { encodeValue(.integer(Int64(value)), forKey: key) }
  /// Writes an integer inline.
  public func encode(_ value: Int64, forKey key: String) { encodeValue(.integer(value), forKey: key) }
  /// Writes an unsigned integer inline.
  public func encode(_ value: UInt, forKey key: String) { encode(UInt64(value), forKey: key) }
  /// Writes an unsigned integer inline.
  public func encode(_ value: UInt8, forKey key: String) { encodeValue(.integer(Int64(value)), forKey: key) }
  /// Writes an unsigned integer inline.
  public func encode(_ value: UInt16, forKey key: String) { encodeValue(.integer(Int64(value)), forKey: key) }
  /// Writes an unsigned integer inline.
  public func encode(_ value: UInt32, forKey key: String) { encodeValue(.integer(Int64(value)), forKey: key) }
  /// Writes an unsigned integer inline (values above `Int64.max` use the 16-byte form).
  public func encode(_ value: UInt64, forKey key: String) {
    encodeValue(value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(value), forKey: key)
  }
  /// Writes a 32-bit real inline.
  public func encode(_ value: Float, forKey key: String) { encodeValue(.float(value), forKey: key) }
  /// Writes a 64-bit real inline.
  public func encode(_ value: Double, forKey key: String) { encodeValue(.double(value), forKey: key) }
  /// Writes raw bytes inline (`encodeBytes(_:length:forKey:)`).
  public func encodeBytes(_ bytes: Data, forKey key: String) { encodeValue(.bytes(bytes), forKey: key) }
  /// Writes a string as an object (`NSString`).
  public func encode(_ value: String?, forKey key: String) { encodeObject(value, forKey: key) }
  /// Writes data as an object (`NSData`).
  public func encode(_ value: Data?, forKey key: String) { encodeObject(value, forKey: key) }
  /// Writes a ``Coding`` instance as an object.
  public func encode(_ value: (any Coding)?, forKey key: String) { encodeObject(value, forKey: key) }
}

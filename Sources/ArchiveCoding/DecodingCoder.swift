import Foundation

/// A coder that presents one object's fields to its ``Coding/init(coder:)``, in the spirit of `NSCoder` when
/// decoding.
///
/// The required core is small: ``containsValue(forKey:)``, ``decodeValue(forKey:)`` for inline primitives,
/// ``decodeObject(forKey:allowedClasses:)`` for objects, ``decodeDeferred(forKey:allowedClasses:assign:)`` for
/// references that are set after construction (back pointers and cycles), and the failure state. Every typed call
/// (`decodeInt64(forKey:)`, `decodeString(forKey:)`, `decodeObject(of:forKey:)`, …) has a default built on them.
///
/// Missing keys decode as `nil`, `false` or zero, as on Apple's platforms; a value of the wrong type is an error
/// that names the object, the class and the key.
public protocol DecodingCoder: AnyObject {
  /// `true` when the current object has a field with this key (even one holding `nil`). Required.
  func containsValue(forKey key: String) -> Bool

  /// The inline primitive under a key, or `nil` when the key is absent. A key that refers to a plain number,
  /// string or data object gives that value too. Required.
  /// - Throws: ``ArchiveError`` when the key holds something that is not a primitive.
  func decodeValue(forKey key: String) throws -> CodedValue?

  /// The object under a key, decoded (or taken from the cache when it was decoded already), or `nil`. Required; no
  /// default.
  /// - Parameters:
  ///   - key: the key.
  ///   - allowedClasses: archived class names allowed here (a subclass of an allowed class is allowed too), or
  ///     `nil` for any class when secure coding is off.
  /// - Throws: ``ArchiveError`` for a disallowed or unknown class, a reference cycle, or corrupt data.
  func decodeObject(forKey key: String, allowedClasses: Set<String>?) throws -> Any?

  /// Asks for the object under a key to be decoded after the current object is constructed and handed to
  /// `assign` together with the current object (the link phase). This is how back references and cycles are
  /// decoded: Swift cannot hand out an object that is still inside its initialiser. Required.
  func decodeDeferred(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void) throws

  /// Asks for the object under a key to be handed to `assign`, with the current object, in the link phase, as an
  /// object: what ``decodeDeferred(forKey:allowedClasses:assign:)`` does for a reference to another object, without
  /// boxing it in `Any` (COD-231). Default: ``decodeDeferred(forKey:allowedClasses:assign:)``, handing on a decoded
  /// object and `nil`, and failing the link with `typeMismatch` for a value that is not an object; coders may
  /// override it with a faster path that gives the same results.
  func decodeDeferredObject(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, AnyObject?) throws -> Void) throws

  /// What `Fields(coder: self)` makes of the current object's plain fields (those that refer to no other object); a
  /// coder that decodes the same object many times (a cached nib's, on every instantiation) may hand back the result
  /// of an earlier decoding of the object instead of running the initialiser again (COD-230). Default:
  /// `try Fields(coder: self)`; coders may override it.
  func decodePlainFields<Fields: PlainFields>(_ type: Fields.Type) throws -> Fields

  /// `true` when every decoded class must be allowed explicitly and support secure coding. Required.
  var requiresSecureCoding: Bool { get }

  /// The registry that names this coder's classes: the typed calls (``decodeObject(of:forKey:)->T?``…) turn Swift
  /// types into allowed class names through it. Default: ``ClassRegistry/shared``.
  var registry: ClassRegistry { get }

  /// What a failing decode call does. Required.
  var decodingFailurePolicy: DecodingFailurePolicy { get }

  /// The first error recorded by ``failWithError(_:)`` or by a failing call under
  /// ``DecodingFailurePolicy/setErrorAndReturn``. Required.
  var error: (any Error)? { get }

  /// Records that decoding failed (for example from an `init(coder:)` that found inconsistent fields). The
  /// top-level decode throws the first recorded error. Required.
  func failWithError(_ error: any Error)

  /// A string object; missing is `nil`. Default: ``decodeObject(of:forKey:)->T?`` with `String`; coders override it
  /// with a faster path that gives the same results.
  func decodeString(forKey key: String) throws -> String?

  /// A data object; missing is `nil`. Default: ``decodeObject(of:forKey:)->T?`` with `Data`; coders may override it.
  func decodeData(forKey key: String) throws -> Data?

  /// A 64-bit integer; missing is 0. Default: built on ``decodeValue(forKey:)``; coders may override it.
  func decodeInt64(forKey key: String) throws -> Int64

  /// A 64-bit real; missing is 0. Default: built on ``decodeValue(forKey:)``; coders may override it.
  func decodeDouble(forKey key: String) throws -> Double

  /// A boolean; missing is `false`. Default: built on ``decodeValue(forKey:)``; coders may override it.
  func decodeBool(forKey key: String) throws -> Bool

  /// An array whose elements are all of type `T`; missing is `nil`. Default:
  /// `defaultDecodeArrayOfObjects(ofClass:forKey:)`; coders may override it with a faster path that gives the
  /// same results.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the object is not an array or an element is not a `T`.
  func decodeArrayOfObjects<T>(ofClass type: T.Type, forKey key: String) throws -> [T]?

  /// The objects of a collection under a key, in order, as references, `nil` elements left out; missing is `nil`:
  /// for a collection whose elements' classes the caller checks itself (a view's subviews), which a coder can answer
  /// without a cast or a box per element (COD-238). Default:
  /// `defaultDecodeObjectReferences(forKey:)`; coders may override it with a faster path that gives the same
  /// results.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the object is not an array or an element is not a class
  ///   instance.
  func decodeObjectReferences(forKey key: String) throws -> [AnyObject]?

  /// The archived class names the decode call that reached the current object allows, as `NSCoder.allowedClasses`:
  /// inside the `init(coder:)` of an object decoded with `decodeObject(of: [A.self, B.self], …)` under secure
  /// coding, the names of `A` and `B` (a container class passes them on to its elements); `nil` when any class is
  /// allowed (secure coding off, or outside any object). Default: `nil`; coders that track it override it.
  var allowedClasses: Set<String>? { get }

  /// The version of the class named `className` in effect for this archive, as `NSCoder.version(forClassName:)`:
  /// the version the archive recorded for it (``classVersionSource``), else the ``Coding/classVersion`` of the class
  /// the coder decodes the name as, else `NSNotFound`. Default: `defaultVersion(forClassName:)`, which asks the
  /// ``registry``; coders with classes of their own for some names override it.
  func version(forClassName className: String) -> Int

  /// Where ``version(forClassName:)`` finds the class versions a stream recorded (``ClassVersionSource``), or `nil`
  /// when the format records none (keyed archives: Apple's keyed archiver writes no class versions). Default: `nil`.
  var classVersionSource: (any ClassVersionSource)? { get }

  /// `true` for a keyed coder, `false` for a sequential one (a typedstream), as `NSCoder.allowsKeyedCoding`: an
  /// ``Coding/init(coder:)`` that reads both formats asks it first. Default: `true`.
  var allowsKeyedCoding: Bool { get }

  /// The values of the next typed group of the current object, in order, one for each type of `types` (a type
  /// encoding such as `"i"`, `"iI"` or `"{_NSPoint=ff}"`), as `NSCoder.decodeValues(ofObjCTypes:)`; objects are
  /// decoded. Default: throws `unsupportedFormat` (a keyed coder has no values in order).
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the group was written with another encoding, or the object
  ///   has no more groups.
  func decodeValues(ofObjCTypes types: String) throws -> [SequentialValue]

  /// The next unkeyed object, as `NSCoder.decodeObject()`: for a sequential coder the next `@` group. Default:
  /// ``decodeValues(ofObjCTypes:)`` with `"@"`.
  func decodeObject() throws -> Any?
}

extension DecodingCoder {
  /// Default: `nil` (any class).
  public var allowedClasses: Set<String>? { nil }

  /// Default: `nil` (the format records no class versions).
  public var classVersionSource: (any ClassVersionSource)? { nil }

  /// Runs a throwing decode under the failure policy: throws, or records the error and returns `fallback`.
  public func applyingFailurePolicy<T>(_ fallback: T, _ body: () throws -> T) throws -> T {
    if decodingFailurePolicy == .setErrorAndReturn, error != nil { return fallback }
    do {
      return try body()
    } catch {
      guard decodingFailurePolicy == .setErrorAndReturn else { throw error }
      failWithError(error)
      return fallback
    }
  }

  private func mismatch(_ expected: String, _ found: CodedValue, _ key: String) -> ArchiveError {
    ArchiveError(.typeMismatch, "expected \(expected), found \(found.typeName)", at: .init(keyPath: key))
  }

  /// A boolean; missing is `false`. Integers decode as `value != 0`.
  public func decodeBool(forKey key: String) throws -> Bool { try defaultDecodeBool(forKey: key) }

  /// The default implementation of ``decodeBool(forKey:)``, for coders that override it to fall back on.
  package func defaultDecodeBool(forKey key: String) throws -> Bool {
    try applyingFailurePolicy(false) {
      switch try decodeValue(forKey: key) {
      case nil: return false
      case .bool(let v): return v
      case .integer(let v): return v != 0
      case .unsignedInteger: return true
      case .string(let text)?:
        // XML front ends present attributes as text: YES/NO, true/false, 1/0.
        switch text {
        case "YES", "true", "1": return true
        case "NO", "false", "0", "": return false
        default: throw mismatch("a boolean", .string(text), key)
        }
      case let other?: throw mismatch("a boolean", other, key)
      }
    }
  }

  /// A 64-bit integer; missing is 0. Booleans decode as 0 or 1; an integer that does not fit is an error.
  public func decodeInt64(forKey key: String) throws -> Int64 { try defaultDecodeInt64(forKey: key) }

  /// The default implementation of ``decodeInt64(forKey:)``, for coders that override it to fall back on.
  package func defaultDecodeInt64(forKey key: String) throws -> Int64 {
    try decodeInteger(Int64.self, forKey: key)
  }

  /// An integer of any fixed width; missing is 0; a value out of the type's range is an error.
  public func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, forKey key: String) throws -> T {
    try applyingFailurePolicy(0) {
      let wide: Int64
      switch try decodeValue(forKey: key) {
      case nil: return 0
      case .unsignedInteger(let v):
        guard let exact = T(exactly: v) else {
          throw ArchiveError(.typeMismatch, "integer \(v) does not fit in \(T.self)", at: .init(keyPath: key))
        }
        return exact
      case .integer(let v): wide = v
      case .bool(let v): wide = v ? 1 : 0
      case .string(let text)?:
        guard let v = Int64(text) else { throw mismatch("an integer", .string(text), key) }
        wide = v
      case let other?: throw mismatch("an integer", other, key)
      }
      guard let exact = T(exactly: wide) else {
        throw ArchiveError(.typeMismatch, "integer \(wide) does not fit in \(T.self)", at: .init(keyPath: key))
      }
      return exact
    }
  }

  /// An `Int`; missing is 0.
  public func decodeInt(forKey key: String) throws -> Int {
    if Int.bitWidth == 64 { return Int(truncatingIfNeeded: try decodeInt64(forKey: key)) }
    return try decodeInteger(Int.self, forKey: key)
  }
  /// An `Int32`; missing is 0.
  public func decodeInt32(forKey key: String) throws -> Int32 { try decodeInteger(Int32.self, forKey: key) }
  /// A `UInt64`; missing is 0.
  public func decodeUInt64(forKey key: String) throws -> UInt64 { try decodeInteger(UInt64.self, forKey: key) }

  /// A 64-bit real; missing is 0. 32-bit reals and integers convert.
  public func decodeDouble(forKey key: String) throws -> Double { try defaultDecodeDouble(forKey: key) }

  /// The default implementation of ``decodeDouble(forKey:)``, for coders that override it to fall back on.
  package func defaultDecodeDouble(forKey key: String) throws -> Double {
    try applyingFailurePolicy(0) {
      switch try decodeValue(forKey: key) {
      case nil: return 0
      case .double(let v): return v
      case .float(let v): return Double(v)
      case .integer(let v): return Double(v)
      case .unsignedInteger(let v): return Double(v)
      case .string(let text)?:
        guard let v = Double(text) else { throw mismatch("a real", .string(text), key) }
        return v
      case let other?: throw mismatch("a real", other, key)
      }
    }
  }

  /// A 32-bit real; missing is 0. 64-bit reals and integers convert.
  public func decodeFloat(forKey key: String) throws -> Float {
    try applyingFailurePolicy(0) {
      switch try decodeValue(forKey: key) {
      case .float(let v)?: return v
      default: return Float(try decodeDouble(forKey: key))
      }
    }
  }

  /// Raw bytes written with `encodeBytes`; missing is `nil`.
  public func decodeBytes(forKey key: String) throws -> Data? {
    try applyingFailurePolicy(nil) {
      switch try decodeValue(forKey: key) {
      case nil: return nil
      case .bytes(let v): return v
      case let other?: throw mismatch("bytes", other, key)
      }
    }
  }

  /// The shared registry.
  public var registry: ClassRegistry { .shared }

  /// Any object, of any class (refused when secure coding is required: use ``decodeObject(of:forKey:)->T?``).
  public func decodeObject(forKey key: String) throws -> Any? {
    try applyingFailurePolicy(nil) { try decodeObject(forKey: key, allowedClasses: nil) }
  }

  /// An object of one of the given types (Swift types: `String.self`, `[Any].self`, a ``Coding`` class, …).
  public func decodeObject(of types: [Any.Type], forKey key: String) throws -> Any? {
    try applyingFailurePolicy(nil) {
      try decodeObject(forKey: key, allowedClasses: registry.allowedClassNames(for: types))
    }
  }

  /// An object of type `T`, or `nil` when the key is absent or holds `nil`.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) when the object is of another type.
  public func decodeObject<T>(of type: T.Type, forKey key: String) throws -> T? {
    try applyingFailurePolicy(nil) {
      // The allowed set only matters under secure coding: computing it takes the registry's lock.
      let allowed = requiresSecureCoding ? registry.allowedClassNames(for: [type]) : nil
      let object = try decodeObject(forKey: key, allowedClasses: allowed)
      guard let object else { return nil }
      if let arrayType = T.self as? any ArrayElementCasting.Type, let elements = object as? [Any] {
        guard let typed = arrayType.castElements(elements) as? T else {
          throw ArchiveError(
            .typeMismatch, "expected \(T.self), found an array with elements of other types", at: .init(keyPath: key))
        }
        return typed
      }
      guard let typed = ArchivedValueCast.cast(object, to: T.self) else {
        throw ArchiveError(
          .typeMismatch, "expected \(T.self), found \(Swift.type(of: object))", at: .init(keyPath: key))
      }
      return typed
    }
  }

  /// A string object; missing is `nil`.
  public func decodeString(forKey key: String) throws -> String? { try decodeObject(of: String.self, forKey: key) }

  /// A data object; missing is `nil`.
  public func decodeData(forKey key: String) throws -> Data? { try decodeObject(of: Data.self, forKey: key) }

  /// An array whose elements are all of type `T`; missing is `nil`.
  public func decodeArrayOfObjects<T>(ofClass type: T.Type, forKey key: String) throws -> [T]? {
    try defaultDecodeArrayOfObjects(ofClass: type, forKey: key)
  }

  /// The default implementation of ``decodeArrayOfObjects(ofClass:forKey:)``, for coders that override it to fall
  /// back on: decodes the object under `key` allowing arrays and `T`, then casts each element.
  package func defaultDecodeArrayOfObjects<T>(ofClass type: T.Type, forKey key: String) throws -> [T]? {
    try applyingFailurePolicy(nil) {
      // `[T]` allows the array classes and `T`'s.
      let allowed = registry.allowedClassNames(for: [[T].self])
      guard let object = try decodeObject(forKey: key, allowedClasses: allowed) else { return nil }
      return try castArrayOfObjects(object, to: type, forKey: key)
    }
  }

  /// `object`, decoded for ``decodeArrayOfObjects(ofClass:forKey:)``, as `[T]`: an `[Any]` is cast element by
  /// element; the error names the first element that is not a `T`.
  package func castArrayOfObjects<T>(_ object: Any, to type: T.Type, forKey key: String) throws -> [T] {
    guard let array = object as? [Any] else {
      throw ArchiveError(.typeMismatch, "expected an array, found \(Swift.type(of: object))", at: .init(keyPath: key))
    }
    return try array.enumerated().map { index, element in
      guard let typed = element as? T else {
        throw ArchiveError(
          .typeMismatch, "expected \(T.self), found \(Swift.type(of: element))", at: .init(keyPath: "\(key)[\(index)]"))
      }
      return typed
    }
  }

  /// Decodes the object under `key` after construction and stores it in `keyPath` of the object being decoded
  /// (the link phase). Use it for back references (`parent`, `delegate`, `previous`) and anything that may form a
  /// cycle.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) from the link phase when the object is not a `Value`.
  public func decodeReference<Root: AnyObject, Value>(
    forKey key: String, into keyPath: ReferenceWritableKeyPath<Root, Value?>
  ) throws {
    let allowed = requiresSecureCoding ? registry.allowedClassNames(for: [Value.self]) : nil
    try decodeDeferred(forKey: key, allowedClasses: allowed) { object, value in
      guard let root = object as? Root else {
        throw ArchiveError(
          .typeMismatch, "the decoded object is a \(Swift.type(of: object)), not the \(Root.self) the key path expects",
          at: .init(keyPath: key))
      }
      guard let value else {
        root[keyPath: keyPath] = nil
        return
      }
      guard let typed = value as? Value else {
        throw ArchiveError(
          .typeMismatch, "expected \(Value.self), found \(Swift.type(of: value))", at: .init(keyPath: key))
      }
      root[keyPath: keyPath] = typed
    }
  }
}

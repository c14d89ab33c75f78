import ArchiveCoding
import Foundation
import FoundationForms

/// Arrays whose elements the unarchiver collects straight into the array type asked for, without the `[Any]` step
/// and the element-by-element cast of ``DecodingCoder/decodeObject(of:forKey:)``.
protocol TypedElementCollecting: RangeReplaceableCollection {
  /// Decodes the current object's `NS.objects` as this array type, or gives `nil` when an element is of another
  /// type or the array uses the old layout (the caller then takes the general path, which reports the error).
  static func collectElements(in coder: KeyedUnarchiver, allowed: Set<String>?) throws -> Any?
}

// In a protocol extension, not an extension of `Array`: a method of `Array`'s own extension is handed `Element`'s
// metadata only, and every use of `Self` in it (the empty array, boxing the result) looks up `[Element]`'s, a
// hashed lookup. Here `Self`'s metadata is an argument.
extension TypedElementCollecting {
  static func collectElements(in coder: KeyedUnarchiver, allowed: Set<String>?) throws -> Any? {
    guard let array = try coder.referenceArray(FoundationKeys.nsObjects) else { return nil }
    let count = array.count
    var result = Self()
    if count == 0 { return result }
    result.reserveCapacity(count)
    let elementType = ObjectIdentifier(Element.self)
    for index in 0..<count {
      let uid = try coder.reference(array, index)
      // `nil` elements are dropped, as in `elements(allowed:)`.
      guard let value = try coder.decode(uid: uid, key: FoundationKeys.nsObjects, index: index, allowed: allowed)
      else { continue }
      // A class instance whose dynamic type is exactly `Element` needs no dynamic cast: `Element` is then that
      // class type, a single reference like `AnyObject`, so the bit cast only restates the type.
      if let instance = coder.decodedInstance(uid), ObjectIdentifier(type(of: instance)) == elementType {
        result.append(unsafeBitCast(instance, to: Element.self))
        continue
      }
      guard append(value, to: &result) else { return nil }
    }
    return result
  }

  /// Appends `value` when it is an `Element`, out of line: `as? Element` needs an `Element?`, whose metadata the
  /// caller would look up on every call even when no element needs the cast.
  @inline(never)
  private static func append(_ value: Any, to result: inout Self) -> Bool {
    guard let element = value as? Element else { return false }
    result.append(element)
    return true
  }
}

extension Array: TypedElementCollecting {}

extension KeyedUnarchiver {
  /// ``DecodingCoder/decodeObject(of:forKey:)`` for a top-level key, with the protocol's results and errors: an
  /// array type is collected directly (``TypedElementCollecting``), a type that is neither an array nor cast element
  /// by element is decoded and cast once, without the generic path's lookups of `T?`; anything else, and any array the
  /// direct path declines, takes the protocol's general path.
  func decodeTopLevelObject<T>(of type: T.Type, forKey key: String) throws -> T? {
    guard nestingDepth == 0, decodingFailurePolicy == .throwError else {
      return try (self as any DecodingCoder).decodeObject(of: type, forKey: key)
    }
    let allowed = requiresSecureCoding ? registry.allowedClassNames(for: type) : nil
    let collecting = type as? any TypedElementCollecting.Type
    if collecting == nil, !(type is any ArrayElementCasting.Type) {
      guard let object = try decodeObject(forKey: key, allowedClasses: allowed) else { return nil }
      guard let typed = ArchivedValueCast.cast(object, to: T.self) else {
        throw ArchiveError(
          .typeMismatch, "expected \(T.self), found \(Swift.type(of: object))", at: .init(keyPath: key))
      }
      return typed
    }
    let object = try located(key) { () -> Any? in
      guard let ref = fieldRef(key) else { return nil }
      return try self.object(atFieldRef: ref, key: key, allowed: allowed, collecting: collecting)
    }
    guard let object else { return nil }
    if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self), let typed = object as? T { return typed }
    // Decoded the general way (now cached): cast as the protocol's default does.
    return try (self as any DecodingCoder).decodeObject(of: type, forKey: key)
  }

  /// An array whose elements are all of type `T`; missing is `nil`. The same results and errors as
  /// `DecodingCoder.defaultDecodeArrayOfObjects(ofClass:forKey:)`, but an array not decoded yet is collected
  /// straight into `[T]` (`TypedElementCollecting`) instead of through `[Any]` and a cast per element.
  public func decodeArrayOfObjects<T>(ofClass type: T.Type, forKey key: String) throws -> [T]? {
    guard decodingFailurePolicy == .throwError else {
      return try defaultDecodeArrayOfObjects(ofClass: type, forKey: key)
    }
    // `[T]` allows the array classes and `T`'s, as the default implementation.
    let allowed = registry.allowedClassNames(for: [T].self)
    let object = try located(key) { () -> Any? in
      guard let ref = fieldRef(key) else { return nil }
      return try self.object(atFieldRef: ref, key: key, allowed: allowed, collecting: [T].self)
    }
    guard let object else { return nil }
    if let typed = object as? [T] { return typed }
    return try castArrayOfObjects(object, to: type, forKey: key)
  }

  /// The array type the call that reached the current object asked for (an array object being decoded), once: the
  /// arrays its elements hold are collected as `[Any]`.
  func takeCollector() -> (any TypedElementCollecting.Type)? {
    store.state.frames.takeCollector()
  }
}

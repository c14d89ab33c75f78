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
  /// The array type an array object about to be decoded is collected into, and the nesting depth that object is
  /// decoded at (the frame count while its `NS.objects` are read): only the object directly under the key takes it.
  struct PendingCollector {
    var type: any TypedElementCollecting.Type
    var depth: Int
  }

  /// The allowed class names of ``decodeArrayOfObjects(ofClass:forKey:)`` for one element type, kept with the
  /// registry generations they were computed at. A class: a call takes one reference to it, instead of copying its
  /// fields out (a retain each).
  final class ArrayAllowedMemo {
    let element: ObjectIdentifier
    /// `[T].self`, and its identity: naming `[T]` in unspecialised code looks up its metadata (a hashed lookup).
    let collecting: any TypedElementCollecting.Type
    let arrayType: ObjectIdentifier
    /// Held, not identified by address: a released registry's address may be reused by another.
    let registry: ClassRegistry
    let generation: Int
    let sharedGeneration: Int
    let names: Set<String>

    init(
      element: ObjectIdentifier, collecting: any TypedElementCollecting.Type, arrayType: ObjectIdentifier,
      registry: ClassRegistry, generation: Int, sharedGeneration: Int, names: Set<String>
    ) {
      self.element = element
      self.collecting = collecting
      self.arrayType = arrayType
      self.registry = registry
      self.generation = generation
      self.sharedGeneration = sharedGeneration
      self.names = names
    }
  }

  /// ``DecodingCoder/decodeObject(of:forKey:)`` for a top-level key: an array type is collected directly
  /// (``TypedElementCollecting``); everything else, and any array the direct path declines, takes the protocol's
  /// general path with the same results and errors.
  func decodeTopLevelObject<T>(of type: T.Type, forKey key: String) throws -> T? {
    guard nestingDepth == 0, decodingFailurePolicy == .throwError else {
      return try (self as any DecodingCoder).decodeObject(of: type, forKey: key)
    }
    let memo = TopLevelTypeMemo.memo(for: type, registry: registry)
    if memo.isPlain {
      // `decodeObject(of:forKey:)` for a type that is neither an array nor cast element by element, under the
      // throwing policy, with the allowed names remembered.
      guard let object = try decodeObject(forKey: key, allowedClasses: requiresSecureCoding ? memo.allowed : nil)
      else { return nil }
      guard let typed = ArchivedValueCast.cast(object, to: T.self) else {
        throw ArchiveError(
          .typeMismatch, "expected \(T.self), found \(Swift.type(of: object))", at: .init(keyPath: key))
      }
      return typed
    }
    guard let collecting = memo.collecting else {
      return try (self as any DecodingCoder).decodeObject(of: type, forKey: key)
    }
    state.pendingCollector = PendingCollector(type: collecting, depth: 1)
    defer { state.pendingCollector = nil }
    // The memo holds this unarchiver's registry's names: the shared registry's, for the static decode that calls this.
    let allowed = requiresSecureCoding ? memo.allowed : nil
    guard let object = try decodeObject(forKey: key, allowedClasses: allowed) else { return nil }
    if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self), let typed = object as? T { return typed }
    // Decoded the general way (now cached): cast as the protocol's default does.
    state.pendingCollector = nil
    return try (self as any DecodingCoder).decodeObject(of: type, forKey: key)
  }

  /// An array whose elements are all of type `T`; missing is `nil`. The same results and errors as
  /// `DecodingCoder.defaultDecodeArrayOfObjects(ofClass:forKey:)`, but an array not decoded yet is collected
  /// straight into `[T]` (`TypedElementCollecting`) instead of through `[Any]` and a cast per element, and the
  /// allowed class names are computed once per element type.
  public func decodeArrayOfObjects<T>(ofClass type: T.Type, forKey key: String) throws -> [T]? {
    guard decodingFailurePolicy == .throwError else {
      return try defaultDecodeArrayOfObjects(ofClass: type, forKey: key)
    }
    let memo = arrayMemo(T.self)
    let saved = state.pendingCollector
    state.pendingCollector = PendingCollector(type: memo.collecting, depth: nestingDepth + 1)
    defer { state.pendingCollector = saved }
    guard let object = try decodeObject(forKey: key, allowedClasses: memo.names) else { return nil }
    if ObjectIdentifier(Swift.type(of: object)) == memo.arrayType, let typed = object as? [T] {
      return typed
    }
    return try castArrayOfObjects(object, to: type, forKey: key)
  }

  /// The class names ``DecodingCoder/defaultDecodeArrayOfObjects(ofClass:forKey:)`` allows for element type `T`
  /// (arrays and `T`), and `[T]`'s collector, computed once per type while the registries do not change. The set
  /// kept is the same storage on every call, so the allowed-class memo of each class chain compares it by identity.
  private func arrayMemo<T>(_ type: T.Type) -> ArrayAllowedMemo {
    let registry = self.registry
    let element = ObjectIdentifier(T.self)
    // Read before computing: a registration made meanwhile changes them, and the next call recomputes.
    let generation = registry.generation
    let sharedGeneration = ClassRegistry.shared.generation
    if let memo = state.arrayAllowedMemo, memo.element == element, memo.registry === registry,
      memo.generation == generation, memo.sharedGeneration == sharedGeneration
    {
      return memo
    }
    var names = registry.allowedClassNames(for: [[Any].self])
    names.formUnion(registry.allowedClassNames(for: [type]))
    let memo = ArrayAllowedMemo(
      element: element, collecting: [T].self, arrayType: ObjectIdentifier([T].self), registry: registry,
      generation: generation, sharedGeneration: sharedGeneration, names: names)
    state.arrayAllowedMemo = memo
    return memo
  }

  /// The collector left for the array object being decoded at the current depth, taken once.
  func takeCollector() -> PendingCollector? {
    guard let pending = state.pendingCollector, pending.depth == nestingDepth else { return nil }
    state.pendingCollector = nil
    return pending
  }
}

import ArchiveCoding
import Foundation

/// Arrays whose elements the unarchiver collects straight into the array type asked for, without the `[Any]` step
/// and the element-by-element cast of ``DecodingCoder/decodeObject(of:forKey:)``.
protocol TypedElementCollecting {
  /// Decodes the current object's `NS.objects` as this array type, or gives `nil` when an element is of another
  /// type or the array uses the old layout (the caller then takes the general path, which reports the error).
  static func collectElements(in unarchiver: KeyedUnarchiver, allowed: Set<String>?) throws -> Any?
}

extension Array: TypedElementCollecting {
  static func collectElements(in unarchiver: KeyedUnarchiver, allowed: Set<String>?) throws -> Any? {
    guard let uids = try unarchiver.uidArray(ArchiveKeys.nsObjects) else { return nil }
    var result: [Element] = []
    result.reserveCapacity(uids.count)
    for (index, uid) in uids.enumerated() {
      // `nil` elements are dropped, as in `elements(allowed:)`.
      guard let value = try unarchiver.decode(uid: uid, key: ArchiveKeys.nsObjects, index: index, allowed: allowed)
      else { continue }
      guard let element = value as? Element else { return nil }
      result.append(element)
    }
    return result
  }
}

extension KeyedUnarchiver {
  /// ``DecodingCoder/decodeObject(of:forKey:)`` for a top-level key: an array type is collected directly
  /// (``TypedElementCollecting``); everything else, and any array the direct path declines, takes the protocol's
  /// general path with the same results and errors.
  func decodeTopLevelObject<T>(of type: T.Type, forKey key: String) throws -> T? {
    guard nestingDepth == 0, decodingFailurePolicy == .throwError,
      let collecting = T.self as? any TypedElementCollecting.Type
    else {
      return try (self as any DecodingCoder).decodeObject(of: type, forKey: key)
    }
    pendingCollector = collecting
    defer { pendingCollector = nil }
    let allowed = requiresSecureCoding ? ClassRegistry.shared.allowedClassNames(for: [type]) : nil
    guard let object = try decodeObject(forKey: key, allowedClasses: allowed) else { return nil }
    if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self), let typed = object as? T { return typed }
    // Decoded the general way (now cached): cast as the protocol's default does.
    pendingCollector = nil
    return try (self as any DecodingCoder).decodeObject(of: type, forKey: key)
  }

  /// The collector a top-level ``decodeTopLevelObject(of:forKey:)`` left for the array it decodes, taken once.
  func takeCollector() -> (any TypedElementCollecting.Type)? {
    guard nestingDepth == 1, let collector = pendingCollector else { return nil }
    pendingCollector = nil
    return collector
  }
}

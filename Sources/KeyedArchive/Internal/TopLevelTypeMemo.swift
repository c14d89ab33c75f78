import ArchiveCoding
import Synchronization

/// What ``KeyedUnarchiver/unarchivedObject(ofClass:from:options:)`` works out about the type it is asked for, kept
/// for the next call with that type: whether it is an array type to collect into, whether it is a plain type
/// (neither collected as an array nor cast element by element), and the class names it allows, with the registry
/// generations they were computed at.
///
/// Decoding a small archive repeats this for every archive: two conformance checks, an array for the allowed-class
/// lookup, the registry's lock and hash, and three lookups of `T?`'s metadata in the generic path. One entry is
/// kept, process-wide (the last type asked for); another type replaces it.
///
/// A final class, so that taking it out of the lock is one retain, not a copy of each field and its release.
/// `@unchecked`: every field is immutable; the metatype is `Array`'s, whose conformance is not isolated (as
/// `ClassRegistry.Resolution` holds its class).
final class TopLevelTypeMemo: @unchecked Sendable {
  let type: ObjectIdentifier
  /// Held, not identified by address: a released registry's address may be reused by another.
  let registry: ClassRegistry
  let generation: Int
  let sharedGeneration: Int
  /// The type as an array type the unarchiver collects into, or `nil`.
  let collecting: (any TypedElementCollecting.Type)?
  /// `false` for an array type or one whose value is cast element by element: those take the array paths.
  let isPlain: Bool
  let allowed: Set<String>

  private static let last = Mutex<TopLevelTypeMemo?>(nil)

  private init(
    type: ObjectIdentifier, registry: ClassRegistry, generation: Int, sharedGeneration: Int,
    collecting: (any TypedElementCollecting.Type)?, isPlain: Bool, allowed: Set<String>
  ) {
    self.type = type
    self.registry = registry
    self.generation = generation
    self.sharedGeneration = sharedGeneration
    self.collecting = collecting
    self.isPlain = isPlain
    self.allowed = allowed
  }

  /// The memo for `type` in `registry`, computed when the last one was for another type or registry, or the
  /// registries changed since. `type` is the metatype the caller passed, not its static type: a subclass passed as
  /// its base class's type allows the subclass only, as the general path does.
  static func memo(for type: Any.Type, registry: ClassRegistry) -> TopLevelTypeMemo {
    let id = ObjectIdentifier(type)
    // Read before computing: a registration made meanwhile changes them, and the next call recomputes.
    let generation = registry.generation
    let sharedGeneration = ClassRegistry.shared.generation
    if let memo = last.withLock({ $0 }), memo.type == id, memo.registry === registry,
      memo.generation == generation, memo.sharedGeneration == sharedGeneration
    {
      return memo
    }
    let collecting = type as? any TypedElementCollecting.Type
    let memo = TopLevelTypeMemo(
      type: id, registry: registry, generation: generation, sharedGeneration: sharedGeneration,
      collecting: collecting, isPlain: collecting == nil && !(type is any ArrayElementCasting.Type),
      allowed: registry.allowedClassNames(for: [type]))
    last.withLock { $0 = memo }
    return memo
  }
}

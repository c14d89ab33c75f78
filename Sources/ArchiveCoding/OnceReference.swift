import Synchronization

/// A reference that is set at most once and read without a lock, for the parts of an object made on first use
/// (a view's layer, an object's observers, a nib object's recorded lookups).
///
/// What `AtomicLazyReference` does, at a fraction of the cost on these paths: that type is generic and its
/// `load()` is a call into the library that costs some 600 instructions with the metadata it asks for. This one is
/// not generic (it holds an `AnyObject`), so creating and destroying it asks for no metadata, and its typed
/// accessors are inlined at each use. Holds one reference to the stored instance, released with this value.
///
/// Public as an SPI only (`@_spi(ArchiveCodingInternals) import ArchiveCoding`), with `package` members: the
/// `@inlinable` members of a `package` type are not inlined into other modules (Decision 0022), and the nib
/// instantiation and every view read it per object.
@_spi(ArchiveCodingInternals)
public struct OnceReference: ~Copyable, @unchecked Sendable {
  // Unchecked: the stored reference is published with release ordering and read with acquire ordering, like
  // `AtomicLazyReference`, and never replaced once set.
  @usableFromInline let storage: Atomic<Unmanaged<AnyObject>?>

  /// An empty reference.
  @inlinable package init() { storage = Atomic(nil) }

  /// The stored instance, or `nil` before one is stored (or when it is not a `T`: each owner stores one type).
  @inlinable package func load<T: AnyObject>(_ type: T.Type) -> T? {
    // This value holds a reference to the instance until it is destroyed, which cannot happen during the call.
    guard let stored = storage.load(ordering: .acquiring)?.takeUnretainedValue() else { return nil }
    // An instance of exactly `T` (what each owner stores) needs no dynamic cast.
    if ObjectIdentifier(Swift.type(of: stored)) == ObjectIdentifier(T.self) {
      return unsafeDowncast(stored, to: T.self)
    }
    return stored as? T
  }

  /// The stored instance, unretained: valid while this value is (the instance is never replaced), for callers that
  /// hold it no longer than that and know its type.
  @inlinable package func loadUnmanaged() -> Unmanaged<AnyObject>? { storage.load(ordering: .acquiring) }

  /// Stores `desired` unless an instance is stored already; returns the stored instance, or `desired` when the
  /// stored one is not a `T`.
  @inlinable package func storeIfNil<T: AnyObject>(_ desired: T) -> T {
    let retained = Unmanaged<AnyObject>.passRetained(desired)
    let (exchanged, original) = storage.compareExchange(
      expected: nil, desired: retained, ordering: .acquiringAndReleasing)
    guard !exchanged, let original else { return desired }
    retained.release()
    return original.takeUnretainedValue() as? T ?? desired
  }

  @inlinable deinit { storage.load(ordering: .acquiring)?.release() }
}

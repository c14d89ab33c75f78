import PropertyList

/// Limits and policies for reading keyed archives from untrusted bytes.
public struct KeyedUnarchiverOptions: Sendable {
  /// Limits of the property-list container.
  public var propertyList = PropertyListDecodingOptions()
  /// The deepest nesting of objects decoded inside one another's `init(coder:)` (deferred references do not
  /// count). Default 1,000: real nibs nest far less; a linked list should decode its links with
  /// `decodeReference(forKey:into:)`. Whatever this allows, nesting also stops with a limit error when the
  /// decoding thread's stack runs low (a small secondary-thread stack, a debug build's larger frames).
  public var maxDepth = 1000
  /// The most entries `$objects` may have. Default 64 Mi.
  public var maxObjectCount = 1 << 26
  /// The most class names a class description's `$classes` or `$classhints` may list. Default 1,000: real
  /// hierarchies are a few dozen deep, and every class description reads its lists (ARC-043).
  public var maxClassChainLength = 1000
  /// The longest class name (in characters: bytes of an ASCII name, UTF-16 units otherwise) a class description may
  /// give in `$classname`, `$classes` or `$classhints`. Default 1,024, as for nib class names (NIBA-050): every
  /// name is hashed and compared while its class is resolved, and a registry remembers the names it resolves.
  public var maxClassNameLength = 1024

  /// Creates the default options.
  public init() {}

  /// The default options.
  public static let `default` = KeyedUnarchiverOptions()
}

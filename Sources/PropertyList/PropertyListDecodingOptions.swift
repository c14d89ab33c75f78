/// Limits applied while reading property lists from untrusted bytes.
///
/// Every limit is a defence: a hostile file cannot make the reader recurse, allocate or loop past them. The
/// defaults accept every real property list and keyed archive we know of.
public struct PropertyListDecodingOptions: Sendable, Hashable {
  /// The deepest nesting of arrays, sets and dictionaries accepted. Default 512.
  public var maxDepth: Int = 512
  /// The most objects a binary property list may declare. Default 64 Mi.
  public var maxObjectCount: Int = 1 << 26
  /// The largest input accepted, in bytes. Default 2 GiB.
  public var maxTotalBytes: Int = 1 << 31
  /// The longest string accepted, in UTF-16 code units or bytes. Default 256 Mi.
  public var maxStringLength: Int = 1 << 28
  /// The longest data value accepted, in bytes. Default 1 GiB.
  public var maxDataLength: Int = 1 << 30
  /// The most elements one array, set or dictionary may have. Default 64 Mi.
  public var maxCollectionCount: Int = 1 << 26
  /// The most values a fully materialised property list may hold, counting a shared container once per
  /// reference: a binary property list can share containers, and a chain of arrays that each hold the previous
  /// one twice would otherwise expand exponentially. Default 128 Mi.
  public var maxExpandedValueCount: Int = 1 << 27

  /// Creates options with the default limits.
  public init() {}

  /// The default limits.
  public static let `default` = PropertyListDecodingOptions()
}

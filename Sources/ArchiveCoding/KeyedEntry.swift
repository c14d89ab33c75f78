/// A value stored under a key, as every format of the package has them: an object's field in an ``ObjectTable``
/// (`ObjectField`), an entry of a property-list dictionary, a property of a XIB object.
public struct KeyedEntry<Key: Sendable & Hashable, Value: Sendable & Hashable>: Sendable, Hashable {
  /// The key, as the format names it (`"text"`, `"frame"`, `"UIText"`, `"NSFrame"`, or a property-list key).
  public var key: Key
  /// The value.
  public var value: Value

  /// Creates an entry.
  public init(key: Key, value: Value) {
    self.key = key
    self.value = value
  }
}

extension Array {
  /// `count` copies of `value`, as `init(repeating:count:)` makes them, but allocated through the path the
  /// compiler specialises for `Element`.
  ///
  /// `init(repeating:count:)` allocates through a standard-library entry point that is not specialised: it looks
  /// up the storage class's metadata for `Element` in the runtime's tables on every call, a cost every decoder
  /// pays for each of its per-archive tables. Here the allocation is `reserveCapacity`'s, whose metadata access is
  /// cached after its first use.
  /// - Precondition: `count >= 0`.
  static func filled(with value: Element, count: Int) -> [Element] {
    var array: [Element] = []
    array.reserveCapacity(count)
    array.append(contentsOf: repeatElement(value, count: count))
    return array
  }
}

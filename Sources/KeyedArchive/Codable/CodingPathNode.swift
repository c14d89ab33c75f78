/// A coding path as a linked list, so that nesting a value costs one small node instead of a copied array; the
/// `[CodingKey]` array is built only when asked for (errors, `codingPath`).
enum CodingPathNode {
  case root
  indirect case node(any CodingKey, CodingPathNode, depth: Int)

  /// The path one key deeper.
  func appending(_ key: any CodingKey) -> CodingPathNode { .node(key, self, depth: depth + 1) }

  /// The path one index deeper (an element of an unkeyed container).
  func appending(index: Int) -> CodingPathNode { appending(ArchiveCodingKey(intValue: index)) }

  /// The number of keys.
  var depth: Int {
    switch self {
    case .root: 0
    case .node(_, _, let depth): depth
    }
  }

  /// The last key as text (`name`, or `[3]` for an index), for the unarchiver's key paths.
  var lastComponent: String {
    guard case .node(let key, _, _) = self else { return "" }
    return ArchiveCodingKey.describe([key])
  }

  /// The keys from the root.
  var keys: [any CodingKey] {
    var keys: [any CodingKey] = []
    var current = self
    while case .node(let key, let parent, _) = current {
      keys.append(key)
      current = parent
    }
    return keys.reversed()
  }
}

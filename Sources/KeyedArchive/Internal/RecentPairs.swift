/// The last four pairs of non-negative integers remembered by a lookup (a key and what it led to), replaced in
/// turn: checking four pairs costs less than hashing one key, and objects of a handful of classes usually alternate
/// (a node and its children array; a dictionary, its array and its date).
///
/// The pairs are stored inline (no array): an unarchiver has two of these, and a small archive paid two heap
/// buffers each for them.
struct RecentPairs {
  private var keys: (Int, Int, Int, Int) = (-1, -1, -1, -1)
  private var values: (Int, Int, Int, Int) = (-1, -1, -1, -1)
  private var next = 0

  /// The value remembered for `key`, or `nil`.
  @inline(__always)
  func value(for key: Int) -> Int? {
    if keys.0 == key { return values.0 }
    if keys.1 == key { return values.1 }
    if keys.2 == key { return values.2 }
    if keys.3 == key { return values.3 }
    return nil
  }

  /// The `i`th pair (`-1, -1` when empty), for callers that test each pair themselves.
  @inline(__always)
  func pair(_ i: Int) -> (key: Int, value: Int) {
    switch i & 3 {
    case 0: (keys.0, values.0)
    case 1: (keys.1, values.1)
    case 2: (keys.2, values.2)
    default: (keys.3, values.3)
    }
  }

  /// The number of pairs.
  static let count = 4

  /// Remembers `value` for `key`, replacing the oldest pair.
  mutating func insert(_ value: Int, for key: Int) {
    switch next {
    case 0: (keys.0, values.0) = (key, value)
    case 1: (keys.1, values.1) = (key, value)
    case 2: (keys.2, values.2) = (key, value)
    default: (keys.3, values.3) = (key, value)
    }
    next = (next + 1) & 3
  }
}

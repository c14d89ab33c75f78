/// The last four pairs of non-negative integers remembered by a lookup (a key and what it led to), replaced in
/// turn: checking four pairs costs less than hashing one key, and objects of a handful of classes usually alternate
/// (a node and its children array; a dictionary, its array and its date).
struct RecentPairs {
  private var keys: [Int] = [-1, -1, -1, -1]
  private var values: [Int] = [-1, -1, -1, -1]
  private var next = 0

  /// The value remembered for `key`, or `nil`.
  @inline(__always)
  func value(for key: Int) -> Int? {
    for i in 0..<4 where keys[i] == key { return values[i] }
    return nil
  }

  /// The `i`th pair (`-1, -1` when empty), for callers that test each pair themselves.
  @inline(__always)
  func pair(_ i: Int) -> (key: Int, value: Int) { (keys[i], values[i]) }

  /// The number of pairs.
  static let count = 4

  /// Remembers `value` for `key`, replacing the oldest pair.
  mutating func insert(_ value: Int, for key: Int) {
    keys[next] = key
    values[next] = value
    next = (next + 1) & 3
  }
}

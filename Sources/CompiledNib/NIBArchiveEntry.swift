/// One (key, value) entry of a NIBArchive object.
public struct NIBArchiveEntry: Hashable, Sendable {
  /// The entry's index in the values table.
  public var valueIndex: Int
  /// The index in the keys table of the entry's key (the first key with that name when names repeat, NIBA-009).
  public var keyIndex: Int
  /// The key.
  public var key: String
  /// The value.
  public var value: NIBArchiveValue
}

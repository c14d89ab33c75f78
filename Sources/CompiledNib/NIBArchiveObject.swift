/// One record of a NIBArchive objects table (rule NIBA-014): which class, which slice of the values table.
public struct NIBArchiveObject: Hashable, Sendable {
  /// The object's index in the objects table; references (type code 10) use it.
  public var index: Int
  /// The index of the object's class in the class-name table.
  public var classIndex: Int
  /// The indices in the values table of the object's entries, in stored order.
  public var valueRange: Range<Int>
}

/// The fixed 50-byte header of a NIBArchive file (rule NIBA-002).
public struct NIBArchiveHeader: Hashable, Sendable {
  /// The format version (offset 10); only 0 and 1 are accepted.
  public var formatVersion: Int
  /// The coder version (offset 14): 9 or 10 in files written by Xcode; not checked.
  public var coderVersion: Int
  /// The number of objects (offset 18).
  public var objectCount: Int
  /// The objects table's absolute offset (offset 22).
  public var objectsOffset: Int
  /// The number of keys (offset 26).
  public var keyCount: Int
  /// The keys table's absolute offset (offset 30).
  public var keysOffset: Int
  /// The number of values (offset 34).
  public var valueCount: Int
  /// The values table's absolute offset (offset 38).
  public var valuesOffset: Int
  /// The number of class names (offset 42).
  public var classNameCount: Int
  /// The class-name table's absolute offset (offset 46).
  public var classNamesOffset: Int
}

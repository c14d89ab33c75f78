/// One entry of a NIBArchive class-name table (rule NIBA-008).
public struct NIBArchiveClass: Hashable, Sendable {
  /// The class name, without its terminating NUL.
  public var name: String
  /// Indices into the same table of the classes to use, in order, when ``name`` is unknown at load time.
  public var fallbackIndices: [Int]
}

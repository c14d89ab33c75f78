/// An `NSSortDescriptor` as archives hold it: the key path it sorts by, the direction and the name of the comparison
/// selector. Foundation on Linux has no `NSSortDescriptor` that archives or takes a string key, so archived sort
/// descriptors (a table column's sort prototype, a fetch request's ordering) decode as this value and archive from
/// it, with Apple's class name and keys (ARC-162).
public struct ArchivedSortDescriptor: Hashable, Sendable {
  /// The key path the descriptor sorts by (`NSKey`), or `nil` for a descriptor that compares the objects themselves.
  public var key: String?
  /// `true` to sort in ascending order (`NSAscending`).
  public var ascending: Bool
  /// The name of the comparison selector (`NSSelector`), such as `compare:` or `localizedStandardCompare:`, or
  /// `nil`.
  public var selector: String?

  /// Creates a sort descriptor.
  /// - Parameters:
  ///   - key: the key path to sort by, or `nil`.
  ///   - ascending: the direction; default ascending.
  ///   - selector: the comparison selector's name; default `compare:`, as `NSSortDescriptor(key:ascending:)`.
  public init(key: String?, ascending: Bool = true, selector: String? = "compare:") {
    self.key = key
    self.ascending = ascending
    self.selector = selector
  }
}

/// The fields of one node of the `tree-N` input: what every tree twin stores.
struct TreeNodeRecord: Equatable {
  /// The keys every keyed twin writes.
  enum Key {
    static let name = "name"
    static let value = "value"
    static let children = "children"
  }

  /// One of ``TreeInput/names`` (100 shared strings).
  var name: String
  /// The index of ``name`` in ``TreeInput/names``.
  var nameIndex: Int
  var value: Int
  /// Indices of the children in ``TreeInput/nodes``; always greater than this node's own index.
  var children: [Int]
}

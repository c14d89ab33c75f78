import ArchiveCoding
import Foundation
import FoundationForms

/// Compares two keyed archives or property lists by meaning, not bytes (ARC-170…ARC-176, ARC-300): both inputs are
/// read by their canonical walk (what `keyed dump --json` prints) and walked side by side. Two binary keyed archives
/// that store one value alike (the same bytes, or the same objects numbered or laid out otherwise) are checked as
/// reading them checks them and not walked: they hold no difference (ARC-315).
///
/// - Keyed archives: the object graphs from the root (or each top-level key), objects matched by their position
///   in the graph; an object reached more than once is compared once, and a cycle ends where it closes.
/// - Property lists: the values from the root.
///
/// XIBs, storyboards and compiled nibs, whose objects are matched by document id, are compared by
/// `InterfaceComparison`, a product of its own, so that comparing archives does not build the nib loader.
///
///     let differences = try ArchiveComparison.differences(between: old, and: new)
///     for difference in differences { print(difference) }   // root.books[1].title: "Emma" -> "Ulysses"
public enum ArchiveComparison {
  /// How a comparison aligns arrays (ARC-304, ARC-305).
  public struct Options: Sendable {
    /// The field that identifies an object of a class, by class name (`["Note": "id"]`): elements of an array
    /// that are objects of such a class are aligned by that field's value, so an object that moved, or whose other
    /// fields changed, is matched with itself. Objects of other classes are aligned by their whole value.
    public var identityKeys: [String: String]
    /// The most pairs of elements an array's middle (once its common start and end are taken) is aligned over by
    /// a longest common subsequence; past it, elements found once on each side anchor the alignment and the rest
    /// pair by position, so a hostile input costs time near linear in its size.
    public var maxAlignedPairs: Int

    /// The default bound of ``maxAlignedPairs``.
    public static let defaultMaxAlignedPairs = 1 << 22
    /// How many times ``maxAlignedPairs`` all the arrays of one comparison may align by a longest common
    /// subsequence together; past that, every array aligns by its anchors.
    public static let totalAlignedPairsFactor = 16

    /// Creates options.
    /// - Parameters:
    ///   - identityKeys: the identifying field of each class that has one, by class name.
    ///   - maxAlignedPairs: the bound of the longest-common-subsequence alignment.
    public init(identityKeys: [String: String] = [:], maxAlignedPairs: Int = defaultMaxAlignedPairs) {
      self.identityKeys = identityKeys
      self.maxAlignedPairs = maxAlignedPairs
    }
  }

  /// The differences between two inputs, each read from its bytes (its format detected as `keyed` detects it).
  /// - Parameters:
  ///   - a: the first input: a keyed archive or property list (binary or XML).
  ///   - b: the second input.
  ///   - options: how arrays are aligned.
  /// - Returns: the differences in the order of the first input's graph (then what only the second has); empty
  ///   when the two are equal.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when either input is malformed or of no supported format.
  public static func differences(
    between a: Data, and b: Data, options: Options = Options()
  ) throws -> [ArchiveDifference] {
    if let alike = ComparedDocument.storedAlike(a, b, fileNames: ("A", "B")) {
      try alike.get()
      return []
    }
    let first = try ComparedDocument(data: a, fileName: "A")
    return try differences(
      between: first, and: ComparedDocument(data: b, fileName: "B", comparedWith: { first }), options: options)
  }

  /// The differences between two files.
  /// - Parameters:
  ///   - a: the first file.
  ///   - b: the second file.
  ///   - options: how arrays are aligned.
  /// - Returns: the differences, as ``differences(between:and:options:)-(Data,Data,_)`` finds them.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when either file cannot be read, is malformed or is of no supported
  ///   format.
  public static func differences(
    betweenFileAt a: URL, and b: URL, options: Options = Options()
  ) throws -> [ArchiveDifference] {
    let bytes = try ComparedDocument.contents(of: a)
    if let other = try? ComparedDocument.contents(of: b),
      let alike = ComparedDocument.storedAlike(
        bytes, other, fileNames: (a.lastPathComponent, b.lastPathComponent))
    {
      try alike.get()
      return []
    }
    let first = try ComparedDocument(data: bytes, fileName: a.lastPathComponent)
    return try differences(
      between: first, and: ComparedDocument(contentsOf: b, comparedWith: { first }), options: options)
  }

  /// The differences between two documents already read, `b` read against `a` when it was (`comparedWith`).
  package static func differences(
    between a: ComparedDocument, and b: ComparedDocument, options: Options = Options()
  ) throws -> [ArchiveDifference] {
    // Read against `a`, `b` holds what `a` holds, node for node (a tree compared with itself has no difference).
    if b.holdsFirst { return [] }
    switch (a.content, b.content) {
    case (.tree(let first), .tree(let second)) where a.kind == b.kind:
      var walker = TreeDifferencer(first, second, options: options)
      try walker.compareRoots()
      return walker.differences
    case (.table(let first), .table(let second)) where a.kind == b.kind:
      let ids = a.kind == .compiledNib ? TableNodes.pairedIDs(first, second) : nil
      let (nodesA, nodesB) = (TableNodes(first), TableNodes(second, ids: ids))
      let treeA = ComparedDocument.tree(.array(nodesA.ids.compactMap { nodesA.objects[$0] }))
      let treeB = ComparedDocument.tree(.array(nodesB.ids.compactMap { nodesB.objects[$0] }))
      func positions(_ nodes: TableNodes, _ tree: ComparisonTree) -> [String: Int32] {
        let present = nodes.ids.filter { nodes.objects[$0] != nil }
        let children = tree.members(tree.root).map { tree.children[$0] }
        return Dictionary(zip(present, children), uniquingKeysWith: { first, _ in first })
      }
      let (inA, inB) = (positions(nodesA, treeA), positions(nodesB, treeB))
      var walker = TreeDifferencer(treeA, treeB, options: options)
      for id in nodesA.ids + nodesB.ids.filter({ nodesA.objects[$0] == nil }) {
        let name = nodesA.names[id] ?? nodesB.names[id] ?? id
        try walker.compare(inA[id], inB[id], at: .text("\(name)(\(id))"))
      }
      return walker.differences
    default:
      return [
        ArchiveDifference(
          path: ComparedDocument.kindPath, change: .changed,
          old: .init(kind: .string, json: CanonicalJSON.string(a.kind.rawValue)),
          new: .init(kind: .string, json: CanonicalJSON.string(b.kind.rawValue)))
      ]
    }
  }
}

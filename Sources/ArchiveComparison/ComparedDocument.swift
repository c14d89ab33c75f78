import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive
import PropertyList

/// One input of a comparison, read into what ``ArchiveComparison`` walks.
package struct ComparedDocument: Sendable {
  /// The kinds of input; only two of the same kind are compared value by value (ARC-175).
  package enum Kind: String, Sendable {
    /// A property list that is not a keyed archive.
    case propertyList = "property list"
    /// A keyed archive, keyed-archive nibs included.
    case keyedArchive = "keyed archive"
    /// A XIB or storyboard.
    case interfaceDocument = "XIB document"
    /// A NIBArchive or keyed-archive nib, or a `.nib` directory.
    case compiledNib = "compiled nib"
    /// An NSArchiver typedstream, as its decoded values.
    case typedstream = "typedstream"
  }

  /// What is compared.
  package enum Content: Sendable {
    /// A graph compared from its root (property lists, keyed archives, typedstreams).
    case tree(ComparisonTree)
    /// An object table whose objects are matched by document id (XIBs, storyboards, NIBArchive nibs).
    case table(ObjectTable)
  }

  /// The path of the one difference reported between inputs of different kinds.
  package static let kindPath = "kind"

  package var kind: Kind
  package var content: Content
  /// `true` when this input was read against the first input of its comparison (`comparedWith`) and holds what
  /// that one holds, node for node: its content is the first's tree, and the two have no difference.
  package private(set) var holdsFirst = false

  /// Reads a property list, which is a keyed archive when it has the archive's top-level keys (a keyed-archive nib
  /// among them: `InterfaceComparison` reads nibs, XIBs and storyboards as object tables before this).
  ///
  /// A keyed archive is checked against the first input of its comparison, which `first` returns, while it is
  /// walked, once its own checks have passed (``ComparisonTree/Matcher``): when it holds what the first holds, node
  /// for node, the first's tree stands for it and no second tree is built. `first` is called only then; when it
  /// returns `nil` or an input of another kind, the tree is built.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the bytes are malformed, of no supported format, or expand past the bounds of
  ///   `keyed dump --json` (CLI-032).
  package init(data: Data, fileName: String, comparedWith first: () -> ComparedDocument? = { nil }) throws {
    if PropertyListReader.format(of: data) == .binary {
      // Read in place: a binary property list is checked and a keyed archive walked without materialising it.
      let read = try data.withUnsafeBytes { bytes -> (tree: ComparisonTree, holdsFirst: Bool)? in
        do {
          // The tree is built while the reader's checks may still run: nothing is compared before they pass.
          return try CheckedPropertyList.walking(store: ByteStore(borrowing: bytes)) { walk in
            try Self.tree(checked: &walk, comparedWith: first)
          }
        } catch {
          throw Self.located(error, in: fileName)
        }
      }
      if let read {
        (kind, content, holdsFirst) = (.keyedArchive, .tree(read.tree), read.holdsFirst)
        return
      }
    }
    let value = try PropertyListReader.read(data, fileName: fileName)
    if KeyedArchiveContainer.looksLikeKeyedArchive(value) {
      let read: (tree: ComparisonTree, holdsFirst: Bool)
      do {
        var walk = KeyedArchiveWalk(try KeyedArchiveGraph(data: data))
        try walk.check()
        read = try Self.tree(checked: &walk, comparedWith: first)
      } catch {
        // Located as a binary archive's errors are.
        throw Self.located(error, in: fileName)
      }
      (kind, content, holdsFirst) = (.keyedArchive, .tree(read.tree), read.holdsFirst)
    } else {
      try ExpansionBound.check(value)
      (kind, content) = (.propertyList, .tree(Self.tree(CanonicalJSON.node(value))))
    }
  }

  /// The comparison tree of a keyed archive, built by its canonical walk (within `keyed dump --json`'s bounds);
  /// the first input's tree when `first` returns a keyed archive's and the walk holds what it holds, node for node.
  package static func tree(
    _ archive: KeyedArchiveGraph, comparedWith first: () -> ComparedDocument? = { nil }
  ) throws -> ComparisonTree {
    var walk = KeyedArchiveWalk(archive)
    try walk.check()
    return try tree(checked: &walk, comparedWith: first).tree
  }

  /// The comparison tree of a keyed archive whose walk's first pass is done, as ``tree(_:comparedWith:)`` makes it,
  /// and whether it is the first input's.
  private static func tree(
    checked walk: inout KeyedArchiveWalk, comparedWith first: () -> ComparedDocument?
  ) throws -> (tree: ComparisonTree, holdsFirst: Bool) {
    if let first = first(), first.kind == .keyedArchive, case .tree(let tree) = first.content {
      var matcher = ComparisonTree.Matcher(tree)
      try walk.visit(&matcher)
      if matcher.matched { return (tree, true) }
    }
    var builder = ComparisonTree.Builder()
    builder.reserve(walk.checkedSize)
    try walk.visit(&builder)
    return (builder.tree, false)
  }

  /// The comparison tree of a value given as canonical JSON nodes.
  package static func tree(_ node: CanonicalJSON.Node) -> ComparisonTree {
    var builder = ComparisonTree.Builder()
    builder.add(node)
    return builder.tree
  }

  /// Reads a file as ``init(data:fileName:)`` reads its bytes.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`fileIO` when the file cannot be read).
  package init(contentsOf url: URL, comparedWith first: () -> ComparedDocument? = { nil }) throws {
    try self.init(data: Self.contents(of: url), fileName: url.lastPathComponent, comparedWith: first)
  }

  /// The bytes of a file, mapped where that is safe.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`fileIO` when the file cannot be read).
  package static func contents(of url: URL) throws -> Data {
    do {
      return try Data(contentsOf: url, options: .mappedIfSafe)
    } catch {
      throw ArchiveError(.fileIO, "cannot be read: \(error.localizedDescription)", at: .init(file: url.path))
    }
  }

  /// A graph read elsewhere (a typedstream's decoded values), compared from its root.
  package init(tree: CanonicalJSON.Node, kind: Kind) {
    (self.kind, content) = (kind, .tree(Self.tree(tree)))
  }

  /// An object table: a XIB or storyboard's (`kind` ``Kind/interfaceDocument``), or a compiled nib's.
  package init(table: ObjectTable, kind: Kind = .compiledNib) {
    (self.kind, content) = (kind, .table(table))
  }
}

import ArchiveCoding
import Foundation
import FoundationForms

/// Compares two archives, property lists, XIBs or nibs by meaning, not bytes (ARC-170…ARC-176): the first input's
/// and the second's values are read into their canonical JSON (the form `keyed dump --json` prints) and walked side
/// by side.
///
/// - Keyed archives: the object graphs from the root (or each top-level key), objects matched by their position
///   in the graph; an object reached more than once is compared once, and a cycle ends where it closes.
/// - Property lists: the values from the root.
/// - XIBs and storyboards: objects matched by their document id, with their fields, their connections and their
///   runtime attributes.
/// - Compiled nibs (NIBArchive and keyed-archive nibs): as XIBs, objects first paired by their position in the
///   graph, since their ids are indexes.
///
///     let differences = try ArchiveComparison.differences(between: old, and: new)
///     for difference in differences { print(difference) }   // root.books[1].title: "Emma" -> "Ulysses"
public enum ArchiveComparison {
  /// The differences between two inputs, each read from its bytes (its format detected as `keyed` detects it).
  /// - Parameters:
  ///   - a: the first input: a keyed archive or property list (binary or XML), a XIB or storyboard, or a
  ///     compiled nib.
  ///   - b: the second input.
  /// - Returns: the differences in the order of the first input's graph (then what only the second has); empty
  ///   when the two are equal.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when either input is malformed or of no supported format.
  public static func differences(between a: Data, and b: Data) throws -> [ArchiveDifference] {
    try differences(
      between: ComparedDocument(data: a, fileName: "A"), and: ComparedDocument(data: b, fileName: "B"))
  }

  /// The differences between two files, or `.nib` directories.
  /// - Parameters:
  ///   - a: the first file.
  ///   - b: the second file.
  /// - Returns: the differences, as ``differences(between:and:)-(Data,Data)`` finds them.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when either file cannot be read, is malformed or is of no supported
  ///   format.
  public static func differences(betweenFileAt a: URL, and b: URL) throws -> [ArchiveDifference] {
    try differences(between: ComparedDocument(contentsOf: a), and: ComparedDocument(contentsOf: b))
  }

  /// The differences between two documents already read.
  package static func differences(
    between a: ComparedDocument, and b: ComparedDocument
  ) throws -> [ArchiveDifference] {
    var walker = GraphDifferencer()
    switch (a.content, b.content) {
    case (.tree(let first), .tree(let second)) where a.kind == b.kind:
      walker.index(first, second)
      try walker.compareRoots(first, second)
    case (.table(let first), .table(let second)) where a.kind == b.kind:
      let ids = a.kind == .compiledNib ? TableNodes.pairedIDs(first, second) : nil
      let (nodesA, nodesB) = (TableNodes(first), TableNodes(second, ids: ids))
      for id in nodesA.ids + nodesB.ids.filter({ nodesA.objects[$0] == nil }) {
        let name = nodesA.names[id] ?? nodesB.names[id] ?? id
        try walker.compare(nodesA.objects[id], nodesB.objects[id], path: "\(name)(\(id))")
      }
    default:
      return [
        ArchiveDifference(
          path: ComparedDocument.kindPath, a: CanonicalJSON.string(a.kind.rawValue),
          b: CanonicalJSON.string(b.kind.rawValue))
      ]
    }
    return walker.differences
  }
}

import ArchiveCoding
import ArchiveComparison
import Foundation
import NibLoading

/// Compares two XIBs, storyboards or compiled nibs by meaning, objects matched by their document ids, and any other
/// input as ``/ArchiveComparison/ArchiveComparison`` compares it (ARC-175): the comparison `keyed diff` makes.
///
/// - XIBs and storyboards: objects matched by their document id, with their fields, their connections and their
///   runtime attributes.
/// - Compiled nibs (NIBArchive and keyed-archive nibs, `.nib` directories): as XIBs, objects first paired by their
///   position in the graph, since their ids are indexes.
/// - Keyed archives and property lists: by ``/ArchiveComparison/ArchiveComparison``.
///
/// It is a product of its own so that a test target comparing archives (ArchiveTesting, ArchiveComparison) does not
/// build the nib loader and its front ends.
///
///     let differences = try InterfaceComparison.differences(betweenFileAt: oldXIB, and: newXIB)
///     for difference in differences { print(difference) }   // Title(a4X-9q-2Lm).text: "Hi" -> "Hello"
public enum InterfaceComparison {
  /// The differences between two inputs, each read from its bytes (its format detected as `keyed` detects it).
  /// - Parameters:
  ///   - a: the first input: a XIB or storyboard, a compiled nib, a keyed archive or property list.
  ///   - b: the second input.
  ///   - options: how arrays are aligned.
  /// - Returns: the differences; empty when the two are equal.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when either input is malformed or of no supported format.
  public static func differences(
    between a: Data, and b: Data, options: ArchiveComparison.Options = ArchiveComparison.Options()
  ) throws -> [ArchiveDifference] {
    if let alike = ComparedDocument.storedAlike(interfaceData: a, b, fileNames: ("A", "B")) {
      try alike.get()
      return []
    }
    let first = try ComparedDocument(interfaceData: a, fileName: "A")
    return try ArchiveComparison.differences(
      between: first, and: ComparedDocument(interfaceData: b, fileName: "B", comparedWith: { first }),
      options: options)
  }

  /// The differences between two files, or `.nib` directories.
  /// - Parameters:
  ///   - a: the first file.
  ///   - b: the second file.
  ///   - options: how arrays are aligned.
  /// - Returns: the differences, as ``differences(between:and:options:)`` finds them.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when either file cannot be read, is malformed or is of no supported
  ///   format.
  public static func differences(
    betweenFileAt a: URL, and b: URL, options: ArchiveComparison.Options = ArchiveComparison.Options()
  ) throws -> [ArchiveDifference] {
    if !ComparedDocument.isDirectory(a), !ComparedDocument.isDirectory(b),
      let bytes = try? ComparedDocument.contents(of: a),
      let other = try? ComparedDocument.contents(of: b),
      let alike = ComparedDocument.storedAlike(
        interfaceData: bytes, other, fileNames: (a.lastPathComponent, b.lastPathComponent))
    {
      try alike.get()
      return []
    }
    let first = try ComparedDocument(interfaceContentsOf: a)
    return try ArchiveComparison.differences(
      between: first, and: ComparedDocument(interfaceContentsOf: b, comparedWith: { first }), options: options)
  }

}

import ArchiveCoding
import CompiledNib
import Foundation

/// Builds an ``ObjectTable`` from a compiled nib: a keyed archive with `UINib…` keys or `IB.objectdata`, or an
/// Apple `NIBArchive` (NIB-031, NIBA-040 to NIBA-050).
///
/// Both containers are first read into one intermediate graph (``CompiledNibGraph``: nodes by container index,
/// Foundation strings, numbers, data and collections folded into values), then one assembler reads the nib's
/// structure from it: the document's objects, placeholders, custom classes, connections and runtime attributes.
/// Object ids are the objects' indexes in the container (`$objects` index, NIBArchive object index).
enum CompiledNibTableBuilder {
  /// Reads a keyed-archive nib (binary or XML property list).
  /// - Throws: ``/ArchiveCoding/ArchiveError``: the property-list reader's errors; `.unsupportedFormat` for a plist that is not an
  ///   `NSKeyedArchiver` archive or a root without nib keys; `.corruptData`, `.typeMismatch`, `.limitExceeded` for a
  ///   malformed structure.
  static func table(keyedArchive data: Data, fileName: String) throws -> ObjectTable {
    let graph = try CompiledNibGraph.keyedArchive(data, fileName: fileName)
    var assembler = CompiledNibTableAssembler(graph: graph, fileName: fileName)
    return try assembler.build()
  }

  /// Reads an Apple `NIBArchive` nib.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: the NIBArchive reader's errors (NIBA-001 to NIBA-018), located in `fileName`;
  ///   `.unsupportedFormat` for a root without nib keys; `.typeMismatch`, `.corruptData`, `.limitExceeded` for a
  ///   malformed structure.
  static func table(nibArchive data: Data, fileName: String) throws -> ObjectTable {
    let document: NIBArchiveDocument
    do {
      document = try NIBArchiveDocument(data: data)
    } catch {
      throw error.located(in: .init(file: fileName))
    }
    return try table(document, fileName: fileName)
  }

  /// Builds the table of a parsed NIBArchive.
  static func table(_ document: NIBArchiveDocument, fileName: String) throws -> ObjectTable {
    let graph = try CompiledNibGraph.nibArchive(document, fileName: fileName)
    var assembler = CompiledNibTableAssembler(graph: graph, fileName: fileName)
    return try assembler.build()
  }
}

import ArchiveCoding
import Foundation

/// Builds an ``ObjectTable`` from a compiled nib: a keyed archive with `UINib…` keys or `IB.objectdata`, or an
/// Apple `NIBArchive` (NIB-031).
enum CompiledNibTableBuilder {
  static func table(keyedArchive data: Data, fileName: String) throws -> ObjectTable {
    throw ArchiveError(.unsupportedFormat, "keyed-archive nibs are not read yet", at: .init(file: fileName))
  }

  static func table(nibArchive data: Data, fileName: String) throws -> ObjectTable {
    throw ArchiveError(.unsupportedFormat, "NIBArchive nibs are not read yet", at: .init(file: fileName))
  }
}

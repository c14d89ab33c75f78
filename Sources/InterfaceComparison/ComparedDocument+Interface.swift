import ArchiveCoding
import ArchiveComparison
import Foundation
import KeyedArchive
import NibLoading
import PropertyList

extension ComparedDocument {
  /// Reads bytes as `keyed` detects their format: a XIB or storyboard, a NIBArchive nib or a keyed-archive nib as an
  /// object table (objects matched by document id), anything else as ``init(data:fileName:comparedWith:)`` reads it
  /// (checked against `first` as it reads it).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the bytes are malformed, of no supported format, or expand past
  ///   the bounds of `keyed dump --json` (CLI-032).
  package init(
    interfaceData data: Data, fileName: String, comparedWith first: () -> ComparedDocument? = { nil }
  ) throws {
    switch NibReader.format(of: data.prefix(2048)) {
    case .xib?:
      self.init(table: try NibReader.objectTable(from: data, fileName: fileName), kind: .interfaceDocument)
      return
    case .nibArchive?:
      self.init(table: try NibReader.objectTable(from: data, fileName: fileName))
      return
    default: break
    }
    if Self.isKeyedArchiveNib(data) {
      // A keyed-archive nib is a compiled nib, its objects matched as a NIBArchive's are.
      self.init(table: try NibReader.objectTable(from: data, fileName: fileName))
      return
    }
    try self.init(data: data, fileName: fileName, comparedWith: first)
  }

  /// Reads a file as ``init(interfaceData:fileName:)`` reads its bytes, or a `.nib` directory (its preferred member,
  /// as the nib loader picks it).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`fileIO` when the file cannot be read).
  package init(interfaceContentsOf url: URL, comparedWith first: () -> ComparedDocument? = { nil }) throws {
    if Self.isDirectory(url) {
      self.init(table: try NibReader.objectTable(contentsOf: url))
      return
    }
    try self.init(interfaceData: Self.contents(of: url), fileName: url.lastPathComponent, comparedWith: first)
  }

  /// `true` for a directory (a `.nib` directory is read as its preferred member).
  package static func isDirectory(_ url: URL) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
  }

  /// Two binary keyed archives stored alike, checked, as ``storedAlike(_:_:fileNames:isCompared:)`` finds them,
  /// unless they are keyed-archive nibs (compared by their objects).
  package static func storedAlike(interfaceData a: Data, _ b: Data, fileNames: (String, String)) -> StoredAlike? {
    storedAlike(a, b, fileNames: fileNames) { !isNib($0) }
  }

  /// `true` for a keyed archive whose top-level keys are a nib's; `false` for anything else, including bytes that
  /// are no keyed archive (their reading then reports what is wrong). A binary list is read in place, checked only
  /// where the top-level keys are read.
  private static func isKeyedArchiveNib(_ data: Data) -> Bool {
    guard PropertyListReader.format(of: data) == .binary else {
      guard var graph = try? KeyedArchiveGraph(data: data), let keys = try? graph.topLevelKeys() else { return false }
      return NibReader.isNib(topLevelKeys: Set(keys))
    }
    return data.withUnsafeBytes { bytes in
      guard
        let reader = try? BinaryPropertyListReader(
          store: ByteStore(borrowing: bytes), options: .default, validation: .onAccess)
      else { return false }
      return isNib(reader)
    }
  }

  /// `true` for a binary keyed archive whose top-level keys are a nib's.
  private static func isNib(_ reader: BinaryPropertyListReader) -> Bool {
    guard var graph = try? KeyedArchiveGraph(reader: reader), let keys = try? graph.topLevelKeys() else { return false }
    return NibReader.isNib(topLevelKeys: Set(keys))
  }
}

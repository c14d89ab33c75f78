import ArchiveCoding
import CompiledNib
import Foundation
import PropertyList
import XIB

/// Reads any nib-like input into an ``/ArchiveCoding/ObjectTable``, detecting the format from the bytes (NIB-030): XIB
/// or storyboard XML, a keyed-archive nib (`bplist00`/XML with `$archiver`), an Apple `NIBArchive`, or a `.nib`
/// directory.
public enum NibReader {
  /// The kinds of input.
  public enum Format: String, Sendable {
    /// XIB or storyboard XML (3.0 documents and the older archive documents).
    case xib
    /// A keyed-archive nib.
    case keyedArchive
    /// Apple's `NIBArchive`.
    case nibArchive
  }

  /// `true` when a keyed archive whose `$top` has these keys is a nib, as ``objectTable(from:fileName:)`` reads one:
  /// UIKit's `UINibTopLevelObjectsKey`, `UINibObjectsKey` or `UINibConnectionsKey`, or AppKit's `IB.objectdata`.
  package static func isNib(topLevelKeys keys: Set<String>) -> Bool {
    typealias Names = CompiledNibWireNames
    return [Names.uiTopLevelObjects, Names.uiObjects, Names.uiConnections, Names.objectData].contains {
      keys.contains($0)
    }
  }

  /// The format of some bytes, or `nil`.
  public static func format(of data: Data) -> Format? {
    if data.starts(with: Array("NIBArchive".utf8)) { return .nibArchive }
    if data.starts(with: Array("bplist0".utf8)) { return .keyedArchive }
    let head = String(decoding: data.prefix(2048), as: UTF8.self)
    if head.contains("<document") || head.contains("<archive") { return .xib }
    if head.contains("<plist") { return .keyedArchive }
    return nil
  }

  /// Reads a file or a `.nib` directory.
  public static func objectTable(contentsOf url: URL) throws -> ObjectTable {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw ArchiveError(.fileIO, "no such file", at: .init(file: url.path))
    }
    if isDirectory.boolValue {
      let directory = try CompiledNibDirectory(contentsOf: url)
      guard let member = directory.preferredMemberURL(forSystemVersion: nil) else {
        throw ArchiveError(.unsupportedFormat, "the directory holds no compiled nib", at: .init(file: url.path))
      }
      return try objectTable(contentsOf: member)
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw ArchiveError(.fileIO, "cannot be read: \(error.localizedDescription)", at: .init(file: url.path))
    }
    return try objectTable(from: data, fileName: url.lastPathComponent)
  }

  /// Reads bytes.
  public static func objectTable(from data: Data, fileName: String) throws -> ObjectTable {
    switch format(of: data) {
    case .xib?:
      return try XIBDocument(parsing: [UInt8](data), fileName: fileName).objectTable()
    case .keyedArchive?:
      return try CompiledNibTableBuilder.table(keyedArchive: data, fileName: fileName)
    case .nibArchive?:
      return try CompiledNibTableBuilder.table(nibArchive: data, fileName: fileName)
    case nil:
      throw ArchiveError(
        .unsupportedFormat, data.isEmpty ? "empty input" : "not a XIB, storyboard or compiled nib",
        at: .init(file: fileName))
    }
  }
}

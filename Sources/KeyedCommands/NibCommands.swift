import ArchiveCoding
import Foundation
import NibLoading

extension Context {
  /// Reads a XIB, storyboard, compiled nib or `.nib` directory into an object table, with one-line diagnostics.
  func readObjectTable(_ path: String) throws -> ObjectTable {
    do {
      if path == "-" { return try NibReader.objectTable(from: try standardInput(), fileName: "<stdin>") }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw InputError(message: "\(path): no such file", status: KeyedTool.ExitCode.failure)
      }
      if !isDirectory.boolValue, !Self.isRegularFile(path) {
        return try NibReader.objectTable(from: readStream(path), fileName: path)
      }
      // Refused before they are read: the file, or each file of a `.nib` directory.
      let members =
        isDirectory.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).map { "\(path)/\($0)" } : [path]
      for member in members where Self.isRegularFile(member) { try Self.checkSize(member) }
      return try NibReader.objectTable(contentsOf: URL(fileURLWithPath: path))
    } catch let error as ArchiveError {
      if error.code == .fileIO {
        throw InputError(message: "\(name(path)): \(error.message)", status: KeyedTool.ExitCode.failure)
      }
      throw inputError(path, error)
    }
  }

  /// `true` when the input is a XIB, storyboard, NIBArchive or nib directory (keyed-archive nibs are archives).
  func isNibInput(_ path: String) -> Bool {
    func isNib(_ head: Data) -> Bool {
      let format = NibReader.format(of: head.prefix(2048))
      return format == .xib || format == .nibArchive
    }
    if path == "-" {
      guard let input = try? standardInput() else { return false }  // the read's error is met again when read
      return isNib(input)
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      return path.hasSuffix(".nib")
    }
    // A pipe, FIFO or device is read once (``readStream(_:)``); opening it only to peek could block.
    if !Self.isRegularFile(path) {
      guard let data = try? readStream(path) else { return false }
      return isNib(data)
    }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return isNib(handle.readData(ofLength: 2048))
  }
}

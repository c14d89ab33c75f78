import ArchiveCoding
import Foundation

/// Reads files of the compiled-nib family with a size ceiling checked before the bytes are loaded.
enum CompiledNibFileReading {
  /// Reads a whole file.
  /// - Throws: `.fileIO` when it cannot be read, `.limitExceeded` when it is larger than `maxBytes`.
  static func read(_ url: URL, maxBytes: Int) throws(ArchiveError) -> Data {
    let path = url.path
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: path)
    } catch {
      throw ArchiveError(.fileIO, "cannot read the file: \(error.localizedDescription)", at: .init(file: path))
    }
    if let size = (attributes[.size] as? NSNumber)?.intValue, size > maxBytes {
      throw ArchiveError(
        .limitExceeded, "the file has \(size) bytes, more than the limit of \(maxBytes)", at: .init(file: path))
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw ArchiveError(.fileIO, "cannot read the file: \(error.localizedDescription)", at: .init(file: path))
    }
    // The file may have grown since its size was read.
    guard data.count <= maxBytes else {
      throw ArchiveError(
        .limitExceeded, "the file has \(data.count) bytes, more than the limit of \(maxBytes)", at: .init(file: path))
    }
    return data
  }

  /// `true` when `url` names an existing directory.
  static func isDirectory(_ url: URL) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
  }
}

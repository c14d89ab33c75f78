import ArchiveCoding
import Foundation
import PropertyList

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash-safe file replacement: the new bytes go to a temporary file in the same directory, are flushed to disk,
/// and replace the old file with one `rename`, after which the directory is flushed too. A reader sees the old
/// file or the new one, never a torn mix.
public enum AtomicFile {
  /// Writes `data` to `url` atomically.
  /// - Throws: ``ArchiveError`` with code `fileIO` naming the path and the system error.
  public static func write(_ data: Data, to url: URL) throws {
    let directory = url.deletingLastPathComponent().path
    let target = url.path
    let temporary = "\(directory)/.\(url.lastPathComponent).\(UUID().uuidString).tmp"
    func fail(_ what: String) -> ArchiveError {
      ArchiveError(.fileIO, "\(what) failed: \(String(cString: strerror(errno)))", at: .init(file: target))
    }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard descriptor >= 0 else { throw fail("creating a temporary file") }
    var closed = false
    defer {
      if !closed { close(descriptor) }
    }
    let written = data.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        guard let base = buffer.baseAddress else { return true }
        let count = Foundation.write(descriptor, base + offset, buffer.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += count
      }
      return true
    }
    guard written, fsync(descriptor) == 0 else {
      let error = fail("writing")
      unlink(temporary)
      throw error
    }
    close(descriptor)
    closed = true
    guard rename(temporary, target) == 0 else {
      let error = fail("renaming over the target")
      unlink(temporary)
      throw error
    }
    let directoryDescriptor = open(directory, O_RDONLY)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }
}

extension KeyedArchiver {
  /// Archives `root` to a file atomically (temporary file, `fsync`, `rename`, directory `fsync`).
  public static func archive(
    _ root: Any?, to url: URL, requiringSecureCoding: Bool = false, format: PropertyListFormat = .binary
  ) throws {
    try AtomicFile.write(
      try archivedData(withRootObject: root, requiringSecureCoding: requiringSecureCoding, format: format), to: url)
  }
}

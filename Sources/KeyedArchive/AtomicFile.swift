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
///
/// What is replaced is a file: a symbolic link is followed (the file it names is replaced and the link stays),
/// an existing file's permission bits are kept (not set-user-ID and the like, nor its owner), a device or FIFO
/// (`/dev/null`) is written in place, since renaming over it would replace the device node itself, and one of this
/// process's descriptors named by path (`/dev/stdout`, `/dev/fd/N`) is written through that descriptor, so that a
/// redirection with `>>` appends (ARC-050). A socket is an error.
public enum AtomicFile {
  /// Writes `data` to `url` atomically.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` with code `fileIO` naming the path and the system error.
  public static func write(_ data: Data, to url: URL) throws {
    try write(to: url) { write in try write(data) }
  }

  /// Writes to `url` atomically what `produce` hands, piece by piece, to the function it is given: a large output
  /// is written as it is made, and replaces the file only once `produce` returns. When `produce` throws, the file
  /// is left as it was (a device, a FIFO or a descriptor of this process has what was written before).
  /// - Throws: ``ArchiveError`` with code `fileIO` naming the path and the system error, or what `produce` throws.
  package static func write(to url: URL, producing produce: (_ write: (Data) throws -> Void) throws -> Void) throws {
    var target = url.path
    func fail(_ what: String) -> ArchiveError {
      ArchiveError(.fileIO, "\(what) failed: \(String(cString: strerror(errno)))", at: .init(file: url.path))
    }
    func writer(_ descriptor: Int32) -> (Data) throws -> Void {
      { data in guard writeAll(data, to: descriptor) else { throw fail("writing") } }
    }
    if let descriptor = ownDescriptor(named: target) {
      try produce(writer(descriptor))
      return
    }
    var existingMode: mode_t?
    var info = stat()
    if lstat(target, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFLNK {
        // What the link names (`/dev/stdout` names a pipe that has no path: it is written through the link).
        guard stat(target, &info) == 0 else { throw fail("following the symbolic link") }
        if info.st_mode & S_IFMT == S_IFREG {
          guard let resolved = realpath(target, nil) else { throw fail("resolving the symbolic link") }
          target = String(cString: resolved)
          free(resolved)
        }
      }
      switch info.st_mode & S_IFMT {
      case S_IFREG:
        existingMode = info.st_mode & 0o777
      case S_IFDIR:
        throw ArchiveError(.fileIO, "expected a file to write, found a directory", at: .init(file: url.path))
      default:
        try writeInPlace(to: target, fail) { try produce(writer($0)) }
        return
      }
    }
    let targetURL = URL(fileURLWithPath: target)
    let directory = targetURL.deletingLastPathComponent().path
    let temporary = "\(directory)/.\(targetURL.lastPathComponent).\(UUID().uuidString).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard descriptor >= 0 else { throw fail("creating a temporary file") }
    var closed = false
    defer {
      if !closed { close(descriptor) }
    }
    // The replacement keeps the permissions of the file it replaces (a private file stays private).
    if let existingMode, fchmod(descriptor, existingMode) != 0 {
      let error = fail("keeping the file's permissions")
      unlink(temporary)
      throw error
    }
    do {
      try produce(writer(descriptor))
    } catch {
      unlink(temporary)
      throw error
    }
    guard fsync(descriptor) == 0 else {
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

  /// The descriptor of this process that `path` names (`/dev/stdin`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
  /// `/proc/self/fd/N`), when it is open; `nil` for any other path.
  private static func ownDescriptor(named path: String) -> Int32? {
    let named: [String: Int32] = ["/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2]
    var number = named[path]
    for prefix in ["/dev/fd/", "/proc/self/fd/"] where number == nil && path.hasPrefix(prefix) {
      number = Int32(path.dropFirst(prefix.count))
    }
    guard let number, number >= 0, fcntl(number, F_GETFD) != -1 else { return nil }
    return number
  }

  /// Writes to a device or FIFO that exists: there is no file to replace. A FIFO nobody reads is an
  /// error at once (`O_NONBLOCK` on open), not a wait without end.
  private static func writeInPlace(
    to path: String, _ fail: (String) -> ArchiveError, _ body: (Int32) throws -> Void
  ) throws {
    let descriptor = open(path, O_WRONLY | O_NONBLOCK)
    guard descriptor >= 0 else { throw fail("opening the device") }
    defer { close(descriptor) }
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw fail("opening the device") }
    try body(descriptor)
  }

  /// Writes every byte of `data`, retrying after a signal; `false` on an error (`errno` says which).
  private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
    data.withUnsafeBytes { buffer -> Bool in
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

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files a verb reads when it is given several, or `-r` (CLI-131): each argument in the order given; with `-r`,
/// an argument that is a directory (or a symbolic link to one) stands for every regular file below it, sorted by
/// path (the order of the paths' UTF-8 bytes, as `find DIR -type f | LC_ALL=C sort` gives).
///
/// Below a directory, symbolic links are not followed (neither to files nor to directories: a link can lead out of
/// the tree or back into it), and FIFOs, sockets and devices are left out (reading one could wait for ever). A
/// directory that cannot be listed is an entry of its own, with the error, in its place in the order.
enum InputFiles {
  /// One input: a path to read, or one that failed before it was read.
  struct Entry {
    /// The argument as given, or the path found below a directory argument (that argument, `/`, the relative path).
    var path: String
    /// Why the path cannot be read, when listing its directory failed.
    var error: Context.InputError?
  }

  /// The inputs `arguments` stand for.
  static func expand(_ arguments: [String], recursive: Bool) -> [Entry] {
    arguments.flatMap { argument -> [Entry] in
      guard recursive, argument != "-", isDirectory(argument) else { return [Entry(path: argument)] }
      return below(argument).sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
  }

  /// `true` when `path` is a directory or a symbolic link to one.
  private static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
  }

  /// The regular files below `root`, and the directories that could not be listed, in no particular order.
  private static func below(_ root: String) -> [Entry] {
    var found: [Entry] = []
    var pending = [root]
    while let directory = pending.popLast() {
      guard let stream = opendir(directory) else {
        let reason = String(cString: strerror(errno))
        found.append(
          Entry(
            path: directory,
            error: Context.InputError(
              message: "\(directory): cannot be read (\(reason))", status: KeyedTool.ExitCode.failure)))
        continue
      }
      closedir(stream)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      for name in names {
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        var status = stat()
        guard lstat(path, &status) == 0 else { continue }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: pending.append(path)
        case S_IFREG: found.append(Entry(path: path))
        default: break
        }
      }
    }
    return found
  }
}

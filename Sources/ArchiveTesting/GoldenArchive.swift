import ArchiveCoding
import ArchiveComparison
import Foundation
import KeyedArchive
import PropertyList

/// Golden-archive checks: an archive is compared with a file kept in the repository by meaning, with the one
/// comparison of ``/ArchiveComparison/ArchiveComparison`` (ARC-300, ARC-313), not byte for byte, so a golden file
/// written by Apple's `NSKeyedArchiver` or in another container format still matches.
///
///     try GoldenArchive.check(rootObject: sampleLibrary, against: goldens.appendingPathComponent("library.plist"))
///
/// To create or update golden files, run the tests with the environment variable `ARCHIVE_TESTING_RECORD=1`
/// (or pass `record: true`): the archive is then written to the golden path (as an XML property list, which
/// reviews well) and the check passes.
public enum GoldenArchive {
  /// The environment variable that turns recording on.
  public static let recordVariable = "ARCHIVE_TESTING_RECORD"

  /// `true` when `ARCHIVE_TESTING_RECORD` is `1`, `true` or `yes`.
  public static var isRecording: Bool {
    guard let value = ProcessInfo.processInfo.environment[recordVariable]?.lowercased() else { return false }
    return ["1", "true", "yes"].contains(value)
  }

  /// Compares an archive with the golden file at `url`, or records it there.
  /// - Parameters:
  ///   - archive: the archive (binary or XML).
  ///   - url: the golden file.
  ///   - record: write `archive` to `url` instead of comparing. Default ``isRecording``.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: ``ArchiveCoding/ArchiveError/Code/goldenMismatch`` with the first
  ///   difference and a listing of the others (ARC-313), `fileIO` when the golden file is missing (with how to record it) or cannot be written, or the error
  ///   reading either archive.
  public static func check(_ archive: Data, against url: URL, record: Bool = isRecording) throws {
    if record {
      let value = try PropertyListReader.read(archive)
      try AtomicFile.write(try PropertyListWriter.write(value, format: .xml), to: url)
      return
    }
    guard let golden = try? Data(contentsOf: url) else {
      throw ArchiveError(
        .fileIO, "no golden archive at \(url.path); run the tests with \(recordVariable)=1 to record it",
        at: .init(file: url.path))
    }
    let differences = try ArchiveComparison.differences(between: golden, and: archive)
    if let first = differences.first {
      throw ArchiveError(
        .goldenMismatch,
        "the archive differs from the golden archive at \(first) (run with \(recordVariable)=1 to accept it)"
          + ArchiveDifference.listing(differences),
        at: .init(file: url.path))
    }
  }

  /// Archives `rootObject` with ``/KeyedArchive/KeyedArchiver`` and compares the archive with the golden file at `url`.
  /// - Throws: as ``check(_:against:record:)``, or the archiving error.
  public static func check(rootObject: Any?, against url: URL, record: Bool = isRecording) throws {
    try check(try KeyedArchiver.archivedData(withRootObject: rootObject), against: url, record: record)
  }
}

import ArchiveCoding
import ArchiveComparison
import Foundation
import KeyedArchive
import PropertyList

/// Round-trip checks for tests: archive a value in each format, decode it, and compare, with a readable report of
/// the first difference.
///
///     try ArchiveRoundTrip.check(library)                               // compares snapshots of the graphs
///     try ArchiveRoundTrip.check(book, allowedClasses: [Book.self]) { $0 == $1 }
///
/// Each check also archives the decoded value again and requires the two archives to have the same structure
/// (``ValueSnapshot/init(archive:)``), which catches a class whose `init(coder:)` reads back less than its
/// `encode(with:)` wrote.
public enum ArchiveRoundTrip {
  /// What one format of a check produced.
  public struct Outcome {
    /// The format.
    public var format: PropertyListFormat
    /// The archive.
    public var archive: Data
    /// The decoded root.
    public var decoded: Any?
  }

  /// Archives `value`, decodes it in each format and compares snapshots of the original and the copy.
  /// - Parameters:
  ///   - value: the root object (a ``/ArchiveCoding/Coding`` instance or a Foundation value).
  ///   - formats: the container formats to try. Default: binary and XML.
  ///   - allowedClasses: when set, decoding requires secure coding and allows these types only.
  ///   - registry: the class registry used to decode. Default ``/ArchiveCoding/ClassRegistry/shared``.
  ///   - describe: how to snapshot classes that are neither ``/ArchiveCoding/Coding`` nor Foundation classes.
  /// - Returns: the archive and decoded value per format.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` with code ``ArchiveCoding/ArchiveError/Code/roundTripMismatch`` naming
  ///   the format and the first difference, or the archiving or decoding error.
  @discardableResult
  public static func check(
    _ value: Any?, formats: [PropertyListFormat] = PropertyListFormat.allCases, allowedClasses: [Any.Type]? = nil,
    registry: ClassRegistry = .shared, describe: ValueSnapshot.ObjectDescriber? = nil
  ) throws -> [Outcome] {
    let expected = ValueSnapshot(of: value, describing: describe)
    return try formats.map { format in
      let outcome = try roundTrip(value, format: format, allowedClasses: allowedClasses, registry: registry)
      let actual = ValueSnapshot(of: outcome.decoded, describing: describe)
      if let difference = ValueSnapshot.difference(expected: expected, actual: actual) {
        throw mismatch(
          format,
          "the decoded value differs from the original at \(difference)"
            + differencesArchivedAgain(outcome, registry: registry))
      }
      try checkStable(outcome, registry: registry)
      return outcome
    }
  }

  /// Archives `value`, decodes it in each format as a `T` and compares with `equal`.
  /// - Parameters:
  ///   - value: the root object.
  ///   - formats: the container formats to try. Default: binary and XML.
  ///   - allowedClasses: when set, decoding requires secure coding and allows these types only.
  ///   - registry: the class registry used to decode.
  ///   - equal: the comparison; when it fails, the report names the first difference between snapshots.
  /// - Returns: the decoded values, one per format.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (``ArchiveCoding/ArchiveError/Code/roundTripMismatch``) when the decoded
  ///   value is not a `T` or is not equal, or the archiving or decoding error.
  @discardableResult
  public static func check<T>(
    _ value: T, formats: [PropertyListFormat] = PropertyListFormat.allCases, allowedClasses: [Any.Type]? = nil,
    registry: ClassRegistry = .shared, equal: (T, T) -> Bool
  ) throws -> [T] {
    try formats.map { format in
      let outcome = try roundTrip(value, format: format, allowedClasses: allowedClasses, registry: registry)
      guard let decoded = outcome.decoded as? T else {
        throw mismatch(format, "expected a \(T.self), decoded \(outcome.decoded.map { "a \(type(of: $0))" } ?? "nil")")
      }
      guard equal(value, decoded) else {
        let difference = ValueSnapshot.difference(
          expected: ValueSnapshot(of: value), actual: ValueSnapshot(of: decoded))
        throw mismatch(
          format,
          "the decoded value is not equal to the original"
            + (difference.map { ": first difference at \($0)" } ?? " (their snapshots show no difference)")
            + differencesArchivedAgain(outcome, registry: registry))
      }
      try checkStable(outcome, registry: registry)
      return decoded
    }
  }

  /// Archives and decodes once.
  static func roundTrip(
    _ value: Any?, format: PropertyListFormat, allowedClasses: [Any.Type]?, registry: ClassRegistry
  ) throws -> Outcome {
    let archiver = KeyedArchiver(requiringSecureCoding: allowedClasses != nil, registry: registry)
    archiver.outputFormat = format
    archiver.encodeObject(value, forKey: "root")
    let archive = try archiver.finishEncoding()
    let decoded: Any?
    if let allowedClasses {
      let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: true)
      unarchiver.registry = registry
      decoded = try unarchiver.decodeObject(of: allowedClasses, forKey: "root")
    } else {
      decoded = try KeyedUnarchiver.unarchivedRootObject(from: archive, registry: registry)
    }
    return Outcome(format: format, archive: archive, decoded: decoded)
  }

  /// The decoded value, archived again in the same format, must have the archive structure of the first archive.
  static func checkStable(_ outcome: Outcome, registry: ClassRegistry) throws {
    let again = try archiveAgain(outcome, registry: registry)
    let first = try ValueSnapshot(archive: outcome.archive)
    let second = try ValueSnapshot(archive: again)
    if let difference = ValueSnapshot.difference(expected: first, actual: second) {
      throw mismatch(
        outcome.format,
        "archiving the decoded value again gives a different archive at \(difference)"
          + ArchiveDifference.listing(between: outcome.archive, and: again))
    }
  }

  /// The differences between the archive of the original and the decoded value archived again, listed for a
  /// failure message (ARC-176); empty when the decoded value cannot be archived.
  static func differencesArchivedAgain(_ outcome: Outcome, registry: ClassRegistry) -> String {
    guard let again = try? archiveAgain(outcome, registry: registry) else { return "" }
    return ArchiveDifference.listing(between: outcome.archive, and: again)
  }

  /// The decoded value of `outcome`, archived again in its format.
  static func archiveAgain(_ outcome: Outcome, registry: ClassRegistry) throws -> Data {
    let archiver = KeyedArchiver(registry: registry)
    archiver.outputFormat = outcome.format
    archiver.encodeObject(outcome.decoded, forKey: "root")
    return try archiver.finishEncoding()
  }

  static func mismatch(_ format: PropertyListFormat, _ message: String) -> ArchiveError {
    ArchiveError(.roundTripMismatch, "\(format) round trip: \(message)")
  }
}

import ArchiveCoding
import ArchiveComparison
import Foundation
import KeyedArchive
import PropertyList

/// Round-trip checks for tests: archive a value in each format, decode it, archive the decoded value again, and
/// compare the two archives by meaning with the one comparison of ``/ArchiveComparison/ArchiveComparison``
/// (ARC-300, ARC-313), with a readable report of the differences.
///
///     try ArchiveRoundTrip.check(library)                               // compares the archives by meaning
///     try ArchiveRoundTrip.check(book, allowedClasses: [Book.self]) { $0 == $1 }
///
/// What is compared is what the archives hold: a class whose `init(coder:)` reads back less than its
/// `encode(with:)` wrote fails, Foundation values compare by meaning (a time zone by its name, a measurement by
/// value and unit), never by the private storage of the live values, and a property that `encode(with:)` never
/// writes is not part of the comparison.
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

  /// Archives `value`, decodes it in each format, archives the decoded value again and compares the two archives
  /// by meaning (ARC-313).
  /// - Parameters:
  ///   - value: the root object (a ``/ArchiveCoding/Coding`` instance or a Foundation value).
  ///   - formats: the container formats to try. Default: binary and XML.
  ///   - allowedClasses: when set, decoding requires secure coding and allows these types only.
  ///   - registry: the class registry used to decode. Default ``/ArchiveCoding/ClassRegistry/shared``.
  ///   - describe: not used by the comparison, which reads archives; accepted so that callers that describe
  ///     their classes for ``ValueSnapshot`` compile unchanged.
  /// - Returns: the archive and decoded value per format.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` with code ``ArchiveCoding/ArchiveError/Code/roundTripMismatch`` naming
  ///   the format, the first difference and a listing of the others, or the archiving or decoding error.
  @discardableResult
  public static func check(
    _ value: Any?, formats: [PropertyListFormat] = PropertyListFormat.allCases, allowedClasses: [Any.Type]? = nil,
    registry: ClassRegistry = .shared, describe: ValueSnapshot.ObjectDescriber? = nil
  ) throws -> [Outcome] {
    try formats.map { format in
      let outcome = try roundTrip(value, format: format, allowedClasses: allowedClasses, registry: registry)
      let differences = try differencesArchivedAgain(outcome, registry: registry)
      if let first = differences.first {
        throw mismatch(
          format, "the decoded value differs from the original at \(first)" + ArchiveDifference.listing(differences))
      }
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
      let differences = try differencesArchivedAgain(outcome, registry: registry)
      guard equal(value, decoded) else {
        throw mismatch(
          format,
          "the decoded value is not equal to the original"
            + (differences.first.map { ": first difference at \($0)" } ?? " (their archives show no difference)")
            + ArchiveDifference.listing(differences))
      }
      if let first = differences.first {
        throw mismatch(
          format,
          "archiving the decoded value again gives a different archive at \(first)"
            + ArchiveDifference.listing(differences))
      }
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

  /// The differences between the archive of the original and the decoded value archived again, by meaning
  /// (ARC-313).
  /// - Throws: `roundTripMismatch` when the decoded value cannot be archived again.
  static func differencesArchivedAgain(_ outcome: Outcome, registry: ClassRegistry) throws -> [ArchiveDifference] {
    let again: Data
    do {
      again = try archiveAgain(outcome, registry: registry)
    } catch {
      throw mismatch(outcome.format, "the decoded value cannot be archived again: \(error)")
    }
    return try ArchiveComparison.differences(between: outcome.archive, and: again)
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

#if canImport(Testing)
import ArchiveCoding
import Foundation
import PropertyList
import Testing

/// Swift Testing front ends: each runs a check and records an issue at the caller's source location instead of
/// throwing.
public enum ArchiveExpectations {
  /// Expects `value` to survive archiving and decoding (``ArchiveRoundTrip/check(_:formats:allowedClasses:registry:describe:)``).
  /// - Returns: the outcomes, or an empty array when an issue was recorded.
  @discardableResult
  public static func expectRoundTrip(
    _ value: Any?, formats: [PropertyListFormat] = PropertyListFormat.allCases, allowedClasses: [Any.Type]? = nil,
    registry: ClassRegistry = .shared, describe: ValueSnapshot.ObjectDescriber? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> [ArchiveRoundTrip.Outcome] {
    record(sourceLocation) {
      try ArchiveRoundTrip.check(
        value, formats: formats, allowedClasses: allowedClasses, registry: registry, describe: describe)
    } ?? []
  }

  /// Expects `value` to decode as an equal `T` (``ArchiveRoundTrip/check(_:formats:allowedClasses:registry:equal:)``).
  public static func expectRoundTrip<T>(
    _ value: T, formats: [PropertyListFormat] = PropertyListFormat.allCases, allowedClasses: [Any.Type]? = nil,
    registry: ClassRegistry = .shared, sourceLocation: SourceLocation = #_sourceLocation, equal: (T, T) -> Bool
  ) {
    _ = record(sourceLocation) {
      try ArchiveRoundTrip.check(
        value, formats: formats, allowedClasses: allowedClasses, registry: registry, equal: equal)
    }
  }

  /// Expects an archive to match its golden file (``GoldenArchive/check(_:against:record:)``).
  public static func expectGolden(
    _ archive: Data, matches url: URL, record: Bool = GoldenArchive.isRecording,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let recording = record
    _ = Self.record(sourceLocation) { try GoldenArchive.check(archive, against: url, record: recording) }
  }

  /// Expects Foundation's `NSKeyedUnarchiver` to decode our archive of `value` to the same graph
  /// (``FoundationOracle/check(_:formats:classes:describe:)``).
  public static func expectFoundationReads(
    _ value: Any?, formats: [PropertyListFormat] = PropertyListFormat.allCases, classes: [String: AnyClass] = [:],
    describe: ValueSnapshot.ObjectDescriber? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    _ = record(sourceLocation) {
      try FoundationOracle.check(value, formats: formats, classes: classes, describe: describe)
    }
  }

  private static func record<T>(_ location: SourceLocation, _ body: () throws -> T) -> T? {
    do {
      return try body()
    } catch {
      Issue.record("\(error)", sourceLocation: location)
      return nil
    }
  }
}
#endif

#if canImport(Testing)
import ArchiveCoding
import Foundation
import PropertyList
import Testing

extension ArchiveExpectations {
  /// Expects `value` to decode with equal values at `keyPaths`
  /// (``ArchiveRoundTrip/check(_:formats:allowedClasses:registry:comparing:_:)``), recording an issue at the caller's
  /// source location otherwise:
  ///
  ///     ArchiveExpectations.expectRoundTrip(
  ///       note, allowedClasses: [Note.self, Attachment.self],
  ///       comparing: \.title, \.tags, \.created, \.attachments.count)
  public static func expectRoundTrip<T>(
    _ value: T, formats: [PropertyListFormat] = PropertyListFormat.allCases, allowedClasses: [Any.Type]? = nil,
    registry: ClassRegistry = .shared, comparing first: PartialKeyPath<T>, _ more: PartialKeyPath<T>...,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      try ArchiveRoundTrip.check(
        value, formats: formats, allowedClasses: allowedClasses, registry: registry, comparingKeyPaths: [first] + more)
    } catch {
      Issue.record("\(error)", sourceLocation: sourceLocation)
    }
  }
}
#endif

import ArchiveCoding
import Foundation
import PropertyList

extension ArchiveRoundTrip {
  /// Archives `value`, decodes it in each format as a `T` and compares the values at `keyPaths` (ARC-029): the
  /// comparison a closure `{ a, b in a.title == b.title && a.tags == b.tags && … }` writes, in a form the compiler
  /// type-checks at once (a closure of four `==` clauses over a generic `T` takes it longer than it allows).
  ///
  ///     try ArchiveRoundTrip.check(note, allowedClasses: [Note.self], comparing: \.title, \.tags, \.created)
  ///
  /// - Parameters:
  ///   - value: the root object.
  ///   - formats: the container formats to try. Default: binary and XML.
  ///   - allowedClasses: when set, decoding requires secure coding and allows these types only.
  ///   - registry: the class registry used to decode.
  ///   - first: the first property compared; each must hold an `Equatable` value (`\.attachments.count` rather than
  ///     `\.attachments` for an array of objects that are not `Equatable`).
  ///   - more: the other properties compared, in order.
  /// - Returns: the decoded values, one per format.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (``ArchiveCoding/ArchiveError/Code/roundTripMismatch``) naming the first
  ///   key path whose values differ, with both values; `invalidValue` when a key path's value is not `Equatable`; or
  ///   the archiving or decoding error.
  @discardableResult
  public static func check<T>(
    _ value: T, formats: [PropertyListFormat] = PropertyListFormat.allCases, allowedClasses: [Any.Type]? = nil,
    registry: ClassRegistry = .shared, comparing first: PartialKeyPath<T>, _ more: PartialKeyPath<T>...
  ) throws -> [T] {
    try check(
      value, formats: formats, allowedClasses: allowedClasses, registry: registry, comparingKeyPaths: [first] + more)
  }

  /// ``check(_:formats:allowedClasses:registry:comparing:_:)`` with the key paths as an array.
  @discardableResult
  static func check<T>(
    _ value: T, formats: [PropertyListFormat], allowedClasses: [Any.Type]?, registry: ClassRegistry,
    comparingKeyPaths keyPaths: [PartialKeyPath<T>]
  ) throws -> [T] {
    for (index, keyPath) in keyPaths.enumerated() where !(value[keyPath: keyPath] is any Equatable) {
      throw ArchiveError(
        .invalidValue,
        "key path #\(index + 1) leads to a \(type(of: value[keyPath: keyPath])), which is not Equatable: compare one "
          + "of its Equatable properties instead")
    }
    var firstDifference: String?
    do {
      return try check(value, formats: formats, allowedClasses: allowedClasses, registry: registry) {
        original, decoded in
        for (index, keyPath) in keyPaths.enumerated() {
          let (a, b) = (original[keyPath: keyPath], decoded[keyPath: keyPath])
          if let a = a as? any Equatable, Self.equal(a, b) { continue }
          firstDifference = "key path #\(index + 1): \(String(reflecting: a)) -> \(String(reflecting: b))"
          return false
        }
        return true
      }
    } catch var error as ArchiveError where error.code == .roundTripMismatch {
      if let firstDifference { error.message += " (\(firstDifference))" }
      throw error
    }
  }

  /// `a == b` when `b` is of `a`'s type.
  private static func equal<E: Equatable>(_ a: E, _ b: Any) -> Bool {
    guard let b = b as? E else { return false }
    return a == b
  }
}

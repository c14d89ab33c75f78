import ArchiveCoding
import Foundation

/// Decodes `Decodable` values from keyed archives written by ``KeyedArchiveEncoder`` or by Apple's
/// `NSKeyedArchiver` from Foundation values (dictionaries with string keys, arrays, strings, numbers, `Data`,
/// `Date`, `URL`, `UUID`, `NSDecimalNumber`, `NSNull`).
///
///     let library = try KeyedArchiveDecoder().decode(Library.self, from: data)
///
/// Numbers convert between the integer and floating-point types when the value fits exactly (a `Double` read as
/// `Float` rounds to nearest); one that does not fit is `DecodingError.dataCorrupted`. A missing key and `NSNull`
/// both read as `nil`. Every error is a `DecodingError` whose coding path names the failing value; a damaged archive
/// is `dataCorrupted` at the top level with the ``ArchiveError`` (and its object index) as underlying error.
public final class KeyedArchiveDecoder {
  /// Contextual information handed to every `init(from:)` as `Decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: Any] = [:]

  /// Creates a decoder.
  public init() {}

  /// Decodes the root object (`$top.root`) of a keyed archive as `type`.
  /// - Parameters:
  ///   - type: the type to decode.
  ///   - data: the archive (binary or XML).
  /// - Returns: the value.
  /// - Throws: `DecodingError`.
  public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    let root: Any
    do {
      root = try KeyedUnarchiver.unarchivedRootObject(from: data) ?? NSNull()
    } catch {
      var description = "the data is not a readable keyed archive: \(error)"
      if let archiveError = error as? ArchiveError, let index = archiveError.location.objectIndex {
        description += " (object #\(index))"
      }
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: [], debugDescription: description, underlyingError: error))
    }
    return try ArchiveValueDecoder(value: root, codingPath: [], userInfo: userInfo).unbox(root, as: type, at: [])
  }
}

import Foundation
import PropertyList

/// Encodes `Encodable` values as keyed archives that Apple's `NSKeyedUnarchiver` reads as Foundation values.
///
///     let data = try KeyedArchiveEncoder().encode(library)
///
/// The mapping (Specs/CoderSemantics.md, COD-060 and up):
/// - a keyed container is an `NSDictionary` whose keys are the coding keys' string values;
/// - an unkeyed container is an `NSArray`;
/// - strings, numbers and booleans are the plain values `NSKeyedArchiver` writes for `NSString` and `NSNumber`;
///   `Data`, `Date`, `URL`, `UUID` and `Decimal` are `NSData`, `NSDate`, `NSURL`, `NSUUID` and
///   `NSDecimalNumber`;
/// - `nil` written with `encodeIfPresent` (synthesized optionals) leaves the key out; an explicit `encodeNil` and
///   `nil` in an unkeyed container write `NSNull`.
///
/// Class identity is not kept: a `Codable` class instance reached twice is written twice, and a cycle of
/// `Codable` classes is an `EncodingError` (nesting deeper than 512 levels), not an infinite recursion.
public final class KeyedArchiveEncoder {
  /// The form of the output. Default: binary.
  public var outputFormat: PropertyListFormat = .binary
  /// Contextual information handed to every `encode(to:)` as `Encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: Any] = [:]

  /// Creates an encoder.
  /// - Parameter outputFormat: binary (default) or XML.
  public init(outputFormat: PropertyListFormat = .binary) {
    self.outputFormat = outputFormat
  }

  /// Encodes a value as the root object (`$top.root`) of a keyed archive.
  /// - Parameter value: the value.
  /// - Returns: the archive.
  /// - Throws: `EncodingError.invalidValue` when the value or one of its parts cannot be archived (the
  ///   underlying ``ArchiveError``, if any, is the context's `underlyingError`).
  public func encode<T: Encodable>(_ value: T) throws -> Data {
    let root = ArchiveValueEncoder(node: ArchiveEncodingNode(), codingPath: [], userInfo: userInfo)
    let node = try root.box(value, at: [])
    do {
      return try KeyedArchiver.archivedData(withRootObject: node.materialized(), format: outputFormat)
    } catch {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [], debugDescription: "the encoded value cannot be archived: \(error)", underlyingError: error))
    }
  }
}

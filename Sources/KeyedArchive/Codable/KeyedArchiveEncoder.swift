import ArchiveCoding
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
/// Class instances keep their identity: an instance reached twice is one object in `$objects`, and a cycle refers
/// back to it. Decode such cycles with ``ArchiveReference`` (Specs/Decisions/0007-codable-class-identity.md). A
/// ``/ArchiveCoding/Coding`` instance inside a `Codable` value is archived by its `encode(with:)`.
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
  ///   underlying ``/ArchiveCoding/ArchiveError``, if any, is the context's `underlyingError`).
  public func encode<T: Encodable>(_ value: T) throws -> Data {
    let archiver = KeyedArchiver()
    archiver.outputFormat = outputFormat
    let state = ArchiveEncodingState.attached(to: archiver, userInfo: userInfo)
    let root = try state.encodeEntry(value)
    archiver.encodeObject(ArchivedEntry(uid: root), forKey: ArchiveKeys.root)
    do {
      return try archiver.finishEncoding()
    } catch let error as EncodingError {
      // Recorded by a `Coding` object's `encodeCodable(_:forKey:)`.
      throw error
    } catch {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [], debugDescription: "the encoded value cannot be archived: \(error)", underlyingError: error))
    }
  }
}

extension EncodingCoder {
  /// Writes an `Encodable` value under a key, as ``KeyedArchiveEncoder`` writes it (a ``/ArchiveCoding/Coding`` object
  /// holding a `Codable` value). Class instances keep their identity across every `Codable` value of the archive.
  ///
  /// The coder must be a ``KeyedArchiver``; another coder, or a value that fails to encode, records an
  /// `EncodingError` with ``/ArchiveCoding/EncodingCoder/failWithError(_:)`` (the archive then fails) and writes `nil`.
  /// - Parameters:
  ///   - value: the value; `nil` writes `nil`.
  ///   - key: the key.
  public func encodeCodable<T: Encodable>(_ value: T?, forKey key: String) {
    guard let value else {
      encodeObject(nil, forKey: key)
      return
    }
    guard let archiver = self as? KeyedArchiver else {
      failWithError(
        EncodingError.invalidValue(
          value,
          EncodingError.Context(
            codingPath: [],
            debugDescription: "encodeCodable(_:forKey:) needs a KeyedArchiver, not a \(type(of: self))")))
      encodeObject(nil, forKey: key)
      return
    }
    let state = ArchiveEncodingState.attached(to: archiver, userInfo: [:])
    do {
      archiver.encodeObject(ArchivedEntry(uid: try state.encodeEntry(value)), forKey: key)
    } catch {
      archiver.failWithError(error)
      archiver.encodeObject(nil, forKey: key)
    }
  }
}

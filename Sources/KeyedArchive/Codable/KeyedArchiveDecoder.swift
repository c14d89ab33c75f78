import ArchiveCoding
import Foundation

/// Decodes `Decodable` values from keyed archives written by ``KeyedArchiveEncoder`` or by Apple's
/// `NSKeyedArchiver` from Foundation values (dictionaries with string keys, arrays, strings, numbers, `Data`,
/// `Date`, `URL`, `UUID`, `NSDecimalNumber`, `NSNull`).
///
///     let library = try KeyedArchiveDecoder().decode(Library.self, from: data)
///
/// Dictionaries, arrays, strings and numbers are read in place from the archive. Numbers convert between the
/// integer and floating-point types when the value fits exactly (a `Double` read as `Float` rounds to nearest); one
/// that does not fit is `DecodingError.dataCorrupted`. A missing key and `NSNull` both read as `nil`.
///
/// A class instance stored once in `$objects` decodes as one instance wherever it is referenced. A reference back
/// to an instance that is still in its `init(from:)` (a cycle) must be held in an ``ArchiveReference``, which is
/// filled once the whole value is decoded; otherwise it is a `dataCorrupted` error.
///
/// Every error is a `DecodingError` whose coding path names the failing value; its description names the `$objects`
/// index, and its underlying error is an ``/ArchiveCoding/ArchiveError`` whose location carries that index and the
/// path. A damaged archive is `dataCorrupted` at the top level with the ``/ArchiveCoding/ArchiveError`` as underlying
/// error.
public final class KeyedArchiveDecoder {
  /// Contextual information handed to every `init(from:)` as `Decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: Any] = [:]
  /// Limits for reading the archive (its size, the nesting of values). Default: ``KeyedUnarchiverOptions/default``.
  public var options: KeyedUnarchiverOptions = .default

  /// Creates a decoder.
  public init() {}

  /// Decodes the root object (`$top.root`) of a keyed archive as `type`.
  /// - Parameters:
  ///   - type: the type to decode.
  ///   - data: the archive (binary or XML).
  /// - Returns: the value.
  /// - Throws: `DecodingError`.
  public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    let unarchiver: KeyedUnarchiver
    let root: Int
    do {
      unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false, options: options)
      root = try unarchiver.codableRootUID()
    } catch {
      var description = "the data is not a readable keyed archive: \(error)"
      if let archiveError = error as? ArchiveError, let index = archiveError.location.objectIndex {
        description += " (object #\(index))"
      }
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: [], debugDescription: description, underlyingError: error))
    }
    let state = ArchiveDecodingState.attached(to: unarchiver, userInfo: userInfo)
    return try state.decodeTop(type, uid: root)
  }
}

extension DecodingCoder {
  /// Decodes a `Decodable` value written with ``EncodingCoder/encodeCodable(_:forKey:)`` (a ``/ArchiveCoding/Coding``
  /// object holding a `Codable` value). Class instances are shared with every other `Codable` value of the archive;
  /// ``ArchiveReference``s are filled when the outermost `Codable` decode finishes.
  /// - Parameters:
  ///   - type: the type.
  ///   - key: the key.
  /// - Returns: the value, or `nil` when the key is absent or holds `nil`.
  /// - Throws: `DecodingError` (its coding path starts at this value); ``/ArchiveCoding/ArchiveError`` when the coder
  ///   is not a ``KeyedUnarchiver``.
  public func decodeCodable<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
    guard let unarchiver = self as? KeyedUnarchiver else {
      throw ArchiveError(
        .other, "decodeCodable(_:forKey:) needs a KeyedUnarchiver, not a \(Swift.type(of: self))",
        at: .init(keyPath: key))
    }
    let uid = try unarchiver.codableFieldUID(forKey: key)
    let state = ArchiveDecodingState.attached(to: unarchiver, userInfo: [:])
    if try state.isNull(uid) { return nil }
    return try state.decodeTop(type, uid: uid)
  }
}

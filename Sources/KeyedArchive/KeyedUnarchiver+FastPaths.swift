import ArchiveCoding
import Foundation
import PropertyList

/// Direct paths for the typed calls `init(coder:)` makes most: they read the field's bytes without building
/// intermediate values and give exactly the results of the general path, to which they fall back for anything
/// unusual (a missing or mistyped value, `$null`, a failure policy other than throwing), so errors are reported
/// the same way.
extension KeyedUnarchiver {
  /// A string object; missing is `nil`.
  public func decodeString(forKey key: String) throws -> String? {
    guard decodingFailurePolicy == .throwError else { return try decodeObject(of: String.self, forKey: key) }
    if let uid = plainTarget(forKey: key) {
      if let shared = state.plainStrings[uid] { return shared }
      if state.cache[state: uid] == .done {
        if let cached = state.cache[uid] as? String { return cached }
      } else {
        let ref = reader.element(objectsHeader, uid)
        if let header = try? reader.header(of: ref), header.kind == .asciiString || header.kind == .utf16String,
          // Compared with `$null` only at its length: a longer string's comparison takes the slow path.
          let string = try? reader.string(header, object: ref),
          header.count != ArchiveKeys.null.utf8.count || string != ArchiveKeys.null
        {
          // A short ASCII string lives inside its `String` value: caching it in the `Any` cache would cost more
          // than reading it again, so from its second use it is kept as a `String` by UID (a name many objects
          // share). Longer ones are cached as the general path caches them, so that references share one storage.
          if header.kind != .asciiString || header.count > Self.inlineStringLength {
            rememberPlain(string, uid: uid, chain: 0, header: header)
          } else if state.cache[state: uid] == .seenOnce {
            state.plainStrings.insert(string, for: uid)
          } else {
            state.cache[state: uid] = .seenOnce
          }
          return string
        }
      }
    }
    rewindFieldCursor()
    return try decodeObject(of: String.self, forKey: key)
  }

  /// A data object; missing is `nil`.
  public func decodeData(forKey key: String) throws -> Data? {
    guard decodingFailurePolicy == .throwError else { return try decodeObject(of: Data.self, forKey: key) }
    if let uid = plainTarget(forKey: key) {
      if state.cache[state: uid] == .done {
        if let cached = state.cache[uid] as? Data { return cached }
      } else {
        let ref = reader.element(objectsHeader, uid)
        if let header = try? reader.header(of: ref), header.kind == .data {
          let data = reader.data(header)
          rememberPlain(data, uid: uid, chain: 1, header: header)
          return data
        }
      }
    }
    rewindFieldCursor()
    return try decodeObject(of: Data.self, forKey: key)
  }

  /// A 64-bit integer; missing is 0.
  public func decodeInt64(forKey key: String) throws -> Int64 {
    guard decodingFailurePolicy == .throwError else { return try defaultDecodeInt64(forKey: key) }
    // Read from the marker: what a header would give (an integer of 1 to 8 bytes), or nothing.
    if let ref = fieldRef(key), let value = reader.int64Value(ofObject: ref) { return value }
    rewindFieldCursor()
    return try defaultDecodeInt64(forKey: key)
  }

  /// A 64-bit real; missing is 0.
  public func decodeDouble(forKey key: String) throws -> Double {
    guard decodingFailurePolicy == .throwError else { return try defaultDecodeDouble(forKey: key) }
    if let ref = fieldRef(key), let value = reader.doubleValue(ofObject: ref) { return value }
    rewindFieldCursor()
    return try defaultDecodeDouble(forKey: key)
  }

  /// A boolean; missing is `false`.
  public func decodeBool(forKey key: String) throws -> Bool {
    guard decodingFailurePolicy == .throwError else { return try defaultDecodeBool(forKey: key) }
    if let ref = fieldRef(key), let value = reader.boolValue(ofObject: ref) { return value }
    rewindFieldCursor()
    return try defaultDecodeBool(forKey: key)
  }

  /// The longest ASCII string a `String` holds inline (without allocating) on 64-bit platforms.
  static let inlineStringLength = 15
}

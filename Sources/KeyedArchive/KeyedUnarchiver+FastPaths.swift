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
      if let kept = store.state.cache.string(uid) { return kept }
      let entry = index.entries[uid]
      if !entry.isObject, entry.kind == .asciiString || entry.kind == .utf16String,
        let string = try? reader.string(index.header(of: entry), object: index.object(uid))
      {
        keepString(string, uid: uid, entry: entry)
        return string
      }
    }
    rewindFieldCursor()
    return try decodeObject(of: String.self, forKey: key)
  }

  /// A data object; missing is `nil`.
  public func decodeData(forKey key: String) throws -> Data? {
    guard decodingFailurePolicy == .throwError else { return try decodeObject(of: Data.self, forKey: key) }
    if let uid = plainTarget(forKey: key) {
      let entry = index.entries[uid]
      if !entry.isObject, entry.kind == .data { return dataEntry(uid, entry) }
    }
    rewindFieldCursor()
    return try decodeObject(of: Data.self, forKey: key)
  }

  /// A 64-bit integer; missing is 0.
  public func decodeInt64(forKey key: String) throws -> Int64 {
    guard decodingFailurePolicy == .throwError else { return try defaultDecodeInt64(forKey: key) }
    // Read from the marker: what a header would give (an integer of 1 to 8 bytes), or nothing.
    if let ref = inlinedFieldRef(key), let value = reader.int64Value(ofObject: ref) { return value }
    rewindFieldCursor()
    return try defaultDecodeInt64(forKey: key)
  }

  /// A 64-bit real; missing is 0.
  public func decodeDouble(forKey key: String) throws -> Double {
    guard decodingFailurePolicy == .throwError else { return try defaultDecodeDouble(forKey: key) }
    if let ref = inlinedFieldRef(key), let value = reader.doubleValue(ofObject: ref) { return value }
    rewindFieldCursor()
    return try defaultDecodeDouble(forKey: key)
  }

  /// A boolean; missing is `false`.
  public func decodeBool(forKey key: String) throws -> Bool {
    guard decodingFailurePolicy == .throwError else { return try defaultDecodeBool(forKey: key) }
    if let ref = inlinedFieldRef(key), let value = reader.boolValue(ofObject: ref) { return value }
    rewindFieldCursor()
    return try defaultDecodeBool(forKey: key)
  }
}

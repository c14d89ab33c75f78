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
    if decodingFailurePolicy == .throwError, let uid = plainTarget(forKey: key) {
      if let cached = cachedPlain(uid) as? String { return cached }
      let ref = reader.element(objectsHeader, uid)
      if let header = try? reader.header(of: ref), header.kind == .asciiString || header.kind == .utf16String,
        let string = try? reader.string(header, object: ref), string != "$null"
      {
        rememberPlain(string, uid: uid, chain: 0)
        return string
      }
    }
    return try decodeObject(of: String.self, forKey: key)
  }

  /// A data object; missing is `nil`.
  public func decodeData(forKey key: String) throws -> Data? {
    if decodingFailurePolicy == .throwError, let uid = plainTarget(forKey: key) {
      if let cached = cachedPlain(uid) as? Data { return cached }
      let ref = reader.element(objectsHeader, uid)
      if let header = try? reader.header(of: ref), header.kind == .data {
        let data = reader.data(header)
        rememberPlain(data, uid: uid, chain: 1)
        return data
      }
    }
    return try decodeObject(of: Data.self, forKey: key)
  }

  /// A 64-bit integer; missing is 0.
  public func decodeInt64(forKey key: String) throws -> Int64 {
    if decodingFailurePolicy == .throwError, let ref = fieldRef(key), let header = try? reader.header(of: ref),
      header.kind == .integer, case .integer(let value)? = try? reader.integer(header, object: ref)
    {
      return value
    }
    return try defaultDecodeInt64(forKey: key)
  }

  /// A 64-bit real; missing is 0.
  public func decodeDouble(forKey key: String) throws -> Double {
    if decodingFailurePolicy == .throwError, let ref = fieldRef(key), let header = try? reader.header(of: ref),
      header.kind == .real
    {
      switch reader.real(header) {
      case .real(let value): return value
      case .float(let value): return Double(value)
      default: break
      }
    }
    return try defaultDecodeDouble(forKey: key)
  }

  /// A boolean; missing is `false`.
  public func decodeBool(forKey key: String) throws -> Bool {
    if decodingFailurePolicy == .throwError, let ref = fieldRef(key), let header = try? reader.header(of: ref),
      header.kind == .bool
    {
      return header.count == 1
    }
    return try defaultDecodeBool(forKey: key)
  }
}

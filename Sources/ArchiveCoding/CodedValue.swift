import Foundation

/// A primitive value stored inline in an object's fields (not as a separate object): what `encode(_:forKey:)`
/// writes for booleans, numbers and raw bytes.
public enum CodedValue: Sendable, Hashable {
  /// A boolean.
  case bool(Bool)
  /// A signed integer.
  case integer(Int64)
  /// An unsigned integer above `Int64.max`.
  case unsignedInteger(UInt64)
  /// A 32-bit real.
  case float(Float)
  /// A 64-bit real.
  case double(Double)
  /// Raw bytes (`encodeBytes`).
  case bytes(Data)
  /// An inline string (used by a few Foundation classes, such as `NSMutableString`'s `NS.string`).
  case string(String)

  /// A short name of the type, for messages.
  public var typeName: String {
    switch self {
    case .bool: "a boolean"
    case .integer, .unsignedInteger: "an integer"
    case .float, .double: "a real"
    case .bytes: "bytes"
    case .string: "a string"
    }
  }
}

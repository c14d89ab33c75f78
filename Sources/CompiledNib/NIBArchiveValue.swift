import Foundation

/// One value of a NIBArchive values table, decoded from its type code and payload (rules NIBA-011, NIBA-019).
public enum NIBArchiveValue: Hashable, Sendable {
  /// Type code 0.
  case int8(Int8)
  /// Type code 1.
  case int16(Int16)
  /// Type code 2.
  case int32(Int32)
  /// Type code 3.
  case int64(Int64)
  /// Type codes 4 (`false`) and 5 (`true`).
  case bool(Bool)
  /// Type code 6.
  case float(Float)
  /// Type code 7.
  case double(Double)
  /// Type code 8: the bytes, copied out of the archive.
  case data(Data)
  /// Type code 9: the nil object.
  case null
  /// Type code 10: a reference to the object with this index (always less than the object count).
  case object(Int)

  /// The type code this value was stored with.
  public var type: NIBArchiveValueType {
    switch self {
    case .int8: .int8
    case .int16: .int16
    case .int32: .int32
    case .int64: .int64
    case .bool(let flag): flag ? .boolTrue : .boolFalse
    case .float: .float32
    case .double: .float64
    case .data: .data
    case .null: .null
    case .object: .objectReference
    }
  }

  /// The value as an integer, with Apple's `decodeInteger` coercions: the four integer types sign-extended,
  /// `false`/`true` as 0/1; `nil` for every other type.
  public var integerValue: Int64? {
    switch self {
    case .int8(let value): Int64(value)
    case .int16(let value): Int64(value)
    case .int32(let value): Int64(value)
    case .int64(let value): value
    case .bool(let flag): flag ? 1 : 0
    default: nil
    }
  }

  /// The value as a Boolean, with Apple's `decodeBool` coercions: the two Boolean codes, or any integer type
  /// (non-zero is `true`); `nil` for every other type.
  public var boolValue: Bool? {
    switch self {
    case .bool(let flag): flag
    case .int8, .int16, .int32, .int64: integerValue.map { $0 != 0 }
    default: nil
    }
  }

  /// The value as a Double, with Apple's `decodeDouble` rules: float32 (widened) and float64 only; `nil` for every
  /// other type, integers included.
  public var floatingPointValue: Double? {
    switch self {
    case .float(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  /// The referenced object's index for an object reference, `nil` otherwise.
  public var objectIndex: Int? {
    if case .object(let index) = self { return index }
    return nil
  }

  /// The bytes of a data value, `nil` otherwise.
  public var dataValue: Data? {
    if case .data(let bytes) = self { return bytes }
    return nil
  }

  /// `true` for the nil value (type code 9).
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

/// The type code byte of a NIBArchive value (rule NIBA-011).
///
/// Booleans are two payload-free codes: 4 is `false` and 5 is `true`.
public enum NIBArchiveValueType: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  /// A signed 8-bit integer, 1 byte.
  case int8 = 0
  /// A signed 16-bit integer, 2 bytes little-endian.
  case int16 = 1
  /// A signed 32-bit integer, 4 bytes little-endian.
  case int32 = 2
  /// A signed 64-bit integer, 8 bytes little-endian.
  case int64 = 3
  /// The Boolean `false`, no payload.
  case boolFalse = 4
  /// The Boolean `true`, no payload.
  case boolTrue = 5
  /// An IEEE-754 binary32 number, 4 bytes little-endian.
  case float32 = 6
  /// An IEEE-754 binary64 number, 8 bytes little-endian.
  case float64 = 7
  /// Bytes: a varint length followed by that many bytes.
  case data = 8
  /// The nil object, no payload.
  case null = 9
  /// A reference to an object by index: a little-endian u32 (not a varint).
  case objectReference = 10

  /// The number of payload bytes after the type byte, or `nil` for ``data`` whose payload has a varint length.
  var fixedPayloadSize: Int? {
    switch self {
    case .int8: 1
    case .int16: 2
    case .int32, .float32, .objectReference: 4
    case .int64, .float64: 8
    case .boolFalse, .boolTrue, .null: 0
    case .data: nil
    }
  }

  /// A readable name for messages, such as `int32` or `object reference`.
  public var description: String {
    switch self {
    case .int8: "int8"
    case .int16: "int16"
    case .int32: "int32"
    case .int64: "int64"
    case .boolFalse: "false"
    case .boolTrue: "true"
    case .float32: "float32"
    case .float64: "float64"
    case .data: "data"
    case .null: "nil"
    case .objectReference: "object reference"
    }
  }
}

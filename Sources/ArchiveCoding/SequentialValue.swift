import Foundation

/// One value of a sequential archive (an `NSArchiver` typedstream), as `NSCoder.decodeValue(ofObjCType:at:size:)`
/// fills it in and `NSCoder.encodeValue(ofObjCType:at:)` writes it: one value for each type of a type encoding
/// (`Specs/CoderSemantics.md`, COD-120).
///
/// | type code | case |
/// |---|---|
/// | `c s i l q` | ``integer(_:)`` |
/// | `C S I L Q` | ``unsignedInteger(_:)``, wrapped to the type's width |
/// | `B` | ``bool(_:)`` |
/// | `f`, `d` | ``float(_:)``, ``double(_:)`` |
/// | `+` | ``bytes(_:)`` (unshared bytes) |
/// | `[Nc]`, `[NC]` | ``bytes(_:)`` (N raw bytes) |
/// | `*` | ``cString(_:)`` |
/// | `%`, `:` | ``atom(_:)``, ``selector(_:)`` |
/// | `#` | ``className(_:)`` |
/// | `@` | ``object(_:)`` |
/// | `[N t]`, `{name=t...}` | ``array(_:)``, ``structure(_:)`` |
/// | `!` | ``ignored`` |
public enum SequentialValue {
  /// A signed integer: `c`, `s`, `i`, `l`, `q`.
  case integer(Int64)
  /// An unsigned integer, wrapped to its type's width: `C`, `S`, `I`, `L`, `Q`.
  case unsignedInteger(UInt64)
  /// A C99 `bool`: `B`.
  case bool(Bool)
  /// A 32-bit real: `f`.
  case float(Float)
  /// A 64-bit real: `d`.
  case double(Double)
  /// Bytes: `+` (nil when the stream stored none), or the raw bytes of `[Nc]` and `[NC]`.
  case bytes(Data?)
  /// A C string: `*` (nil for a null pointer).
  case cString(Data?)
  /// An atom (a uniqued C string): `%`.
  case atom(String?)
  /// A selector's name: `:`.
  case selector(String?)
  /// A class, by name: `#`.
  case className(String?)
  /// An object: `@`, decoded (or to encode).
  case object(Any?)
  /// The elements of an array type `[N t]` of any other element type.
  case array([SequentialValue])
  /// The fields of a structure type `{name=t...}`, in order.
  case structure([SequentialValue])
  /// `!`: a type that stores nothing.
  case ignored

  /// The value as a signed integer: integers, unsigned integers by bit pattern, booleans as 0 or 1; otherwise nil.
  public var integerValue: Int64? {
    switch self {
    case .integer(let value): value
    case .unsignedInteger(let value): Int64(bitPattern: value)
    case .bool(let value): value ? 1 : 0
    default: nil
    }
  }

  /// The value as a real: reals, and integers converted; otherwise nil.
  public var realValue: Double? {
    switch self {
    case .float(let value): Double(value)
    case .double(let value): value
    case .integer(let value): Double(value)
    case .unsignedInteger(let value): Double(value)
    default: nil
    }
  }

  /// A short name of the value's kind, for messages.
  public var kindName: String {
    switch self {
    case .integer, .unsignedInteger: "an integer"
    case .bool: "a boolean"
    case .float, .double: "a real"
    case .bytes: "bytes"
    case .cString: "a C string"
    case .atom: "an atom"
    case .selector: "a selector"
    case .className: "a class"
    case .object: "an object"
    case .array: "an array"
    case .structure: "a structure"
    case .ignored: "nothing"
    }
  }
}

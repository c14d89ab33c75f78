import Foundation

/// A number decoded from an archive, converted to the type a `Decodable` asks for without losing information.
enum ArchiveNumber {
  case signed(Int64)
  case unsigned(UInt64)
  case double(Double)
  case float(Float)

  var description: String {
    switch self {
    case .signed(let v): "\(v)"
    case .unsigned(let v): "\(v)"
    case .double(let v): "\(v)"
    case .float(let v): "\(v)"
    }
  }

  /// The number as `T`, or `nil` when `T` cannot represent it exactly.
  func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
    switch self {
    case .signed(let v): T(exactly: v)
    case .unsigned(let v): T(exactly: v)
    case .double(let v): T(exactly: v)
    case .float(let v): T(exactly: v)
    }
  }

  /// The number as a `Double`, or `nil` when an integer has no exact `Double`.
  var double: Double? {
    switch self {
    case .signed(let v): Double(exactly: v)
    case .unsigned(let v): Double(exactly: v)
    case .double(let v): v
    case .float(let v): Double(v)
    }
  }

  /// The number as a `Float`: exact for integers, rounded to nearest for a finite `Double` within `Float`'s range
  /// (as `JSONDecoder` does), `nil` otherwise.
  var float: Float? {
    switch self {
    case .signed(let v): return Float(exactly: v)
    case .unsigned(let v): return Float(exactly: v)
    case .float(let v): return v
    case .double(let v):
      let rounded = Float(v)
      return rounded.isFinite || !v.isFinite ? rounded : nil
    }
  }
}

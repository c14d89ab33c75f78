/// A number as the canonical view writes it: an integer of either sign exactly, or a real (a 32-bit real widened
/// exactly), as the archive stored it.
package enum CanonicalNumber: Hashable, Sendable {
  /// A signed integer.
  case integer(Int64)
  /// An integer above `Int64.max`.
  case unsignedInteger(UInt64)
  /// A real.
  case real(Double)

  /// The number as a real.
  package var doubleValue: Double {
    switch self {
    case .integer(let value): Double(value)
    case .unsignedInteger(let value): Double(value)
    case .real(let value): value
    }
  }
}

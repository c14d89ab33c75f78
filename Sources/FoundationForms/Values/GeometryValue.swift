/// An `NSValue`'s geometry or range, as its form holds it.
package enum GeometryValue: Hashable, Sendable {
  /// A point: `x`, `y`.
  case point([Double])
  /// A size: width, height.
  case size([Double])
  /// A rectangle: `x`, `y`, width, height.
  case rect([Double])
  /// A range: location and length, as the archive stored the numbers.
  case range(location: CanonicalNumber, length: CanonicalNumber)
}

import Foundation

/// Reads the geometry values of compiled nibs (NIBA-049), for interface classes decoding `UIBounds`, `UICenter`,
/// `NSFrame` and the like from an object table built from a compiled nib.
///
/// UIKit writes CGPoint, CGSize, CGRect, UIEdgeInsets and CGAffineTransform as data: one element-type byte (`0x06`
/// for float32, `0x07` for float64) followed by the little-endian elements. AppKit and the pre-iOS-6 keyed nibs
/// write them as strings in `NSStringFromRect` syntax (`{{0, 0}, {320, 480}}`, `{160, 240}`).
///
///     if case .data(let bytes)? = record.field("UIBounds"), let rect = CompiledNibGeometry.numbers(from: bytes) {
///       // rect == [0, 0, 375, 667]
///     }
public enum CompiledNibGeometry {
  /// The numbers of a UIKit geometry data value.
  /// - Parameter data: the value's bytes: a `0x06` or `0x07` type byte, then the elements.
  /// - Returns: the elements widened to `Double` (2 for a point or size, 4 for a rectangle or insets, 6 for an
  ///   affine transform), or `nil` when the type byte is unknown or the length is not 1 plus a whole number of
  ///   elements.
  public static func numbers(from data: Data) -> [Double]? {
    guard let kind = data.first else { return nil }
    let size: Int
    switch kind {
    case CompiledNibWireNames.geometryFloat32Prefix: size = 4
    case CompiledNibWireNames.geometryFloat64Prefix: size = 8
    default: return nil
    }
    let payload = data.dropFirst()
    guard payload.count % size == 0 else { return nil }
    var numbers: [Double] = []
    numbers.reserveCapacity(payload.count / size)
    var position = payload.startIndex
    while position < payload.endIndex {
      var bits: UInt64 = 0
      for offset in 0..<size { bits |= UInt64(payload[position + offset]) << (8 * UInt64(offset)) }
      numbers.append(size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits))
      position += size
    }
    return numbers
  }

  /// The numbers of a geometry string in `NSStringFromRect`/`NSStringFromPoint`/`NSStringFromSize` syntax.
  /// - Parameter text: a string such as `{{20, 20}, {100, 22}}` or `{160, 240}`.
  /// - Returns: the numbers in reading order, or `nil` when the text is not braces, commas, spaces and decimal
  ///   numbers with balanced braces, or has no number.
  public static func numbers(from text: String) -> [Double]? {
    var numbers: [Double] = []
    var depth = 0
    var token = ""
    func flush() -> Bool {
      defer { token = "" }
      guard !token.isEmpty else { return true }
      guard let number = Double(token), number.isFinite else { return false }
      numbers.append(number)
      return true
    }
    for character in text {
      switch character {
      case "{":
        guard flush() else { return nil }
        depth += 1
      case "}":
        guard flush(), depth > 0 else { return nil }
        depth -= 1
      case ",", " ":
        guard flush() else { return nil }
      case "0"..."9", "-", "+", ".", "e", "E":
        token.append(character)
      default:
        return nil
      }
    }
    guard flush(), depth == 0, !numbers.isEmpty else { return nil }
    return numbers
  }
}

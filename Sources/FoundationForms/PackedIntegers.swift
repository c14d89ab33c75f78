/// The packed integer lists of `NSIndexSet` (`NSRangeData`: location and length of each range) and `NSIndexPath`
/// (`NSIndexPathData`): each integer in base 128, low seven bits first, the high bit set on every byte but the last.
package enum PackedIntegers {
  /// Why a packed list could not be read.
  package enum Failure: Error, Equatable {
    /// The bytes end inside an integer.
    case truncated
    /// An integer does not fit in 64 bits.
    case overflow
    /// The bytes hold a different number of integers than expected.
    case count(expected: Int, found: Int)
  }

  /// The `count` integers `bytes` hold. A count above the number of bytes is refused before anything is
  /// allocated (each integer takes at least one byte).
  package static func decode(_ bytes: some Collection<UInt8>, count: Int) throws(Failure) -> [UInt64] {
    guard count >= 0, count <= bytes.count else { throw .count(expected: count, found: bytes.count) }
    var values: [UInt64] = []
    values.reserveCapacity(count)
    var current: UInt64 = 0
    var shift: UInt64 = 0
    var inside = false
    for byte in bytes {
      // Past the 64th bit only zero bits may follow (the tenth byte carries one bit).
      guard shift < 64, shift < 63 || byte & 0x7E == 0 else { throw .overflow }
      current |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 {
        values.append(current)
        (current, shift, inside) = (0, 0, false)
      } else {
        shift += 7
        inside = true
      }
    }
    guard !inside else { throw .truncated }
    guard values.count == count else { throw .count(expected: count, found: values.count) }
    return values
  }

  /// `values` packed.
  package static func encode(_ values: some Sequence<UInt64>) -> [UInt8] {
    var bytes: [UInt8] = []
    for var value in values {
      while value >= 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
        value >>= 7
      }
      bytes.append(UInt8(value))
    }
    return bytes
  }
}

/// A lenient base64 decoder for the content Interface Builder writes: white space is skipped and the `=` padding
/// may be missing (the archive format drops it).
enum Base64 {
  /// The decoded bytes, or `nil` when the text holds a character outside the base64 alphabet or data after padding.
  static func decode(_ text: String) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count / 4 * 3 + 3)
    var accumulator: UInt32 = 0
    var bits = 0
    var sawPadding = false
    for byte in text.utf8 {
      let value: UInt32
      switch byte {
      case 0x41...0x5A: value = UInt32(byte - 0x41)
      case 0x61...0x7A: value = UInt32(byte - 0x61 + 26)
      case 0x30...0x39: value = UInt32(byte - 0x30 + 52)
      case 0x2B: value = 62
      case 0x2F: value = 63
      case 0x3D:
        sawPadding = true
        continue
      case 0x20, 0x09, 0x0A, 0x0D:
        continue
      default:
        return nil
      }
      if sawPadding { return nil }
      accumulator = (accumulator << 6) | value
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    // Leftover bits are dropped: the archive format ends some values with one extra zero character ("MSAxIDEAA").
    return output
  }
}

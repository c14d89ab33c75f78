/// Strict UTF-8 validation (no overlong forms, no surrogates, nothing past U+10FFFF), with a fast path for ASCII.
/// Written out because the standard library's validating initializer is generic and not specialized across the
/// module boundary, which made it the scanner's most expensive call.
enum UTF8Validation {
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = bytes.count
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    while index < count {
      // Eight ASCII bytes at a time.
      while index + 8 <= count && raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
      }
      guard index < count else { return true }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF:
        length = 2
      case 0xE0:
        length = 3
        lower = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF:
        length = 3
      case 0xED:
        length = 3
        upper = 0x9F
      case 0xF0:
        length = 4
        lower = 0x90
      case 0xF1...0xF3:
        length = 4
      case 0xF4:
        length = 4
        upper = 0x8F
      default:
        return false
      }
      guard index + length <= count else { return false }
      let second = bytes[index + 1]
      guard second >= lower && second <= upper else { return false }
      var offset = 2
      while offset < length {
        guard bytes[index + offset] & 0xC0 == 0x80 else { return false }
        offset += 1
      }
      index += length
    }
    return true
  }
}

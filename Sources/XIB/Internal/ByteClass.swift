/// Character classes of single bytes, as bit flags in a 256-entry table, for the scanner's inner loops.
enum ByteClass {
  /// May start an XML name (ASCII letters, `_`, `:`, and every byte of a multi-byte UTF-8 sequence).
  static let nameStart: UInt8 = 1
  /// May continue an XML name (adds digits, `-` and `.`).
  static let nameChar: UInt8 = 2
  /// Ends a fast run of character data: `<`, `&`, `]`, carriage return, control characters.
  static let textSpecial: UInt8 = 4
  /// Ends a fast run of an attribute value: `<`, `&`, quotes, tab, line feed, carriage return, control characters.
  static let attributeSpecial: UInt8 = 8
  /// XML white space: space, tab, line feed, carriage return.
  static let whitespace: UInt8 = 16

  /// The table, indexed by byte value.
  static let table: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 256)
    for byte in 0..<256 {
      var flags: UInt8 = 0
      let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
      if isLetter || byte == 0x5F || byte == 0x3A || byte >= 0x80 { flags |= nameStart | nameChar }
      if (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E { flags |= nameChar }
      let isControl = byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
      if isControl || byte == 0x3C || byte == 0x26 || byte == 0x5D || byte == 0x0D { flags |= textSpecial }
      if isControl || byte == 0x3C || byte == 0x26 || byte == 0x22 || byte == 0x27 || byte == 0x09 || byte == 0x0A
        || byte == 0x0D
      {
        flags |= attributeSpecial
      }
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { flags |= whitespace }
      table[byte] = flags
    }
    return table
  }()
}

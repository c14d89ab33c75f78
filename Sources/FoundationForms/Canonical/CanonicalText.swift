import Foundation

/// The text of the canonical view's scalars, written as UTF-8 bytes: every writer of the view (the JSON writer, the
/// tree, the comparison's messages) spells strings, numbers and bytes this way.
package enum CanonicalText {
  /// `true` when `a` sorts before `b` in the canonical order: by Unicode code point, which the order of their
  /// UTF-8 bytes is (as a sort of the JSON in any other language gives it). `String`'s own `<` compares
  /// canonically equivalent strings (`é` and `e` with a combining accent) as equal.
  package static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

  /// `true` when the bytes `a` sort before the bytes `b`.
  package static func precedes(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    a.lexicographicallyPrecedes(b)
  }

  /// Appends `value` as a JSON string: in double quotes, with `"` and `\` escaped, `\n`, `\r` and `\t` as those
  /// escapes and every other control character (below U+0020, and U+007F) as `\u00XX` (lower-case hex); all else as
  /// its UTF-8 bytes.
  package static func appendQuoted(_ value: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var text = value
    text.withUTF8 { appendEscaped($0, to: &out) }
    out.append(UInt8(ascii: "\""))
  }

  /// Appends the UTF-8 bytes `utf8` escaped as inside a JSON string (``appendQuoted(_:to:)``), without the quotes.
  package static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    var start = 0
    for index in 0..<utf8.count {
      let byte = utf8[index]
      // Bytes of multi-byte characters are all 0x80 and above: only ASCII needs a look.
      guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F else { continue }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
      out.append(UInt8(ascii: "\\"))
      switch byte {
      case 0x22: out.append(0x22)
      case 0x5C: out.append(0x5C)
      case 0x0A: out.append(UInt8(ascii: "n"))
      case 0x0D: out.append(UInt8(ascii: "r"))
      case 0x09: out.append(UInt8(ascii: "t"))
      default:
        out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      }
      start = index + 1
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
  }

  /// `value` as a JSON string (``appendQuoted(_:to:)``).
  package static func quoted(_ value: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(value.utf8.count + 2)
    appendQuoted(value, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends a signed integer's decimal digits.
  package static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
    if value < 0 {
      out.append(UInt8(ascii: "-"))
      appendUnsigned(value.magnitude, to: &out)
    } else {
      appendUnsigned(UInt64(value), to: &out)
    }
  }

  /// Appends an unsigned integer's decimal digits.
  package static func appendUnsigned(_ value: UInt64, to out: inout [UInt8]) {
    let start = out.count
    var rest = value
    repeat {
      out.append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    // Written least significant first; turned around in place.
    var (low, high) = (start, out.count - 1)
    while low < high {
      out.swapAt(low, high)
      (low, high) = (low + 1, high - 1)
    }
  }

  /// A finite real as the canonical view writes it: Swift's shortest form that reads back to the same `Double`.
  package static func realText(_ value: Double) -> String { "\(value)" }

  /// The text of a real JSON has no number for, as `{"$real": …}` holds it: `nan`, `+inf` or `-inf`; `nil` for a
  /// finite real.
  package static func nonFiniteName(_ value: Double) -> String? {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "+inf" }
    return nil
  }

  /// `bytes` in base64 (the standard alphabet, with padding, without line breaks).
  package static func base64(_ bytes: Data) -> String {
    var out: [UInt8] = []
    appendBase64([UInt8](bytes), to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `bytes` in base64 (``base64(_:)``).
  package static func appendBase64(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
    out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
    var iterator = bytes.makeIterator()
    while let first = iterator.next() {
      let second = iterator.next()
      let third = second == nil ? nil : iterator.next()
      let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
      out.append(base64Alphabet[Int(group >> 18 & 0x3F)])
      out.append(base64Alphabet[Int(group >> 12 & 0x3F)])
      out.append(second == nil ? UInt8(ascii: "=") : base64Alphabet[Int(group >> 6 & 0x3F)])
      out.append(third == nil ? UInt8(ascii: "=") : base64Alphabet[Int(group & 0x3F)])
    }
  }

  /// A UUID as the canonical view writes it: upper-case hexadecimal in the 8-4-4-4-12 groups (what
  /// `uuidString` gives, without formatting each byte).
  package static func uuidText(_ uuid: UUID) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(36)
    withUnsafeBytes(of: uuid.uuid) { bytes in
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
        out.append(upperHexDigits[Int(byte >> 4)])
        out.append(upperHexDigits[Int(byte & 0xF)])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
  private static let upperHexDigits = Array("0123456789ABCDEF".utf8)
  private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The compact text of a view written with ``CanonicalJSONWriter/pretty`` layout: the line breaks and
  /// indentation between tokens and the space after each `:` removed (strings hold no raw line break or tab).
  package static func compacted(_ pretty: some Collection<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(pretty.count)
    var inString = false
    var escaped = false
    for byte in pretty {
      if inString {
        out.append(byte)
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\n"): continue
      case UInt8(ascii: "\""):
        inString = true
        out.append(byte)
      default: out.append(byte)
      }
    }
    return out
  }
}

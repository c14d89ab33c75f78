import Foundation

/// The string forms Apple's coders write for geometry (`NSStringFromCGRect` and its siblings): `{x, y}`,
/// `{{x, y}, {w, h}}`, `{top, left, bottom, right}`, `[a, b, c, d, tx, ty]`, `{location, length}`.
///
/// Numbers are written as `%.17g` writes them (`0`, `320`, `0.10000000000000001`), as Darwin does. Reading is strict
/// about the shape (brackets, commas, the number of fields; spaces are allowed around each number) and accepts any
/// decimal number, so the `{{0.0, 0.0}, {320.0, 480.0}}` that swift-corelibs-foundation writes reads too.
enum GeometryString {
  /// One real as Darwin writes it.
  static func format(_ value: Double) -> String { String(format: "%.17g", value) }

  /// `{a, b}`.
  static func pair(_ a: Double, _ b: Double) -> String { "{\(format(a)), \(format(b))}" }

  /// `{a, b, …}` or `[a, b, …]`.
  static func list(_ values: [Double], brackets: Bool = false) -> String {
    let body = values.map(format).joined(separator: ", ")
    return brackets ? "[\(body)]" : "{\(body)}"
  }

  /// Reads `text` as nested lists of numbers shaped as `shape` describes, or `nil` when it has another shape.
  /// `shape` is a pattern such as `{{#,#},{#,#}}` or `[#,#,#,#,#,#]`; each `#` is a number.
  static func parse(_ text: String, shape: String) -> [Double]? {
    guard let tokens = tokens(text, shape: shape) else { return nil }
    var numbers: [Double] = []
    for token in tokens {
      guard let value = Double(token) else { return nil }
      numbers.append(value)
    }
    return numbers
  }

  /// The number tokens of `text` shaped as `shape` describes (see ``parse(_:shape:)``), unconverted.
  static func tokens(_ text: String, shape: String) -> [String]? {
    var input = Substring(text).utf8[...]
    var numbers: [String] = []
    func skipSpaces() { while input.first == UInt8(ascii: " ") { input.removeFirst() } }
    for symbol in shape.utf8 {
      skipSpaces()
      if symbol == UInt8(ascii: "#") {
        let token = input.prefix { byte in
          switch byte {
          case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "i"), UInt8(ascii: "n"), UInt8(ascii: "f"),
            UInt8(ascii: "a"):
            true
          default: false
          }
        }
        guard !token.isEmpty else { return nil }
        numbers.append(String(decoding: token, as: UTF8.self))
        input = input.dropFirst(token.count)
      } else {
        guard input.first == symbol else { return nil }
        input.removeFirst()
      }
    }
    skipSpaces()
    return input.isEmpty ? numbers : nil
  }

  static let pointShape = "{#,#}"
  static let rectShape = "{{#,#},{#,#}}"
  static let insetsShape = "{#,#,#,#}"
  static let transformShape = "[#,#,#,#,#,#]"
}

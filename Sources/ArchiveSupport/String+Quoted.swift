import Foundation

extension String {
  /// How ``quoted(escapingControls:)`` writes a control character other than `\n`, `\t` and `\r`.
  package enum ControlEscape {
    /// JSON's form: `\u0001`.
    case json
    /// Swift's form, for messages people read: `\u{1}`.
    case swift
  }

  /// The string in double quotes, with `"` and `\` escaped, `\n`, `\t` and `\r` as those escapes, and every other
  /// control character (below U+0020, and U+007F) in the given escape form; all else as it is.
  package func quoted(escapingControls escape: ControlEscape) -> String {
    var out = "\""
    for scalar in unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        switch escape {
        case .json: out += String(format: "\\u%04x", scalar.value)
        case .swift: out += "\\u{\(String(scalar.value, radix: 16))}"
        }
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

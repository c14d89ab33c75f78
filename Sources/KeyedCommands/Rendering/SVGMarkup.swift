/// A small builder of SVG (and HTML) markup: elements with attributes in the order given, text escaped, numbers
/// written the same way every time, so the same drawing gives the same bytes (CLI-091).
struct SVGMarkup {
  /// The markup so far.
  private(set) var text = ""
  private var depth = 0

  /// An attribute: its name and its value, unescaped.
  typealias Attribute = (name: String, value: String)

  /// Opens an element; ``close(_:)`` ends it.
  mutating func open(_ name: String, _ attributes: [Attribute] = []) {
    line("<\(name)\(Self.attributes(attributes))>")
    depth += 1
  }

  /// Ends an element that ``open(_:_:)`` started.
  mutating func close(_ name: String) {
    depth = max(0, depth - 1)
    line("</\(name)>")
  }

  /// An element without children, or with text only.
  mutating func leaf(_ name: String, _ attributes: [Attribute] = [], text content: String? = nil) {
    if let content {
      line("<\(name)\(Self.attributes(attributes))>\(Self.escape(content))</\(name)>")
    } else {
      line("<\(name)\(Self.attributes(attributes))/>")
    }
  }

  /// Markup written as given (a document type, a style sheet, a script), indented as the current element's child.
  mutating func raw(_ markup: String) { line(markup) }

  private mutating func line(_ markup: String) {
    text += String(repeating: "  ", count: min(depth, 64)) + markup + "\n"
  }

  private static func attributes(_ attributes: [Attribute]) -> String {
    attributes.map { " \($0.name)=\"\(escape($0.value))\"" }.joined()
  }

  /// The characters markup escapes, with their entities.
  private static let entities: [Unicode.Scalar: String] = [
    "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
  ]

  /// Escapes text for an attribute value or an element's content. Control characters, which XML 1.0 does not
  /// allow, are dropped; tabs and line ends are kept.
  static func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let entity = entities[scalar] {
        escaped += entity
      } else if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF
        || "\t\n\r".unicodeScalars.contains(scalar)
      {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// A coordinate or length: at most two decimals, no trailing zeros, `0` for a value that is not finite, and
  /// bounded so that a hostile frame cannot produce an unreadable number.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let bounded = min(max(value, -1e7), 1e7)
    let hundredths = (bounded * 100).rounded()
    if hundredths == 0 { return "0" }
    let whole = Int(hundredths) / 100
    let fraction = abs(Int(hundredths) % 100)
    let sign = hundredths < 0 && whole == 0 ? "-" : ""
    if fraction == 0 { return "\(sign)\(whole)" }
    let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    return "\(sign)\(whole).\(digits)"
  }
}

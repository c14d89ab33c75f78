import PropertyList

/// The readable indented tree `keyed dump` prints without `--json`.
enum TreeText {
  static func render(_ value: PropertyListValue) -> String {
    var out = ""
    write(value, label: nil, indent: 0, into: &out)
    return out
  }

  private static func write(_ value: PropertyListValue, label: String?, indent: Int, into out: inout String) {
    let prefix = String(repeating: "  ", count: indent) + (label.map { "\($0): " } ?? "")
    switch value {
    case .array(let elements), .set(let elements):
      out += prefix + "\(value.typeName) (\(elements.count))\n"
      for (i, element) in elements.enumerated() { write(element, label: "[\(i)]", indent: indent + 1, into: &out) }
    case .dictionary(let d):
      out += prefix + "dictionary (\(d.count))\n"
      for entry in d.entries {
        write(entry.value, label: CanonicalJSON.text(CanonicalJSON.node(entry.key)), indent: indent + 1, into: &out)
      }
    default:
      out += prefix + CanonicalJSON.text(CanonicalJSON.node(value)) + "\n"
    }
  }
}

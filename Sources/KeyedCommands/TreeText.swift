import ArchiveComparison
import Foundation
import FoundationForms
import KeyedArchive
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

  /// An archive's graph (``ArchiveJSON/graph(_:valueLimit:textLimit:)``) as the same kind of tree: an object is its
  /// class name (with `#N` when it is reached again, where `→ #N` stands for it later), its fields indented under
  /// it; Foundation collections as in a property list; values in their canonical JSON. Iterative: a graph nested
  /// to ``ExpansionBound/maxDepth`` does not recurse here.
  static func render(_ node: CanonicalJSON.Node) -> String {
    var out = ""
    var pending: [(node: CanonicalJSON.Node, label: String?, indent: Int)] = [(node, nil, 0)]
    while let (node, label, indent) = pending.popLast() {
      let prefix = String(repeating: "  ", count: indent) + (label.map { "\($0): " } ?? "")
      var children: [(CanonicalJSON.Node, String)] = []
      switch node {
      case .raw(let text):
        out += prefix + text + "\n"
      case .array(let elements):
        if elements.count <= 8, elements.allSatisfy({ if case .raw = $0 { true } else { false } }) {
          out += prefix + CanonicalJSON.text(node) + "\n"  // a short list of values, such as a rect, on one line
        } else {
          out += prefix + "array (\(elements.count))\n"
          children = elements.enumerated().map { ($1, "[\($0)]") }
        }
      case .object(let members):
        let keys = members.map(\.0)
        if let name = members.first(where: { $0.0 == "$class" })?.1, case .raw(let quoted) = name {
          let id = members.first { $0.0 == "$id" }.map { " #" + CanonicalJSON.text($0.1) } ?? ""
          out += prefix + Self.unquoted(quoted) + id + "\n"
          children = members.filter { $0.0 != "$class" && $0.0 != "$id" }.map { ($1, $0) }
        } else if keys == ["$ref"], let target = members.first?.1 {
          out += prefix + "→ #" + CanonicalJSON.text(target) + "\n"
        } else if keys == ["$cycle"], let target = members.first?.1 {
          out += prefix + "↺ (cycle through #" + CanonicalJSON.text(target) + ")\n"
        } else if keys.count == 1, let key = keys.first, ["$set", "$orderedSet", "$dictionary"].contains(key),
          case .array(let elements)? = members.first?.1
        {
          let kind = key == "$set" ? "set" : key == "$orderedSet" ? "ordered set" : "dictionary"
          out += prefix + "\(kind) (\(elements.count))\n"
          children = elements.enumerated().map { index, element in
            // A $dictionary entry is [key, value]: the key's JSON is the label.
            if key == "$dictionary", case .array(let pair) = element, pair.count == 2 {
              return (pair[1], CanonicalJSON.text(pair[0]))
            }
            return (element, "[\(index)]")
          }
        } else if keys == [ArchiveJSON.topMember], case .object(let entries)? = members.first?.1 {
          out += prefix + "top-level keys (\(entries.count))\n"
          children = entries.map { ($1, CanonicalJSON.string($0)) }
        } else if keys.count == 1, let key = keys.first, ["$data", "$date", "$uuid", "$url", "$real"].contains(key) {
          out += prefix + CanonicalJSON.text(node) + "\n"
        } else {
          out += prefix + "dictionary (\(members.count))\n"
          children = members.map { ($1, CanonicalJSON.string($0)) }
        }
      }
      pending += children.reversed().map { ($0.0, $0.1, indent + 1) }
    }
    return out
  }

  private static func unquoted(_ json: String) -> String {
    (try? JSONDecoder().decode(String.self, from: Data(json.utf8))) ?? json
  }
}

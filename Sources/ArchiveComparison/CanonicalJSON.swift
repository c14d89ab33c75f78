import ArchiveSupport
import Foundation
import PropertyList

/// The canonical JSON of `Specs/CommandLineTool.md` (CLI-010 onwards): exact integers, reals that read back to
/// the same Double, `{"$data": …}`, `{"$date": …}`, `{"$uid": …}`, sets and non-string dictionaries sorted by
/// their canonical text, string-keyed objects with sorted keys.
package enum CanonicalJSON {
  /// A JSON value whose text is built once.
  package indirect enum Node {
    case raw(String)
    case array([Node])
    case object([(String, Node)])
  }

  /// The members the canonical JSON names itself with (cli.md): a class object's class and id, a reference to
  /// one, a cut cycle, a dictionary whose keys are not all strings, a placeholder's role in a nib.
  package enum Member: String {
    /// A class object's class name.
    case className = "$class"
    /// The `$objects` index (or document position) of a class object reached more than once.
    case id = "$id"
    /// A later appearance of such an object.
    case reference = "$ref"
    /// Where a cycle made only of Foundation collections closes.
    case cycle = "$cycle"
    /// The entries of a dictionary whose keys are not all strings.
    case dictionary = "$dictionary"
    /// A nib placeholder's role (`File's Owner`).
    case placeholder = "$placeholder"
  }

  package static func text(_ node: Node, pretty: Bool = false) -> String {
    var out = ""
    write(node, into: &out, pretty: pretty, indent: 0)
    return out
  }

  private static func write(_ node: Node, into out: inout String, pretty: Bool, indent: Int) {
    switch node {
    case .raw(let text): out += text
    case .array(let elements):
      writeContainer("[", "]", count: elements.count, into: &out, pretty: pretty, indent: indent) { i, out in
        write(elements[i], into: &out, pretty: pretty, indent: indent + 1)
      }
    case .object(let members):
      writeContainer("{", "}", count: members.count, into: &out, pretty: pretty, indent: indent) { i, out in
        out += string(members[i].0) + (pretty ? ": " : ":")
        write(members[i].1, into: &out, pretty: pretty, indent: indent + 1)
      }
    }
  }

  /// `count` items between `open` and `close`, separated by commas; with `pretty`, one item a line, indented one
  /// level deeper than the brackets. An empty container is the two brackets alone.
  private static func writeContainer(
    _ open: String, _ close: String, count: Int, into out: inout String, pretty: Bool, indent: Int,
    item: (Int, inout String) -> Void
  ) {
    out += open
    guard count > 0 else {
      out += close
      return
    }
    for i in 0..<count {
      if i > 0 { out += "," }
      if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
      item(i, &out)
    }
    if pretty { out += "\n" + String(repeating: "  ", count: indent) }
    out += close
  }

  package static func string(_ value: String) -> String { value.quoted(escapingControls: .json) }

  package static func real(_ value: Double) -> Node {
    if value.isNaN { return .object([("$real", .raw("\"nan\""))]) }
    if value.isInfinite { return .object([("$real", .raw(value < 0 ? "\"-inf\"" : "\"+inf\""))]) }
    return .raw("\(value)")
  }

  /// The canonical order of keys and texts: by Unicode code point (UTF-8 bytes compare in that order), as a
  /// sort of the JSON in any other language gives it. `String`'s own `<` compares canonical equivalents (`é` and
  /// `e` with a combining accent) as equal, which leaves their order to the input's (CLI-010).
  package static func precedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// `items` in the canonical order of their keys (``precedes(_:_:)``).
  package static func inKeyOrder<Item>(_ items: [Item], key: (Item) -> String) -> [Item] {
    items.sorted { precedes(key($0), key($1)) }
  }

  package static func sortedObject(_ members: [(String, Node)]) -> Node {
    .object(inKeyOrder(members) { $0.0 })
  }

  package static func sortedByText(_ nodes: [Node]) -> [Node] {
    nodes.map { (text($0), $0) }.sorted { precedes($0.0, $1.0) }.map(\.1)
  }

  /// `{"$dictionary": [[key, value], …]}`, the entries sorted by their key's text: a dictionary whose keys are not
  /// all strings.
  package static func dictionary(_ pairs: [(key: Node, value: Node)]) -> Node {
    let sorted = inKeyOrder(pairs.map { (text($0.key), $0) }) { $0.0 }
    return .object([("$dictionary", .array(sorted.map { Node.array([$0.1.key, $0.1.value]) }))])
  }

  /// The raw form of a property-list value.
  package static func node(_ value: PropertyListValue) -> Node {
    switch value {
    case .null: .raw("null")
    case .bool(let v): .raw(v ? "true" : "false")
    case .integer(let v): .raw(String(v))
    case .unsignedInteger(let v): .raw(String(v))
    case .real(let v): real(v)
    case .float(let v): real(Double(v))
    case .date(let v): .object([("$date", real(v.timeIntervalSinceReferenceDate))])
    case .data(let v): .object([("$data", .raw(string(v.base64EncodedString())))])
    case .string(let v): .raw(string(v))
    case .uid(let v): .object([("$uid", .raw(String(v)))])
    case .array(let a): .array(a.map(node))
    case .set(let a): .object([("$set", .array(sortedByText(a.map(node))))])
    case .dictionary(let d):
      if d.hasOnlyStringKeys {
        sortedObject(d.entries.map { ($0.key.stringValue ?? "", node($0.value)) })
      } else {
        dictionary(d.entries.map { (node($0.key), node($0.value)) })
      }
    }
  }
}

import Foundation

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
    var writer = CanonicalJSONWriter(pretty: pretty)
    write(node, to: &writer)
    return writer.text
  }

  /// Writes `node` through `writer` (the one writer of the canonical JSON).
  package static func write(_ node: Node, to writer: inout CanonicalJSONWriter) {
    // Iterative: a graph nested to the depth limit does not recurse here.
    enum Step {
      case node(Node)
      case key(String)
      case endObject
      case endArray
    }
    var pending: [Step] = [.node(node)]
    while let step = pending.popLast() {
      switch step {
      case .key(let key): writer.visitKey(key)
      case .endObject: writer.endObject()
      case .endArray: writer.endArray()
      case .node(.raw(let text)): writer.visitRaw(text)
      case .node(.array(let elements)):
        writer.beginArray(.asWalked)
        pending.append(.endArray)
        pending += elements.reversed().map { .node($0) }
      case .node(.object(let members)):
        writer.beginObject()
        pending.append(.endObject)
        for (key, value) in members.reversed() { pending += [.node(value), .key(key)] }
      }
    }
  }

  package static func string(_ value: String) -> String { CanonicalText.quoted(value) }

  package static func real(_ value: Double) -> Node {
    if let name = CanonicalText.nonFiniteName(value) { return .object([(CanonicalMember.real, .raw(string(name)))]) }
    return .raw(CanonicalText.realText(value))
  }

  /// The canonical order of keys and texts: by Unicode code point (UTF-8 bytes compare in that order), as a
  /// sort of the JSON in any other language gives it. `String`'s own `<` compares canonical equivalents (`é` and
  /// `e` with a combining accent) as equal, which leaves their order to the input's (CLI-010).
  package static func precedes(_ a: String, _ b: String) -> Bool { CanonicalText.precedes(a, b) }

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
}

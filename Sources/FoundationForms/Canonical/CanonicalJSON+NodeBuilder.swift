extension CanonicalJSON {
  /// Builds the canonical JSON nodes of a walk (``CanonicalVisitor``): the tree `keyed dump` prints without
  /// `--json`, and what the comparison walks.
  package struct NodeBuilder: CanonicalVisitor {
    /// A container being built.
    private struct Frame {
      var isObject: Bool
      var order: CanonicalOrder
      var members: [(String, Node)] = []
      var elements: [Node] = []
      var key: String?
    }

    private var frames: [Frame] = []
    private var result: Node?

    package init() {}

    /// The value built (`null` before any).
    package var root: Node { result ?? .raw("null") }

    private mutating func add(_ node: Node) {
      guard let last = frames.indices.last else {
        result = node
        return
      }
      if frames[last].isObject {
        frames[last].members.append((frames[last].key ?? "", node))
        frames[last].key = nil
      } else {
        frames[last].elements.append(node)
      }
    }

    package mutating func beginObject() { frames.append(Frame(isObject: true, order: .asWalked)) }
    package mutating func visitKey(_ name: String) { frames[frames.count - 1].key = name }
    package mutating func endObject() { add(.object(frames.removeLast().members)) }
    package mutating func beginArray(_ order: CanonicalOrder) { frames.append(Frame(isObject: false, order: order)) }

    package mutating func endArray() {
      let frame = frames.removeLast()
      switch frame.order {
      case .asWalked: add(.array(frame.elements))
      case .byText: add(.array(sortedByText(frame.elements)))
      case .byKeyText:
        let keyed = frame.elements.map { element -> (String, Node) in
          if case .array(let pair) = element, let key = pair.first { return (text(key), element) }
          return (text(element), element)
        }
        add(.array(inKeyOrder(keyed) { $0.0 }.map(\.1)))
      }
    }

    package mutating func visitNull() { add(.raw("null")) }
    package mutating func visitBool(_ value: Bool) { add(.raw(value ? "true" : "false")) }

    package mutating func visitNumber(_ value: CanonicalNumber) {
      switch value {
      case .integer(let integer): add(.raw(String(integer)))
      case .unsignedInteger(let integer): add(.raw(String(integer)))
      case .real(let real): add(CanonicalJSON.real(real))
      }
    }

    package mutating func visitString(_ value: String) { add(.raw(string(value))) }
  }
}

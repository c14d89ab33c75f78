import Foundation
import PropertyList

extension ValueSnapshot {
  /// The first difference found between two snapshots.
  public struct Difference: Sendable, CustomStringConvertible {
    /// Where: `root.items[3].title`.
    public var path: String
    /// What: `expected "a", found "b"`.
    public var message: String
    /// `path: message`.
    public var description: String { "\(path): \(message)" }
  }

  /// The label of a plain (non-container) property-list value.
  static func plainLabel(_ value: PropertyListValue) -> Label {
    switch value {
    case .null: .null
    case .bool(let v): .bool(v)
    case .integer(let v): .integer(v)
    case .unsignedInteger(let v): .unsignedInteger(v)
    case .real(let v): .double(v)
    case .float(let v): .float(v)
    case .date(let v): .date(v.timeIntervalSinceReferenceDate)
    case .data(let v): .data(v)
    case .string(let v): .string(v)
    case .uid(let v): .structure(typeName: "UID(\(v))")
    case .array: .array
    case .set: .set
    case .dictionary: .dictionary
    }
  }

  /// The same snapshot with every URL resolved against its base (`URL(index.xml relative to https://a.org)`
  /// becomes `URL(https://a.org/index.xml)`): for comparing with swift-corelibs-foundation, whose
  /// `NSKeyedUnarchiver` drops the base of a decoded URL and keeps its absolute string.
  public func resolvingRelativeURLs() -> ValueSnapshot {
    var copy = self
    for index in copy.nodes.indices {
      guard case .url(let relative, let base?) = copy.nodes[index].label else { continue }
      let absolute = URL(string: relative, relativeTo: URL(string: base))?.absoluteString ?? relative
      copy.nodes[index].label = .url(relative: absolute, base: nil)
    }
    copy.sortUnorderedCollections()
    return copy
  }

  /// A short text that orders the members of sets and the entries of dictionaries: the label and, up to `depth`
  /// levels down, the children's (the parts of nested sets and dictionaries sorted, so the text does not depend on
  /// their order).
  func signature(_ index: Int, depth: Int = 3) -> String {
    let node = nodes[index]
    let text = "\(node.label)"
    guard depth > 0, !node.children.isEmpty else { return text }
    var parts: [String]
    switch node.label {
    case .set:
      parts = node.children.map { signature($0.node, depth: depth - 1) }.sorted()
    case .dictionary:
      parts = stride(from: 0, to: node.children.count - 1, by: 2).map {
        signature(node.children[$0].node, depth: depth - 1) + "="
          + signature(node.children[$0 + 1].node, depth: depth - 1)
      }.sorted()
    case .object, .structure:
      parts = node.children.map { $0.name + ":" + signature($0.node, depth: depth - 1) }
    default:
      parts = node.children.map { signature($0.node, depth: depth - 1) }
    }
    return text + "(" + parts.prefix(16).joined(separator: ",") + ")"
  }

  /// Puts the members of every set and the entries of every dictionary in signature order and names them
  /// (`{0}` for set members; `{key 0}` and `["k"]` for dictionary keys and values), so that two equal
  /// unordered collections line up child by child.
  ///
  /// Members whose signatures tie (different objects of the same class with equal fields three levels down) keep
  /// their order; two such sets holding the members in different orders are reported as different.
  mutating func sortUnorderedCollections() {
    for index in nodes.indices {
      switch nodes[index].label {
      case .set:
        let sorted = nodes[index].children.map { ($0.node, signature($0.node)) }.enumerated()
          .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
        nodes[index].children = sorted.enumerated().map { (name: "{\($0.offset)}", node: $0.element.element.0) }
      case .dictionary:
        let children = nodes[index].children
        var pairs: [(key: Int, value: Int, signature: String, offset: Int)] = []
        var i = 0
        while i + 1 < children.count {
          pairs.append((children[i].node, children[i + 1].node, signature(children[i].node), i))
          i += 2
        }
        pairs.sort { ($0.signature, $0.offset) < ($1.signature, $1.offset) }
        var named: [(name: String, node: Int)] = []
        for (n, pair) in pairs.enumerated() {
          named.append(("{key \(n)}", pair.key))
          named.append(("[\(signature(pair.key, depth: 0))]", pair.value))
        }
        nodes[index].children = named
      default:
        continue
      }
    }
  }

  /// The first difference between `expected` and `actual`, or `nil` when they are the same graph: same labels,
  /// same children, and the same sharing of objects (an object reached twice in one is reached twice in the
  /// other, and two distinct objects in one are distinct in the other).
  public static func difference(expected: ValueSnapshot, actual: ValueSnapshot) -> Difference? {
    var paths: [(parent: Int, name: String)] = [(-1, expected.rootName)]
    var stack: [(a: Int, b: Int, path: Int)] = [(expected.root, actual.root, 0)]
    var visited: Set<Pair> = []
    var forward: [Int: (node: Int, path: Int)] = [:]
    var backward: [Int: (node: Int, path: Int)] = [:]
    func path(_ index: Int) -> String {
      var parts: [String] = []
      var current = index
      while current >= 0 {
        parts.append(paths[current].name)
        current = paths[current].parent
      }
      var text = ""
      for part in parts.reversed() {
        if text.isEmpty || part.hasPrefix("[") || part.hasPrefix("{") { text += part } else { text += "." + part }
      }
      return text
    }
    while let (a, b, p) = stack.popLast() {
      guard visited.insert(Pair(a: a, b: b)).inserted else { continue }
      let left = expected.nodes[a]
      let right = actual.nodes[b]
      if left.hasIdentity, right.hasIdentity {
        if let seen = forward[a], seen.node != b {
          return Difference(
            path: path(p), message: "expected the same object as at \(path(seen.path)), found a different object")
        }
        if let seen = backward[b], seen.node != a {
          return Difference(
            path: path(p),
            message: "expected an object distinct from the one at \(path(seen.path)), found the same object")
        }
        forward[a] = (b, p)
        backward[b] = (a, p)
      }
      guard left.label.matches(right.label) else {
        // Same kind: `expected "a", found "b"`; other kinds: `expected "a", found the integer 3`.
        let sameKind = left.label.kindDescription == right.label.kindDescription
        let expectedText = sameKind ? "\(left.label)" : left.label.phrase
        let found = sameKind ? "\(right.label)" : right.label.phrase
        return Difference(path: path(p), message: "expected \(expectedText), found \(found)")
      }
      var pairs: [(Int, Int, String)] = []
      if left.label.hasNamedChildren {
        let rightByName = Dictionary(right.children.map { ($0.name, $0.node) }, uniquingKeysWith: { first, _ in first })
        let leftNames = Set(left.children.map(\.name))
        for child in left.children {
          guard let other = rightByName[child.name] else {
            return Difference(path: path(p), message: "expected a field \"\(child.name)\", found none")
          }
          pairs.append((child.node, other, child.name))
        }
        if let extra = right.children.first(where: { !leftNames.contains($0.name) }) {
          return Difference(path: path(p), message: "found an unexpected field \"\(extra.name)\"")
        }
      } else {
        guard left.children.count == right.children.count else {
          let unit = if case .dictionary = left.label { 2 } else { 1 }
          return Difference(
            path: path(p),
            message: "expected \(left.children.count / unit) elements, found \(right.children.count / unit)")
        }
        for (l, r) in zip(left.children, right.children) { pairs.append((l.node, r.node, l.name)) }
      }
      for (l, r, name) in pairs.reversed() {
        paths.append((p, name))
        stack.append((l, r, paths.count - 1))
      }
    }
    return nil
  }

  private struct Pair: Hashable {
    var a: Int
    var b: Int
  }
}

import ArchiveComparison
import Foundation
import FoundationForms
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

  /// The first difference between `expected` and `actual`, or `nil` when they are the same graph, found by the one
  /// comparison of ``/ArchiveComparison/ArchiveComparison`` (ARC-300): same values (Foundation values by meaning, a
  /// 32-bit real apart from a 64-bit one, a URL with a base apart from its absolute form unless
  /// ``resolvingRelativeURLs()`` resolved both), same fields, and the same sharing of objects (an object reached twice in one is
  /// reached twice in the other, and two distinct objects in one are distinct in the other). Arrays are aligned
  /// (ARC-304), sets and dictionaries compare whatever their order.
  public static func difference(expected: ValueSnapshot, actual: ValueSnapshot) -> Difference? {
    let (first, second) = (expected.comparisonTree(), actual.comparisonTree())
    var differencer = TreeDifferencer(first, second, options: .init())
    do {
      try differencer.compare(
        first.root >= 0 ? first.root : nil, second.root >= 0 ? second.root : nil, at: .text(expected.rootName))
    } catch {
      return Difference(path: expected.rootName, message: "\(error)")
    }
    guard let difference = differencer.differences.first else { return nil }
    let (old, new) = (difference.a ?? ArchiveDifference.absent, difference.b ?? ArchiveDifference.absent)
    let message: String
    switch difference.change {
    case .changed: message = "expected \(old), found \(new)"
    case .added: message = "expected nothing, found \(new)"
    case .removed: message = "expected \(old), found nothing"
    case .moved: message = "expected \(old) here, found it at \(difference.movedTo ?? "another index")"
    case .sharing: message = "expected \(old), found \(new) (the graphs share objects differently)"
    }
    return Difference(path: difference.path, message: message)
  }

  /// The snapshot as the comparison reads a graph: the events of the canonical walk, each node once, an object with
  /// identity reached again as a reference to its first appearance.
  func comparisonTree() -> ComparisonTree {
    var counts = [Int](repeating: 0, count: nodes.count)
    for node in nodes { for child in node.children { counts[child.node] += 1 } }
    if nodes.indices.contains(root) { counts[root] += 1 }
    var builder = ComparisonTree.Builder()
    enum Step {
      case node(Int)
      case name(String)
      case key(String)
      case string(String)
      case beginArray(CanonicalOrder)
      case endArray
      case endObject
      case endClassObject
      case leave(Int)
    }
    var written = Set<Int>()
    var onPath = Set<Int>()
    var steps: [Step] = nodes.indices.contains(root) ? [.node(root)] : []
    if steps.isEmpty { builder.visitNull() }
    func named(_ children: [(name: String, node: Int)]) -> [(name: String, node: Int)] {
      children.sorted { CanonicalText.precedes($0.name, $1.name) }
    }
    while let step = steps.popLast() {
      switch step {
      case .name(let name): builder.visitField(name)
      case .key(let key): builder.visitKey(key)
      case .string(let text): builder.visitString(text)
      case .beginArray(let order): builder.beginArray(order)
      case .endArray: builder.endArray()
      case .endObject: builder.endObject()
      case .endClassObject: builder.endClassObject()
      case .leave(let index): onPath.remove(index)
      case .node(let index):
        let node = nodes[index]
        if node.hasIdentity, written.contains(index) {
          builder.visitReference(index)
          continue
        }
        if !node.children.isEmpty, onPath.contains(index) {
          builder.visitCycle(index)
          continue
        }
        written.insert(index)
        if !node.children.isEmpty {
          onPath.insert(index)
          steps.append(.leave(index))
        }
        switch node.label {
        case .none: builder.visitNull()
        case .null: builder.visitFoundationValue(.null)
        case .bool(let value): builder.visitBool(value)
        case .integer(let value): builder.visitNumber(.integer(value))
        case .unsignedInteger(let value): builder.visitNumber(.unsignedInteger(value))
        case .float: builder.visitRaw(node.label.description)
        case .double(let value): builder.visitNumber(.real(value))
        case .string(let value): builder.visitString(value)
        case .data(let value): builder.visitData(value)
        case .date(let value): builder.visitDate(.real(value))
        case .uuid(let value): builder.visitFoundationValue(.uuid(value))
        case .url(let relative, nil): builder.visitFoundationValue(.url(relative))
        case .url: builder.visitRaw(node.label.description)
        case .decimal(let value):
          builder.beginObject()
          builder.visitKey("$decimal")
          builder.visitString(value)
          builder.endObject()
        case .array, .set:
          if case .set = node.label { builder.beginArray(.byText) } else { builder.beginArray(.asWalked) }
          steps.append(.endArray)
          for child in node.children.reversed() { steps.append(.node(child.node)) }
        case .orderedSet:
          builder.beginObject()
          builder.visitKey(CanonicalMember.orderedSet)
          builder.beginArray(.asWalked)
          steps.append(.endObject)
          steps.append(.endArray)
          for child in node.children.reversed() { steps.append(.node(child.node)) }
        case .dictionary:
          var pairs: [(key: Int, value: Int)] = []
          var position = 0
          while position + 1 < node.children.count {
            pairs.append((node.children[position].node, node.children[position + 1].node))
            position += 2
          }
          let keys = pairs.map { pair -> String? in
            if case .string(let key) = nodes[pair.key].label { return key }
            return nil
          }
          if keys.allSatisfy({ $0 != nil }) {
            builder.beginObject()
            steps.append(.endObject)
            let sorted = zip(keys.compactMap { $0 }, pairs).sorted { CanonicalText.precedes($0.0, $1.0) }
            for (key, pair) in sorted.reversed() {
              steps.append(.node(pair.value))
              steps.append(.name(key))
            }
          } else {
            builder.beginObject()
            builder.visitKey(CanonicalMember.dictionary)
            builder.beginArray(.byKeyText)
            steps.append(.endObject)
            steps.append(.endArray)
            for pair in pairs.reversed() {
              steps.append(.endArray)
              steps.append(.node(pair.value))
              steps.append(.node(pair.key))
              steps.append(.beginArray(.asWalked))
            }
          }
        case .attributedString(let text):
          builder.beginClassObject(
            CanonicalClassObject(className: "NSAttributedString", id: index, isShared: counts[index] > 1))
          steps.append(.endClassObject)
          steps.append(.string(text))
          steps.append(.name("string"))
          steps.append(.endArray)
          for child in node.children.reversed() {
            // A run: its range, as the snapshot names it, and its attributes.
            steps += [.endArray, .node(child.node), .string(child.name), .beginArray(.asWalked)]
          }
          steps.append(.beginArray(.asWalked))
          steps.append(.name("runs"))
        case .object(let className), .structure(let className):
          if node.children.isEmpty, case .structure = node.label {
            builder.visitRaw(className)
            continue
          }
          builder.beginClassObject(
            CanonicalClassObject(
              className: className, id: node.hasIdentity ? index : -1, isShared: node.hasIdentity && counts[index] > 1)
          )
          steps.append(.endClassObject)
          for child in named(node.children).reversed() {
            steps.append(.node(child.node))
            steps.append(.name(child.name))
          }
        }
      }
    }
    return builder.tree
  }

}

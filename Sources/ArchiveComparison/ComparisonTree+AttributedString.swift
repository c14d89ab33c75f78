import Foundation
import FoundationForms

extension ComparisonTree.Builder {
  /// `true` for the classes of attributed strings, which compare as text and attribute runs (ARC-306).
  static func isAttributedString(_ className: String) -> Bool {
    className == FoundationClass.attributedString || className == FoundationClass.mutableAttributedString
  }

  /// The class name a class object compares by: an attributed string's mutability is not part of its meaning,
  /// as a collection's is not, nor is a decimal number's placeholder class (ARC-330).
  static func meaningfulName(_ className: String) -> String {
    switch className {
    case FoundationClass.mutableAttributedString: FoundationClass.attributedString
    case FoundationClass.decimalNumberPlaceholder: FoundationClass.decimalNumber
    default: className
    }
  }

  /// Replaces the fields of an attributed string (the children `range` of ``pending``) by its meaning, the form
  /// a typedstream's attributed string has in the canonical view: `string` (the text) and `runs`, each
  /// `[location, length, attributes]` in UTF-16 units, adjacent runs with equal attributes merged. Other fields
  /// stay. Fields that do not read as an attributed string's (no text, packed runs that do not decode or name a
  /// missing dictionary, runs longer than the text) are left as they are. Returns the new range of the fields.
  mutating func attributedStringFields(_ range: Range<Int>) -> Range<Int> {
    var text: Int32?
    var attributes: Int32?
    var info: Int32?
    var others: [(Int32, String)] = []
    for position in range {
      switch pendingNames[position] {
      case FoundationKeys.attributedString: text = pending[position]
      case FoundationKeys.attributes: attributes = pending[position]
      case FoundationKeys.attributeInfo: info = pending[position]
      default: others.append((pending[position], pendingNames[position]))
      }
    }
    guard let text, tree.nodes[Int(text)].kind == .string else { return range }
    let length = tree.text(ofLeaf: text).utf16.count
    var runs: [(length: Int, attributes: Int32)] = []
    if let info {
      let infoNode = tree.nodes[Int(info)]
      guard infoNode.kind == .data, let attributes, tree.nodes[Int(attributes)].kind == .array,
        let decoded = try? AttributeRunInfo.decode(Data(tree.bytes(info)))
      else { return range }
      let dictionaries = tree.members(attributes).map { tree.children[$0] }
      for run in decoded {
        guard run.index >= 0, run.index < dictionaries.count else { return range }
        runs.append((run.length, dictionaries[run.index]))
      }
    } else if let attributes {
      runs.append((length, attributes))
    }
    guard runs.reduce(0, { $0 + $1.length }) <= length else { return range }
    var merged: [(location: Int, length: Int, attributes: Int32)] = []
    var location = 0
    for run in runs where run.length > 0 {
      if let last = merged.last, tree.nodes[Int(last.attributes)].hash == tree.nodes[Int(run.attributes)].hash {
        merged[merged.count - 1].length += run.length
      } else {
        merged.append((location, run.length, run.attributes))
      }
      location += run.length
    }
    let runNodes = merged.map { run in
      container([number(run.location), number(run.length), run.attributes])
    }
    return replaceFields(range, with: others + [(container(runNodes), "runs"), (text, "string")])
  }

  /// Replaces the fields `range` of ``pending`` (a class object's, by their meaning) with `fields`, each a node and
  /// its name, in the canonical order of field names. Returns the new range of the fields.
  mutating func replaceFields(_ range: Range<Int>, with fields: [(Int32, String)]) -> Range<Int> {
    let sorted = fields.sorted { CanonicalText.precedes($0.1, $1.1) }
    pending.removeSubrange(range)
    pendingNames.removeSubrange(range)
    pending += sorted.map(\.0)
    pendingNames += sorted.map(\.1)
    return range.lowerBound..<pending.count
  }

  /// A number node, not attached to any container.
  private mutating func number(_ value: Int) -> Int32 {
    let number = CanonicalNumber.integer(Int64(value))
    tree.nodes.append(.init(kind: .number, number: number, hash: Self.hash(.number, number)))
    return Int32(tree.nodes.count - 1)
  }

  /// An array node of `elements`, not attached to any container.
  private mutating func container(_ elements: [Int32]) -> Int32 {
    var hasher = Hasher()
    hasher.combine(ComparisonTree.Kind.array)
    hasher.combine(elements.count)
    let first = Int32(tree.children.count)
    let empty = nameID("")
    for element in elements {
      tree.children.append(element)
      tree.nameIDs.append(empty)
      hasher.combine("")
      hasher.combine(tree.nodes[Int(element)].hash)
    }
    var node = ComparisonTree.Node(kind: .array, hash: hasher.finalize())
    node.first = first
    node.count = Int32(elements.count)
    tree.nodes.append(node)
    return Int32(tree.nodes.count - 1)
  }
}

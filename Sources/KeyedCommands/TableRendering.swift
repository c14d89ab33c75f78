import ArchiveCoding
import ArchiveComparison
import ArchiveSupport
import Foundation
import FoundationForms
import KeyedArchive

/// Renders an ``ObjectTable`` (a loaded XIB, storyboard or nib) for `keyed dump`: canonical JSON (CLI-013), a
/// readable tree, and a Graphviz graph (CLI-014).
struct TableRendering {
  let table: ObjectTable

  /// Fails when the table's strings and data, with the connections' labels and ids, pass
  /// ``ExpansionBound/maxTextBytes`` (CLI-033): a compiled nib can give one 1 MB string to 100,000 fields, and each
  /// rendering writes every field of every object once.
  private func checkTextSize() throws {
    var bytes = 0
    var pending: [FieldValue] = []
    for record in table.objects {
      pending += record.fields.map(\.value)
      bytes += record.className.utf8.count + record.id.utf8.count
      bytes += record.fields.reduce(0) { $0 + $1.key.utf8.count }
      if let placeholder = record.placeholder { bytes += Self.describe(placeholder).utf8.count }
      while let value = pending.popLast() {
        switch value {
        case .string(let text): bytes += text.utf8.count
        case .data(let data): bytes += data.count
        case .array(let elements): pending += elements
        case .record(let name, let fields):
          bytes += name.utf8.count + fields.reduce(0) { $0 + $1.key.utf8.count }
          pending += fields.map(\.value)
        default: break
        }
      }
      guard bytes <= ExpansionBound.maxTextBytes else { throw Self.tooLarge() }
    }
    for connection in table.connections {
      bytes += connection.label.utf8.count + (connection.id?.utf8.count ?? 0) + (connection.eventName?.utf8.count ?? 0)
      guard bytes <= ExpansionBound.maxTextBytes else { throw Self.tooLarge() }
    }
  }

  private static func tooLarge() -> ArchiveError {
    ArchiveError(
      .limitExceeded,
      "the objects' fields and connections hold more than \(ExpansionBound.maxTextBytes) bytes of strings and data "
        + "(a shared string counts at every use)")
  }

  /// Fails when object `index`, reached at `depth`, nests past ``ExpansionBound/maxDepth`` or the thread's stack.
  private func checkDepth(_ depth: Int, _ index: Int, _ stack: StackGuard) throws {
    try ExpansionBound.checkDepth(depth, stack: stack, objectIndex: index, className: table.objects[index].className)
  }

  // MARK: JSON

  /// `{"objects": [top-level objects…], "connections": [...]}`: objects as `{"$class": …}` with their fields;
  /// an object reached more than once carries `"$id": N` (its position in document order) at its first
  /// appearance and is `{"$ref": N}` afterwards.
  /// - Throws: `limitExceeded` when objects nest deeper than ``ExpansionBound/maxDepth``.
  func json(pretty: Bool) throws -> String {
    try checkTextSize()
    // How often each object is reached, counted without recursion (the chain may be far deeper than the output).
    var counts: [Int: Int] = [:]
    var seen: Set<Int> = []
    var pending: [FieldValue] = table.topLevel.reversed().map { .object($0) }
    while let value = pending.popLast() {
      switch value {
      case .object(let index):
        counts[index, default: 0] += 1
        if seen.insert(index).inserted { pending += table.objects[index].fields.reversed().map(\.value) }
      case .array(let elements): pending += elements.reversed()
      case .record(_, let fields): pending += fields.reversed().map(\.value)
      default: break
      }
    }
    var written: Set<Int> = []
    let stack = StackGuard()
    func node(_ value: FieldValue, depth: Int) throws -> CanonicalJSON.Node {
      try CanonicalJSON.node(value) { index in
        if written.contains(index) { return .object([("$ref", .raw(String(index)))]) }
        try checkDepth(depth + 1, index, stack)
        written.insert(index)
        let record = table.objects[index]
        var members: [(String, CanonicalJSON.Node)] = [
          (CanonicalJSON.Member.className.rawValue, .raw(CanonicalJSON.string(record.className)))
        ]
        if counts[index, default: 0] > 1 { members.append(("$id", .raw(String(index)))) }
        if let placeholder = record.placeholder {
          members.append(
            (CanonicalJSON.Member.placeholder.rawValue, .raw(CanonicalJSON.string(Self.describe(placeholder)))))
        }
        for field in Self.inWrittenOrder(record.fields) {
          members.append((field.key, try node(field.value, depth: depth + 1)))
        }
        return CanonicalJSON.sortedObject(members)
      }
    }
    let objects = CanonicalJSON.Node.array(try table.topLevel.map { try node(.object($0), depth: 0) })
    let connections = CanonicalJSON.Node.array(
      table.connections.map { connection in
        CanonicalJSON.sortedObject([
          ("kind", .raw(CanonicalJSON.string(connection.kind.rawValue))),
          ("source", .raw(CanonicalJSON.string(table.objects[connection.source].id))),
          ("label", .raw(CanonicalJSON.string(connection.label))),
          (
            "destination",
            connection.destination.map { .raw(CanonicalJSON.string(table.objects[$0].id)) } ?? .raw("null")
          ),
        ])
      })
    return CanonicalJSON.text(.object([("connections", connections), ("objects", objects)]), pretty: pretty)
  }

  /// `fields` in the order the JSON writes them, by key: an object's first appearance in the output is then the
  /// one that carries its `$id`.
  private static func inWrittenOrder(_ fields: [ObjectField]) -> [ObjectField] {
    CanonicalJSON.inKeyOrder(fields) { $0.key }
  }

  static func describe(_ placeholder: Placeholder) -> String { placeholder.label }

  // MARK: Tree

  /// One line per object, children indented under the object that holds them.
  /// - Throws: `limitExceeded` when objects nest deeper than ``ExpansionBound/maxDepth``.
  func tree() throws -> String {
    try checkTextSize()
    var out = ""
    var visited: Set<Int> = []
    let stack = StackGuard()
    func visit(_ index: Int, key: String?, depth: Int) throws {
      let record = table.objects[index]
      let pad = String(repeating: "  ", count: depth)
      let label = key.map { "\($0): " } ?? ""
      guard visited.insert(index).inserted else {
        out += "\(pad)\(label)→ \(record.className) \(record.id)\n"
        return
      }
      try checkDepth(depth + 1, index, stack)
      var line = "\(pad)\(label)\(record.className) \(record.id)"
      if let placeholder = record.placeholder { line += " (\(Self.describe(placeholder)))" }
      if case .rect(let x, let y, let w, let h)? = record.field("frame") {
        line += " frame={{\(x), \(y)}, {\(w), \(h)}}"
      }
      for key in ["text", "title", "UIText"] {
        if case .string(let text)? = record.field(key) { line += " \(key)=\"\(text)\"" }
      }
      out += line + "\n"
      for field in record.fields {
        for child in Self.references(field.value) { try visit(child, key: field.key, depth: depth + 1) }
      }
    }
    for index in table.topLevel { try visit(index, key: nil, depth: 0) }
    if !table.connections.isEmpty {
      out += "connections:\n"
      for c in table.connections {
        let destination = c.destination.map { table.objects[$0].id } ?? "nil"
        out += "  \(c.kind.rawValue) \(table.objects[c.source].id) \(c.label) → \(destination)\n"
      }
    }
    return out
  }

  static func references(_ value: FieldValue) -> [Int] {
    switch value {
    case .object(let index): [index]
    case .array(let elements): elements.flatMap(references)
    case .record(_, let fields): fields.flatMap { references($0.value) }
    default: []
    }
  }

  // MARK: Graphviz

  /// A `digraph`: one node per object (class and id), solid edges for the fields that hold objects (the view
  /// hierarchy), dashed edges for the connections (outlets, actions, segues).
  /// - Throws: `limitExceeded` past ``ExpansionBound/maxTextBytes`` of text (each connection's edge carries its label).
  func dot() throws -> String {
    try checkTextSize()
    func quote(_ text: String) -> String {
      "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    var out = "digraph nib {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n"
    out += "  edge [fontname=\"Helvetica\", fontsize=9];\n"
    for (index, record) in table.objects.enumerated() {
      var label = "\(record.className)\\n\(record.id)"
      if case .string(let text)? = record.field("text") ?? record.field("title") { label += "\\n“\(text.prefix(24))”" }
      let style = record.placeholder != nil ? ", style=dashed" : ""
      out += "  n\(index) [label=\(quote(label).replacingOccurrences(of: "\\\\n", with: "\\n"))\(style)];\n"
    }
    for (index, record) in table.objects.enumerated() {
      for field in record.fields {
        for child in Self.references(field.value) { out += "  n\(index) -> n\(child) [label=\(quote(field.key))];\n" }
      }
    }
    for connection in table.connections {
      guard let destination = connection.destination else { continue }
      let color = connection.kind == .action ? "red" : connection.kind == .segue ? "darkgreen" : "blue"
      out +=
        "  n\(connection.source) -> n\(destination) [style=dashed, color=\(color), fontcolor=\(color), label=\(quote("\(connection.kind.rawValue): \(connection.label)"))];\n"
    }
    return out + "}\n"
  }
}

import ArchiveCoding
import ArchiveSupport
import Foundation
import FoundationForms
import KeyedArchive

/// The decoded JSON view of a typedstream (TS-070 to TS-079): Foundation objects in their canonical JSON forms,
/// other objects as `{"$class": name, "$fields": [...]}` with `$id` / `$ref` when reached more than once.
package struct TypedstreamDecodedView {
  package let decoder: TypedstreamDecoder
  private var forms: [TypedstreamDecoder.Form?]
  private var reached: [Int]
  private var written: Set<Int> = []
  private var inProgress: Set<Int> = []
  private var counting = true
  private var budget = TypedstreamViewBudget()
  private var depth = 0
  private let stack = StackGuard()

  private let initialBudget: TypedstreamViewBudget

  package init(_ archive: TypedstreamArchive, budget: TypedstreamViewBudget = TypedstreamViewBudget()) throws {
    decoder = try TypedstreamDecoder(archive)
    initialBudget = budget
    forms = Array(repeating: nil, count: decoder.objectCount)
    reached = Array(repeating: 0, count: decoder.objectCount)
  }

  /// The view: the one top-level value, or an array of them when the stream holds several.
  package mutating func render() throws -> CanonicalJSON.Node {
    // The first pass counts how often each object of another class is reached (for `$id`); the second writes.
    for pass in 0..<2 {
      counting = pass == 0
      written = []
      budget = initialBudget
      let nodes = try decoder.topLevel.map { try node($0) }
      if !counting { return nodes.count == 1 ? nodes[0] : .array(nodes) }
    }
    return .array([])
  }

  private static func string(_ text: String) -> CanonicalJSON.Node { .raw(CanonicalJSON.string(text)) }

  private static func data(_ raw: [UInt8]) -> CanonicalJSON.Node {
    .object([("$data", string(Data(raw).base64EncodedString()))])
  }

  /// A field or top-level value.
  private mutating func node(_ value: TypedstreamValue) throws -> CanonicalJSON.Node {
    try budget.spend()
    switch value {
    case .signed(_, let v): return .raw(String(v))
    case .unsigned(_, let v): return .raw(String(v))
    case .bool(let v): return .raw(v != 0 ? "true" : "false")
    case .float(let bits): return CanonicalJSON.real(Double(Float(bitPattern: bits)))
    case .double(let bits): return CanonicalJSON.real(Double(bitPattern: bits))
    case .bytes(nil), .cString(nil), .atom(nil), .selector(nil), .classValue(nil), .object(nil), .ignored:
      return .raw("null")
    case .bytes(let raw?), .cString(.literal(let raw)?), .atom(let raw?), .selector(let raw?):
      try budget.spend(raw.count)
      if let text = String(validating: raw, as: UTF8.self) { return Self.string(text) }
      return Self.data(raw)
    case .cString(.reference?): return .raw("null")
    case .classValue(.literal(let objectClass)?):
      return Self.string(TypedstreamDecoder.text(objectClass.name))
    case .classValue(.reference?): return .raw("null")
    case .object(.reference(let ordinal)?): return try object(ordinal)
    case .object(.literal?): return .raw("null")
    case .byteArray(_, let raw):
      try budget.spend(raw.count)
      return Self.data(raw)
    case .array(_, let elements), .structure(_, let elements): return .array(try elements.map { try node($0) })
    }
  }

  private mutating func formOf(_ ordinal: Int) throws -> TypedstreamDecoder.Form {
    if let known = forms[ordinal] { return known }
    let computed = try decoder.form(of: ordinal)
    forms[ordinal] = computed
    return computed
  }

  private mutating func member(_ ordinal: Int?) throws -> CanonicalJSON.Node {
    guard let ordinal else { return .raw("null") }
    return try object(ordinal)
  }

  /// An object reached through a field, a member or a top-level value.
  private mutating func object(_ ordinal: Int) throws -> CanonicalJSON.Node {
    try budget.spend()
    let form = try formOf(ordinal)
    if case .other = form { return try classObject(ordinal) }
    if case .value = form {
    } else if case .null = form {
    } else {
      if inProgress.contains(ordinal) { return .object([("$cycle", .raw(String(ordinal)))]) }
    }
    try ExpansionBound.checkDepth(depth, stack: stack, objectIndex: ordinal, className: decoder.className(of: ordinal))
    depth += 1
    inProgress.insert(ordinal)
    defer {
      depth -= 1
      inProgress.remove(ordinal)
    }
    switch form {
    case .string(let text):
      try budget.spend(text.utf8.count)
      return Self.string(text)
    case .number(let value): return try node(value)
    case .data(let raw):
      try budget.spend(raw.count)
      return Self.data(raw)
    case .date(let seconds): return .object([("$date", CanonicalJSON.real(seconds))])
    case .url:
      return .object([("$url", Self.string(try url(ordinal)))])
    case .array(let members): return .array(try members.map { try member($0) })
    case .set(let members):
      let nodes = try members.map { try member($0) }
      return .object([("$set", .array(counting ? nodes : CanonicalJSON.sortedByText(nodes)))])
    case .dictionary(let pairs):
      var entries: [(key: CanonicalJSON.Node, value: CanonicalJSON.Node, text: String?)] = []
      for pair in pairs {
        let keyText: String? = try pair.key.flatMap { key in
          if case .string(let text) = try formOf(key) { return text }
          return nil
        }
        entries.append((try member(pair.key), try member(pair.value), keyText))
      }
      if counting { return .raw("null") }
      if entries.allSatisfy({ $0.text != nil }) {
        return CanonicalJSON.sortedObject(entries.map { ($0.text ?? "", $0.value) })
      }
      return CanonicalJSON.dictionary(entries.map { ($0.key, $0.value) })
    case .attributedString(let string, let runs):
      var text = ""
      if let string, case .string(let value) = try formOf(string) { text = value }
      try budget.spend(text.utf8.count)
      var runNodes: [CanonicalJSON.Node] = []
      for run in runs {
        try budget.spend()
        runNodes.append(.array([.raw(String(run.location)), .raw(String(run.length)), try member(run.attributes)]))
      }
      return CanonicalJSON.sortedObject([
        ("$class", Self.string("NSAttributedString")), ("string", Self.string(text)), ("runs", .array(runNodes)),
      ])
    case .null: return .object([("$class", Self.string("NSNull"))])
    case .value(let type, let value): return try nsValue(type: type, value, ordinal: ordinal)
    case .other: return try classObject(ordinal)
    }
  }

  /// An `NSURL`'s absolute string: its string resolved against its base URLs.
  private mutating func url(_ ordinal: Int) throws -> String {
    var chain: [String] = []
    var next: Int? = ordinal
    var seen: Set<Int> = []
    while let current = next {
      guard seen.insert(current).inserted else {
        throw ArchiveError(.corruptData, "the URL's base URLs form a cycle", at: .init(objectIndex: current))
      }
      guard case .url(let relative, let base) = try formOf(current) else {
        throw ArchiveError(
          .corruptData, "expected an NSURL as base URL, found \(decoder.className(of: current))",
          at: .init(objectIndex: current))
      }
      chain.append(relative)
      next = base
    }
    var resolved: URL?
    for text in chain.reversed() {
      resolved = URL(string: text, relativeTo: resolved) ?? resolved
    }
    return resolved?.absoluteString ?? chain.first ?? ""
  }

  /// An `NSValue`: geometry and ranges in their canonical forms, anything else with its type and value.
  private mutating func nsValue(type: [UInt8], _ value: TypedstreamValue, ordinal: Int) throws -> CanonicalJSON.Node {
    let name = String(decoding: type, as: UTF8.self)
    let flat = Self.numbers(value)
    let key = SequentialForm.geometryKind(ofType: type, numberCount: flat.count)?.rawValue
    if let key {
      return CanonicalJSON.sortedObject([("$class", Self.string("NSValue")), (key, .array(flat))])
    }
    return CanonicalJSON.sortedObject([
      ("$class", Self.string("NSValue")), ("type", Self.string(name)), ("value", try node(value)),
    ])
  }

  /// The numbers of a structure, nested structures flattened.
  private static func numbers(_ value: TypedstreamValue) -> [CanonicalJSON.Node] {
    switch value {
    case .structure(_, let fields): fields.flatMap { numbers($0) }
    case .signed(_, let v): [.raw(String(v))]
    case .unsigned(_, let v): [.raw(String(v))]
    case .float(let bits): [CanonicalJSON.real(Double(Float(bitPattern: bits)))]
    case .double(let bits): [CanonicalJSON.real(Double(bitPattern: bits))]
    default: [.raw("null"), .raw("null"), .raw("null"), .raw("null"), .raw("null")]
    }
  }

  /// An object of a class without a Foundation form: in full at its first appearance, `$ref` afterwards.
  private mutating func classObject(_ ordinal: Int) throws -> CanonicalJSON.Node {
    if counting { reached[ordinal] += 1 }
    guard written.insert(ordinal).inserted else { return .object([("$ref", .raw(String(ordinal)))]) }
    let className = decoder.className(of: ordinal)
    try ExpansionBound.checkDepth(depth, stack: stack, objectIndex: ordinal, className: className)
    // A collection met again inside this object's fields is written in full again (the object itself, met again,
    // is a `$ref`): only a cycle made of collections alone is cut.
    let enclosing = inProgress
    inProgress = []
    depth += 1
    defer {
      depth -= 1
      inProgress = enclosing
    }
    var members: [(String, CanonicalJSON.Node)] = [
      ("$class", Self.string(className)),
      ("$fields", .array(try decoder.fields[ordinal].map { try node($0) })),
    ]
    if reached[ordinal] > 1 { members.append(("$id", .raw(String(ordinal)))) }
    return CanonicalJSON.sortedObject(members)
  }
}

import ArchiveSupport
import Foundation
import FoundationForms

/// A comparable picture of an object graph: what a decoded value holds, independent of which library produced it.
///
/// A snapshot is a graph of labelled nodes. Leaves are the values an archive can hold (booleans, integers, reals,
/// strings, data, dates, UUIDs, URLs, decimals, `nil` and `NSNull`); inner nodes are arrays, sets, dictionaries,
/// attributed strings and objects. Class instances keep their identity: an object reached twice is one node, so
/// two snapshots compare equal only when the same objects are shared in both (and cycles are fine).
///
/// Snapshots are built from Swift and Foundation values (``init(of:describing:)``) or from the bytes of a keyed
/// archive (``init(archive:)``), without recursion, so a list of 100,000 linked objects is no problem. Two
/// snapshots are compared with ``difference(expected:actual:)``, which names the first difference by its path
/// (`root.items[3].title: expected "a", found "b"`).
public struct ValueSnapshot: Sendable, CustomStringConvertible {
  /// What a node is.
  public enum Label: Sendable, CustomStringConvertible {
    /// `nil`, or a reference to `$null`.
    case none
    /// `NSNull`.
    case null
    /// A boolean.
    case bool(Bool)
    /// An integer in the signed 64-bit range (whatever its width or signedness was).
    case integer(Int64)
    /// An integer above `Int64.max`.
    case unsignedInteger(UInt64)
    /// A 32-bit real.
    case float(Float)
    /// A 64-bit real.
    case double(Double)
    /// A string (compared by Unicode scalars, not by canonical equivalence).
    case string(String)
    /// Bytes.
    case data(Data)
    /// A date, as seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    /// A UUID.
    case uuid(UUID)
    /// A URL: its relative string and, when it has one, its base URL's absolute string.
    case url(relative: String, base: String?)
    /// A decimal number, by its description.
    case decimal(String)
    /// An ordered collection; children are the elements.
    case array
    /// An ordered set; children are the members.
    case orderedSet
    /// An unordered set; children are the members, sorted by their signature.
    case set
    /// A dictionary; children alternate key and value, pairs sorted by the key's signature.
    case dictionary
    /// An attributed string; children are its runs, each a dictionary of attributes.
    case attributedString(String)
    /// A class instance; children are its fields (by name).
    case object(className: String)
    /// A value of another type (a struct or enum); children are its stored properties or payload.
    case structure(typeName: String)

    /// The label as text: `"a"`, `42`, `NSArray`, `Book`, ….
    public var description: String {
      switch self {
      case .none: "nil"
      case .null: "NSNull"
      case .bool(let v): v ? "true" : "false"
      case .integer(let v): "\(v)"
      case .unsignedInteger(let v): "\(v)"
      case .float(let v): "\(v) (32-bit)"
      case .double(let v): "\(v)"
      case .string(let v): Self.quoted(v)
      case .data(let v): v.count <= 16 ? "<\(v.map { String(format: "%02x", $0) }.joined())>" : "<\(v.count) bytes>"
      case .date(let v): "date(\(v))"
      case .uuid(let v): "UUID(\(v.uuidString))"
      case .url(let relative, let base): base.map { "URL(\(relative) relative to \($0))" } ?? "URL(\(relative))"
      case .decimal(let v): "decimal(\(v))"
      case .array: "array"
      case .orderedSet: "ordered set"
      case .set: "set"
      case .dictionary: "dictionary"
      case .attributedString(let v): "attributed string \(Self.quoted(v))"
      case .object(let name): name
      case .structure(let name): name
      }
    }

    /// The label in a sentence: `the string "a"`, `the integer 3`, `nil`, `an array`, `an object of class Book`.
    var phrase: String {
      switch self {
      case .none, .null, .array, .orderedSet, .set, .dictionary, .object, .structure: kindDescription
      case .attributedString(let v): "an attributed string \(Self.quoted(v))"
      default: "\(kindDescription) \(description)"
      }
    }

    /// What kind of node this is, for messages (`a string`, `an array`, `an object of class Book`).
    var kindDescription: String {
      switch self {
      case .none: "nil"
      case .null: "NSNull"
      case .bool: "a boolean"
      case .integer, .unsignedInteger: "an integer"
      case .float: "a 32-bit real"
      case .double: "a real"
      case .string: "a string"
      case .data: "data"
      case .date: "a date"
      case .uuid: "a UUID"
      case .url: "a URL"
      case .decimal: "a decimal"
      case .array: "an array"
      case .orderedSet: "an ordered set"
      case .set: "a set"
      case .dictionary: "a dictionary"
      case .attributedString: "an attributed string"
      case .object(let name): "an object of class \(name)"
      case .structure(let name): "a \(name)"
      }
    }

    /// Label equality: reals by bit pattern with every NaN equal to every NaN, strings by Unicode scalars.
    func matches(_ other: Label) -> Bool {
      switch (self, other) {
      case (.none, .none), (.null, .null), (.array, .array), (.orderedSet, .orderedSet), (.set, .set),
        (.dictionary, .dictionary):
        true
      case (.bool(let a), .bool(let b)): a == b
      case (.integer(let a), .integer(let b)): a == b
      case (.unsignedInteger(let a), .unsignedInteger(let b)): a == b
      case (.float(let a), .float(let b)): (a.isNaN && b.isNaN) || a.bitPattern == b.bitPattern
      case (.double(let a), .double(let b)): (a.isNaN && b.isNaN) || a.bitPattern == b.bitPattern
      case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
      case (.data(let a), .data(let b)): a == b
      case (.date(let a), .date(let b)): a.bitPattern == b.bitPattern
      case (.uuid(let a), .uuid(let b)): a == b
      case (.url(let a, let x), .url(let b, let y)): a == b && x == y
      case (.decimal(let a), .decimal(let b)): a == b
      case (.attributedString(let a), .attributedString(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
      case (.object(let a), .object(let b)): a == b
      case (.structure(let a), .structure(let b)): a == b
      default: false
      }
    }

    /// `true` for the labels whose children are matched by name rather than by position.
    var hasNamedChildren: Bool {
      switch self {
      case .object, .structure: true
      default: false
      }
    }

    static func quoted(_ text: String) -> String { text.quoted(escapingControls: .swift) }
  }

  /// One node of the graph.
  public struct Node: Sendable {
    /// What the node is.
    public var label: Label
    /// The node's children: a name (a field's key, `[3]` for an element) and the child's index in ``nodes``.
    public var children: [(name: String, node: Int)]
    /// `true` for class instances whose identity counts (shared objects must stay shared).
    public var hasIdentity: Bool
  }

  /// The nodes; ``root`` is the entry point.
  public internal(set) var nodes: [Node]
  /// The index of the root node.
  public internal(set) var root: Int
  /// The name the root has in paths: `root` for a value, `$top` for an archive.
  public internal(set) var rootName: String

  init(nodes: [Node], root: Int, rootName: String = "root") {
    self.nodes = nodes
    self.root = root
    self.rootName = rootName
  }

  /// The graph as indented text, at most `maxLines` lines; objects seen before print as `-> Class #n`.
  public func rendered(maxLines: Int = 200) -> String {
    var lines: [String] = []
    var seen: Set<Int> = []
    var stack: [(node: Int, name: String, depth: Int)] = [(root, rootName, 0)]
    while let (index, name, depth) = stack.popLast() {
      guard lines.count < maxLines else {
        lines.append("…")
        break
      }
      let node = nodes[index]
      let indent = String(repeating: "  ", count: depth)
      if node.hasIdentity || !node.children.isEmpty, seen.contains(index) {
        lines.append("\(indent)\(name): -> \(node.label) #\(index)")
        continue
      }
      seen.insert(index)
      lines.append("\(indent)\(name): \(node.label)" + (node.hasIdentity ? " #\(index)" : ""))
      for child in node.children.reversed() { stack.append((child.node, child.name, depth + 1)) }
    }
    return lines.joined(separator: "\n")
  }

  /// The graph as indented text.
  public var description: String { rendered() }

  /// The label of a Foundation value: its canonical JSON, which says what it means (`{"$timeZone":"GMT+0100"}`).
  static func label(of value: FoundationValue) -> Label {
    var writer = CanonicalJSONWriter()
    value.visit(with: &writer)
    return .structure(typeName: writer.text)
  }
}

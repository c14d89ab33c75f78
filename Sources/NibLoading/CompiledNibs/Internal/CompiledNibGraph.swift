import Foundation

/// The common intermediate of both compiled-nib containers (NIBA-040): a graph of nodes addressed by their index in
/// the container (`$objects` index of a keyed archive, object index of a NIBArchive), so that cycles cost nothing.
///
/// Foundation value classes are already folded into values when the graph is built: strings, numbers, data and
/// `NSNull` become ``Node/value(_:)``, arrays and sets ``Node/collection(className:elements:)``, dictionaries
/// ``Node/dictionary(className:pairs:)``; every other archived object is an ``Node/object(_:)`` with its class name,
/// its class chain and its fields in stored order.
struct CompiledNibGraph: Sendable {
  /// A value as it appears in a field, an element or the root.
  enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case data(Data)
    /// A reference to the node with this index.
    case node(Int)
    /// An array written inside the object (a keyed archive's `NS.objects`).
    case array([Value])
  }

  /// One keyed field of an object, in stored order.
  struct Field: Sendable {
    var key: String
    var value: Value
  }

  /// An archived object that is not a Foundation value.
  struct Object: Sendable {
    /// The archived class name.
    var className: String
    /// The class name followed by the superclasses (`$classes`) or the fallback classes (NIBArchive), as stored.
    var classChain: [String]
    /// The fields in stored order; keys may repeat.
    var fields: [Field]

    /// The value of the first field with this key.
    func value(_ key: String) -> Value? { fields.first { $0.key == key }?.value }
    /// `true` when the object has a field with this key.
    func has(_ key: String) -> Bool { fields.contains { $0.key == key } }
  }

  /// One node of the container.
  enum Node: Sendable {
    /// A string, number, data or nil: inlined wherever it is referenced.
    case value(Value)
    /// An array, set or ordered set, in stored order.
    case collection(className: String, elements: [Value])
    /// A dictionary, pairs in stored order.
    case dictionary(className: String, pairs: [(key: Value, value: Value)])
    /// Any other object.
    case object(Object)
    /// A node that cannot be used as a value (a keyed archive's class description, a malformed Foundation object),
    /// with the reason; a reference to it reads as nil with a warning.
    case unusable(String)
  }

  /// The container's nodes by index.
  var nodes: [Node]
  /// The root's fields: a keyed archive's `$top`, a NIBArchive's object 0.
  var root: [Field]
  /// The root's node index, when the root is a node (NIBArchive object 0).
  var rootNode: Int?
  /// The container's name for messages ("keyed archive", "NIBArchive").
  var containerName: String
  /// Problems met while building the graph.
  var warnings: [String] = []

  /// The value of the first root field with this key.
  func rootValue(_ key: String) -> Value? { root.first { $0.key == key }?.value }

  /// The object at a node index, if that node is an object.
  func object(_ index: Int) -> Object? {
    guard nodes.indices.contains(index), case .object(let object) = nodes[index] else { return nil }
    return object
  }

  /// The text of a value: an inline string, or a reference to a string node.
  func string(_ value: Value?) -> String? {
    switch value {
    case .string(let text)?: return text
    case .node(let index)?:
      guard nodes.indices.contains(index), case .value(.string(let text)) = nodes[index] else { return nil }
      return text
    default: return nil
    }
  }

  /// The integer of a value: an inline integer or Boolean, or a reference to a number node.
  func integer(_ value: Value?) -> Int64? {
    switch value {
    case .integer(let number)?: return number
    case .bool(let flag)?: return flag ? 1 : 0
    case .node(let index)?:
      guard nodes.indices.contains(index), case .value(let inner) = nodes[index] else { return nil }
      switch inner {
      case .integer(let number): return number
      case .bool(let flag): return flag ? 1 : 0
      default: return nil
      }
    default: return nil
    }
  }

  /// The node a value refers to, following nothing else.
  func nodeIndex(_ value: Value?) -> Int? {
    if case .node(let index)? = value, nodes.indices.contains(index) { return index }
    return nil
  }

  /// The elements of a list value: a reference to a collection node, or an inline array; `nil` and a missing value
  /// are the empty list; anything else is `nil`.
  func elements(_ value: Value?) -> [Value]? {
    switch value {
    case nil, .null?: return []
    case .array(let elements)?: return elements
    case .node(let index)?:
      guard nodes.indices.contains(index) else { return nil }
      switch nodes[index] {
      case .collection(_, let elements): return elements
      case .value(.null): return []
      default: return nil
      }
    default: return nil
    }
  }

  /// The first class name of a node's chain that is in `names`.
  static func firstKnown(_ chain: [String], in names: Set<String>) -> String? { chain.first { names.contains($0) } }
}

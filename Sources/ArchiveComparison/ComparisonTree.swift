import Foundation
import FoundationForms
import PropertyList

/// One input's values as the comparison reads them (ARC-300): the canonical view of the input (what
/// `keyed dump --json` prints) kept by meaning in flat arrays, each node with a hash of what it holds, so that two
/// inputs are compared, aligned and rendered without a tree of strings.
///
/// A keyed archive's tree is built by the canonical walk itself (``Builder``, a ``CanonicalVisitor``): Foundation
/// values stay ``FoundationValue``s, class objects keep their class and identity, references stay references.
/// Other inputs (property lists, typedstreams, the objects of a XIB or nib) are read from their canonical JSON
/// nodes (``Builder/add(_:)``), whose `$class`, `$id` and `$ref` members mean the same.
package struct ComparisonTree: Sendable {
  /// What a node is.
  package enum Kind: UInt8, Sendable {
    /// `null`: nil, `$null`.
    case null
    /// A Boolean (the payload: 0 or 1).
    case bool
    /// A number, kept in the node (``ComparisonTree/number(_:)``).
    case number
    /// A string: its bytes (UTF-8) in ``bytes``, where the node says (``ComparisonTree/bytes(_:)``).
    case string
    /// Bytes, in ``bytes`` as a string's are.
    case data
    /// A date: its seconds, kept in the node as a number is.
    case date
    /// A property list UID: its value, kept in the node as a number is.
    case uid
    /// A Foundation value (the payload: its index in ``foundationValues``).
    case foundation
    /// A value known by its canonical JSON text only, in ``bytes`` as a string's are.
    case raw
    /// An array: its children are its elements, in ``Node/order``.
    case array
    /// A JSON object: its children are its members, by name.
    case object
    /// A class object: its children are its fields, by name; the payload is its class name's index in
    /// ``nameTable``.
    case classObject
    /// A later appearance of the class object whose identity is the payload.
    case reference
    /// Where a cycle of collections closes, at the collection whose identity is the payload.
    case cycle
  }

  /// One node.
  package struct Node: Sendable {
    /// A hash of what the node holds: equal values have equal hashes (a reference counts by its kind only).
    package var hash: Int = 0
    /// What the node holds, by ``Kind``.
    package var payload: Int32 = 0
    /// A container's children: `count` entries of ``children`` from `first`. A number, date or UID keeps its
    /// value's bits in `first` (the low half) and `count` (the high half), and its form in the payload; a string,
    /// raw text or data leaf keeps where its bytes start in ``ComparisonTree/bytes`` in `first` and their number in
    /// `count`, both unsigned.
    package var first: Int32 = 0
    package var count: Int32 = 0
    package var kind: Kind
    /// How an array's elements are ordered in the canonical view.
    package var order: CanonicalOrder = .asWalked
    /// `true` for a class object reached more than once (its first appearance carries `$id`).
    package var isShared = false

    package init(kind: Kind, payload: Int32 = 0, hash: Int = 0) {
      self.kind = kind
      self.payload = payload
      self.hash = hash
    }

    /// A number, date or UID leaf keeping `value`.
    init(kind: Kind, number value: CanonicalNumber, hash: Int) {
      let bits: UInt64
      switch value {
      case .integer(let integer): (payload, bits) = (0, UInt64(bitPattern: integer))
      case .unsignedInteger(let unsigned): (payload, bits) = (1, unsigned)
      case .real(let real): (payload, bits) = (2, real.bitPattern)
      }
      self.kind = kind
      self.hash = hash
      first = Int32(bitPattern: UInt32(truncatingIfNeeded: bits))
      count = Int32(bitPattern: UInt32(truncatingIfNeeded: bits >> 32))
    }
  }

  package var nodes: [Node] = []
  /// The children of containers, each run in order: the node's index and, for a member of an object or a field of
  /// a class object, its name (an index in ``nameTable``; that of the empty name for an element).
  package var children: [Int32] = []
  package var nameIDs: [Int32] = []
  /// The names of members and fields, and the class names, each once.
  package var nameTable: [String] = []
  /// Whether each name of ``nameTable`` is ASCII, for comparing names by their scalars
  /// (`String.isLiterally(_:selfIsASCII:)`).
  var nameIsASCII: [Bool] = []
  /// The bytes of strings (UTF-8), raw texts and data, one after another. Each input's text is bounded (archives and
  /// property lists by the bounds of `keyed dump --json`, other inputs by their size), far below the 4 GiB a leaf
  /// can address.
  package var bytes: [UInt8] = []
  package var foundationValues: [FoundationValue] = []
  /// The class objects by identity: the node of each shared one's first appearance.
  package var objects: [Int: Int32] = [:]
  /// The identity of each shared class object, by node.
  package var identities: [Int32: Int] = [:]
  /// The root node (-1 when nothing was added).
  package var root: Int32 = -1

  package init() {}

  /// The positions of the children of `node` in ``children`` and ``nameIDs``.
  package func members(_ node: Int32) -> Range<Int> {
    let n = nodes[Int(node)]
    switch n.kind {
    case .array, .object, .classObject: return Int(n.first)..<Int(n.first + n.count)
    default: return 0..<0
    }
  }

  /// The value of a number, date or UID leaf.
  package func number(_ node: Int32) -> CanonicalNumber { Self.number(of: nodes[Int(node)]) }

  /// The value a number, date or UID node keeps.
  static func number(of node: Node) -> CanonicalNumber {
    let bits = UInt64(UInt32(bitPattern: node.first)) | UInt64(UInt32(bitPattern: node.count)) << 32
    switch node.payload {
    case 0: return .integer(Int64(bitPattern: bits))
    case 1: return .unsignedInteger(bits)
    default: return .real(Double(bitPattern: bits))
    }
  }

  /// `true` when two Foundation values mean the same: equal, or written alike (a value holding a NaN is not equal to
  /// itself, and reals are the same when both are NaN).
  static func sameFoundationValue(_ x: FoundationValue, _ y: FoundationValue) -> Bool {
    x == y || writtenAlike(x, y)
  }

  /// `true` when two Foundation values are written alike: the same canonical text. The matcher requires it (a value
  /// equal to another by meaning may be written otherwise, and a report shows what each side writes).
  static func writtenAlike(_ x: FoundationValue, _ y: FoundationValue) -> Bool {
    var (first, second) = (CanonicalJSONWriter(), CanonicalJSONWriter())
    x.visit(with: &first)
    y.visit(with: &second)
    return first.text == second.text
  }

  /// The name of the child at `position`.
  package func name(_ position: Int) -> String { nameTable[Int(nameIDs[position])] }

  /// The node a reference stands for (the class object with its identity), else the node itself.
  package func resolved(_ node: Int32) -> Int32 {
    let n = nodes[Int(node)]
    if n.kind == .reference, let target = objects[Int(n.payload)] { return target }
    return node
  }

  /// The class name of a class object.
  package func className(_ node: Int32) -> String? {
    let n = nodes[Int(node)]
    return n.kind == .classObject ? nameTable[Int(n.payload)] : nil
  }

  /// The identity of a class object: its `$objects` index or `$id` when it is shared, else -1.
  package func identity(_ node: Int32) -> Int { identities[node] ?? -1 }

  /// The bytes of a string, raw text or data leaf.
  package func bytes(_ node: Int32) -> ArraySlice<UInt8> { bytes(of: nodes[Int(node)]) }

  /// The bytes a string, raw text or data node keeps.
  func bytes(of node: Node) -> ArraySlice<UInt8> {
    let start = Int(UInt32(bitPattern: node.first))
    return bytes[start..<start + Int(UInt32(bitPattern: node.count))]
  }

  /// The text of a string or raw leaf.
  package func text(ofLeaf node: Int32) -> String { String(decoding: bytes(node), as: UTF8.self) }

  /// `true` when name `id` of ``nameTable`` is `name`: the same Unicode scalars, not merely canonically equivalent
  /// ones (ARC-301).
  func isName(_ id: Int32, _ name: String) -> Bool {
    nameTable[Int(id)].isLiterally(name, selfIsASCII: nameIsASCII[Int(id)])
  }

  /// The value of the field `name` of the object or class object `node`.
  package func field(_ name: String, of node: Int32) -> Int32? {
    for position in members(node) where nameTable[Int(nameIDs[position])] == name { return children[position] }
    return nil
  }
}

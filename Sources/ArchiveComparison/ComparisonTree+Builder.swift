import Foundation
import FoundationForms

extension ComparisonTree {
  /// Builds a ``ComparisonTree`` from the canonical walk of an input (a ``CanonicalVisitor``), or from canonical
  /// JSON nodes (``add(_:)``).
  package struct Builder: CanonicalVisitor {
    /// A container being built.
    private struct Frame {
      var kind: Kind
      var order: CanonicalOrder
      /// Where its children start in ``pending``.
      var start: Int
      /// The name it has in its own container.
      var name: String
      /// A class object's class name and identity.
      var className = ""
      var identity = -1
      var isShared = false
    }

    package internal(set) var tree = ComparisonTree()
    private var frames: [Frame] = []
    /// The children of the open containers, innermost last.
    var pending: [Int32] = []
    var pendingNames: [String] = []
    /// The name of the next member.
    private var nextName = ""
    /// The index of each name in the tree's ``ComparisonTree/nameTable``.
    private var nameIndexes: [String: Int32] = [:]

    /// The names found last, by their length and last byte: the fields of one class's objects come back in turn,
    /// and comparing a name costs less than hashing it.
    private var recentNames = [Int32](repeating: -1, count: 64)

    package init() {}

    /// The index of `name` in the name table, added when it is new.
    mutating func nameID(_ name: String) -> Int32 {
      let slot = (name.utf8.count &* 7 &+ Int(name.utf8.last ?? 0)) & 63
      let recent = recentNames[slot]
      if recent >= 0, tree.isName(recent, name) { return recent }
      let id: Int32
      defer { recentNames[slot] = id }
      let known = nameIndexes[name]
      if let found = known, tree.isName(found, name) {
        id = found
      } else if known != nil,
        let found = tree.nameTable.firstIndex(where: { $0.utf8.elementsEqual(name.utf8) })
      {
        // A canonically equivalent name (another spelling of the same text) was seen first.
        id = Int32(found)
      } else {
        id = Int32(tree.nameTable.count)
        tree.nameTable.append(name)
        tree.nameIsASCII.append(name.isASCII)
        if known == nil { nameIndexes[name] = id }
      }
      return id
    }

    /// Reserves room for a view of `size.values` values (at most one node and one child each) and
    /// `size.textBytes` bytes of strings and data, as the canonical walk's first pass counted them, so that the
    /// stores do not grow by doubling.
    package mutating func reserve(_ size: (values: Int, textBytes: Int)) {
      tree.nodes.reserveCapacity(size.values + 1)
      tree.children.reserveCapacity(size.values)
      tree.nameIDs.reserveCapacity(size.values)
      tree.bytes.reserveCapacity(size.textBytes)
    }

    /// Adds a string, raw text or data leaf of `bytes` (``ComparisonTree/bytes``).
    private mutating func leaf(_ kind: Kind, bytes: some Collection<UInt8>, hash: Int) {
      leaf(bytesNode(kind, bytes, hash: hash))
    }

    /// A string, raw text or data node of `bytes`, its bytes added to the tree's store; the caller adds the node.
    mutating func bytesNode(_ kind: Kind, _ bytes: some Collection<UInt8>, hash: Int) -> Node {
      let start = tree.bytes.count
      tree.bytes.append(contentsOf: bytes)
      var node = Node(kind: kind, hash: hash)
      node.first = Int32(bitPattern: UInt32(truncatingIfNeeded: start))
      node.count = Int32(bitPattern: UInt32(truncatingIfNeeded: tree.bytes.count - start))
      return node
    }

    // MARK: Nodes

    private mutating func leaf(_ kind: Kind, payload: Int32, hash: Int) {
      leaf(Node(kind: kind, payload: payload, hash: hash))
    }

    private mutating func leaf(_ node: Node) {
      let index = Int32(tree.nodes.count)
      tree.nodes.append(node)
      attach(index)
    }

    private mutating func attach(_ index: Int32) {
      if frames.isEmpty {
        tree.root = index
      } else {
        pending.append(index)
        pendingNames.append(nextName)
      }
      nextName = ""
    }

    private mutating func open(_ kind: Kind, order: CanonicalOrder = .asWalked) {
      frames.append(Frame(kind: kind, order: order, start: pending.count, name: nextName))
      nextName = ""
    }

    /// Closes the innermost container: its children move to the tree, in hash order for an unordered array (so
    /// that equal sets list their members alike), and its node is added.
    private mutating func close() {
      let frame = frames.removeLast()
      nextName = frame.name
      var range = frame.start..<pending.count
      if frame.kind == .classObject, Self.isAttributedString(frame.className) {
        range = attributedStringFields(range)
      } else if frame.kind == .classObject, Self.isDecimalNumber(frame.className) {
        range = decimalNumberFields(range)
      }
      if frame.kind == .array, frame.order != .asWalked {
        let sorted = range.map { (pending[$0], sortHash(pending[$0], order: frame.order)) }.sorted { $0.1 < $1.1 }
        for (offset, element) in sorted.enumerated() { pending[range.lowerBound + offset] = element.0 }
      }
      var hasher = Hasher()
      hasher.combine(frame.kind)
      hasher.combine(range.count)
      if frame.kind == .classObject { hasher.combine(Self.meaningfulName(frame.className)) }
      let first = Int32(tree.children.count)
      for position in range {
        let child = pending[position]
        tree.children.append(child)
        let name = pendingNames[position]
        tree.nameIDs.append(name.isEmpty ? emptyName : nameID(name))
        hasher.combine(name)
        hasher.combine(tree.nodes[Int(child)].hash)
      }
      pending.removeSubrange(frame.start...)
      pendingNames.removeSubrange(frame.start...)
      var node = Node(kind: frame.kind, hash: hasher.finalize())
      node.order = frame.order
      node.first = first
      node.count = Int32(range.count)
      let index = Int32(tree.nodes.count)
      if frame.kind == .classObject {
        node.payload = nameID(Self.meaningfulName(frame.className))
        if frame.isShared, frame.identity >= 0 {
          // A decimal number is a value: where the sides share one matters no more than for a string.
          node.isShared = !Self.isDecimalNumber(frame.className)
          tree.identities[index] = frame.identity
          if tree.objects[frame.identity] == nil { tree.objects[frame.identity] = index }
        }
      }
      tree.nodes.append(node)
      attach(index)
    }

    private func sortHash(_ node: Int32, order: CanonicalOrder) -> Int {
      let n = tree.nodes[Int(node)]
      if order == .byKeyText, n.kind == .array, n.count == 2 {
        return tree.nodes[Int(tree.children[Int(n.first)])].hash
      }
      return n.hash
    }

    /// The index of the empty name (an element's).
    private var emptyName: Int32 {
      mutating get { nameID("") }
    }

    static func hash<T: Hashable>(_ kind: Kind, _ value: T) -> Int {
      var hasher = Hasher()
      hasher.combine(kind)
      hasher.combine(value)
      return hasher.finalize()
    }

    // MARK: CanonicalVisitor

    package mutating func beginObject() { open(.object) }
    package mutating func visitKey(_ name: String) { nextName = name }
    package mutating func endObject() { close() }
    package mutating func beginArray(_ order: CanonicalOrder) { open(.array, order: order) }
    package mutating func endArray() { close() }
    package mutating func visitNull() { leaf(.null, payload: 0, hash: Self.hash(.null, 0)) }
    package mutating func visitBool(_ value: Bool) {
      leaf(.bool, payload: value ? 1 : 0, hash: Self.hash(.bool, value))
    }

    package mutating func visitNumber(_ value: CanonicalNumber) {
      leaf(Node(kind: .number, number: value, hash: Self.hash(.number, value)))
    }

    package mutating func visitString(_ value: String) {
      leaf(.string, bytes: value.utf8, hash: Self.hash(.string, value))
    }

    package mutating func visitData(_ bytes: Data) {
      leaf(.data, bytes: bytes, hash: Self.hash(.data, bytes))
    }

    package mutating func visitDate(_ seconds: CanonicalNumber) {
      leaf(Node(kind: .date, number: seconds, hash: Self.hash(.date, seconds)))
    }

    package mutating func visitUID(_ value: UInt64) {
      leaf(Node(kind: .uid, number: .unsignedInteger(value), hash: Self.hash(.uid, value)))
    }

    package mutating func visitFoundationValue(_ value: FoundationValue) {
      tree.foundationValues.append(value)
      leaf(.foundation, payload: Int32(tree.foundationValues.count - 1), hash: Self.hash(.foundation, value))
    }

    package mutating func beginClassObject(_ object: CanonicalClassObject) {
      open(.classObject)
      frames[frames.count - 1].className = object.className
      frames[frames.count - 1].identity = object.id
      frames[frames.count - 1].isShared = object.isShared
    }

    package mutating func visitField(_ name: String) { nextName = name }
    package mutating func visitClassMember(_ className: String) {}
    package mutating func visitIdentityMember(_ id: Int) {}
    package mutating func endClassObject() { close() }

    package mutating func visitReference(_ id: Int) {
      leaf(.reference, payload: Int32(clamping: id), hash: Self.hash(.reference, 0))
    }

    package mutating func visitCycle(_ id: Int) {
      leaf(.cycle, payload: Int32(clamping: id), hash: Self.hash(.cycle, 0))
    }

    // MARK: Canonical JSON nodes

    /// Adds a value given as canonical JSON nodes (a property list, a typedstream's values, an object of a XIB or
    /// nib): `{"$class": …}` objects are class objects (with the identity of their `$id`), `{"$ref": N}` a
    /// reference to the one with `"$id": N`, `{"$cycle": N}` a cut cycle; geometry (`{"rect": […]}`, alone or an
    /// `NSValue`'s) and every other scalar compare by their text.
    package mutating func add(_ root: CanonicalJSON.Node) {
      enum Step {
        case node(CanonicalJSON.Node, String)
        case close
      }
      var steps: [Step] = [.node(root, "")]
      while let step = steps.popLast() {
        switch step {
        case .close: close()
        case .node(let node, let name):
          nextName = name
          switch node {
          case .raw(let text): addRaw(text)
          case .array(let elements):
            open(.array)
            steps.append(.close)
            steps += elements.reversed().map { .node($0, "") }
          case .object(let members):
            if Self.isGeometry(members) {
              addRaw(CanonicalJSON.text(node))
              continue
            }
            if members.count == 1, let special = special(members[0]) {
              special(&self)
              continue
            }
            if let classMember = members.first(where: { $0.0 == CanonicalMember.className }) {
              open(.classObject)
              frames[frames.count - 1].className = Self.unquoted(CanonicalJSON.text(classMember.1))
              if let id = members.first(where: { $0.0 == CanonicalMember.id }),
                let number = Int(CanonicalJSON.text(id.1))
              {
                frames[frames.count - 1].identity = number
                frames[frames.count - 1].isShared = true
              }
            } else {
              open(.object)
            }
            steps.append(.close)
            for (key, value) in members.reversed()
            where key != CanonicalMember.className && key != CanonicalMember.id {
              steps.append(.node(value, key))
            }
          }
        }
      }
    }

    /// A reference to an identified object (`{"$ref": N}`) or a cut cycle, as what adds it; a reference by a
    /// document id (`{"$ref": "<id>"}`, a XIB's) compares by its text.
    private func special(_ member: (String, CanonicalJSON.Node)) -> ((inout Builder) -> Void)? {
      guard case .raw(let text) = member.1 else { return nil }
      guard let number = Int(text), number >= 0, number <= Int(Int32.max) else {
        guard member.0 == CanonicalMember.reference else { return nil }
        let json = CanonicalJSON.text(.object([member]))
        return { $0.addRaw(json) }
      }
      switch member.0 {
      case CanonicalMember.reference: return { $0.visitReference(number) }
      case CanonicalMember.cycle: return { $0.visitCycle(number) }
      default: return nil
      }
    }

    /// A value known by its canonical JSON text only, compared by that text.
    package mutating func visitRaw(_ text: String) { addRaw(text) }

    private mutating func addRaw(_ text: String) {
      if text == "null" {
        visitNull()
        return
      }
      leaf(.raw, bytes: text.utf8, hash: Self.hash(.raw, text))
    }

    /// The text of a JSON string without its quotes.
    static func unquoted(_ json: String) -> String {
      guard json.hasPrefix("\""), json.hasSuffix("\""), json.count >= 2 else { return json }
      if !json.contains("\\") { return String(json.dropFirst().dropLast()) }
      return (try? JSONDecoder().decode(String.self, from: Data(json.utf8))) ?? json
    }

    /// `true` for a geometry value, compared whole: `{"rect": [x, y, w, h]}` (and `point`, `size`, `range`),
    /// alone or as an `NSValue`'s.
    static func isGeometry(_ members: [(String, CanonicalJSON.Node)]) -> Bool {
      var value = members
      if let classMember = value.firstIndex(where: { $0.0 == CanonicalMember.className }) {
        guard CanonicalJSON.text(value[classMember].1) == CanonicalJSON.string(FoundationClass.value) else {
          return false
        }
        value.remove(at: classMember)
      }
      guard value.count == 1, ["rect", "point", "size", "range"].contains(value[0].0),
        case .array(let numbers) = value[0].1
      else { return false }
      return numbers.allSatisfy { if case .raw = $0 { true } else { false } }
    }
  }
}

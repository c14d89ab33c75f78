import Foundation
import FoundationForms
import PropertyList

extension ComparisonTree {
  /// Checks the canonical walk of a second input against the ``ComparisonTree`` of the first while it is walked,
  /// without building a tree (Decision 0070): ``matched`` is `true` when the ``Builder`` would have built a tree the
  /// same as the first's from the walk, node for node (the same kinds, leaf values, names, class names, identities
  /// and order), so that the first tree stands for both. The first difference ends the check; what follows is
  /// ignored, and the caller builds the second tree.
  ///
  /// A container the builder rearranges when it closes (an unordered array, sorted by its members' hashes, an
  /// attributed string, read as text and runs, and a decimal number, read as its value) is built on its own by a
  /// ``Builder`` and checked against the first tree's node once it closes.
  package struct Matcher: CanonicalVisitor {
    /// A container of the first tree whose children are being matched.
    private struct Frame {
      /// The position in ``ComparisonTree/children`` of the next child, and the end of its run.
      var next: Int
      var end: Int
    }

    private let tree: ComparisonTree
    private var frames: [Frame] = []
    /// The name of the next member.
    private var nextName = ""
    private var rootMatched = false
    private var failed = false
    /// A container the builder rearranges, being built on its own: the builder, the first tree's node it must equal,
    /// and how deep the walk is inside it.
    private var part: (builder: Builder, node: Int32, depth: Int)?

    /// A check against `tree`, the first input's.
    package init(_ tree: ComparisonTree) {
      self.tree = tree
    }

    /// `true` when the walk reported, completely, what the first tree holds.
    package var matched: Bool { !failed && rootMatched && frames.isEmpty && part == nil }

    // MARK: Matching

    /// The first tree's node that the next value stands for, its name checked; `nil` once a difference was found.
    private mutating func next() -> Int32? {
      guard !failed else { return nil }
      defer { nextName = "" }
      guard let frame = frames.last else {
        guard !rootMatched, tree.root >= 0 else { return fail() }
        rootMatched = true
        return tree.root
      }
      guard frame.next < frame.end, tree.isName(tree.nameIDs[frame.next], nextName) else { return fail() }
      frames[frames.count - 1].next += 1
      return tree.children[frame.next]
    }

    @discardableResult
    private mutating func fail() -> Int32? {
      failed = true
      frames = []
      part = nil
      return nil
    }

    /// The next node and its index, when it is of `kind`; `nil` (the check ended) otherwise.
    private mutating func next(_ kind: Kind) -> (index: Int32, node: Node)? {
      guard let index = next() else { return nil }
      let node = tree.nodes[Int(index)]
      guard node.kind == kind else {
        fail()
        return nil
      }
      return (index, node)
    }

    /// The next node, when it is a leaf of `kind`; `nil` (the check ended) otherwise.
    private mutating func leaf(_ kind: Kind) -> Node? { next(kind)?.node }

    /// `true` when a leaf's bytes are `bytes`, compared in place (reading `Data` byte by byte costs more).
    private static func same(_ stored: ArraySlice<UInt8>, _ bytes: Data) -> Bool {
      stored.count == bytes.count && bytes.withUnsafeBytes { same(stored, $0) }
    }

    /// `true` when a leaf's bytes are the UTF-8 of `text`, read in place (iterating the view costs several times
    /// more).
    private static func same(_ stored: ArraySlice<UInt8>, _ text: String) -> Bool {
      stored.count == text.utf8.count && text.withCodeUnits { same(stored, UnsafeRawBufferPointer($0)) }
    }

    /// `true` when `stored` and `bytes`, of one length, hold the same bytes: an indexed loop, which the compiler
    /// keeps tight where `elementsEqual`'s two iterators are not.
    private static func same(_ stored: ArraySlice<UInt8>, _ bytes: UnsafeRawBufferPointer) -> Bool {
      var index = stored.startIndex
      for byte in bytes {
        guard stored[index] == byte else { return false }
        index += 1
      }
      return true
    }

    /// Opens container `node`, whose children are matched in turn.
    private mutating func open(_ node: Int32) {
      let n = tree.nodes[Int(node)]
      frames.append(Frame(next: Int(n.first), end: Int(n.first + n.count)))
    }

    private mutating func close() {
      guard !failed, let frame = frames.popLast() else {
        fail()
        return
      }
      if frame.next != frame.end { fail() }
    }

    /// Begins building a container on its own, to be checked against `node` when it closes.
    private mutating func beginPart(_ node: Int32, _ begin: (inout Builder) -> Void) {
      var builder = Builder()
      begin(&builder)
      part = (builder, node, 1)
    }

    /// Reports an event to the container being built on its own; `false` when there is none.
    private mutating func forward(depth change: Int = 0, _ event: (inout Builder) -> Void) -> Bool {
      guard var current = part else { return false }
      part = nil
      event(&current.builder)
      current.depth += change
      if current.depth > 0 {
        part = current
      } else if !current.builder.tree.isSame(current.builder.tree.root, as: tree, current.node) {
        fail()
      }
      return true
    }

    static func sameNumber(_ x: CanonicalNumber, _ y: CanonicalNumber) -> Bool {
      switch (x, y) {
      case (.integer(let p), .integer(let q)): p == q
      case (.unsignedInteger(let p), .unsignedInteger(let q)): p == q
      case (.real(let p), .real(let q)): p.bitPattern == q.bitPattern
      default: false
      }
    }

    // MARK: CanonicalVisitor

    package mutating func beginObject() {
      if forward(depth: 1, { $0.beginObject() }) { return }
      if let (node, _) = next(.object) { open(node) }
    }

    package mutating func visitKey(_ name: String) {
      if forward({ $0.visitKey(name) }) { return }
      nextName = name
    }

    package mutating func endObject() {
      if forward(depth: -1, { $0.endObject() }) { return }
      close()
    }

    package mutating func beginArray(_ order: CanonicalOrder) {
      if forward(depth: 1, { $0.beginArray(order) }) { return }
      guard let (node, n) = next(.array) else { return }
      guard n.order == order else {
        fail()
        return
      }
      if order != .asWalked {
        beginPart(node) { $0.beginArray(order) }
      } else {
        open(node)
      }
    }

    package mutating func endArray() {
      if forward(depth: -1, { $0.endArray() }) { return }
      close()
    }

    package mutating func visitNull() {
      if forward({ $0.visitNull() }) { return }
      _ = leaf(.null)
    }

    package mutating func visitBool(_ value: Bool) {
      if forward({ $0.visitBool(value) }) { return }
      if let n = leaf(.bool), n.payload != (value ? 1 : 0) { fail() }
    }

    package mutating func visitNumber(_ value: CanonicalNumber) {
      if forward({ $0.visitNumber(value) }) { return }
      if let n = leaf(.number), !Self.sameNumber(ComparisonTree.number(of: n), value) { fail() }
    }

    package mutating func visitString(_ value: String) {
      if forward({ $0.visitString(value) }) { return }
      if let n = leaf(.string), !Self.same(tree.bytes(of: n), value) { fail() }
    }

    package mutating func visitData(_ bytes: Data) {
      if forward({ $0.visitData(bytes) }) { return }
      if let n = leaf(.data), !Self.same(tree.bytes(of: n), bytes) { fail() }
    }

    package mutating func visitDate(_ seconds: CanonicalNumber) {
      if forward({ $0.visitDate(seconds) }) { return }
      if let n = leaf(.date), !Self.sameNumber(ComparisonTree.number(of: n), seconds) { fail() }
    }

    package mutating func visitUID(_ value: UInt64) {
      if forward({ $0.visitUID(value) }) { return }
      if let n = leaf(.uid), !Self.sameNumber(ComparisonTree.number(of: n), .unsignedInteger(value)) { fail() }
    }

    package mutating func visitFoundationValue(_ value: FoundationValue) {
      if forward({ $0.visitFoundationValue(value) }) { return }
      if let n = leaf(.foundation), !ComparisonTree.writtenAlike(tree.foundationValues[Int(n.payload)], value) {
        fail()
      }
    }

    package mutating func beginClassObject(_ object: CanonicalClassObject) {
      if forward(depth: 1, { $0.beginClassObject(object) }) { return }
      guard let (node, n) = next(.classObject) else { return }
      if Builder.isAttributedString(object.className) || Builder.isDecimalNumber(object.className) {
        beginPart(node) { $0.beginClassObject(object) }
        return
      }
      let shared = object.isShared && object.id >= 0
      guard n.isShared == shared, !shared || tree.identities[node] == object.id,
        tree.isName(n.payload, Builder.meaningfulName(object.className))
      else {
        fail()
        return
      }
      open(node)
    }

    package mutating func visitField(_ name: String) {
      if forward({ $0.visitField(name) }) { return }
      nextName = name
    }

    package mutating func visitClassMember(_ className: String) {}
    package mutating func visitIdentityMember(_ id: Int) {}

    package mutating func endClassObject() {
      if forward(depth: -1, { $0.endClassObject() }) { return }
      close()
    }

    package mutating func visitReference(_ id: Int) {
      if forward({ $0.visitReference(id) }) { return }
      if let n = leaf(.reference), n.payload != Int32(clamping: id) { fail() }
    }

    package mutating func visitCycle(_ id: Int) {
      if forward({ $0.visitCycle(id) }) { return }
      if let n = leaf(.cycle), n.payload != Int32(clamping: id) { fail() }
    }
  }

  /// `true` when the value at `node` is the same as the value at `other` of `tree`, node for node: the same kinds,
  /// hashes, leaf values (strings and data by their bytes, reals by their bits, Foundation values equal and
  /// written alike), names, class names, identities and order.
  func isSame(_ node: Int32, as tree: ComparisonTree, _ other: Int32) -> Bool {
    guard node >= 0, other >= 0 else { return node == other }
    var pairs = [(node, other)]
    while let (x, y) = pairs.popLast() {
      let (nx, ny) = (nodes[Int(x)], tree.nodes[Int(y)])
      guard nx.kind == ny.kind, nx.hash == ny.hash, nx.count == ny.count, nx.order == ny.order,
        nx.isShared == ny.isShared, identities[x] == tree.identities[y]
      else { return false }
      switch nx.kind {
      case .null, .array, .object: break
      case .bool, .reference, .cycle:
        guard nx.payload == ny.payload else { return false }
      case .number, .date, .uid:
        guard Matcher.sameNumber(Self.number(of: nx), Self.number(of: ny)) else { return false }
      case .string, .raw, .data:
        guard bytes(of: nx).elementsEqual(tree.bytes(of: ny)) else { return false }
      case .foundation:
        guard
          ComparisonTree.writtenAlike(foundationValues[Int(nx.payload)], tree.foundationValues[Int(ny.payload)])
        else { return false }
      case .classObject:
        guard nameTable[Int(nx.payload)].utf8.elementsEqual(tree.nameTable[Int(ny.payload)].utf8) else {
          return false
        }
      }
      for (i, j) in zip(members(x), tree.members(y)) {
        guard name(i).utf8.elementsEqual(tree.name(j).utf8) else { return false }
        pairs.append((children[i], tree.children[j]))
      }
    }
    return true
  }
}

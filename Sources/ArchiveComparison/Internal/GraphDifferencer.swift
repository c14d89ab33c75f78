import ArchiveCoding
import ArchiveSupport
import FoundationForms
import KeyedArchive

/// Walks two canonical JSON graphs side by side and lists where they differ (ARC-170…ARC-174).
///
/// Class objects (`{"$class": …}`) are matched by where they are met: a `{"$ref": N}` stands for the object that
/// carries `"$id": N`, and a pair of objects is compared once, at its first meeting, so a shared object is compared
/// once and a cycle ends where it closes. When the two sides share differently (one side meets again an object the
/// other meets for the first time), that is itself a difference, and the pair is not walked again.
struct GraphDifferencer {
  typealias Node = CanonicalJSON.Node
  /// What was found so far, in walk order.
  private(set) var differences: [ArchiveDifference] = []
  /// Each side's objects that carry `$id`, by the id's text.
  private var identifiedA: [String: Node] = [:]
  private var identifiedB: [String: Node] = [:]
  /// Each side's objects met so far, by id: the other side's object they were met with (`nil` for one reached
  /// once, which carries no id) and the path of the meeting.
  private var metA: [String: (other: String?, path: String)] = [:]
  private var metB: [String: (other: String?, path: String)] = [:]
  private var depth = 0
  private let stack = StackGuard()
  /// The most element pairs an array is aligned over (its elements matched by value); past it, by index.
  static let maxAlignedPairs = 1 << 20

  /// How a node is compared.
  private enum Shape {
    /// A value compared by its canonical text.
    case leaf
    /// A cut cycle of collections: equal to any other.
    case cycle
    case list([Node])
    /// A string-keyed dictionary, or a class object (with its id, when it carries one).
    case members([(String, Node)], classID: String??)
    /// A reference to the object with this id.
    case reference(String)
    /// A dictionary with other keys: entries by their key's canonical text.
    case entries([(String, Node)])
  }

  /// Records the objects each side identifies with `$id`.
  mutating func index(_ a: Node, _ b: Node) {
    identifiedA = Self.identified(a)
    identifiedB = Self.identified(b)
  }

  /// The objects of `root` that carry `$id`, walked without recursion.
  private static func identified(_ root: Node) -> [String: Node] {
    var found: [String: Node] = [:]
    var pending = [root]
    while let node = pending.popLast() {
      switch node {
      case .raw: break
      case .array(let elements): pending += elements
      case .object(let members):
        if members.contains(where: { $0.0 == CanonicalJSON.Member.className.rawValue }),
          let id = members.first(where: { $0.0 == CanonicalJSON.Member.id.rawValue })
        {
          found[CanonicalJSON.text(id.1)] = node
        }
        pending += members.map(\.1)
      }
    }
    return found
  }

  /// Compares two graphs from their roots: `root`, or each top-level key when the archive has others.
  mutating func compareRoots(_ a: Node, _ b: Node) throws {
    switch (Self.topMembers(a), Self.topMembers(b)) {
    case (let first?, let second?):
      try compareMembers(first, second, path: "", nullIsAbsent: true)
    case (nil, nil):
      try compare(a, b, path: "root")
    default:
      let (first, second) = (Self.topMembers(a) ?? [("root", a)], Self.topMembers(b) ?? [("root", b)])
      try compareMembers(first, second, path: "", nullIsAbsent: true)
    }
  }

  private static func topMembers(_ node: Node) -> [(String, Node)]? {
    guard case .object(let members) = node, members.count == 1, members[0].0 == ArchiveJSON.topMember,
      case .object(let top) = members[0].1
    else { return nil }
    return top
  }

  private static func shape(_ node: Node, resolving objects: [String: Node]) -> Shape {
    switch node {
    case .raw: return .leaf
    case .array(let elements): return .list(elements)
    case .object(let members):
      if Self.isGeometry(members) { return .leaf }
      if members.contains(where: { $0.0 == CanonicalJSON.Member.className.rawValue }) {
        let id = members.first { $0.0 == CanonicalJSON.Member.id.rawValue }.map { CanonicalJSON.text($0.1) }
        return .members(members.filter { $0.0 != CanonicalJSON.Member.id.rawValue }, classID: .some(id))
      }
      guard members.count == 1, members[0].0.hasPrefix("$") else { return .members(members, classID: nil) }
      switch (members[0].0, members[0].1) {
      case (CanonicalJSON.Member.reference.rawValue, let target):
        let id = CanonicalJSON.text(target)
        return objects[id] == nil ? .leaf : .reference(id)
      case (CanonicalJSON.Member.cycle.rawValue, _): return .cycle
      case (CanonicalJSON.Member.dictionary.rawValue, .array(let pairs)):
        var entries: [(String, Node)] = []
        for pair in pairs {
          guard case .array(let parts) = pair, parts.count == 2 else { return .leaf }
          entries.append((CanonicalJSON.text(parts[0]), parts[1]))
        }
        return .entries(entries)
      default: return .leaf
      }
    }
  }

  /// `true` for a geometry value, compared whole: `{"rect": [x, y, w, h]}` (and `point`, `size`, `range`), alone
  /// or as an `NSValue`'s.
  private static func isGeometry(_ members: [(String, Node)]) -> Bool {
    var value = members
    if let classMember = value.firstIndex(where: { $0.0 == CanonicalJSON.Member.className.rawValue }) {
      guard CanonicalJSON.text(value[classMember].1) == CanonicalJSON.string("NSValue") else { return false }
      value.remove(at: classMember)
    }
    guard value.count == 1, ["rect", "point", "size", "range"].contains(value[0].0),
      case .array(let numbers) = value[0].1
    else { return false }
    return numbers.allSatisfy { if case .raw = $0 { true } else { false } }
  }

  /// Compares what the two sides have at `path` (`nil`: nothing).
  mutating func compare(_ a: Node?, _ b: Node?, path: String) throws {
    guard let a, let b else {
      if a != nil || b != nil { report(path, a, b) }
      return
    }
    depth += 1
    defer { depth -= 1 }
    guard depth <= 2 * ExpansionBound.maxDepth + 8, stack.hasRoom() else {
      throw ArchiveError(
        .limitExceeded, "the graphs nest deeper than \(2 * ExpansionBound.maxDepth) or than this thread's stack allows",
        at: .init(keyPath: path))
    }
    var (shapeA, shapeB) = (Self.shape(a, resolving: identifiedA), Self.shape(b, resolving: identifiedB))
    var (resolvedA, resolvedB) = (a, b)
    if case .reference(let id) = shapeA, let target = identifiedA[id] {
      resolvedA = target
      shapeA = Self.shape(target, resolving: identifiedA)
    }
    if case .reference(let id) = shapeB, let target = identifiedB[id] {
      resolvedB = target
      shapeB = Self.shape(target, resolving: identifiedB)
    }
    switch (shapeA, shapeB) {
    case (.leaf, .leaf):
      if CanonicalJSON.text(a) != CanonicalJSON.text(b) { report(path, a, b) }
    case (.cycle, .cycle): break
    case (.list(let first), .list(let second)):
      try compareLists(first, second, path: path)
    case (.entries(let first), .entries(let second)):
      try compareMembers(first, second, path: path, nullIsAbsent: false, keyed: true)
    case (.members(let first, let classA), .members(let second, let classB)):
      switch (classA, classB) {
      case (nil, nil):
        try compareMembers(first, second, path: path, nullIsAbsent: false)
      case (.some(let idA), .some(let idB)):
        // Two class objects: compared at their first meeting only.
        guard try meet(idA, idB, path: path, resolvedA, resolvedB) else { return }
        try compareMembers(first, second, path: path, nullIsAbsent: true)
      default:
        report(path, a, b)
      }
    default:
      report(path, resolvedA, resolvedB)
    }
  }

  /// Records the meeting of object `idA` (of the first side) with object `idB` (of the second) at `path`; `false`
  /// when either was met before, which is either the same pair again (nothing to compare) or a difference in what
  /// the sides share (reported).
  private mutating func meet(_ idA: String?, _ idB: String?, path: String, _ a: Node, _ b: Node) throws -> Bool {
    let earlierA = idA.flatMap { metA[$0] }
    let earlierB = idB.flatMap { metB[$0] }
    if earlierA == nil, earlierB == nil {
      if let idA { metA[idA] = (idB, path) }
      if let idB { metB[idB] = (idA, path) }
      return true
    }
    if let earlierA, let idB, earlierA.other == idB { return false }
    let sideA = earlierA.map { Self.sharedReference($0.path) } ?? Self.summary(a)
    let sideB = earlierB.map { Self.sharedReference($0.path) } ?? Self.summary(b)
    differences.append(ArchiveDifference(path: path, a: sideA, b: sideB))
    return false
  }

  /// `{"$ref": "<path>"}`: the object first met at `path`, met again.
  private static func sharedReference(_ path: String) -> String {
    CanonicalJSON.text(.object([(CanonicalJSON.Member.reference.rawValue, .raw(CanonicalJSON.string(path)))]))
  }

  /// `{"$class": "<name>"}`: an object met for the first time on one side only, by its class.
  private static func summary(_ node: Node) -> String {
    guard case .object(let members) = node,
      let name = members.first(where: { $0.0 == CanonicalJSON.Member.className.rawValue })
    else {
      return CanonicalJSON.text(node)
    }
    return CanonicalJSON.text(.object([name]))
  }

  /// Compares two sets of members by key; with `nullIsAbsent` (a class object's fields, an archive's top-level
  /// keys), a `null` member is the same as none, as decoding a missing key gives `nil`.
  private mutating func compareMembers(
    _ a: [(String, Node)], _ b: [(String, Node)], path: String, nullIsAbsent: Bool, keyed: Bool = false
  ) throws {
    func present(_ members: [(String, Node)]) -> [(String, Node)] {
      guard nullIsAbsent else { return members }
      return members.filter { if case .raw("null") = $0.1 { false } else { true } }
    }
    let (first, second) = (present(a), present(b))
    var inSecond: [String: Node] = [:]
    for (key, value) in second where inSecond[key] == nil { inSecond[key] = value }
    var inFirst: Set<String> = []
    for (key, value) in first where inFirst.insert(key).inserted {
      try compare(value, inSecond[key], path: path + Self.component(key, keyed: keyed, top: path.isEmpty))
    }
    for (key, value) in second where !inFirst.contains(key) {
      inFirst.insert(key)
      try compare(nil, value, path: path + Self.component(key, keyed: keyed, top: path.isEmpty))
    }
  }

  /// Compares two arrays: aligned by value when every element is a plain value (an element inserted or removed is
  /// one difference, not one per later index), else element by element.
  private mutating func compareLists(_ a: [Node], _ b: [Node], path: String) throws {
    func plain(_ node: Node, _ objects: [String: Node]) -> Bool {
      if case .leaf = Self.shape(node, resolving: objects) { return true }
      return false
    }
    guard a.count * b.count <= Self.maxAlignedPairs, a.allSatisfy({ plain($0, identifiedA) }),
      b.allSatisfy({ plain($0, identifiedB) })
    else {
      for index in 0..<max(a.count, b.count) {
        try compare(index < a.count ? a[index] : nil, index < b.count ? b[index] : nil, path: path + "[\(index)]")
      }
      return
    }
    let textA = a.map { CanonicalJSON.text($0) }
    let textB = b.map { CanonicalJSON.text($0) }
    for step in Self.alignment(textA, textB) {
      switch step {
      case .same: break
      case .changed(let i, let j): report(path + "[\(i)]", a[i], b[j])
      case .removed(let i): report(path + "[\(i)]", a[i], nil)
      case .inserted(let j): report(path + "[\(j)]", nil, b[j])
      }
    }
  }

  /// One step of an alignment of two arrays.
  enum AlignmentStep: Equatable {
    case same(Int, Int)
    case changed(Int, Int)
    case removed(Int)
    case inserted(Int)
  }

  /// The longest common subsequence of `a` and `b` as steps in order; a removal followed by an insertion at the
  /// same place is one change.
  static func alignment(_ a: [String], _ b: [String]) -> [AlignmentStep] {
    let (n, m) = (a.count, b.count)
    var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lengths[i * (m + 1) + j] =
          a[i] == b[j]
          ? lengths[(i + 1) * (m + 1) + j + 1] + 1
          : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
      }
    }
    var steps: [AlignmentStep] = []
    var removed: [Int] = []
    var inserted: [Int] = []
    func flush() {
      let paired = min(removed.count, inserted.count)
      for k in 0..<paired { steps.append(.changed(removed[k], inserted[k])) }
      steps += removed.dropFirst(paired).map { .removed($0) }
      steps += inserted.dropFirst(paired).map { .inserted($0) }
      (removed, inserted) = ([], [])
    }
    var (i, j) = (0, 0)
    while i < n || j < m {
      if i < n, j < m, a[i] == b[j] {
        flush()
        steps.append(.same(i, j))
        (i, j) = (i + 1, j + 1)
      } else if j == m || (i < n && lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1]) {
        removed.append(i)
        i += 1
      } else {
        inserted.append(j)
        j += 1
      }
    }
    flush()
    return steps
  }

  private mutating func report(_ path: String, _ a: Node?, _ b: Node?) {
    differences.append(
      ArchiveDifference(path: path, a: a.map { CanonicalJSON.text($0) }, b: b.map { CanonicalJSON.text($0) }))
  }

  /// A key as a path component: `.title` for a name, `["NS.keys"]` for other text, `[<key>]` for a dictionary
  /// key that is not a string; at the top (`top`), a name without its dot.
  static func component(_ key: String, keyed: Bool, top: Bool) -> String {
    if keyed { return "[\(key)]" }
    let isName =
      !key.isEmpty
      && key.utf8.enumerated().allSatisfy { index, byte in
        byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
          || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
          || (index > 0 && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      }
    guard isName else { return "[\(CanonicalJSON.string(key))]" }
    return top ? key : "." + key
  }
}

import ArchiveCoding
import ArchiveSupport
import FoundationForms
import KeyedArchive

/// Walks two ``ComparisonTree``s side by side and lists where they differ (ARC-300…ARC-312): the one comparison
/// that `keyed diff`, ``ArchiveComparison`` and `ArchiveTesting`'s checks use.
///
/// Class objects are matched by where they are met: a reference stands for the object it names, and a pair of
/// objects is compared once, at its first meeting, so a shared object is compared once and a cycle ends where it
/// closes. When the two sides share differently (one side meets again an object the other meets for the first
/// time), that is itself a difference, and the pair is not walked again. Array elements are aligned
/// (``ArrayAlignment``) before they are compared.
package struct TreeDifferencer {
  let a: ComparisonTree
  let b: ComparisonTree
  let options: ArchiveComparison.Options
  /// What was found so far, in walk order.
  package private(set) var differences: [ArchiveDifference] = []
  /// Each side's shared class objects met so far, by node: the other side's object they were met with and the
  /// path of the meeting.
  private var metA: [Int32: (other: Int32, path: String)] = [:]
  private var metB: [Int32: (other: Int32, path: String)] = [:]
  private var depth = 0
  private let stack = StackGuard()
  /// The pairs of elements all the arrays of one comparison may still align by a longest common subsequence
  /// (``ArchiveComparison/Options/totalAlignedPairsFactor`` times the bound of one array), so that many arrays just
  /// under the bound of one cost no more than a few at it.
  private var alignmentBudget: Int
  /// Where the walk is: the components of the path, made into text only for what is reported.
  private var components: [Component] = []

  /// One component of a path.
  package enum Component {
    /// Text as it stands: `root`, an object of a XIB by name and id.
    case text(String)
    /// A field or member name: `.title`, `["NS.keys"]`, or at the top the name alone.
    case name(String)
    /// A key of a dictionary whose keys are not all strings, by its canonical text: `[<key>]`.
    case key(String)
    /// An element's index: `[3]`.
    case index(Int)
  }

  /// The path `components` name, as text.
  static func text(_ components: [Component]) -> String {
    var text = ""
    for component in components {
      switch component {
      case .text(let value): text += value
      case .name(let name): text += Self.component(name, keyed: false, top: text.isEmpty)
      case .key(let key): text += "[\(key)]"
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }

  /// The path of the values being compared.
  private var path: String { Self.text(components) }

  package init(_ a: ComparisonTree, _ b: ComparisonTree, options: ArchiveComparison.Options) {
    self.a = a
    self.b = b
    self.options = options
    alignmentBudget =
      options.maxAlignedPairs.multipliedReportingOverflow(
        by: ArchiveComparison.Options.totalAlignedPairsFactor
      ).partialValue
    // Each of the first tree's names, as an index in the second's table (-1 where it has none).
    var second: [String: Int32] = [:]
    for (index, name) in b.nameTable.enumerated() where second[name] == nil { second[name] = Int32(index) }
    namesInB = a.nameTable.map { name in
      if let found = second[name], b.nameTable[Int(found)].utf8.elementsEqual(name.utf8) { return found }
      guard second[name] != nil else { return -1 }
      return b.nameTable.firstIndex { $0.utf8.elementsEqual(name.utf8) }.map { Int32($0) } ?? -1
    }
  }

  /// Each name of the first tree's table as an index in the second's.
  private let namesInB: [Int32]

  /// `true` when name `x` of the first tree and name `y` of the second are the same text.
  private func sameName(_ x: Int32, _ y: Int32) -> Bool { namesInB[Int(x)] == y }

  /// Compares two trees from their roots: `root`, or each top-level key when an archive has others (`$top`).
  mutating func compareRoots() throws {
    let (rootA, rootB) = (a.root >= 0 ? a.root : nil, b.root >= 0 ? b.root : nil)
    let (topA, topB) = (Self.topMembers(a), Self.topMembers(b))
    if topA == nil, topB == nil {
      try compare(rootA, rootB, at: .text("root"))
      return
    }
    let first = topA ?? [("root", rootA)]
    let second = topB ?? [("root", rootB)]
    try compareEntries(first, second, keyed: false)
  }

  /// The top-level keys of an archive's view that has others than `root` (`{"$top": {key: value, …}}`).
  private static func topMembers(_ tree: ComparisonTree) -> [(String, Int32?)]? {
    guard tree.root >= 0, tree.nodes[Int(tree.root)].kind == .object, tree.nodes[Int(tree.root)].count == 1,
      let top = tree.field(ArchiveKeys.top, of: tree.root), tree.nodes[Int(top)].kind == .object
    else { return nil }
    return tree.members(top).map { (tree.name($0), tree.children[$0]) }
  }

  /// Compares what the two sides have at `component`, one step further along the path (`nil`: nothing there).
  package mutating func compare(_ x: Int32?, _ y: Int32?, at component: Component) throws {
    components.append(component)
    defer { components.removeLast() }
    try compare(x, y)
  }

  /// Compares what the two sides have at the current path.
  private mutating func compare(_ x: Int32?, _ y: Int32?) throws {
    guard let x, let y else {
      if x != nil || y != nil {
        report(x == nil ? .added : .removed, x, y)
      }
      return
    }
    depth += 1
    defer { depth -= 1 }
    guard depth <= 2 * ExpansionBound.maxDepth + 8, stack.hasRoom() else {
      throw ArchiveError(
        .limitExceeded,
        "the graphs nest deeper than \(2 * ExpansionBound.maxDepth) or than this thread's stack allows",
        at: .init(keyPath: path))
    }
    let (rx, ry) = (a.resolved(x), b.resolved(y))
    let (na, nb) = (a.nodes[Int(rx)], b.nodes[Int(ry)])
    switch (na.kind, nb.kind) {
    case (.classObject, .classObject):
      guard meet(rx, ry) else { return }
      if !sameName(na.payload, nb.payload) {
        let (classA, classB) = (a.nameTable[Int(na.payload)], b.nameTable[Int(nb.payload)])
        differences.append(
          ArchiveDifference(
            path: Self.text(components + [.name(CanonicalMember.className)]), change: .changed,
            old: .init(kind: .string, json: CanonicalJSON.string(classA)),
            new: .init(kind: .string, json: CanonicalJSON.string(classB))))
      }
      try compareFields(rx, ry)
    case (.object, .object):
      if let entriesA = dictionaryEntries(a, rx), let entriesB = dictionaryEntries(b, ry) {
        try compareEntries(entriesA, entriesB, keyed: true)
      } else {
        try compareFields(rx, ry)
      }
    case (.array, .array):
      try compareArrays(rx, ry)
    case (.cycle, .cycle): break
    default:
      if !Self.sameLeaf(a, rx, b, ry) { report(.changed, x, y) }
    }
  }

  /// `true` when two leaves hold the same value: strings and texts by their Unicode scalars, reals by their bits
  /// (every NaN equal to every other), Foundation values by meaning (the reals they hold as reals are).
  static func sameLeaf(_ a: ComparisonTree, _ x: Int32, _ b: ComparisonTree, _ y: Int32) -> Bool {
    let (na, nb) = (a.nodes[Int(x)], b.nodes[Int(y)])
    guard na.kind == nb.kind, na.hash == nb.hash || na.kind == .number || na.kind == .date || na.kind == .foundation
    else { return false }
    switch na.kind {
    case .null: return true
    case .bool: return na.payload == nb.payload
    case .string, .raw, .data: return a.bytes(x).elementsEqual(b.bytes(y))
    case .number, .date, .uid: return sameNumber(ComparisonTree.number(of: na), ComparisonTree.number(of: nb))
    case .foundation:
      return ComparisonTree.sameFoundationValue(a.foundationValues[Int(na.payload)], b.foundationValues[Int(nb.payload)])
    case .reference, .cycle: return na.payload == nb.payload
    case .array, .object, .classObject: return false
    }
  }

  private static func sameNumber(_ x: CanonicalNumber, _ y: CanonicalNumber) -> Bool {
    if case .real(let p) = x, case .real(let q) = y { return (p.isNaN && q.isNaN) || p.bitPattern == q.bitPattern }
    return x == y
  }

  /// Records the meeting of class object `x` (of the first side) with `y` (of the second) at `path`; `false` when
  /// either was met before, which is either the same pair again (nothing to compare) or a difference in what the
  /// sides share (reported). Only objects reached more than once can be met again.
  private mutating func meet(_ x: Int32, _ y: Int32) -> Bool {
    let (sharedA, sharedB) = (a.nodes[Int(x)].isShared, b.nodes[Int(y)].isShared)
    guard sharedA || sharedB else { return true }
    let earlierA = sharedA ? metA[x] : nil
    let earlierB = sharedB ? metB[y] : nil
    if earlierA == nil, earlierB == nil {
      let path = self.path
      if sharedA { metA[x] = (y, path) }
      if sharedB { metB[y] = (x, path) }
      return true
    }
    if let earlierA, earlierA.other == y { return false }
    func side(
      _ tree: ComparisonTree, _ node: Int32, _ earlier: (other: Int32, path: String)?
    ) -> ArchiveDifference.Value {
      if let earlier {
        return .init(
          kind: .reference,
          json: CanonicalJSON.text(.object([(CanonicalMember.reference, .raw(CanonicalJSON.string(earlier.path)))])))
      }
      let className = tree.className(node) ?? ""
      return .init(
        kind: .object, className: className,
        json: CanonicalJSON.text(.object([(CanonicalMember.className, .raw(CanonicalJSON.string(className)))])))
    }
    differences.append(
      ArchiveDifference(
        path: path, change: .sharing, old: side(a, x, earlierA), new: side(b, y, earlierB)))
    return false
  }

  /// Compares the members of two objects or fields of two class objects by name (absent differs from `null`).
  private mutating func compareFields(_ x: Int32, _ y: Int32) throws {
    let (rangeA, rangeB) = (a.members(x), b.members(y))
    if rangeA.count == rangeB.count,
      zip(rangeA, rangeB).allSatisfy({ sameName(a.nameIDs[$0], b.nameIDs[$1]) })
    {
      for (i, j) in zip(rangeA, rangeB) {
        try compare(a.children[i], b.children[j], at: .name(a.name(i)))
      }
      return
    }
    try compareEntries(
      rangeA.map { (a.name($0), a.children[$0]) }, rangeB.map { (b.name($0), b.children[$0]) }, keyed: false)
  }

  /// Compares two lists of named values: the first side's names in order, then the names only the second has.
  private mutating func compareEntries(
    _ first: [(String, Int32?)], _ second: [(String, Int32?)], keyed: Bool
  ) throws {
    var inSecond: [String: Int32?] = [:]
    for (name, value) in second where inSecond[name] == nil { inSecond[name] = value }
    var seen: Set<String> = []
    for (name, value) in first where seen.insert(name).inserted {
      try compare(value, inSecond[name] ?? nil, at: keyed ? .key(name) : .name(name))
    }
    for (name, value) in second where seen.insert(name).inserted {
      try compare(nil, value, at: keyed ? .key(name) : .name(name))
    }
  }

  /// The entries of a dictionary whose keys are not all strings (`{"$dictionary": [[key, value], …]}`), by their
  /// key's canonical text.
  private func dictionaryEntries(_ tree: ComparisonTree, _ node: Int32) -> [(String, Int32?)]? {
    guard tree.nodes[Int(node)].count == 1, let pairs = tree.field(CanonicalMember.dictionary, of: node),
      tree.nodes[Int(pairs)].kind == .array
    else { return nil }
    var entries: [(String, Int32?)] = []
    for position in tree.members(pairs) {
      let pair = tree.children[position]
      guard tree.nodes[Int(pair)].kind == .array, tree.nodes[Int(pair)].count == 2 else { return nil }
      let parts = tree.members(pair)
      entries.append((tree.text(tree.children[parts.lowerBound]), tree.children[parts.lowerBound + 1]))
    }
    return entries
  }

  /// Compares two arrays, their elements aligned (ARC-304): the common start and end by position, the rest by a
  /// longest common subsequence of the elements' alignment keys (``alignmentKey(_:_:)``), so an inserted, removed
  /// or moved element is one difference; aligned pairs are compared in turn.
  private mutating func compareArrays(_ x: Int32, _ y: Int32) throws {
    let elementsA = a.members(x).map { a.children[$0] }
    let elementsB = b.members(y).map { b.children[$0] }
    let unordered = a.nodes[Int(x)].order != .asWalked
    var canonicalIndexesA: [Int]?
    var canonicalIndexesB: [Int]?
    func index(_ side: Bool, _ position: Int) -> Component {
      guard unordered else { return .index(position) }
      if side {
        if canonicalIndexesA == nil { canonicalIndexesA = Self.canonicalIndexes(a, elementsA) }
        return .index(canonicalIndexesA?[position] ?? position)
      }
      if canonicalIndexesB == nil { canonicalIndexesB = Self.canonicalIndexes(b, elementsB) }
      return .index(canonicalIndexesB?[position] ?? position)
    }
    let keysA = elementsA.map { alignmentKey(a, $0) }
    let keysB = elementsB.map { alignmentKey(b, $0) }
    let steps = ArrayAlignment.steps(keysA, keysB, maxCells: min(options.maxAlignedPairs, alignmentBudget))
    alignmentBudget -= min(alignmentBudget, ArrayAlignment.cells(keysA, keysB))
    // A removed element whose key an inserted one has moved there.
    var insertedByKey: [Int: [Int]] = [:]
    for case .inserted(let j) in steps { insertedByKey[keysB[j], default: []].append(j) }
    var movedTo: [Int: Int] = [:]
    var movedFrom: Set<Int> = []
    if !insertedByKey.isEmpty {
      for case .removed(let i) in steps {
        guard var candidates = insertedByKey[keysA[i]], !candidates.isEmpty else { continue }
        let j = candidates.removeFirst()
        insertedByKey[keysA[i]] = candidates
        movedTo[i] = j
        movedFrom.insert(j)
      }
    }
    for step in steps {
      switch step {
      case .same(let i, let j), .changed(let i, let j):
        try compare(elementsA[i], elementsB[j], at: index(true, i))
      case .removed(let i):
        if let j = movedTo[i] {
          var difference = makeDifference(
            Self.text(components + [index(true, i)]), .moved, elementsA[i], elementsB[j])
          difference.movedTo = Self.text(components + [index(false, j)])
          differences.append(difference)
          try compare(elementsA[i], elementsB[j], at: index(true, i))
        } else {
          report(at: index(true, i), .removed, elementsA[i], nil)
        }
      case .inserted(let j):
        if !movedFrom.contains(j) { report(at: index(false, j), .added, nil, elementsB[j]) }
      }
    }
  }

  /// The positions of a set's members in the canonical view (sorted by their canonical text): paths name a member
  /// by where `keyed dump --json` prints it.
  private static func canonicalIndexes(_ tree: ComparisonTree, _ elements: [Int32]) -> [Int] {
    let sorted = elements.indices.map { ($0, tree.text(elements[$0])) }.sorted { CanonicalText.precedes($0.1, $1.1) }
    var indexes = [Int](repeating: 0, count: elements.count)
    for (rank, entry) in sorted.enumerated() { indexes[entry.0] = rank }
    return indexes
  }

  /// What an element is aligned by: the value of its class's identity key (``ArchiveComparison/Options``), else
  /// its whole value (by hash; an aligned pair is compared in full after).
  private func alignmentKey(_ tree: ComparisonTree, _ element: Int32) -> Int {
    let node = tree.resolved(element)
    let n = tree.nodes[Int(node)]
    if n.kind == .classObject, !options.identityKeys.isEmpty,
      let key = options.identityKeys[tree.nameTable[Int(n.payload)]],
      let value = tree.field(key, of: node)
    {
      var hasher = Hasher()
      hasher.combine(tree.nameTable[Int(n.payload)])
      hasher.combine(tree.nodes[Int(tree.resolved(value))].hash)
      return hasher.finalize()
    }
    return n.hash
  }

  private mutating func report(_ change: ArchiveDifference.Change, _ x: Int32?, _ y: Int32?) {
    differences.append(makeDifference(path, change, x, y))
  }

  private mutating func report(at component: Component, _ change: ArchiveDifference.Change, _ x: Int32?, _ y: Int32?) {
    differences.append(makeDifference(Self.text(components + [component]), change, x, y))
  }

  private func makeDifference(
    _ path: String, _ change: ArchiveDifference.Change, _ x: Int32?, _ y: Int32?
  ) -> ArchiveDifference {
    ArchiveDifference(
      path: path, change: change, old: x.map { Self.value(a, $0) }, new: y.map { Self.value(b, $0) })
  }

  /// The typed value at `node`, for a report.
  static func value(_ tree: ComparisonTree, _ node: Int32) -> ArchiveDifference.Value {
    let n = tree.nodes[Int(node)]
    let json = tree.text(node)
    switch n.kind {
    case .null: return .init(kind: .null, json: json)
    case .bool: return .init(kind: .boolean, json: json)
    case .number: return .init(kind: .number, json: json)
    case .string: return .init(kind: .string, json: json)
    case .data: return .init(kind: .data, json: json)
    case .date: return .init(kind: .date, json: json)
    case .foundation:
      return .init(kind: .foundationValue, className: tree.foundationValues[Int(n.payload)].className, json: json)
    case .array: return .init(kind: .collection, json: json)
    case .object: return .init(kind: .dictionary, json: json)
    case .classObject: return .init(kind: .object, className: tree.nameTable[Int(n.payload)], json: json)
    case .reference: return .init(kind: .reference, json: json)
    case .uid, .cycle, .raw: return .init(kind: .other, json: json)
    }
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

extension FoundationValue {
  /// The Foundation class a value of this kind is archived as.
  var className: String {
    switch self {
    case .uuid: FoundationClass.uuid
    case .url: FoundationClass.url
    case .null: FoundationClass.null
    case .value: FoundationClass.value
    case .timeZone: FoundationClass.timeZone
    case .locale: FoundationClass.locale
    case .calendar: FoundationClass.calendar
    case .indexSet: FoundationClass.indexSet
    case .indexPath: FoundationClass.indexPath
    case .dateComponents: FoundationClass.dateComponents
    case .personName: FoundationClass.personNameComponents
    case .measurement: FoundationClass.measurement
    case .characterSet: FoundationClass.characterSet
    }
  }
}

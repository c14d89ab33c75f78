/// `tree-N`: a balanced tree of N nodes (complete, four children per node, in breadth-first order, so the depth of a
/// million nodes is 10); each node has a name drawn from 100 shared strings, an Int and an array of children.
struct TreeInput: BenchmarkInput {
  /// Children per inner node.
  static let branching = 4

  /// The 100 shared names.
  var names: [String]
  /// The nodes; node 0 is the root and the children of node `i` are `4i+1 ... 4i+4`.
  var nodes: [TreeNodeRecord]

  static func generate(count: Int) -> TreeInput {
    precondition(count >= 1, "a tree needs at least its root")
    var random = SplitMix64(seed: 0x5452_4545)
    let names = (0..<100).map { "\(random.word(length: 6))-\($0)" }
    var nodes: [TreeNodeRecord] = []
    nodes.reserveCapacity(count)
    for index in 0..<count {
      let nameIndex = random.int(below: names.count)
      let first = index * branching + 1
      let children = first < count ? Array(first..<min(first + branching, count)) : []
      nodes.append(
        TreeNodeRecord(
          name: names[nameIndex], nameIndex: nameIndex, value: random.int(below: 1_000_000_000), children: children))
    }
    return TreeInput(names: names, nodes: nodes)
  }

  var objectCount: Int { nodes.count }

  /// Builds any twin bottom-up without recursion: `make(record, children)` receives the already built children.
  /// - Returns: the root.
  func build<Node>(_ make: (TreeNodeRecord, [Node]) throws -> Node) rethrows -> Node {
    var built = [Node?](repeating: nil, count: nodes.count)
    for index in nodes.indices.reversed() {
      let record = nodes[index]
      var children: [Node] = []
      children.reserveCapacity(record.children.count)
      for child in record.children {
        if let node = built[child] { children.append(node) }
        built[child] = nil
      }
      built[index] = try make(record, children)
    }
    guard let root = built[0] else { preconditionFailure("TreeInput.build: the root was not built") }
    return root
  }

  /// The sum of all values, to compare with a decoded tree.
  var valueSum: Int { nodes.reduce(0) { $0 &+ $1.value } }

  /// Checks a decoded tree against the input: node count, sum of values, and that names are from the shared set.
  /// - Parameters:
  ///   - root: the decoded root.
  ///   - fields: a node's name, value and children.
  /// - Returns: a description of the first difference, or nil when they match.
  func verify<Node>(_ root: Node, fields: (Node) -> (name: String, value: Int, children: [Node])) -> String? {
    var count = 0
    var sum = 0
    var stack = [root]
    let known = Set(names)
    while let node = stack.popLast() {
      let (name, value, children) = fields(node)
      guard known.contains(name) else { return "node \(count): unknown name \(name)" }
      count += 1
      sum &+= value
      stack.append(contentsOf: children)
    }
    if count != nodes.count { return "expected \(nodes.count) nodes, decoded \(count)" }
    if sum != valueSum { return "the decoded values sum to \(sum), expected \(valueSum)" }
    return nil
  }
}

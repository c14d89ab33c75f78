/// `cycle-N`: a doubly linked list of N nodes (`next` and `previous` point at each other: N-1 two-object cycles);
/// the archive's root is the first node.
struct CycleInput: BenchmarkInput {
  var nodes: [CycleNodeRecord]

  static func generate(count: Int) -> CycleInput {
    precondition(count >= 1, "a list needs at least one node")
    var random = SplitMix64(seed: 0x4359_434C)
    var nodes: [CycleNodeRecord] = []
    nodes.reserveCapacity(count)
    for index in 0..<count {
      nodes.append(CycleNodeRecord(value: random.int(below: 1_000_000_000), label: "n\(index)"))
    }
    return CycleInput(nodes: nodes)
  }

  var objectCount: Int { nodes.count }

  /// Builds any twin: makes every node, then calls `link(previous, next)` for each neighbouring pair.
  /// - Returns: all nodes in list order (the first is the root). Keep the array alive while the list is used: it
  ///   also lets a long list be released without a recursive chain of deinitializers.
  func build<Node>(_ make: (CycleNodeRecord) throws -> Node, link: (Node, Node) -> Void) rethrows -> [Node] {
    let built = try nodes.map(make)
    for index in built.indices.dropFirst() { link(built[index - 1], built[index]) }
    return built
  }

  /// Checks a decoded list by walking it from its first node.
  /// - Parameters:
  ///   - first: the decoded first node.
  ///   - fields: a node's record and neighbours.
  ///   - same: identity of two nodes.
  /// - Returns: a description of the first difference, or nil when they match.
  func verify<Node>(
    first: Node, fields: (Node) -> (record: CycleNodeRecord, previous: Node?, next: Node?), same: (Node, Node) -> Bool
  ) -> String? {
    var node: Node? = first
    var previous: Node?
    var index = 0
    while let current = node {
      guard index < nodes.count else { return "the list is longer than \(nodes.count) nodes" }
      let (record, back, next) = fields(current)
      if record != nodes[index] { return "node \(index) differs: \(record) != \(nodes[index])" }
      switch (back, previous) {
      case (nil, nil): break
      case (let back?, let previous?) where same(back, previous): break
      default: return "node \(index): its previous link does not point at node \(index - 1)"
      }
      previous = current
      node = next
      index += 1
    }
    return index == nodes.count ? nil : "expected \(nodes.count) nodes, the list has \(index)"
  }
}

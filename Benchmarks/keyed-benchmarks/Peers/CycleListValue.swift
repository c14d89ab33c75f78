/// The Codable twin of the `cycle-N` list: what a Codable user has to write for a graph with cycles, numbering the
/// nodes on the way out and relinking them on the way in (both inside the measured time).
struct CycleListValue: Codable {
  /// Every node in list order; it owns the nodes (the links are `next` strong, `previous` weak).
  var nodes: [CycleNode]

  init(nodes: [CycleNode]) { self.nodes = nodes }

  func encode(to encoder: any Encoder) throws {
    var numbers: [ObjectIdentifier: Int] = [:]
    var node = nodes.first
    while let current = node {
      numbers[ObjectIdentifier(current)] = numbers.count
      node = current.next
    }
    var container = encoder.unkeyedContainer()
    node = nodes.first
    while let current = node {
      try container.encode(
        CycleNodeLinks(
          value: current.value, label: current.label,
          previous: current.previous.flatMap { numbers[ObjectIdentifier($0)] },
          next: current.next.flatMap { numbers[ObjectIdentifier($0)] }))
      node = current.next
    }
  }

  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    var links: [CycleNodeLinks] = []
    while !container.isAtEnd { links.append(try container.decode(CycleNodeLinks.self)) }
    let nodes = links.map { CycleNode(CycleNodeRecord(value: $0.value, label: $0.label)) }
    for (node, link) in zip(nodes, links) {
      if let previous = link.previous {
        guard nodes.indices.contains(previous) else {
          throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad previous index \(previous)"))
        }
        node.previous = nodes[previous]
      }
      if let next = link.next {
        guard nodes.indices.contains(next) else {
          throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad next index \(next)"))
        }
        node.next = nodes[next]
      }
    }
    self.nodes = nodes
  }
}

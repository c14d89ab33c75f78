/// The Codable twin of a `tree-N` node.
struct TreeNodeValue: Codable {
  var name: String
  var value: Int
  var children: [TreeNodeValue]

  init(_ record: TreeNodeRecord, children: [TreeNodeValue]) {
    name = record.name
    value = record.value
    self.children = children
  }
}

/// A node of the doubly linked `cycle-N` list as a Swift program holds it (the Codable peers encode this graph
/// through ``CycleListValue``).
final class CycleNode {
  let value: Int
  let label: String
  weak var previous: CycleNode?
  var next: CycleNode?

  init(_ record: CycleNodeRecord) {
    value = record.value
    label = record.label
  }

  var record: CycleNodeRecord { CycleNodeRecord(value: value, label: label) }
}

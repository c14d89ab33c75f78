/// One node of ``CycleListValue``'s wire form: Codable cannot encode a cycle, so its links become indices.
struct CycleNodeLinks: Codable {
  var value: Int
  var label: String
  var previous: Int?
  var next: Int?
}

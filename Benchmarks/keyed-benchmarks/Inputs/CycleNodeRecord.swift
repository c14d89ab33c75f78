/// The fields of one node of the `cycle-N` input (the links are implicit: node `i` is between `i-1` and `i+1`).
struct CycleNodeRecord: Equatable {
  /// The keys every keyed twin writes.
  enum Key {
    static let value = "value"
    static let label = "label"
    static let previous = "previous"
    static let next = "next"
  }

  var value: Int
  var label: String
}

/// A generated benchmark input: plain field values, deterministic for a given size, built before any clock starts.
///
/// Every twin (NSCoding, Codable, ours) is built from the same input, so all sides encode the same values.
protocol BenchmarkInput {
  /// Builds the input of the given size from the input's fixed seed.
  static func generate(count: Int) -> Self
  /// Model objects handled by one operation (the unit of "objects/s").
  var objectCount: Int { get }
  /// How many times one measured run repeats the operation: 1, except for `small`.
  var repetitions: Int { get }
}

extension BenchmarkInput {
  var repetitions: Int { 1 }
}

/// `small`: one 10-field object, encoded or decoded `repetitions` times per measured run (100,000 in the full suite).
struct SmallInput: BenchmarkInput {
  var record: SmallRecord
  var repetitions: Int

  /// - Parameter count: the number of repetitions.
  static func generate(count: Int) -> SmallInput {
    var random = SplitMix64(seed: 0x534D_414C)
    let record = SmallRecord(
      identifier: random.mixedWidthInt(), name: random.word(length: 10), score: random.unitDouble() * 100,
      enabled: true, payload: random.data(count: 16), count: random.int(below: 10_000), ratio: random.unitDouble(),
      visible: false, title: "Title " + random.word(length: 12), flags: random.int(below: 1 << 16))
    return SmallInput(record: record, repetitions: count)
  }

  var objectCount: Int { 1 }

  /// Checks one decoded object.
  /// - Returns: a description of the difference, or nil when it matches.
  func verify(_ decoded: SmallRecord) -> String? {
    decoded == record ? nil : "decoded \(decoded), expected \(record)"
  }
}

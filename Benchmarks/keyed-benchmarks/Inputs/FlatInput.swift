import Foundation

/// `flat-N`: an array of N objects, each with an Int, a Double, a Bool, a unique short String and 16 bytes of Data.
struct FlatInput: BenchmarkInput {
  var records: [FlatRecord]

  static func generate(count: Int) -> FlatInput {
    var random = SplitMix64(seed: 0x464C_4154)
    var records: [FlatRecord] = []
    records.reserveCapacity(count)
    for index in 0..<count {
      records.append(
        FlatRecord(
          int: random.mixedWidthInt(),
          double: (random.unitDouble() - 0.5) * 1e6,
          bool: random.bool(),
          string: random.word(length: 5) + String(index, radix: 36),
          data: random.data(count: 16)))
    }
    return FlatInput(records: records)
  }

  var objectCount: Int { records.count }

  /// Builds one twin per record, in order.
  func build<Item>(_ make: (FlatRecord) throws -> Item) rethrows -> [Item] {
    try records.map(make)
  }

  /// Checks a decoded array against the input: the count, and every field of a sample of items.
  /// - Returns: a description of the first difference, or nil when they match.
  func verify<Item>(_ decoded: [Item], record: (Item) -> FlatRecord) -> String? {
    guard decoded.count == records.count else {
      return "expected \(records.count) objects, decoded \(decoded.count)"
    }
    for index in Self.sampleIndices(count: records.count) where record(decoded[index]) != records[index] {
      return "object \(index) differs: \(record(decoded[index])) != \(records[index])"
    }
    return nil
  }

  /// A few indices spread over `0..<count` (first, last and some between).
  static func sampleIndices(count: Int) -> [Int] {
    guard count > 0 else { return [] }
    return Array(Set([0, count / 7, count / 3, count / 2, count - 1]).sorted())
  }
}

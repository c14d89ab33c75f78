import Foundation
import KeyedArchive
import Testing

/// ARC-021 for the Codable bridge: a Swift dictionary's entries are written in key order, not its iteration order.
@Suite("Codable dictionary order")
struct CodableDictionaryOrderTests {
  /// The same entries in two dictionaries of different capacity, which iterate in different orders.
  private func twins<Key: Hashable, Value>(_ entries: [(Key, Value)]) -> ([Key: Value], [Key: Value]) {
    var small: [Key: Value] = [:]
    for (key, value) in entries { small[key] = value }
    var large: [Key: Value] = [:]
    large.reserveCapacity(entries.count * 64)
    for (key, value) in entries.reversed() { large[key] = value }
    return (small, large)
  }

  private struct Model: Codable, Equatable {
    var names: [String: Int]
    var numbers: [Int: String]
    var nested: [String: [String: Double]]
  }

  @Test("ARC-021: equal dictionaries with different iteration orders encode to the same bytes and decode back")
  func sameBytes() throws {
    let (names, names2) = twins((0..<300).map { ("key \($0) é", $0 - 150) })
    let (numbers, numbers2) = twins((0..<300).map { ($0 * 7919 % 1000 - 500, "v\($0)") })
    let (inner, inner2) = twins((0..<40).map { ("x\($0)", Double($0) / 3) })
    // The test means something only if the iteration orders differ.
    #expect(Array(names.keys) != Array(names2.keys))
    #expect(Array(numbers.keys) != Array(numbers2.keys))
    let one = Model(names: names, numbers: numbers, nested: ["a": inner, "b": inner2])
    let two = Model(names: names2, numbers: numbers2, nested: ["a": inner2, "b": inner])
    let first = try KeyedArchiveEncoder().encode(one)
    let second = try KeyedArchiveEncoder().encode(two)
    #expect(first == second)
    #expect(try KeyedArchiveDecoder().decode(Model.self, from: first) == one)
  }

  @Test("ARC-021: a dictionary's archive keys are the ones Dictionary.encode(to:) uses, in key order")
  func keysAndOrder() throws {
    let data = try KeyedArchiveEncoder(outputFormat: .xml).encode([10: "ten", -2: "minus two", 3: "three"])
    let text = try #require(String(data: data, encoding: .utf8))
    let positions = ["<string>-2</string>", "<string>3</string>", "<string>10</string>"].map {
      text.range(of: $0)?.lowerBound
    }
    let found = positions.compactMap { $0 }
    #expect(found.count == 3)
    #expect(found == found.sorted())
    let back = try KeyedArchiveDecoder().decode([Int: String].self, from: data)
    #expect(back == [10: "ten", -2: "minus two", 3: "three"])
    let strings = try KeyedArchiveDecoder().decode(
      [String: Int].self, from: KeyedArchiveEncoder().encode(["b": 2, "a": 1, "10": 10]))
    #expect(strings == ["b": 2, "a": 1, "10": 10])
  }
}

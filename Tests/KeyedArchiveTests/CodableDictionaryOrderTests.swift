import ArchiveCoding
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

  private enum Shade: String, Codable, CodingKeyRepresentable, Hashable {
    case red, green, blue, cyan, magenta, yellow, black, white
  }

  /// Neither `Comparable` nor `CodingKeyRepresentable`: ordered by each key's archive bytes.
  private struct Cell: Codable, Hashable {
    var row: Int
    var column: Int
  }

  private struct KeyedModels: Codable, Equatable {
    var byID: [UUID: Int]
    var byShade: [Shade: String]
    var byCell: [Cell: Double]
    var byDate: [Date: Bool]
  }

  @Test("ARC-021: dictionaries keyed by UUIDs, enums, structs and dates also encode to the same bytes in every order")
  func otherKeyTypes() throws {
    let ids = (0..<200).map { UUID(uuid: (UInt8($0), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(255 - $0))) }
    let (byID, byID2) = twins(ids.enumerated().map { ($1, $0) })
    let shades: [Shade] = [.red, .green, .blue, .cyan, .magenta, .yellow, .black, .white]
    let (byShade, byShade2) = twins(shades.map { ($0, $0.rawValue.uppercased()) })
    let (byCell, byCell2) = twins((0..<150).map { (Cell(row: $0 % 13, column: $0 / 13), Double($0) / 4) })
    let (byDate, byDate2) = twins(
      (0..<100).map { (Date(timeIntervalSinceReferenceDate: Double($0 * 86_400)), $0 % 3 == 0) })
    #expect(Array(byID.keys) != Array(byID2.keys))
    #expect(Array(byCell.keys) != Array(byCell2.keys))
    #expect(Array(byDate.keys) != Array(byDate2.keys))
    let one = KeyedModels(byID: byID, byShade: byShade, byCell: byCell, byDate: byDate)
    let two = KeyedModels(byID: byID2, byShade: byShade2, byCell: byCell2, byDate: byDate2)
    let first = try KeyedArchiveEncoder().encode(one)
    #expect(first == (try KeyedArchiveEncoder().encode(two)))
    // Read back by Dictionary.init(from:): the containers are the ones Dictionary.encode(to:) writes.
    #expect(try KeyedArchiveDecoder().decode(KeyedModels.self, from: first) == one)
  }

  /// A class-type key whose dictionary leads back to it.
  private final class Node: Hashable, Encodable {
    var next: [Node: Int] = [:]
    static func == (a: Node, b: Node) -> Bool { a === b }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
  }

  @Test("ARC-021: a class-type key that leads back to its own dictionary is encoded by the one encoder, not again")
  func classKeyCycle() throws {
    let node = Node()
    node.next[node] = 1
    // Ordering the keys must not encode each one with an encoder of its own, which would recurse without end here.
    let outcome = Result { try KeyedArchiveEncoder().encode(node) }
    let plain = Result { try KeyedArchiveEncoder().encode(Node()) }
    #expect((try? plain.get()) != nil)
    switch outcome {
    case .success(let data): #expect(!data.isEmpty)
    case .failure(let error): #expect(error is EncodingError || error is ArchiveError, "\(error)")
    }
  }
}

import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

@Suite("Codable encoder: shared numbers")
struct CodableNumberSharingTests {
  /// The `$objects` UIDs of the elements of the root array.
  private func elementUIDs(_ data: Data) throws -> [UInt64] {
    let objects = try archiveObjects(data)
    guard case .dictionary(let archive) = try PropertyListReader.read(data),
      case .dictionary(let top)? = archive["$top"], case .uid(let root)? = top["root"], root < objects.count
    else {
      Issue.record("no root")
      return []
    }
    return objectUIDs(objects[Int(root)])
  }

  @Test("ARC-022: equal integers share one entry; 0, Int64.min and Int64.max stay apart")
  func integers() throws {
    let values: [Int64] = [0, Int64.min, 0, Int64.max, -1, Int64.min, -1, 1]
    let uids = try elementUIDs(try KeyedArchiveEncoder().encode(values))
    try #require(uids.count == values.count)
    for i in values.indices {
      for j in values.indices {
        #expect((uids[i] == uids[j]) == (values[i] == values[j]), "elements \(i) and \(j)")
      }
    }
  }

  @Test("ARC-022: equal doubles share one entry by bit pattern: 0.0 and -0.0 stay apart, a NaN is shared")
  func reals() throws {
    let values: [Double] = [0.0, -0.0, 1.5, 0.0, -0.0, .nan, 1.5, .nan, .infinity]
    let uids = try elementUIDs(try KeyedArchiveEncoder().encode(values))
    try #require(uids.count == values.count)
    for i in values.indices {
      for j in values.indices {
        let same = values[i].bitPattern == values[j].bitPattern
        #expect((uids[i] == uids[j]) == same, "elements \(i) and \(j)")
      }
    }
  }

  @Test("ARC-022: an integer and a double of equal value, and false and 0, are separate entries")
  func typesStayApart() throws {
    struct Mixed: Encodable {
      var zero = 0
      var real = 0.0
      var flag = false
      var one = 1
      var oneReal = 1.0
      var yes = true
    }
    let objects = try archiveObjects(try KeyedArchiveEncoder().encode(Mixed()))
    // "$null", the dictionary, six values and six keys, and the dictionary's class.
    #expect(objects.count == 1 + 1 + 6 + 6 + 1)
  }
}

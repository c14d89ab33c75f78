import ArchiveCoding
import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// Objects of a binary property list own their bytes: aliases of one payload are refused, shared references to one
/// object are materialised once.
@Suite("Objects own their bytes")
struct DisjointObjectsTests {
  /// `[data, 7]`: object 1 is 64 bytes of data whose payload starts with the bytes of a 3-byte data object.
  static let payload: [UInt8] = [0x4F, 0x10, 64, 0x43, 1, 2, 3] + [UInt8](repeating: 0xAB, count: 60)

  /// Sets offset-table entry `entry` (1-byte offsets) of a list made by `bplist` to `offset`.
  static func patchOffset(_ bytes: inout [UInt8], objects: Int, entry: Int, to offset: Int) {
    let table = bytes.count - 32 - objects
    bytes[table + entry] = UInt8(offset)
  }

  @Test("ARC-007: two offset-table entries with one offset are refused, naming both objects")
  func sameOffsetRefused() {
    var bytes = bplist([[0xA2, 1, 2], Self.payload, [0x10, 7]])
    Self.patchOffset(&bytes, objects: 3, entry: 2, to: 11)  // object 2 → object 1's marker
    expectFailure(bytes, .corruptData, containing: "object 2 starts at 11, inside object 1")
  }

  @Test("ARC-007: an object that starts inside another's payload is refused, whatever the table order")
  func objectInsidePayloadRefused() {
    // Object 1's payload starts at 14; a well-formed 3-byte data object sits at 14 inside it.
    var bytes = bplist([[0xA2, 1, 2], Self.payload, [0x10, 7]])
    Self.patchOffset(&bytes, objects: 3, entry: 2, to: 14)
    expectFailure(bytes, .corruptData, containing: "object 2 starts at 14, inside object 1 (bytes 11..<78)")
    // The same alias listed before the object it lies in: the table is out of byte order. The extents (3 + 4 +
    // 67 bytes) exceed the 72-byte object area, which only shared bytes allow.
    var reordered = bplist([[0xA2, 1, 2], [0x10, 7], Self.payload])
    Self.patchOffset(&reordered, objects: 3, entry: 1, to: 16)
    expectFailure(reordered, .corruptData, containing: "object 1 starts at 16, inside object 2 (bytes 13..<80)")
  }

  @Test("ARC-007: an offset table out of byte order is accepted when its objects are disjoint")
  func outOfOrderDisjointAccepted() throws {
    // The array, "ab" at 11 and 7 at 14 in the bytes; the table lists 7 as object 1 and "ab" as object 2.
    var bytes = bplist([[0xA2, 2, 1], [0x52, 0x61, 0x62], [0x10, 7]])
    Self.patchOffset(&bytes, objects: 3, entry: 1, to: 14)
    Self.patchOffset(&bytes, objects: 3, entry: 2, to: 11)
    #expect(try PropertyListReader.read(Data(bytes)) == ["ab", 7])
  }

  /// Sets offset-table entry `entry` of a list made by `bplist` with `width`-byte offsets to `offset`.
  static func patchOffset(_ bytes: inout [UInt8], objects: Int, width: Int, entry: Int, to offset: Int) {
    let table = bytes.count - 32 - objects * width
    for i in 0..<width {
      bytes[table + entry * width + i] = UInt8(truncatingIfNeeded: offset >> (8 * (width - 1 - i)))
    }
  }

  /// The error reading `bytes` gives with both validations (`nil` when it reads), the same for both.
  static func errors(_ bytes: [UInt8]) -> (full: ArchiveError?, onAccess: ArchiveError?) {
    func error(_ validation: BinaryPropertyListReader.Validation) -> ArchiveError? {
      do {
        _ = try BinaryPropertyListReader(bytes: bytes, validation: validation)
        return nil
      } catch {
        return error as? ArchiveError ?? ArchiveError(.other, "\(error)")
      }
    }
    return (error(.full), error(.onAccess))
  }

  @Test("ARC-007: overlaps are found and disjoint tables accepted with offsets of every width", arguments: 1...8)
  func everyOffsetWidth(width: Int) throws {
    let size = UInt8(width)
    // Disjoint, in byte order and out of it.
    let plain = bplist([[0xA2, 1, 2], Self.payload, [0x10, 7]], offsetSize: size)
    #expect(Self.errors(plain).full == nil && Self.errors(plain).onAccess == nil)
    var swapped = bplist([[0xA2, 2, 1], [0x52, 0x61, 0x62], [0x10, 7]], offsetSize: size)
    Self.patchOffset(&swapped, objects: 3, width: width, entry: 1, to: 14)
    Self.patchOffset(&swapped, objects: 3, width: width, entry: 2, to: 11)
    #expect(Self.errors(swapped).full == nil && Self.errors(swapped).onAccess == nil)
    #expect(try PropertyListReader.read(Data(swapped)) == ["ab", 7])
    // An alias into a payload, in byte order and out of it.
    var inside = plain
    Self.patchOffset(&inside, objects: 3, width: width, entry: 2, to: 14)
    var reordered = bplist([[0xA2, 1, 2], [0x10, 7], Self.payload], offsetSize: size)
    Self.patchOffset(&reordered, objects: 3, width: width, entry: 1, to: 16)
    // An offset outside the object area.
    var outside = plain
    Self.patchOffset(&outside, objects: 3, width: width, entry: 1, to: 4)
    let refused = [
      (inside, "object 2 starts at 14, inside object 1 (bytes 11..<78)"),
      (reordered, "object 1 starts at 16, inside object 2 (bytes 13..<80)"),
      (outside, "object 1 starts at 4, outside the object area"),
    ]
    for (bytes, fragment) in refused {
      let (full, onAccess) = Self.errors(bytes)
      for error in [full, onAccess] {
        #expect(error?.code == .corruptData, "\(fragment): \(String(describing: error))")
        #expect(error?.message.contains(fragment) == true, "\(fragment): \(String(describing: error))")
      }
    }
  }

  /// The outcome of reading `bytes` with both validations: `nil` when it reads, else the error's code and message.
  static func outcome(_ bytes: [UInt8]) -> [String?] {
    let (full, onAccess) = errors(bytes)
    return [full, onAccess].map { $0.map { "\($0.code): \($0.message)" } }
  }

  @Test(
    "ARC-007: the in-order fast pass (offsets of 1, 2, 4 or 8 bytes) accepts and refuses exactly as the general pass (3-byte offsets)",
    arguments: [1, 2, 4, 8])
  func fastPassMatchesGeneralPass(width: Int) {
    // Lists in byte order and out of it, with a long-form object (the 64 bytes of data) and a dictionary.
    let lists: [[[UInt8]]] = [
      [[0xA2, 1, 2], Self.payload, [0x10, 7]],
      [[0xA2, 2, 1], [0x10, 7], Self.payload],
      [[0xD1, 1, 2], [0x52, 0x61, 0x62], [0x23, 0x40, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18], [0x09]],
      // A container in the long length form (15 elements).
      [[0xAF, 0x10, 15] + (1...15).map { UInt8($0) }] + (1...15).map { [0x10, UInt8($0)] },
    ]
    var compared = 0
    for objects in lists {
      let fast = bplist(objects, offsetSize: UInt8(width))
      let general = bplist(objects, offsetSize: 3)
      let area = fast.count - 32 - objects.count * width
      // Each entry moved to every offset, and each object's marker replaced by every byte.
      var cases: [(inout [UInt8], Int) -> Void] = []
      for entry in objects.indices {
        // Far offsets too, where both widths hold them.
        let far = [area + 100, 0xFFFF, 0xFF_FFFF].filter { $0 < 1 << (8 * min(width, 3)) }
        for offset in Array(0...(area + 1)) + far {
          cases.append { bytes, width in
            Self.patchOffset(&bytes, objects: objects.count, width: width, entry: entry, to: offset)
          }
        }
      }
      let starts = objects.indices.map { i in 8 + objects[..<i].reduce(0) { $0 + $1.count } }
      for start in starts {
        for marker in 0...255 { cases.append { bytes, _ in bytes[start] = UInt8(marker) } }
      }
      for mutate in cases {
        var a = fast
        var b = general
        mutate(&a, width)
        mutate(&b, 3)
        let (fastOutcome, generalOutcome) = (Self.outcome(a), Self.outcome(b))
        #expect(fastOutcome == generalOutcome, "\(a)")
        compared += 1
      }
    }
    #expect(compared > 1_000)
    // An offset that does not fit an `Int` (8-byte entries only) is outside the object area, for both passes.
    if width == 8 {
      var bytes = bplist(lists[0], offsetSize: 8)
      Self.patchOffset(&bytes, objects: lists[0].count, width: 8, entry: 1, to: Int.min + 11)
      for error in Self.outcome(bytes) {
        #expect(error?.contains("outside the object area") == true, "\(String(describing: error))")
      }
    }
  }

  @Test("ARC-007: many references to one large data object materialise it once, in one shared storage")
  func sharedPayloadMaterialisedOnce() throws {
    // An array of 1,000 references to one 1 MiB data object: 1 GiB if each reference copied it.
    let count = 1_000
    let size = 1 << 20
    let array: [UInt8] = [0xAF, 0x11] + [UInt8(count >> 8), UInt8(count & 0xFF)] + [UInt8](repeating: 1, count: count)
    let data: [UInt8] = [0x4F, 0x12] + [0, 0x10, 0, 0] + [UInt8](repeating: 0xCD, count: size)
    let bytes = bplist([array, data], offsetSize: 4)
    let value = try PropertyListReader.read(Data(bytes))
    let elements = try #require(value.arrayValue)
    #expect(elements.count == count)
    let payloads = elements.compactMap { element -> Data? in
      if case .data(let data) = element { return data }
      return nil
    }
    #expect(payloads.count == count)
    let addresses = Set(payloads.map { $0.withUnsafeBytes { Int(bitPattern: $0.baseAddress) } })
    #expect(addresses.count == 1, "the elements have \(addresses.count) distinct storages")
    #expect(payloads.first == Data(repeating: 0xCD, count: size))
  }
}

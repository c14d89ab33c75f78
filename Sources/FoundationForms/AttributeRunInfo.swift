import ArchiveCoding
import Foundation

/// `NSAttributeInfo`: the runs of an attributed string as pairs (run length in UTF-16 units, index into the
/// `NSAttributes` array), each number a base-128 varint (7 bits per byte, least significant group first, high bit
/// set on every byte but the last).
package enum AttributeRunInfo {
  /// One run: its length in UTF-16 units and the index of its attribute dictionary.
  package struct Run: Equatable, Sendable {
    package var length: Int
    package var index: Int

    package init(length: Int, index: Int) {
      self.length = length
      self.index = index
    }
  }

  package static func encode(_ runs: [Run]) -> Data {
    var bytes = Data()
    for run in runs {
      append(UInt64(run.length), to: &bytes)
      append(UInt64(run.index), to: &bytes)
    }
    return bytes
  }

  private static func append(_ value: UInt64, to bytes: inout Data) {
    var rest = value
    repeat {
      let group = UInt8(rest & 0x7F)
      rest >>= 7
      bytes.append(rest == 0 ? group : group | 0x80)
    } while rest != 0
  }

  /// Decodes the runs; a truncated varint, a number past `Int.max` or an odd count of numbers is corrupt data.
  package static func decode(_ data: Data) throws -> [Run] {
    var numbers: [Int] = []
    var current: UInt64 = 0
    var shift: UInt64 = 0
    var open = false
    for byte in data {
      // 9 full groups fill 63 bits; a tenth would shift past Int.max.
      guard shift <= 56 else {
        throw ArchiveError(
          .corruptData, "\(FoundationKeys.attributeInfo) holds a number longer than 63 bits",
          at: .init(keyPath: FoundationKeys.attributeInfo))
      }
      current |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 != 0 {
        shift += 7
        open = true
      } else {
        numbers.append(Int(current))
        current = 0
        shift = 0
        open = false
      }
    }
    guard !open, numbers.count % 2 == 0 else {
      throw ArchiveError(
        .corruptData, "\(FoundationKeys.attributeInfo) ends in the middle of a run",
        at: .init(keyPath: FoundationKeys.attributeInfo))
    }
    return stride(from: 0, to: numbers.count, by: 2).map { Run(length: numbers[$0], index: numbers[$0 + 1]) }
  }
}

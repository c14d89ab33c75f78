// libFuzzer target: a binary property list compared by meaning (ArchiveComparison) with a copy of its bytes, and
// with the same list whose offset table is rewritten at 8 bytes an entry (stored alike in other bytes, ARC-315),
// both ways. Each comparison must give what comparing the two inputs' trees gives (ARC-314): the same differences or
// the same error; a difference stops the run.
import ArchiveComparison
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoredAlike(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  var bytes = Data(UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
  // Every input goes to the binary reader: inputs without the magic get it prepended.
  if !bytes.starts(with: Array("bplist0".utf8)) { bytes = Data("bplist00".utf8) + bytes }
  var pairs = [(bytes, Data(Array(bytes)))]
  if let widened = widened([UInt8](bytes)) { pairs += [(bytes, widened), (widened, bytes)] }
  for (a, b) in pairs {
    let compared = outcome { try ArchiveComparison.differences(between: a, and: b) }
    let twoTrees = outcome {
      let first = try ComparedDocument(data: a, fileName: "A")
      return try ArchiveComparison.differences(
        between: first, and: ComparedDocument(data: b, fileName: "B", comparedWith: { first }))
    }
    guard compared == twoTrees else { fatalError("compared: \(compared)\ntwo trees: \(twoTrees)") }
  }
  return 0
}

/// What a comparison gives: its differences, or its error.
func outcome(_ compare: () throws -> [ArchiveDifference]) -> String {
  do {
    return "differences: " + (try compare()).map { "\($0)" }.joined(separator: "; ")
  } catch {
    return "error: \(error)"
  }
}

/// `bytes` with the offset table its trailer names rewritten at 8 bytes an entry; `nil` when the trailer names no
/// table inside the bytes, or one of 8-byte entries already.
func widened(_ bytes: [UInt8]) -> Data? {
  guard bytes.count >= 40 else { return nil }
  let trailer = Array(bytes.suffix(32))
  func number(_ at: Int, _ width: Int) -> UInt64 { trailer[at..<(at + width)].reduce(0) { $0 << 8 | UInt64($1) } }
  let (width, count, table) = (Int(number(6, 1)), number(8, 8), number(24, 8))
  let tableEnd = bytes.count - 32
  guard [1, 2, 4].contains(width), table >= 8, table <= UInt64(tableEnd), count <= UInt64(tableEnd) / UInt64(width),
    Int(table) + Int(count) * width <= tableEnd
  else { return nil }
  var out = Array(bytes[0..<Int(table)])
  for index in 0..<Int(count) {
    let entry = bytes[(Int(table) + index * width)..<(Int(table) + (index + 1) * width)].reduce(UInt64(0)) {
      $0 << 8 | UInt64($1)
    }
    out += (0..<8).map { UInt8(truncatingIfNeeded: entry >> (8 * UInt64(7 - $0))) }
  }
  out += trailer[0..<6] + [8] + trailer[7..<32]
  return Data(out)
}

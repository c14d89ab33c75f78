import ArchiveComparison
import Foundation
import KeyedArchive

/// `ArchiveComparison.compare…flat-N`: a document compared by meaning (ARC-300) with a second input, against
/// decoding both sides with the unarchiver (PERF-040): a copy of its bytes (the target), the same archive stored
/// alike in other bytes (ARC-315), and a copy with one field changed (the comparison of two trees, ARC-314).
enum CompareCases {
  /// The second input of a case.
  enum Second: String, CaseIterable {
    /// Another buffer with the same bytes, as two files are.
    case copy = "compare"
    /// The same objects with the offset table rewritten at 8 bytes an entry: stored alike, other bytes.
    case storedAlike = "compareStoredAlike"
    /// One object's string changed.
    case changed = "compareChanged"

    var summary: String {
      switch self {
      case .copy: "with a copy of its bytes"
      case .storedAlike: "with the same archive, its offset table 8 bytes an entry"
      case .changed: "with a copy whose middle object has another string"
      }
    }

    /// The second input for `first`, the archive of `items`.
    func input(_ first: Data, _ items: [OurFlatItem]) throws -> Data {
      switch self {
      case .copy: return Data(Array(first))
      case .storedAlike: return CompareCases.widened([UInt8](first))
      case .changed:
        let middle = items[items.count / 2]
        let original = middle.record.string
        defer { middle.record.string = original }
        middle.record.string += " (changed)"
        return try KeyedArchiver.archivedData(withRootObject: items)
      }
    }
  }

  /// `bytes` (a binary list) with its offset table rewritten at 8 bytes an entry: the same objects at the same
  /// places, other bytes.
  static func widened(_ bytes: [UInt8]) -> Data {
    let trailer = Array(bytes.suffix(32))
    func number(_ at: Int, _ width: Int) -> Int { trailer[at..<(at + width)].reduce(0) { $0 << 8 | Int($1) } }
    let (width, count, table) = (number(6, 1), number(8, 8), number(24, 8))
    var out = Array(bytes[0..<table])
    for index in 0..<count {
      let entry = bytes[(table + index * width)..<(table + (index + 1) * width)].reduce(UInt64(0)) {
        $0 << 8 | UInt64($1)
      }
      out += (0..<8).map { UInt8(truncatingIfNeeded: entry >> (8 * UInt64(7 - $0))) }
    }
    out += trailer[0..<6] + [8] + trailer[7..<32]
    return Data(out)
  }

  static func cases(n: Int) -> [BenchmarkCase] {
    let input = "flat-\(Units.sizeLabel(n))"
    OurModels.registered
    let archive: (FlatInput) throws -> (Data, [OurFlatItem]) = { input in
      let items = input.build(OurFlatItem.init)
      return (try KeyedArchiver.archivedData(withRootObject: items), items)
    }
    let decodeBoth = Side(label: "decode both sides") { n, inputs in
      let input: FlatInput = inputs.input(count: n)
      let (first, _) = try archive(input)
      let second = Data(Array(first))
      func decode(_ data: Data) throws -> [OurFlatItem] {
        try KeyedUnarchiver.unarchivedObject(ofClass: [OurFlatItem].self, from: data) ?? []
      }
      return PreparedRun(
        objects: input.objectCount, operations: 1,
        warmUp: { (first.count, input.verify(try decode(second)) { $0.record }) },
        run: {
          Blackhole.consume(try decode(first))
          Blackhole.consume(try decode(second))
        })
    }
    return Second.allCases.map { kind in
      let ours = Side(label: "ArchiveComparison") { n, inputs in
        let input: FlatInput = inputs.input(count: n)
        let (first, items) = try archive(input)
        let second = try kind.input(first, items)
        return PreparedRun(
          objects: input.objectCount, operations: 1,
          warmUp: {
            let differences = try ArchiveComparison.differences(between: first, and: second)
            let expected = kind == .changed ? 1 : 0
            return (
              first.count,
              differences.count == expected ? nil : "expected \(expected) differences, found \(differences.count)"
            )
          },
          run: { Blackhole.consume(try ArchiveComparison.differences(between: first, and: second)) })
      }
      return BenchmarkCase(
        name: "ArchiveComparison.\(kind.rawValue).\(input)", n: n, group: input,
        summary: "compare an archive of objects (Int, Double, Bool, unique String, 16 bytes of Data) \(kind.summary)",
        ours: ours.with(role: .ours), peers: [decodeBoth], floor: nil,
        notes: [
          "decode both sides: KeyedUnarchiver decoding the two archives into the model's objects; PERF-040's "
            + (kind == .copy
              ? "target is a speed-up of at least 0.67 (the comparison at most 1.5 times that), reported, not judged"
              : "target is for a copy; this case is reported for what other inputs cost")
        ])
    }
  }
}

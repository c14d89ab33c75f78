import ArchiveComparison
import Foundation
import KeyedArchive

/// `ArchiveComparison.compare.flat-N`: a document compared with itself by meaning (ARC-300), against decoding both
/// sides with the unarchiver (PERF-040).
enum CompareCases {
  static func cases(n: Int) -> [BenchmarkCase] {
    let input = "flat-\(Units.sizeLabel(n))"
    OurModels.registered
    let archive: (FlatInput) throws -> Data = { input in
      try KeyedArchiver.archivedData(withRootObject: input.build(OurFlatItem.init))
    }
    let ours = Side(label: "ArchiveComparison") { n, inputs in
      let input: FlatInput = inputs.input(count: n)
      let first = try archive(input)
      // The second side is another buffer with the same bytes, as two files are.
      let second = Data(Array(first))
      return PreparedRun(
        objects: input.objectCount, operations: 1,
        warmUp: {
          let differences = try ArchiveComparison.differences(between: first, and: second)
          return (first.count, differences.isEmpty ? nil : "a document differs from itself: \(differences[0])")
        },
        run: { Blackhole.consume(try ArchiveComparison.differences(between: first, and: second)) })
    }
    let decodeBoth = Side(label: "decode both sides") { n, inputs in
      let input: FlatInput = inputs.input(count: n)
      let first = try archive(input)
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
    return [
      BenchmarkCase(
        name: "ArchiveComparison.compare.\(input)", n: n, group: input,
        summary: "compare an archive of objects (Int, Double, Bool, unique String, 16 bytes of Data) with itself",
        ours: ours.with(role: .ours), peers: [decodeBoth], floor: nil,
        notes: [
          "decode both sides: KeyedUnarchiver decoding the two archives into the model's objects; PERF-040's "
            + "target is a speed-up of at least 0.67 (the comparison at most 1.5 times that), reported, not judged"
        ])
    ]
  }
}

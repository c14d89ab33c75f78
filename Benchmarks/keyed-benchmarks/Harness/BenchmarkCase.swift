import Foundation

/// One benchmark: an operation on an input of one size, with ours, the peers and (for decoding) the bare-walk floor.
struct BenchmarkCase {
  /// `Area.operation.input`, such as `KeyedArchive.decode.flat-100k`.
  var name: String
  /// The case's size: objects in the input (for `small`, repetitions of the one-object operation).
  var n: Int
  /// Cases of one group share generated inputs (the encode and decode cases of one input and size).
  var group: String
  /// What is measured, in one line.
  var summary: String
  /// Our side; nil while ours is pending.
  var ours: Side?
  var peers: [Side]
  /// The bare walk, for decoding cases.
  var floor: Side?
  /// Anything a reader must know to read the numbers.
  var notes: [String] = []

  /// The side a child or profile run names: ours, or the peer labelled `peer` (the first peer when `nil`).
  func side(_ role: Side.Role, peer: String?) -> Side? {
    switch role {
    case .ours: ours
    case .peer, .floor: peers.first { peer == nil || $0.label == peer }
    }
  }

  /// A decoding case whose floor walks ours's archive when ours exists, else the `fallback` bytes.
  static func decoding<Input: BenchmarkInput>(
    name: String, n: Int, group: String, summary: String, input: Input.Type, ours: Side?, peers: [Side],
    fallback: (source: String, archive: (Input) throws -> Data), notes: [String] = []
  ) -> BenchmarkCase {
    let floor: Side
    if let oursArchive = ours?.archive {
      floor = .bareWalk(of: "ours", input, archive: oursArchive)
    } else {
      let archive = fallback.archive
      floor = .bareWalk(of: fallback.source, input) { n, inputs in try archive(inputs.input(count: n)) }
    }
    return BenchmarkCase(
      name: name, n: n, group: group, summary: summary, ours: ours?.with(role: .ours), peers: peers, floor: floor,
      notes: notes)
  }

  /// An encoding case.
  static func encoding(
    name: String, n: Int, group: String, summary: String, ours: Side?, peers: [Side], notes: [String] = []
  ) -> BenchmarkCase {
    BenchmarkCase(
      name: name, n: n, group: group, summary: summary, ours: ours?.with(role: .ours), peers: peers, floor: nil,
      notes: notes)
  }
}

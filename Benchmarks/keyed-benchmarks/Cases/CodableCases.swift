import Foundation
import KeyedArchive

/// `Codable.encode.flat-N` and `Codable.decode.flat-N`: the `flat-N` model as Codable structs through our
/// `KeyedArchiveEncoder` / `KeyedArchiveDecoder`, beside `PropertyListEncoder`/`Decoder` and `JSONEncoder`/`Decoder`
/// on the same values.
enum CodableCases {
  static func cases(n: Int) -> [BenchmarkCase] {
    let input = "flat-\(Units.sizeLabel(n))"
    let values: (FlatInput) -> [FlatItemValue] = { $0.build(FlatItemValue.init) }
    let encoder = KeyedArchiveEncoder()
    let decoder = KeyedArchiveDecoder()
    return [
      .encoding(
        name: "Codable.encode.\(input)", n: n, group: "codable-\(input)",
        summary: "encode the flat model as Codable structs into a keyed archive",
        ours: .encoding("KeyedArchiveEncoder", FlatInput.self, build: values, encode: { try encoder.encode($0) }),
        peers: PeerSides.codableEncoders(FlatInput.self, build: values)),
      .decoding(
        name: "Codable.decode.\(input)", n: n, group: "codable-\(input)",
        summary: "decode the flat model as Codable structs from a keyed archive",
        input: FlatInput.self,
        ours: .decoding(
          "KeyedArchiveDecoder", FlatInput.self, archive: { try encoder.encode(values($0)) },
          decode: { try decoder.decode([FlatItemValue].self, from: $0) },
          check: { items, input in input.verify(items, record: \.record) }),
        peers: PeerSides.codableDecoders(FlatInput.self, [FlatItemValue].self, build: values) { items, input in
          input.verify(items, record: \.record)
        },
        fallback: PeerSides.binaryPlist(FlatInput.self, build: values)),
    ]
  }
}

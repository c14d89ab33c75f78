import Foundation
import KeyedArchive

/// `Codable.encode.flat-N` / `Codable.decode.flat-N` (the `flat-N` model as Codable structs) and
/// `Codable.encode.tree-N` / `Codable.decode.tree-N` (the `tree-N` model as nested Codable structs) through our
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
    ] + treeCases(n: n, encoder: encoder, decoder: decoder)
  }

  private static func treeCases(
    n: Int, encoder: KeyedArchiveEncoder, decoder: KeyedArchiveDecoder
  ) -> [BenchmarkCase] {
    let input = "tree-\(Units.sizeLabel(n))"
    let values: (TreeInput) -> TreeNodeValue = { $0.build(TreeNodeValue.init) }
    let check: (TreeNodeValue, TreeInput) -> String? = { root, input in
      input.verify(root) { ($0.name, $0.value, $0.children) }
    }
    return [
      .encoding(
        name: "Codable.encode.\(input)", n: n, group: "codable-\(input)",
        summary: "encode the tree model as nested Codable structs into a keyed archive",
        ours: .encoding("KeyedArchiveEncoder", TreeInput.self, build: values, encode: { try encoder.encode($0) }),
        peers: PeerSides.codableEncoders(TreeInput.self, build: values)),
      .decoding(
        name: "Codable.decode.\(input)", n: n, group: "codable-\(input)",
        summary: "decode the tree model as nested Codable structs from a keyed archive",
        input: TreeInput.self,
        ours: .decoding(
          "KeyedArchiveDecoder", TreeInput.self, archive: { try encoder.encode(values($0)) },
          decode: { try decoder.decode(TreeNodeValue.self, from: $0) }, check: check),
        peers: PeerSides.codableDecoders(TreeInput.self, TreeNodeValue.self, build: values, check: check),
        fallback: PeerSides.binaryPlist(TreeInput.self, build: values)),
    ]
  }
}

import Foundation

/// `KeyedArchive.encode.flat-N` and `KeyedArchive.decode.flat-N`.
enum FlatCases {
  static func cases(n: Int) -> [BenchmarkCase] {
    let input = "flat-\(Units.sizeLabel(n))"
    let objects: (FlatInput) -> Any = { NSArray(array: $0.build(FlatItemObject.init)) }
    let values: (FlatInput) -> [FlatItemValue] = { $0.build(FlatItemValue.init) }
    return [
      .encoding(
        name: "KeyedArchive.encode.\(input)", n: n, group: input,
        summary: "encode an array of objects (Int, Double, Bool, unique String, 16 bytes of Data)",
        ours: Ours.flatEncode(),
        peers: [PeerSides.keyedArchiver(FlatInput.self, build: objects)]
          + PeerSides.codableEncoders(FlatInput.self, build: values)),
      .decoding(
        name: "KeyedArchive.decode.\(input)", n: n, group: input,
        summary: "decode an array of objects (Int, Double, Bool, unique String, 16 bytes of Data)",
        input: FlatInput.self, ours: Ours.flatDecode(),
        peers: [
          PeerSides.keyedUnarchiver(FlatInput.self, build: objects) { root, input in
            guard let items = root as? [FlatItemObject] else { return "the root is not an array of FlatItem" }
            return input.verify(items, record: \.record)
          }
        ]
          + PeerSides.codableDecoders(FlatInput.self, [FlatItemValue].self, build: values) { items, input in
            input.verify(items, record: \.record)
          } + [Ours.flatConstruction()],
        fallback: PeerSides.binaryPlist(FlatInput.self, build: values),
        notes: [
          "construction only: the same objects made from values in memory, no archive (the lower bound of any "
            + "decoder of this model); its speed-up below 1 is how close ours comes to it"
        ]),
    ]
  }
}

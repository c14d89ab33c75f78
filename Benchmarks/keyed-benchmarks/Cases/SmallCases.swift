/// `KeyedArchive.encode.small` and `KeyedArchive.decode.small`: one 10-field object, many times.
enum SmallCases {
  /// - Parameter repetitions: operations per measured run (the case's N).
  static func cases(repetitions: Int) -> [BenchmarkCase] {
    let objects: (SmallInput) -> Any = { SmallObject($0.record) }
    let values: (SmallInput) -> SmallValue = { SmallValue($0.record) }
    let summary = "one object of 10 fields, N times (times are per run of N; objects/s = calls/s)"
    return [
      .encoding(
        name: "KeyedArchive.encode.small", n: repetitions, group: "small", summary: "encode " + summary,
        ours: Ours.smallEncode(),
        peers: [PeerSides.keyedArchiver(SmallInput.self, build: objects)]
          + PeerSides.codableEncoders(SmallInput.self, build: values)),
      .decoding(
        name: "KeyedArchive.decode.small", n: repetitions, group: "small", summary: "decode " + summary,
        input: SmallInput.self, ours: Ours.smallDecode(),
        peers: [
          PeerSides.keyedUnarchiver(SmallInput.self, build: objects) { root, input in
            guard let object = root as? SmallObject else { return "the root is not a SmallObject" }
            return input.verify(object.record)
          }
        ]
          + PeerSides.codableDecoders(SmallInput.self, SmallValue.self, build: values) { value, input in
            input.verify(value.record)
          },
        fallback: PeerSides.binaryPlist(SmallInput.self, build: values)),
    ]
  }
}

/// `KeyedArchive.encode.cycle-N` and `KeyedArchive.decode.cycle-N`: a doubly linked list.
enum CycleCases {
  static func cases(n: Int) -> [BenchmarkCase] {
    let input = "cycle-\(Units.sizeLabel(n))"
    let values: (CycleInput) -> CycleListValue = { input in
      CycleListValue(
        nodes: input.build(CycleNode.init) { previous, next in
          previous.next = next
          next.previous = previous
        })
    }
    let summary = "a doubly linked list (next and previous), rooted at its first node"
    let notes = [
      "no NSKeyedArchiver side: the toolchain's NSKeyedUnarchiver recurses on cycles until the stack overflows",
      "Codable cannot express a cycle: its peers number the nodes into index-linked records and relink them on "
        + "decode, inside the measured time",
    ]
    return [
      .encoding(
        name: "KeyedArchive.encode.\(input)", n: n, group: input, summary: "encode " + summary,
        ours: Ours.cycleEncode(),
        peers: PeerSides.codableEncoders(CycleInput.self, suffix: " (index links)", build: values), notes: notes),
      .decoding(
        name: "KeyedArchive.decode.\(input)", n: n, group: input, summary: "decode " + summary,
        input: CycleInput.self, ours: Ours.cycleDecode(),
        peers: PeerSides.codableDecoders(CycleInput.self, CycleListValue.self, suffix: " (index links)", build: values)
        {
          list, input in
          guard let first = list.nodes.first else { return "the list is empty" }
          return input.verify(first: first, fields: { ($0.record, $0.previous, $0.next) }, same: ===)
        },
        fallback: PeerSides.binaryPlist(CycleInput.self, build: values), notes: notes),
    ]
  }
}

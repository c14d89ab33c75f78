/// `KeyedArchive.encode.tree-N` and `KeyedArchive.decode.tree-N`.
enum TreeCases {
  static func cases(n: Int) -> [BenchmarkCase] {
    let input = "tree-\(Units.sizeLabel(n))"
    let objects: (TreeInput) -> Any = { $0.build(TreeNodeObject.init) }
    let values: (TreeInput) -> TreeNodeValue = { $0.build(TreeNodeValue.init) }
    let summary = "a balanced tree (4 children per node), each node a shared name, an Int and its children"
    return [
      .encoding(
        name: "KeyedArchive.encode.\(input)", n: n, group: input, summary: "encode " + summary,
        ours: Ours.treeEncode(),
        peers: [PeerSides.keyedArchiver(TreeInput.self, build: objects)]
          + PeerSides.codableEncoders(TreeInput.self, build: values)),
      .decoding(
        name: "KeyedArchive.decode.\(input)", n: n, group: input, summary: "decode " + summary, input: TreeInput.self,
        ours: Ours.treeDecode(),
        peers: [
          PeerSides.keyedUnarchiver(TreeInput.self, build: objects) { root, input in
            guard let root = root as? TreeNodeObject else { return "the root is not a TreeNode" }
            return input.verify(root) { ($0.name, $0.value, $0.children) }
          }
        ]
          + PeerSides.codableDecoders(TreeInput.self, TreeNodeValue.self, build: values) { root, input in
            input.verify(root) { ($0.name, $0.value, $0.children) }
          },
        fallback: PeerSides.binaryPlist(TreeInput.self, build: values)),
    ]
  }
}

import Foundation

/// `KeyedArchive.encode.plist-N` and `KeyedArchive.decode.plist-N`: keyed archives of Foundation values only.
enum PlistCases {
  static func cases(n: Int) -> [BenchmarkCase] {
    let input = "plist-\(Units.sizeLabel(n))"
    let foundation: (PlistInput) -> Any = { $0.foundationValue() }
    let values: (PlistInput) -> [String: PlistEntryValue] = {
      Dictionary(uniqueKeysWithValues: $0.entries.map { ($0.key, PlistEntryValue($0)) })
    }
    let summary = "a dictionary of N dictionaries of 10 mixed values (Foundation values only)"
    return [
      .encoding(
        name: "KeyedArchive.encode.\(input)", n: n, group: input, summary: "encode " + summary,
        ours: Ours.plistEncode(),
        peers: [PeerSides.keyedArchiver(PlistInput.self, build: foundation)]
          + PeerSides.codableEncoders(PlistInput.self, build: values)),
      .decoding(
        name: "KeyedArchive.decode.\(input)", n: n, group: input, summary: "decode " + summary,
        input: PlistInput.self, ours: Ours.plistDecode(),
        peers: [
          PeerSides.keyedUnarchiver(PlistInput.self, build: foundation) { root, input in
            guard let dictionary = root as? NSDictionary else { return "the root is not a dictionary" }
            return input.verify(count: dictionary.count) { PlistInput.record(key: $0, foundation: dictionary[$0]) }
          }
        ]
          + PeerSides.codableDecoders(PlistInput.self, [String: PlistEntryValue].self, build: values) {
            dictionary, input in
            input.verify(count: dictionary.count) { dictionary[$0]?.record(key: $0) }
          },
        fallback: PeerSides.binaryPlist(PlistInput.self, build: values),
        notes: ["the Codable peers encode [String: PlistEntryValue], a struct of the same ten fields"]),
    ]
  }
}

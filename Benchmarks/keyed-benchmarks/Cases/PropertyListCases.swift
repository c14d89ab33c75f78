import Foundation

/// `PropertyList.write.plist-N`, `PropertyList.read.plist-N` and `PropertyList.read.bplist-10mb`: plain binary plists,
/// with PropertyListSerialization as the peer. Both sides of a read case read the same bytes, ``binaryPlist(_:)``.
enum PropertyListCases {
  /// Entries of `plist-N` per megabyte of binary plist (measured: about 351 bytes per entry).
  static let entriesPerMegabyte = 2_850

  static func cases(n: Int) -> [BenchmarkCase] {
    let input = "plist-\(Units.sizeLabel(n))"
    return [
      .encoding(
        name: "PropertyList.write.\(input)", n: n, group: input,
        summary: "write a binary plist: a dictionary of N dictionaries of 10 mixed values",
        ours: Ours.propertyListWrite(),
        peers: [
          .encoding(
            "PropertyListSerialization", PlistInput.self, build: { $0.foundationValue() },
            encode: { try PropertyListSerialization.data(fromPropertyList: $0, format: .binary, options: 0) })
        ]),
      readCase(name: "PropertyList.read.\(input)", n: n, group: input, summary: "read that binary plist"),
    ]
  }

  /// The large read: a binary plist of about `megabytes` MB (the `plist-N` input at the matching N).
  static func largeRead(megabytes: Int) -> BenchmarkCase {
    readCase(
      name: "PropertyList.read.bplist-\(megabytes)mb", n: megabytes * entriesPerMegabyte, group: "bplist-large",
      summary: "read a binary plist of about \(megabytes) MB (the plist-N input)")
  }

  /// The bytes every side of a read case reads: PropertyListSerialization's binary plist of the input.
  static func binaryPlist(_ input: PlistInput) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: input.foundationValue(), format: .binary, options: 0)
  }

  private static func readCase(name: String, n: Int, group: String, summary: String) -> BenchmarkCase {
    .decoding(
      name: name, n: n, group: group, summary: summary, input: PlistInput.self, ours: Ours.propertyListRead(),
      peers: [
        .decoding(
          "PropertyListSerialization", PlistInput.self, archive: binaryPlist,
          decode: { try PropertyListSerialization.propertyList(from: $0, options: [], format: nil) },
          check: { root, input in
            guard let dictionary = root as? NSDictionary else { return "the root is not a dictionary" }
            return input.verify(count: dictionary.count) { PlistInput.record(key: $0, foundation: dictionary[$0]) }
          })
      ],
      fallback: ("PropertyListSerialization", binaryPlist))
  }
}

import Foundation
import PropertyList

/// `PropertyList.write.plist-N`, `PropertyList.read.plist-N` and `PropertyList.read.bplist-10mb`: plain binary plists,
/// with PropertyListSerialization as the peer. Both sides of a read case read the same bytes, ``binaryPlist(_:)``.
enum PropertyListCases {
  /// Entries of `plist-N` per megabyte of binary plist as ``binaryPlist(_:)`` writes it (measured: about 211 bytes
  /// per entry at 28,500 entries; PropertyListSerialization's writer, which shares fewer values, took 351).
  static let entriesPerMegabyte = 4_740

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

  /// The bytes every side of a read case reads: our `PropertyListWriter`'s binary plist of the input (a standard
  /// `bplist00`, which the peer's check reads back in full). PropertyListSerialization's own writer grows faster
  /// than linearly: building the 355 MB of `plist-1m` with it took most of that case's time.
  static func binaryPlist(_ input: PlistInput) throws -> Data {
    try PropertyListWriter.write(OurModels.propertyListValue(of: input), format: .binary)
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
      fallback: ("PropertyListWriter", binaryPlist))
  }
}

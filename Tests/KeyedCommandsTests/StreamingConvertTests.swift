import ArchiveCoding
import ArchiveComparison
import Foundation
import KeyedArchive
import PropertyList
import TestSupport
import Testing

@testable import KeyedCommands

/// `keyed convert` of a binary property list re-encodes it as it reads it, without the value tree (CLI-134): the
/// output and the errors must be those of the tree, which the tests build the way the tool used to.
@Suite("keyed convert without the value tree")
struct StreamingConvertTests {
  /// What converting `data` through the whole value tree gives: the bytes, or the diagnostic's message.
  static func throughTheTree(_ data: Data, format: PropertyListFormat) -> Result<Data, ArchiveError> {
    Result {
      let value = try PropertyListReader.read(data)
      if KeyedArchiveContainer.looksLikeKeyedArchive(value) {
        _ = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
      }
      try ExpansionBound.check(value)
      return format == .xml
        ? try XMLPropertyListWriter.write(value, sets: .refuse) : try PropertyListWriter.write(value, format: format)
    }.mapError { $0 as? ArchiveError ?? ArchiveError(.corruptData, "\($0)") }
  }

  /// Converts `data` with the tool into both forms and compares with the tree, byte for byte or message for message.
  static func expectSameAsTree(_ data: Data, name: String, in directory: URL) throws {
    let input = directory.appendingPathComponent("input.bplist")
    try data.write(to: input)
    for format in [PropertyListFormat.binary, .xml] {
      let output = directory.appendingPathComponent("out.\(format.rawValue)")
      try? FileManager.default.removeItem(at: output)
      let result = KeyedTool.run(["convert", input.path, "-o", output.path, "--format", format.rawValue])
      switch throughTheTree(data, format: format) {
      case .success(let expected):
        #expect(result.status == 0, "\(name) \(format): \(result.errors)")
        #expect(try Data(contentsOf: output) == expected, "\(name) \(format): not the tree's bytes")
      case .failure(let error):
        #expect(result.status == 65, "\(name) \(format)")
        let message = error.located(in: .init(file: input.path)).description.split(separator: "\n").first ?? ""
        #expect(result.errors == "keyed: \(message)\n", "\(name) \(format)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "\(name) \(format): written despite the error")
      }
    }
  }

  /// The binary property lists of the corpus (keyed archives and plain lists), read in place.
  static var corpusBinaries: [URL] {
    let folder = corpusRoot?.appendingPathComponent("archives")
    let names = folder.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
    return names.sorted().compactMap { folder?.appendingPathComponent($0) }.filter { url in
      (try? FileHandle(forReadingFrom: url).readData(ofLength: 8)) == Data("bplist00".utf8)
    }
  }

  @Test(
    "CLI-134: convert of every binary list of the corpus writes the tree's bytes, binary and XML, or its error",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent"))
  func corpusAsTheTree() throws {
    let files = Self.corpusBinaries
    #expect(files.count > 20)
    let directory = try makeTemporaryDirectory("keyed-stream-convert")
    defer { try? FileManager.default.removeItem(at: directory) }
    for file in files {
      try Self.expectSameAsTree(try Data(contentsOf: file), name: file.lastPathComponent, in: directory)
    }
  }

  @Test(
    "CLI-134: convert of randomly damaged archives fails as the tree fails, or writes the tree's bytes",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent"))
  func damagedAsTheTree() throws {
    var random = SplitMix64(seed: 134)
    let files = Self.corpusBinaries.filter {
      (try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) ?? 0 < 200_000
    }
    let directory = try makeTemporaryDirectory("keyed-stream-damaged")
    defer { try? FileManager.default.removeItem(at: directory) }
    for (number, file) in files.prefix(40).enumerated() {
      let original = try Data(contentsOf: file)
      for round in 0..<5 {
        var bytes = [UInt8](original)
        for _ in 0..<(1 + Int(random.next() % 4)) {
          let position = 8 + Int(random.next() % UInt64(max(1, bytes.count - 8)))
          bytes[position] = UInt8(truncatingIfNeeded: random.next())
        }
        try Self.expectSameAsTree(Data(bytes), name: "\(file.lastPathComponent) #\(number).\(round)", in: directory)
      }
    }
  }

  @Test("CLI-134: shared containers and strings, repeated keys, sets, nulls and non-string keys give the tree's result")
  func edgeCases() throws {
    let directory = try makeTemporaryDirectory("keyed-stream-edges")
    defer { try? FileManager.default.removeItem(at: directory) }
    // A shared container written twice, a long string shared, a repeated key (its first position, its last value),
    // every scalar kind.
    let shared: PropertyListValue = [
      "a", 1, 2.5, .float(1.5), true, .data(Data([1, 2, 3])), .date(Date(timeIntervalSinceReferenceDate: 3.25)),
    ]
    let long = PropertyListValue.string(String(repeating: "long text é ", count: 4))
    let cases: [(String, Data)] = [
      (
        "shared",
        try PropertyListWriter.write([
          "x": shared, "y": shared, "z": [long, long, .uid(7)], "n": .integer(unsigned: .max),
        ])
      ),
      ("repeated key, shared container", Self.repeatedKeys()),
      ("set", try PropertyListWriter.write(["members": .set(["b", "a", 3])])),
      ("null", try PropertyListWriter.write(["nothing": .null])),
      ("integer key", try PropertyListWriter.write(.dictionary(PropertyListDictionary([(.integer(3), "three")])))),
      ("empty", try PropertyListWriter.write(["a": [], "d": .dictionary(PropertyListDictionary())])),
      ("archive", try PropertyListSupport.sampleArchive()),
      // 120,000 objects, about 1.7 MB: the binary output is handed to the file in pieces (references 4 bytes wide).
      (
        "large",
        try PropertyListWriter.write(
          .array((0..<40_000).map { ["n": .integer(Int64($0) * 7919), "s": .string("item \($0)")] }))
      ),
    ]
    for (name, data) in cases { try Self.expectSameAsTree(data, name: name, in: directory) }
  }

  /// A dictionary whose key `k` comes twice (two string objects) and an array holding it and one array twice: the
  /// writer never makes either.
  static func repeatedKeys() -> Data {
    var raw = RawPropertyList()
    let (first, middle, last) = (raw.string("first"), raw.string("middle"), raw.string("last"))
    let shared = raw.array([first, middle])
    let dictionary = raw.dictionary([(raw.string("k"), first), (raw.string("j"), shared), (raw.string("k"), last)])
    let top = raw.array([dictionary, shared, shared])
    return Data(raw.bytes(top: UInt64(top)))
  }
}

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

  @Test("CLI-170: a list of 280,000 objects, handed to the file in pieces with its offset table, is the tree's bytes")
  func largeListInPieces() throws {
    let directory = try makeTemporaryDirectory("keyed-stream-pieces")
    defer { try? FileManager.default.removeItem(at: directory) }
    // About 2 MB of objects and a 1.1 MB offset table: both pass the writer's piece size, so the tool hands the
    // objects on as it writes them and the table in pieces.
    let rows: [PropertyListValue] = (0..<70_000).map {
      ["n": .integer(Int64($0) * 7919), "s": .string("row \($0) é"), "d": .real(Double($0) / 3)]
    }
    let data = try PropertyListWriter.write(.array(rows))
    try Self.expectSameAsTree(data, name: "280,000 objects", in: directory)
    let output = try Data(contentsOf: directory.appendingPathComponent("out.binary"))
    #expect(try PropertyListReader.read(output) == .array(rows))
  }

  @Test("CLI-170: a keyed archive converts to bytes that decode to the same archive")
  func archiveDecodesAsBefore() throws {
    let directory = try makeTemporaryDirectory("keyed-stream-archive")
    defer { try? FileManager.default.removeItem(at: directory) }
    let rows: [[String: Any]] = (0..<25_000).map { ["n": $0, "s": "item \($0)", "tag": $0 % 3 == 0 ? "a" : "b"] }
    let data = try KeyedArchiver.archivedData(withRootObject: rows, requiringSecureCoding: false)
    try Self.expectSameAsTree(data, name: "archive", in: directory)
    let output = try Data(contentsOf: directory.appendingPathComponent("out.binary"))
    #expect(try BinaryPropertyListReader(output, options: .default).objectCount > 0xFFFF)
    let decoded = try KeyedUnarchiver.unarchivedRootObject(from: output) as? [[String: Any]]
    #expect(decoded?.count == rows.count)
    for (row, back) in zip(rows, decoded ?? []) {
      #expect(back["n"] as? Int == row["n"] as? Int && back["s"] as? String == row["s"] as? String)
      #expect(back["tag"] as? String == row["tag"] as? String)
    }
  }

  @Test(
    "CLI-170: equal strings stored apart share one object, near-equal ones do not, as the tree's writer decides",
    arguments: [(numbered: 40, repeats: 3), (numbered: 5000, repeats: 2)])
  func stringsShared(numbered: Int, repeats: Int) throws {
    let directory = try makeTemporaryDirectory("keyed-stream-strings")
    defer { try? FileManager.default.removeItem(at: directory) }
    var raw = RawPropertyList()
    func utf16(_ units: [UInt16]) -> Int {
      let length: [UInt8] =
        units.count < 15
        ? [0x60 | UInt8(units.count)] : [0x6F, 0x13] + RawPropertyList.bigEndian(UInt64(units.count), 8)
      return raw.add(length + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }
    // Written as the tree's writer reads them: ASCII and UTF-16 spellings of one text are one string, unpaired
    // surrogates read as U+FFFD; precomposed and decomposed é, the Kelvin sign and K stay apart (ARC-006).
    var refs: [Int] = []
    var texts: [String] = []
    for round in 0..<2 {
      refs += [raw.string(""), utf16([]), raw.string("abc"), utf16(Array("abc".utf16)), utf16(Array("é".utf16))]
      refs += [utf16(Array("e\u{301}".utf16)), utf16([0x212A]), raw.string("K"), utf16([0xD800]), utf16([0xDC00])]
      refs += [
        utf16([0xFFFD]), utf16(Array("ab\u{1F600}".utf16)), raw.string("ab"), raw.string(round == 0 ? "x" : "y"),
      ]
      texts += ["", "", "abc", "abc", "é", "e\u{301}", "\u{212A}", "K", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}"]
      texts += ["ab\u{1F600}", "ab", round == 0 ? "x" : "y"]
    }
    // Near-equal strings, each stored `repeats` times: 5000 of them fill the table past its first sizes.
    for number in 0..<numbered {
      for _ in 0..<repeats {
        refs.append(raw.string("item \(number)"))
        texts.append("item \(number)")
      }
    }
    let top = raw.array(refs)
    let data = Data(raw.bytes(top: UInt64(top)))
    try Self.expectSameAsTree(data, name: "strings", in: directory)
    let output = try Data(contentsOf: directory.appendingPathComponent("out.binary"))
    let distinct = Set(texts.map { Array($0.utf8) })
    #expect(try BinaryPropertyListReader(output, options: .default).objectCount == distinct.count + 1)
    guard case .array(let values) = try PropertyListReader.read(output) else {
      Issue.record("not an array")
      return
    }
    #expect(values.map { Array(($0.stringValue ?? "-").utf8) } == texts.map { Array($0.utf8) })
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

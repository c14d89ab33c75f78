import ArchiveCoding
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// Replays the fuzzers' inputs (Tests/Fuzz) through the same calls as the libFuzzer targets of Tests/Fuzz/Targets:
/// every crash the fuzzers found (Tests/Fuzz/Regressions/TARGET) and every generated seed (Tests/Fuzz/Seeds/TARGET).
/// An input must decode or fail with an `ArchiveError`; a crash fails the whole run.
///
/// Only the property-list and keyed-archive targets are replayed here: this test target does not link XIB,
/// CompiledNib or NibLoading. Their regression files are replayed by `Tests/Fuzz/fuzz.sh TARGET --replay FILE…`.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  static let fuzzRoot = packageRoot.appendingPathComponent("Tests/Fuzz")

  /// The files of Regressions/TARGET and Seeds/TARGET, sorted.
  static func inputs(_ target: String) -> [URL] {
    ["Regressions", "Seeds"].flatMap { folder -> [URL] in
      let dir = fuzzRoot.appendingPathComponent(folder).appendingPathComponent(target)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
      return names.filter { !$0.hasPrefix(".") }.sorted().map { dir.appendingPathComponent($0) }
    }
  }

  /// Runs `body`; success passes, an `ArchiveError` passes, any other error is recorded against `file`.
  static func expectDecodesOrArchiveError(_ file: URL, _ body: () throws -> Void) {
    do {
      try body()
    } catch is ArchiveError {
    } catch {
      Issue.record("\(file.lastPathComponent): expected success or ArchiveError, got \(type(of: error)): \(error)")
    }
  }

  /// The fuzz target `bplist`: the magic is prepended when missing, accepted values are rewritten in both forms.
  static func replayBinaryPropertyList(_ data: Data) throws {
    var bytes = data
    if !bytes.starts(with: Array("bplist0".utf8)) { bytes = Data("bplist00".utf8) + bytes }
    try rewrite(PropertyListReader.read(bytes, fileName: "fuzz.plist"))
  }

  /// The fuzz target `xmlplist`: only inputs detected as XML.
  static func replayXMLPropertyList(_ data: Data) throws {
    guard PropertyListReader.format(of: data) == .xml else { return }
    try rewrite(PropertyListReader.read(data, fileName: "fuzz.plist"))
  }

  static func rewrite(_ value: PropertyListValue) throws {
    for format in [PropertyListFormat.binary, .xml] {
      _ = try PropertyListReader.read(PropertyListWriter.write(value, format: format))
    }
  }

  static let registry: ClassRegistry = {
    let registry = ClassRegistry()
    registry.register(FuzzRecord.self, as: "FuzzRecord")
    registry.register(FuzzNode.self, as: "FuzzNode")
    return registry
  }()

  /// The fuzz target `unarchiver`, secure half: returns the root.
  static func replaySecure(_ data: Data) throws -> Any? {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: true)
    unarchiver.registry = registry
    let root = try unarchiver.decodeObject(of: [FuzzRecord.self, FuzzNode.self, String.self], forKey: "root")
    try unarchiver.finishDecoding()
    return root
  }

  /// The fuzz target `unarchiver`, trusted half: every top-level key, unknown classes generically.
  static func replayGeneric(_ data: Data) throws -> [String: Any] {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.registry = registry
    unarchiver.decodesUnknownClassesGenerically = true
    var decoded: [String: Any] = [:]
    for key in unarchiver.topLevelKeys {
      decoded[key] = try unarchiver.decodeObject(forKey: key)
    }
    try unarchiver.finishDecoding()
    return decoded
  }

  @Test("ARC-041: binary plist fuzz inputs read or fail with an ArchiveError")
  func binaryPropertyLists() throws {
    let files = Self.inputs("bplist")
    #expect(!files.isEmpty, "no seeds under Tests/Fuzz/Seeds/bplist")
    for file in files {
      let data = try Data(contentsOf: file)
      Self.expectDecodesOrArchiveError(file) { try Self.replayBinaryPropertyList(data) }
    }
  }

  @Test("ARC-041: XML plist fuzz inputs read or fail with an ArchiveError")
  func xmlPropertyLists() throws {
    let files = Self.inputs("xmlplist")
    #expect(!files.isEmpty, "no seeds under Tests/Fuzz/Seeds/xmlplist")
    for file in files {
      let data = try Data(contentsOf: file)
      Self.expectDecodesOrArchiveError(file) { try Self.replayXMLPropertyList(data) }
    }
  }

  @Test("ARC-041: keyed-archive fuzz inputs decode, secure and generic, or fail with an ArchiveError")
  func keyedArchives() throws {
    let files = Self.inputs("unarchiver")
    #expect(!files.isEmpty, "no seeds under Tests/Fuzz/Seeds/unarchiver")
    for file in files {
      let data = try Data(contentsOf: file)
      Self.expectDecodesOrArchiveError(file) { _ = try Self.replaySecure(data) }
      Self.expectDecodesOrArchiveError(file) { _ = try Self.replayGeneric(data) }
    }
  }

  @Test("COD-024: the unarchiver seed decodes to the fuzz classes, its unknown class generically")
  func unarchiverSeedDecodes() throws {
    for name in ["fuzz-classes.plist", "fuzz-classes.bplist"] {
      let data = try Data(contentsOf: Self.fuzzRoot.appendingPathComponent("Seeds/unarchiver/\(name)"))
      // Secure coding: the root's `items` array holds an object of an unregistered class, which is refused.
      #expect(throws: ArchiveError.self) { try Self.replaySecure(data) }
      let root = try #require(try Self.replayGeneric(data)["root"] as? FuzzRecord)
      #expect(root.number == 42 && root.ratio == 0.5 && root.flag && root.title == "title")
      #expect(root.blob == Data([0, 1, 2]))
      let child = try #require(root.child)
      #expect(child.value == 1 && child.next?.value == 2 && child.next?.previous === child)
      #expect(child.items.count == 2)
      #expect((child.items.last as? ArchivedObject)?.className == "SomeUnknownClass")
    }
  }
}

/// The fuzz target's record: primitives, a string, data and a nested node.
final class FuzzRecord: SecureCoding {
  static var supportsSecureCoding: Bool { true }
  var number = 0
  var ratio = 0.0
  var flag = false
  var title: String?
  var blob: Data?
  var child: FuzzNode?
  required init(coder: any DecodingCoder) throws {
    number = try coder.decodeInt(forKey: "number")
    ratio = try coder.decodeDouble(forKey: "ratio")
    flag = try coder.decodeBool(forKey: "flag")
    title = try coder.decodeString(forKey: "title")
    blob = try coder.decodeData(forKey: "blob")
    child = try coder.decodeObject(of: FuzzNode.self, forKey: "child")
  }
  func encode(with coder: any EncodingCoder) {}
}

/// The fuzz target's linked node: `next` direct, `previous` through the link phase.
final class FuzzNode: SecureCoding {
  static var supportsSecureCoding: Bool { true }
  var value = 0
  var next: FuzzNode?
  weak var previous: FuzzNode?
  var items: [Any] = []
  required init(coder: any DecodingCoder) throws {
    value = try coder.decodeInt(forKey: "value")
    try coder.decodeReference(forKey: "next", into: \FuzzNode.next)
    try coder.decodeReference(forKey: "previous", into: \FuzzNode.previous)
    items = try coder.decodeObject(of: [[Any].self], forKey: "items") as? [Any] ?? []
  }
  func encode(with coder: any EncodingCoder) {}
}

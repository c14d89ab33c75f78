import Foundation
import KeyedCommands
import TestSupport
import Testing

/// `keyed convert` on the real-world corpus, run in-process: converting to binary and to XML must not change what
/// `keyed dump --json` prints (ARC-028 in Specs/ArchiveFormat.md).
/// The corpus of real-world archives, read in place from `../shared/corpus/archives` (never copied).
enum CorpusArchives {
  static let directory: URL? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let url = root.appendingPathComponent("shared/corpus/archives")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }()

  /// The `valid` files of the corpus MANIFEST.
  static let validFiles = CorpusManifest.rows(in: directory).filter { $0.kind == "valid" }.map(\.file)
}

@Suite(
  "keyed convert on the corpus",
  .enabled(if: CorpusArchives.directory != nil, "../shared/corpus is absent: corpus tests skipped"))
struct ConvertCorpusTests {
  static var archives: URL? { CorpusArchives.directory }

  @Test(
    "ARC-028: keyed convert to binary and to XML keeps keyed dump --json identical",
    arguments: CorpusArchives.validFiles)
  func convertKeepsDump(file: String) throws {
    let archives = try #require(Self.archives)
    let input = archives.appendingPathComponent(file).path
    let original = KeyedTool.run(["dump", "--json", input])
    #expect(original.status == 0, "\(original.errors)")
    #expect(!original.output.isEmpty)
    let directory = try makeTemporaryDirectory("keyed-convert")
    defer { try? FileManager.default.removeItem(at: directory) }
    for format in ["binary", "xml"] {
      let output = directory.appendingPathComponent("out.\(format)").path
      let convert = KeyedTool.run(["convert", input, "-o", output, "--format", format])
      #expect(convert.status == 0, "\(format): \(convert.errors)")
      let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
      let header = String(decoding: bytes.prefix(8), as: UTF8.self)
      #expect(format == "binary" ? header == "bplist00" : header.hasPrefix("<?xml"), "\(format): \(header)")
      let dumped = KeyedTool.run(["dump", output, "--json"])
      #expect(dumped.status == 0, "\(format): \(dumped.errors)")
      #expect(dumped.output == original.output, "\(format) conversion changed the dump of \(file)")
    }
  }

  @Test("ARC-028: after one pass through XML, binary → XML → binary conversion is byte-stable")
  func convertIsStable() throws {
    let archives = try #require(Self.archives)
    let directory = try makeTemporaryDirectory("keyed-convert")
    defer { try? FileManager.default.removeItem(at: directory) }
    // XML has one real type, so the first pass may widen 32-bit reals (ARC-010); after it, nothing changes.
    for file in CorpusArchives.validFiles {
      let paths = (0..<4).map { directory.appendingPathComponent("step\($0)").path }
      let input = archives.appendingPathComponent(file).path
      #expect(KeyedTool.run(["convert", input, "-o", paths[0], "--format", "xml"]).status == 0)
      #expect(KeyedTool.run(["convert", paths[0], "-o", paths[1]]).status == 0)
      #expect(KeyedTool.run(["convert", paths[1], "-o", paths[2], "--format", "xml"]).status == 0)
      #expect(KeyedTool.run(["convert", paths[2], "-o", paths[3]]).status == 0)
      let xml1 = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
      let xml2 = try Data(contentsOf: URL(fileURLWithPath: paths[2]))
      let binary1 = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
      let binary2 = try Data(contentsOf: URL(fileURLWithPath: paths[3]))
      #expect(xml1 == xml2, "\(file): XML → binary → XML is not byte-stable")
      #expect(binary1 == binary2, "\(file): binary → XML → binary is not byte-stable")
    }
  }
}

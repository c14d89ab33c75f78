import Foundation
import Testing

/// The structure check's rule that one file spells each Foundation wire key (FORM-001), run on a copy of the
/// sources with a violation planted in it.
@Suite("Structure check: Foundation wire keys")
struct StructureRuleTests {
  /// A copy of what the script reads (Package.swift, Sources, the Decision it checks against), with `planted`
  /// written to `Sources/KeyedArchive/Planted.swift` when given; the script's status and output.
  static func check(planting planted: String?) throws -> (status: Int32, output: String) {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("structure-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: copy) }
    try FileManager.default.createDirectory(
      at: copy.appendingPathComponent("Specs/Decisions"), withIntermediateDirectories: true)
    for path in ["Package.swift", "Sources", "Specs/Decisions/0023-unchecked-exclusivity-in-four-storages.md"] {
      try FileManager.default.copyItem(
        at: packageRoot.appendingPathComponent(path), to: copy.appendingPathComponent(path))
    }
    if let planted {
      try planted.write(
        to: copy.appendingPathComponent("Sources/KeyedArchive/Planted.swift"), atomically: true, encoding: .utf8)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", packageRoot.appendingPathComponent("Tests/Scripts/structure_check.py").path, copy.path,
    ]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  @Test("FORM-001: the sources as they are keep the rule")
  func cleanSourcesPass() throws {
    let result = try Self.check(planting: nil)
    #expect(!result.output.contains("one file spells each Foundation wire key"), "\(result.output)")
  }

  @Test(
    "FORM-001: a Foundation wire key spelled in a second file fails the rule, alone or inside a message",
    arguments: [
      (#"let key = "NS.objects""#, "NS.objects"),
      (#"let message = "NSRangeCount is negative""#, "NSRangeCount"),
      (#"let key = "NS.timezone.name""#, "NS.timezone"),
      (#"let keys = ["NS.rangeval.location", "x"]"#, "NS.rangeval.location"),
    ])
  func plantedKeyFails(line: String, key: String) throws {
    let result = try Self.check(planting: "enum Planted {\n  static func f() { \(line) }\n}\n")
    #expect(result.status == 1)
    #expect(
      result.output.contains("\"\(key)\" is spelled outside Sources/FoundationForms/FoundationKeys.swift")
        && result.output.contains("Sources/KeyedArchive/Planted.swift")
        && result.output.contains("[one file spells each Foundation wire key]"), "\(result.output)")
  }

  @Test("FORM-001: a comment may name a key, and a longer name that begins with one is another name")
  func commentsAndLongerNamesPass() throws {
    let result = try Self.check(
      planting: "// NS.objects and NS.keys\nenum Planted {\n  static let name = \"NSRangeCountOfMine\"\n}\n")
    #expect(!result.output.contains("one file spells each Foundation wire key"), "\(result.output)")
  }
}

import Foundation
import KeyedCommands
import TestSupport
import Testing

@Suite("keyed dump and validate on XIBs and nibs")
struct NibDumpTests {
  static var cardXIB: URL? {
    corpusFiles("xib", extensions: ["xib"]).first { $0.lastPathComponent.contains("CardView") }
      ?? ScenarioResources.url?.appendingPathComponent("ConnectedActionsView.xib")
  }

  /// A UIKit NIBArchive whose one top-level object starts a chain of `length` objects, each holding the next.
  static func chainNib(length: Int) -> Data {
    var nib = TestArchiveBuilder()
    let root = nib.addClass("NSObject")
    let link = nib.addClass("Link")
    nib.addObject(root, [("UINibTopLevelObjectsKey", .object(1))])
    _ = nib.addArray([2])
    for i in 0..<length {
      nib.addObject(link, [("next", i + 1 < length ? .object(UInt32(i + 3)) : .null)])
    }
    return Data(nib.bytes())
  }

  @Test("CLI-013: dump of a nib chaining 200,000 objects stops at the depth limit with exit 65, not a crash")
  func deepChainRefused() throws {
    let directory = try makeTemporaryDirectory("nib-chain")
    defer { try? FileManager.default.removeItem(at: directory) }
    let deep = directory.appendingPathComponent("chain.nib")
    try Self.chainNib(length: 200_000).write(to: deep)
    for arguments in [["dump", "--json", deep.path], ["dump", deep.path]] {
      // The built executable: a stack overflow there is a signal, not a crash of the test process.
      let result = try runExecutable(arguments)
      #expect(result.status == 65, "\(arguments): \(result.errors)")
      #expect(
        result.errors.contains("chain.nib") && result.errors.contains("nest deeper than 2000"), "\(result.errors)")
    }
    // Within the limit the whole chain is written, one nested object (or indented line) per link.
    let shallow = directory.appendingPathComponent("short.nib")
    try Self.chainNib(length: 1_500).write(to: shallow)
    let json = keyed("dump", "--json", shallow.path)
    #expect(json.status == 0, "\(json.errors)")
    #expect(json.output.components(separatedBy: "\"$class\":\"Link\"").count - 1 == 1_500)
    let tree = keyed("dump", shallow.path)
    #expect(tree.status == 0 && tree.output.split(separator: "\n").count == 1_500)
  }

  @Test("CLI-033: a nib giving one 1 MB string to 40,000 fields validates at once and is too large to dump")
  func sharedStringFields() throws {
    var nib = TestArchiveBuilder()
    let root = nib.addClass("NSObject")
    let view = nib.addClass("UIView")
    nib.addObject(root, [("UINibObjectsKey", .object(1)), ("UINibTopLevelObjectsKey", .object(1))])
    _ = nib.addArray([2])
    nib.addObject(view, (0..<40_000).map { ("k\($0)", .object(3)) })
    _ = nib.addString(String(repeating: "S", count: 1 << 20))
    let directory = try makeTemporaryDirectory("nib-shared-string")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("shared.nib")
    try Data(nib.bytes()).write(to: url)
    // Each field used to hash its megabyte (as a possible object id) when the nib was planned: 40 GB of hashing,
    // about 14 s here; now well under a second.
    let started = ContinuousClock.now
    let validated = keyed("validate", url.path)
    #expect(validated.status == 0, "\(validated.errors)")
    #expect(ContinuousClock.now - started < .seconds(4))
    for arguments in [["dump", "--json", url.path], ["dump", url.path], ["dump", "--dot", url.path]] {
      let result = KeyedTool.run(arguments, standardInput: { Data() })
      #expect(result.status == 65, "\(arguments): \(result.errors)")
      #expect(result.errors.contains("shared.nib") && result.errors.contains("bytes of strings"), "\(result.errors)")
    }
  }

  @Test("CLI-014: dump --dot of a XIB is a Graphviz graph of the hierarchy and the connections, and dot renders it")
  func dot() throws {
    let url = try #require(Self.cardXIB)
    let result = keyed("dump", "--dot", url.path)
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("digraph nib {"))
    #expect(result.output.contains("[label=\"subviews\"]"), "hierarchy edges")
    #expect(result.output.contains("style=dashed, color=blue"), "outlet edges")
    let dotTool = ["/usr/bin/dot", "/usr/local/bin/dot"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let dotTool else {
      print("skipped rendering: Graphviz's dot is not installed (.ci/run installs it)")
      return
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dotTool)
    process.arguments = ["-Tpng"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(result.output.utf8))
    try input.fileHandleForWriting.close()
    let png = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
    #expect(png.count > 10_000)
  }

  @Test("CLI-013: dump --json of a XIB lists the top-level objects with their fields and the connections")
  func json() throws {
    let url = try #require(ScenarioResources.url).appendingPathComponent("ConnectedActionsView.xib")
    let result = keyed("dump", "--json", url.path)
    #expect(result.status == 0)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let objects = try #require(json["objects"] as? [[String: Any]])
    #expect(objects.count == 3, "two placeholders and the view")
    #expect(objects.last?["$class"] as? String == "UIView")
    let subviews = try #require(objects.last?["subviews"] as? [[String: Any]])
    #expect(subviews.first?["$class"] as? String == "UIButton")
    let connections = try #require(json["connections"] as? [[String: Any]])
    #expect(connections.map { $0["kind"] as? String } == ["outlet", "action"])
  }

  @Test("CLI-021: validate accepts every corpus XIB and rejects a broken one with a located diagnostic")
  func validate() throws {
    for url in InstantiateCorpusTests.documents.prefix(12) {
      let result = keyed("validate", url.path)
      #expect(result.status == 0, "\(url.lastPathComponent): \(result.errors)")
    }
    let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).xib")
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
          <objects>
              <view id="v1">
                  <connections><outlet property="x" destination="nowhere" id="o1"/></connections>
              </view>
          </objects>
      </document>
      """.utf8
    ).write(to: broken)
    defer { try? FileManager.default.removeItem(at: broken) }
    let result = keyed("validate", broken.path)
    #expect(result.status == 65)
    #expect(result.errors.contains(":5:"), "line of the broken connection: \(result.errors)")
    #expect(result.errors.split(separator: "\n").count == 1)
  }
}

import Foundation
import KeyedCommands
import Testing

@Suite("keyed instantiate on the real-world XIBs and storyboards")
struct InstantiateCorpusTests {
  static let documents: [URL] =
    corpusFiles("xib", extensions: ["xib", "storyboard"]) + corpusFiles("nib", extensions: ["xib", "storyboard"])

  static let keys = ["objects", "placeholders", "topLevel", "outlets", "outletCollections", "actions", "segues"]

  @Test("CLI-031: --stats --json counts equal an independent count of the XML (Python's xml.etree)")
  func statsMatchIndependentCount() throws {
    guard !Self.documents.isEmpty else {
      print("skipped: ../shared/corpus is absent")
      return
    }
    guard let oracle = try runPython("xib_counts.py", Self.documents.map(\.path)),
      let expected = try JSONSerialization.jsonObject(with: oracle) as? [String: [String: Int]]
    else {
      print("skipped: python3 is not available")
      return
    }
    for url in Self.documents {
      let result = keyed("instantiate", "--stats", "--json", url.path)
      #expect(result.status == 0, "\(url.lastPathComponent): \(result.errors)")
      let lines = result.output.split(separator: "\n")
      #expect(lines.count == 1, "\(url.lastPathComponent): exactly one JSON object")
      guard let stats = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Int],
        let oracleCounts = expected[url.path]
      else {
        Issue.record("\(url.lastPathComponent): no JSON")
        continue
      }
      for key in Self.keys { #expect(stats[key] == oracleCounts[key], "\(url.lastPathComponent): \(key)") }
      #expect(stats["awakened"] == stats["objects"], "\(url.lastPathComponent): every created object is awakened")
    }
  }

  @Test(
    "NIB-001, CLI-030, NIB-021: --trace shows the pipeline order: decodes, outlets, actions, awakes; no placeholder awakened"
  )
  func traceOrder() throws {
    guard !Self.documents.isEmpty else { return }
    var extraEvents = 0
    for url in Self.documents {
      let result = keyed("instantiate", "--trace", url.path)
      #expect(result.status == 0, "\(url.lastPathComponent): \(result.errors)")
      let lines = result.output.split(separator: "\n")
      // Exactly the five forms of cli.md.
      let phases = lines.map { line -> Int in
        switch line.split(separator: " ").first {
        case "decode": 0
        case "outlet", "collection": 1
        case "action": 2
        case "awake": 3
        default: -1
        }
      }
      #expect(!phases.contains(-1), "\(url.lastPathComponent): a line of another form")
      #expect(phases == phases.sorted(), "\(url.lastPathComponent): events out of pipeline order")
      let placeholderIDs = Set(["-1", "-2", "-3"])
      let awakened = lines.filter { $0.hasPrefix("awake ") }.map { $0.dropFirst(6) }
      #expect(awakened.allSatisfy { !placeholderIDs.contains(String($0)) }, "\(url.lastPathComponent)")
      // --trace-all: the same events with the runtime attributes (set before the outlets) and the segues (after
      // the actions) among them.
      let all = keyed("instantiate", "--trace-all", url.path)
      let allLines = all.output.split(separator: "\n")
      let allPhases = allLines.map { line -> Int in
        switch line.split(separator: " ").first {
        case "decode": 0
        case "outlet", "collection", "attribute": 1
        case "action": 2
        case "segue": 3
        case "awake": 4
        default: -1
        }
      }
      #expect(!allPhases.contains(-1) && allPhases == allPhases.sorted(), "\(url.lastPathComponent): --trace-all")
      let extra = allLines.filter { $0.hasPrefix("attribute ") || $0.hasPrefix("segue ") }
      extraEvents += extra.count
      #expect(allLines.filter { !extra.contains($0) } == lines, "\(url.lastPathComponent): --trace-all adds only")
    }
    // Storyboards with segues and XIBs with runtime attributes are among them.
    #expect(extraEvents > 0)
  }
}

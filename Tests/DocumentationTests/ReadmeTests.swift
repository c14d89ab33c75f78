import Foundation
import Testing

@Suite("Documentation: the README")
struct ReadmeTests {
  @Test("DOC-045: the README has at most 200 lines and the two set-up commands in its first 20")
  func shortWithSetUpFirst() throws {
    let text = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= 200 + (text.hasSuffix("\n") ? 1 : 0), "README.md has \(lines.count) lines")
    let opening = lines.prefix(20)
    for command in ["swift run keyed demo", "swift test"] {
      #expect(opening.contains { $0.hasPrefix(command) }, "\(command) is not in the README's first 20 lines")
    }
  }

  @Test("DOC-045: every guide the README links to exists")
  func linksLeadToFiles() throws {
    let text = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let targets = text.matches(of: #/\]\(([^)#:]+\.md)\)/#).map { String($0.output.1) }
    #expect(targets.count >= 10)
    for target in targets {
      #expect(FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(target).path), "\(target)")
    }
  }
}

import Foundation
import Testing

/// Where a documentation code block was found among the examples, or how far it matched.
enum ExampleMatch: Equatable {
  /// Found in this file.
  case found(String)
  /// Not found; the longest run of its lines that matched ends before this line of the block (0-based), in the
  /// file named, if any line matched at all.
  case missing(firstUnmatchedLine: Int, closestFile: String?)
}

/// The lines of a text that code blocks are compared on: each line without its indentation and trailing spaces,
/// blank lines left out (a block is compiled inside a test function, indented, and may be split by blank lines).
func significantLines(_ lines: [String]) -> [String] {
  lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// Looks for `block`'s significant lines, contiguous and in order, in each of `files` (name, significant lines).
func findExample(_ block: [String], in files: [(name: String, lines: [String])]) -> ExampleMatch {
  let wanted = significantLines(block)
  guard !wanted.isEmpty else { return .found("") }
  var best = (length: 0, file: String?.none)
  for file in files {
    let lines = file.lines
    for start in lines.indices where lines[start] == wanted[0] {
      var length = 0
      while length < wanted.count, start + length < lines.count, lines[start + length] == wanted[length] {
        length += 1
      }
      if length == wanted.count { return .found(file.name) }
      if length > best.length { best = (length, file.name) }
    }
  }
  return .missing(firstUnmatchedLine: best.length, closestFile: best.file)
}

/// The examples' files under `Tests/DocumentationTests` whose names end in `suffix`, as (path, significant lines).
func exampleFiles(endingWith suffix: String) throws -> [(name: String, lines: [String])] {
  let folder = packageRoot.appendingPathComponent("Tests/DocumentationTests")
  guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
  var files: [(name: String, lines: [String])] = []
  for case let url as URL in walker where url.lastPathComponent.hasSuffix(suffix) {
    let text = try String(contentsOf: url, encoding: .utf8)
    files.append((relativePath(url), significantLines(text.components(separatedBy: "\n"))))
  }
  return files.sorted { $0.name < $1.name }
}

/// The articles whose `console` blocks ``KeyedToolArticleTests`` runs, command by command (DOC-022).
let articlesWithConsoleSessions: Set<String> = ["docs/Guides.docc/KeyedTool.md"]

@Suite("Documentation: the code of every article, landing page and the README is compiled and run")
struct CodeBlockTests {
  static let blocks: [CodeBlock] = {
    (try? documentationFiles())?.flatMap { url in
      CodeBlock.blocks(in: (try? String(contentsOf: url, encoding: .utf8)) ?? "", file: relativePath(url))
    } ?? []
  }()

  @Test("DOC-020: every swift block is code of a test in Tests/DocumentationTests, line for line")
  func swiftBlocksAreCompiled() throws {
    let files = try exampleFiles(endingWith: ".swift")
    let swift = Self.blocks.filter { $0.language == "swift" }
    #expect(swift.count >= 20, "too few swift blocks found: \(swift.count); is the package root right?")
    for block in swift {
      if case .missing(let line, let closest) = findExample(block.lines, in: files) {
        let unmatched = significantLines(block.lines)[line]
        Issue.record(
          """
          \(block): not found in any Swift file of Tests/DocumentationTests; \
          \(closest.map { "the closest, \($0), differs at" } ?? "no file has") the block's line \
          "\(unmatched)". Compile the block as it is shown (DOC-020).
          """)
      }
    }
  }

  @Test("DOC-021: every xml block is part of a resource file the examples load")
  func xmlBlocksAreResources() throws {
    let files = try exampleFiles(endingWith: ".xib") + exampleFiles(endingWith: ".storyboard")
    for block in Self.blocks where block.language == "xml" {
      if case .missing(let line, let closest) = findExample(block.lines, in: files) {
        Issue.record(
          "\(block): not part of any resource of Tests/DocumentationTests (closest: \(closest ?? "none"), line \(line))"
        )
      }
    }
  }

  @Test("DOC-022: every block names its language, and console sessions are only where a test runs them")
  func blocksNameTheirLanguage() {
    let known: Set<String> = ["swift", "xml", "console", "sh"]
    for block in Self.blocks {
      #expect(known.contains(block.language), "\(block): the info string must be one of \(known.sorted())")
      if block.language == "console" {
        #expect(articlesWithConsoleSessions.contains(block.file), "\(block): a console session no test runs")
      }
    }
  }

  @Test("DOC-020: the matcher finds a block split by blank lines and indented, and names the line that differs")
  func matcherReportsTheFirstDifference() {
    let file = (name: "Example.swift", lines: significantLines(["func f() {", "  let a = 1", "", "  let b = 2", "}"]))
    #expect(findExample(["let a = 1", "let b = 2"], in: [file]) == .found("Example.swift"))
    #expect(
      findExample(["let a = 1", "let b = 3"], in: [file])
        == .missing(firstUnmatchedLine: 1, closestFile: "Example.swift"))
    #expect(findExample(["let c = 1"], in: [file]) == .missing(firstUnmatchedLine: 0, closestFile: nil))
  }
}

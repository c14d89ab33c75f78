import Foundation
import KeyedArchive
import TestSupport
import Testing
import Typedstream

// Runs the `console` sessions of `docs/Guides.docc/KeyedTool.md` with the built `keyed`, in a folder holding the
// files they name, and compares what each command prints with what the article shows (DOC-022, DOC-037).

/// The built `keyed` executable next to the test bundle, or in `.build/debug`.
let keyedExecutable = ProcessRunner.builtProduct("keyed", packageRoot: packageRoot)

/// One command of a console session and what the article shows it printing.
struct ConsoleCommand: CustomStringConvertible {
  var arguments: [String]
  var expected: [String]
  var place: String
  var description: String { "\(place): $ \(arguments.joined(separator: " "))" }

  /// The commands of `block`: each line starting with `$ ` is a command (words split at spaces, single quotes
  /// grouping), the lines up to the next command what it prints.
  static func commands(in block: CodeBlock) -> [ConsoleCommand] {
    var commands: [ConsoleCommand] = []
    for (offset, line) in block.lines.enumerated() {
      if line.hasPrefix("$ ") {
        commands.append(
          ConsoleCommand(
            arguments: words(String(line.dropFirst(2))), expected: [],
            place: "\(block.file):\(block.line + 1 + offset)"))
      } else if !commands.isEmpty {
        commands[commands.count - 1].expected.append(line)
      }
    }
    return commands
  }

  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    for character in line {
      if character == "'" {
        quoted.toggle()
      } else if character == " " && !quoted {
        if !current.isEmpty { words.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}

@Suite(
  "Documentation: the keyed tool's sessions", .serialized,
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: keyedExecutable.path),
    "the keyed executable is not built (swift build): the article's sessions are not run"))
struct KeyedToolArticleTests {
  /// The files the sessions name, made the way the other articles make them.
  static func makeFixtures(in directory: URL) throws {
    let notebook = ideasNotebook()
    try KeyedArchiver.archive(notebook, to: directory.appendingPathComponent("Ideas.notebook"))
    notebook.pages[1].text = "Load the storyboards"
    try KeyedArchiver.archive(notebook, to: directory.appendingPathComponent("Ideas-2.notebook"))
    for name in ["Card", "ActionCard"] {
      let source = try #require(Bundle.module.url(forResource: name, withExtension: "xib"))
      try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent("\(name).xib"))
    }
    let message = NSAttributedString(string: "Noter test", attributes: [.init("__kIMMessagePartAttributeName"): 0])
    try TypedstreamArchiver.archivedData(withRootObject: message).write(to: directory.appendingPathComponent("body"))
  }

  @Test("DOC-022: every command of the keyed article's sessions prints what the article shows")
  func sessions() throws {
    let article = packageRoot.appendingPathComponent("docs/Guides.docc/KeyedTool.md")
    let blocks = CodeBlock.blocks(in: try String(contentsOf: article, encoding: .utf8), file: relativePath(article))
      .filter { $0.language == "console" }
    let commands = blocks.flatMap(ConsoleCommand.commands(in:))
    #expect(commands.count >= 8, "too few commands found in \(relativePath(article))")

    let directory = try makeDocumentationDirectory("keyed-article")
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.makeFixtures(in: directory)
    for command in commands {
      #expect(command.arguments.first == "keyed", "\(command): a session runs keyed only")
      let run = try ProcessRunner.run(keyedExecutable, Array(command.arguments.dropFirst()), in: directory)
      let (status, output) = (run.status, run.output)
      #expect(run.finished, "\(command) did not finish within a minute")
      let printed = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let shown = command.expected + [""]
      // `keyed diff` exits 1 when it finds differences; every other command shown succeeds.
      let expectedStatus: Int32 = command.arguments.dropFirst().first == "diff" && !command.expected.isEmpty ? 1 : 0
      #expect(status == expectedStatus, "\(command): exit status \(status)")
      #expect(
        printed == shown || (output.isEmpty && command.expected.isEmpty),
        "\(command) printed:\n\(output)")
    }
  }
}

import Foundation
import KeyedArchive
import Testing
import Typedstream

// Runs the `console` sessions of `docs/Guides.docc/KeyedTool.md` with the built `keyed`, in a folder holding the
// files they name, and compares what each command prints with what the article shows (DOC-022, DOC-037).

/// The built `keyed` executable next to the test bundle, or in `.build/debug`.
let keyedExecutable: URL = {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("keyed")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    directory = directory.deletingLastPathComponent()
  }
  return packageRoot.appendingPathComponent(".build/debug/keyed")
}()

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

/// Runs the built `keyed` in `directory`; returns its exit status and standard output.
func runKeyed(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = keyedExecutable
  process.arguments = arguments
  process.currentDirectoryURL = directory
  let outputFile = directory.appendingPathComponent(".stdout")
  FileManager.default.createFile(atPath: outputFile.path, contents: nil)
  let output = try FileHandle(forWritingTo: outputFile)
  defer { try? output.close() }
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  process.standardInput = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  let text = String(decoding: try Data(contentsOf: outputFile), as: UTF8.self)
  return (process.terminationStatus, text)
}

@Suite(
  "Documentation: the keyed tool's sessions", .serialized,
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: keyedExecutable.path),
    "the keyed executable is not built (swift build): the article's sessions are not run"))
struct KeyedToolArticleTests {
  /// The files the sessions name, made the way the other articles make them.
  static func makeFixtures(in directory: URL) throws {
    registerNotebookModel()
    let notebook = Notebook(title: "Ideas")
    for text in ["Archive the model", "Load the views"] {
      let page = Page(text: text)
      page.notebook = notebook
      notebook.pages.append(page)
    }
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
      let (status, output) = try runKeyed(Array(command.arguments.dropFirst()), in: directory)
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

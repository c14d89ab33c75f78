import Foundation

/// The package's root folder, from this file's place in `Tests/DocumentationTests`.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A fresh folder under the temporary directory; the caller removes it.
func makeDocumentationDirectory(_ prefix: String) throws -> URL {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory
}

/// One fenced code block of a Markdown file.
struct CodeBlock: CustomStringConvertible {
  /// The file, relative to the package root.
  var file: String
  /// The line of the opening fence, from 1.
  var line: Int
  /// The info string after the fence (`swift`, `console`, …).
  var language: String
  /// The lines between the fences.
  var lines: [String]

  var description: String { "\(file):\(line) (```\(language))" }

  /// Every fenced block of a Markdown text (backquote fences, as DocC and GitHub read them).
  static func blocks(in text: String, file: String) -> [CodeBlock] {
    var blocks: [CodeBlock] = []
    var open: CodeBlock?
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if var block = open {
        if trimmed == "```" {
          blocks.append(block)
          open = nil
        } else {
          block.lines.append(line)
          open = block
        }
      } else if trimmed.hasPrefix("```") {
        open = CodeBlock(file: file, line: index + 1, language: String(trimmed.dropFirst(3)), lines: [])
      }
    }
    return blocks
  }
}

/// The Markdown files whose code the rules DOC-020 to DOC-022 cover: every catalog's pages and the README.
func documentationFiles() throws -> [URL] {
  var files = [packageRoot.appendingPathComponent("README.md")]
  var catalogs = [packageRoot.appendingPathComponent("docs/Guides.docc")]
  let sources = packageRoot.appendingPathComponent("Sources")
  for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
    let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
    if FileManager.default.fileExists(atPath: catalog.path) { catalogs.append(catalog) }
  }
  for catalog in catalogs {
    guard let walker = FileManager.default.enumerator(at: catalog, includingPropertiesForKeys: nil) else { continue }
    for case let url as URL in walker where url.pathExtension == "md" { files.append(url) }
  }
  return files.sorted { $0.path < $1.path }
}

/// `url`'s path relative to the package root.
func relativePath(_ url: URL) -> String {
  let root = packageRoot.standardizedFileURL.path + "/"
  let path = url.standardizedFileURL.path
  return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
}

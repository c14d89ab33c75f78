import Foundation
import Testing

@testable import KeyedCommands

#if canImport(Glibc)
import Glibc
#endif

/// `keyed dump --json FILE…`, `-r DIRECTORY` and `keyed validate FILE…` (CLI-131 to CLI-133).
@Suite("Several files in one process")
struct MultipleFilesTests {
  /// A folder of inputs of every kind the tool reads, one of them malformed: an NSKeyedArchiver archive, an XML
  /// property list, a XIB, a typedstream (converted from the archive by the tool) and junk.
  static func makeInputs(_ directory: URL) throws -> (good: [String], bad: String) {
    let archive = directory.appendingPathComponent("archive.bin")
    try PropertyListSupport.sampleArchive().write(to: archive)
    let xml = directory.appendingPathComponent("list.xml")
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>name</key><string>é</string><key>n</key><integer>3</integer></dict></plist>
      """.utf8
    ).write(to: xml)
    let strings = try NSKeyedArchiver.archivedData(
      withRootObject: ["one", 2, 3.5] as NSArray, requiringSecureCoding: false)
    let stringsArchive = directory.appendingPathComponent("strings.archive")
    try strings.write(to: stringsArchive)
    let typedstream = directory.appendingPathComponent("strings.typedstream")
    let converted = keyed("convert", stringsArchive.path, "-o", typedstream.path, "--format", "typedstream")
    #expect(converted.status == 0, "\(converted.errors)")
    var good = [archive.path, xml.path, typedstream.path]
    if let xib = ScenarioResources.url?.appendingPathComponent("ConnectedActionsView.xib") { good.append(xib.path) }
    let bad = directory.appendingPathComponent("truncated.bin")
    try PropertyListSupport.sampleArchive().prefix(200).write(to: bad)
    return (good, bad.path)
  }

  /// The one JSON object of a line, with its `file` and either `value` or `error`.
  static func line(_ text: Substring) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? [String: Any])
  }

  @Test(
    "CLI-131, CLI-133: dump --json of several files prints one JSON line per file; a bad one is an error line, exit 65")
  func jsonLines() throws {
    let directory = try makeTemporaryDirectory("keyed-lines")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (good, bad) = try Self.makeInputs(directory)
    let files = Array(good.prefix(2)) + [bad] + good.dropFirst(2)
    let result = KeyedTool.run(["dump", "--json"] + files)
    #expect(result.status == 65)
    let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == files.count + 1 && lines.last == "", "one line per file: \(result.output)")
    for (file, text) in zip(files, lines) {
      // Written as {"file": …, then the value's canonical JSON exactly as a single dump prints it.
      let single = KeyedTool.run(["dump", "--json", file])
      let object = try Self.line(text)
      #expect(object["file"] as? String == file)
      if file == bad {
        #expect(single.status == 65)
        let message = String(single.errors.dropFirst("keyed: ".count).dropLast())
        #expect(object["error"] as? String == message, "\(text)")
        #expect(object["value"] == nil)
        #expect(text == "{\"file\":\(CanonicalJSONText.quoted(file)),\"error\":\(CanonicalJSONText.quoted(message))}")
      } else {
        #expect(single.status == 0, "\(file): \(single.errors)")
        #expect(text == "{\"file\":\(CanonicalJSONText.quoted(file)),\"value\":\(single.output.dropLast())}", "\(file)")
        #expect(object["error"] == nil)
      }
    }
    // The bad file's diagnostic also goes to standard error, as for one file.
    #expect(result.errors == KeyedTool.run(["dump", "--json", bad]).errors)
    // Without the bad file: exit 0. `--raw` gives the raw views, one per line (of the archive, the property list
    // and the typedstream; a XIB has none).
    #expect(KeyedTool.run(["dump", "--json"] + good).status == 0)
    let raw = KeyedTool.run(["dump", "--raw", "--json"] + good.prefix(3))
    #expect(raw.status == 0)
    for (file, text) in zip(good.prefix(3), raw.output.split(separator: "\n")) {
      #expect(text.hasSuffix(",\"value\":\(KeyedTool.run(["dump", "--raw", "--json", file]).output.dropLast())}"))
    }
    // A missing file is an error line too.
    let missing = KeyedTool.run(["dump", "--json", good[0], directory.appendingPathComponent("absent").path])
    #expect(missing.status == 65)
    #expect(
      try Self.line(missing.output.split(separator: "\n")[1])["error"] as? String
        == "\(directory.path)/absent: no such file")
  }

  @Test("CLI-131: one file keeps its own output; several files need --json and one line each (no --pretty, --dot)")
  func oneFileAsBefore() throws {
    let directory = try makeTemporaryDirectory("keyed-one")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (good, _) = try Self.makeInputs(directory)
    let single = KeyedTool.run(["dump", "--json", good[0]])
    #expect(single.status == 0)
    #expect(!single.output.contains("\"file\""))
    #expect(single.output.hasPrefix("{\"count\":3,"), "\(single.output)")
    for extra in [[], ["--pretty"], ["--dot"]] {
      let refused = KeyedTool.run(["dump"] + (extra.isEmpty ? [] : ["--json"]) + extra + good)
      #expect(refused.status == 64, "\(extra)")
      #expect(refused.output.isEmpty)
    }
    // With -r, a file argument is read as itself, as one line.
    let recursive = KeyedTool.run(["dump", "--json", "-r", good[0]])
    #expect(
      recursive.output == "{\"file\":\(CanonicalJSONText.quoted(good[0])),\"value\":\(single.output.dropLast())}\n")
  }

  @Test(
    "CLI-131: -r reads every regular file below a directory in path order; links, FIFOs and sockets below it are left")
  func recursiveOrder() throws {
    let root = try makeTemporaryDirectory("keyed-tree")
    defer { try? FileManager.default.removeItem(at: root) }
    let manager = FileManager.default
    let sample = try PropertyListSupport.sampleArchive()
    // `a-c` sorts before `a/b` (`-` is 0x2D, `/` 0x2F): the order of whole paths, not a walk folder by folder.
    for path in ["b.plist", "a/b.plist", "a-c.plist", "a/z/deep.plist", "Z.plist", "é.plist"] {
      let url = root.appendingPathComponent(path)
      try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try sample.write(to: url)
    }
    try manager.createSymbolicLink(
      atPath: root.appendingPathComponent("link.plist").path, withDestinationPath: "b.plist")
    try manager.createSymbolicLink(atPath: root.appendingPathComponent("a/loop").path, withDestinationPath: "..")
    #expect(mkfifo(root.appendingPathComponent("pipe.fifo").path, 0o600) == 0)
    let expected = ["Z.plist", "a-c.plist", "a/b.plist", "a/z/deep.plist", "b.plist", "é.plist"].map {
      root.path + "/" + $0
    }
    let started = ContinuousClock.now
    let result = KeyedTool.run(["dump", "--json", "-r", root.path])
    #expect(ContinuousClock.now - started < .seconds(4), "the FIFO was opened")
    #expect(result.status == 0, "\(result.errors)")
    let files = try result.output.split(separator: "\n").map { try Self.line($0)["file"] as? String }
    #expect(files == expected)
    // The directory named through a link is followed (only links below it are not); a trailing slash adds none.
    let link = root.deletingLastPathComponent().appendingPathComponent("\(root.lastPathComponent)-link")
    try manager.createSymbolicLink(atPath: link.path, withDestinationPath: root.path)
    defer { try? manager.removeItem(at: link) }
    let throughLink = KeyedTool.run(["validate", "-r", link.path + "/"])
    #expect(throughLink.status == 0)
    let summary = KeyedTool.run(["validate", expected[0]]).output.dropFirst(expected[0].count)
    #expect(throughLink.output == expected.map { "\(link.path)\($0.dropFirst(root.path.count))\(summary)" }.joined())
    // Arguments keep their order; each directory's files are sorted among themselves.
    let two = KeyedTool.run(["dump", "--json", "-r", root.appendingPathComponent("a").path, expected[0]])
    #expect(
      try two.output.split(separator: "\n").map { try Self.line($0)["file"] as? String } == [
        expected[2], expected[3], expected[0],
      ])
  }

  @Test("CLI-131, CLI-133: a file or folder that cannot be read is an error line in its place, and the exit is 65")
  func unreadable() throws {
    let root = try makeTemporaryDirectory("keyed-unreadable")
    defer {
      chmod(root.appendingPathComponent("closed").path, 0o700)
      try? FileManager.default.removeItem(at: root)
    }
    let sample = try PropertyListSupport.sampleArchive()
    try sample.write(to: root.appendingPathComponent("a.plist"))
    try sample.write(to: root.appendingPathComponent("locked.plist"))
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("closed"), withIntermediateDirectories: true)
    try sample.write(to: root.appendingPathComponent("closed/inside.plist"))
    chmod(root.appendingPathComponent("locked.plist").path, 0)
    chmod(root.appendingPathComponent("closed").path, 0)
    // A dangling link named on the command line is a file that does not exist.
    let dangling = root.appendingPathComponent("dangling").path
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere")
    let result = KeyedTool.run(["dump", "--json", "-r", root.path, dangling])
    #expect(result.status == 65)
    let lines = try result.output.split(separator: "\n").map { try Self.line($0) }
    #expect(lines.last?["file"] as? String == dangling)
    #expect(lines.last?["error"] as? String == "\(dangling): no such file")
    #expect(lines.first?["file"] as? String == root.path + "/a.plist")
    guard geteuid() != 0 else { return }  // permissions do not stop the superuser
    #expect(
      lines.map { $0["file"] as? String } == ["a.plist", "closed", "locked.plist"].map { root.path + "/" + $0 } + [
        dangling
      ])
    #expect((lines[1]["error"] as? String)?.hasPrefix("\(root.path)/closed: cannot be read (") == true)
    #expect((lines[2]["error"] as? String)?.hasPrefix("\(root.path)/locked.plist: cannot be read") == true)
  }

  @Test(
    "CLI-132, CLI-133: validate of several files prints each file's usual line; the status is the worst (0, else 65)")
  func validateMany() throws {
    let directory = try makeTemporaryDirectory("keyed-validate")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (good, bad) = try Self.makeInputs(directory)
    let all = KeyedTool.run(["validate"] + good)
    #expect(all.status == 0)
    #expect(all.output == good.map { KeyedTool.run(["validate", $0]).output }.joined())
    #expect(all.output.split(separator: "\n").count == good.count)
    let mixed = KeyedTool.run(["validate", good[0], bad, good[1]])
    #expect(mixed.status == 65)
    #expect(mixed.output == KeyedTool.run(["validate", good[0]]).output + KeyedTool.run(["validate", good[1]]).output)
    #expect(mixed.errors == KeyedTool.run(["validate", bad]).errors)
  }

  @Test("CLI-004, CLI-131: the executable prints the lines as it reads the files, the same as in-process")
  func executable() throws {
    let directory = try makeTemporaryDirectory("keyed-exec-lines")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (good, bad) = try Self.makeInputs(directory)
    let arguments = ["dump", "--json", "-r", directory.path] + good + [bad]
    let run = try runExecutable(arguments)
    let inProcess = KeyedTool.run(arguments)
    #expect(run.status == 65)
    #expect(run.output == inProcess.output)
    #expect(run.errors == inProcess.errors)
  }
}

/// JSON string literals as the tool writes them.
enum CanonicalJSONText {
  static func quoted(_ text: String) -> String {
    let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
    return String(String(decoding: data ?? Data(), as: UTF8.self).dropFirst().dropLast())
  }
}

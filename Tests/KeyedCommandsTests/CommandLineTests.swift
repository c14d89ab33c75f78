import Foundation
import PropertyList
import Testing

@testable import KeyedCommands

#if canImport(Glibc)
import Glibc
#endif

@Suite("The keyed command line")
struct CommandLineTests {
  static let archive: Data = {
    let result = try? PropertyListSupport.sampleArchive()
    return result ?? Data()
  }()

  func temporaryFile(_ data: Data, name: String = "input") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-\(UUID().uuidString)-\(name)")
    try data.write(to: url)
    return url
  }

  @Test(
    "CLI-002: junk, empty, directory, missing and stdin inputs give their exit codes and a one-line diagnostic naming the input"
  )
  func badInputs() throws {
    let junk = try temporaryFile(Data("this is not a plist at all".utf8), name: "junk.bin")
    let empty = try temporaryFile(Data(), name: "empty.bin")
    let directory = FileManager.default.temporaryDirectory
    defer {
      try? FileManager.default.removeItem(at: junk)
      try? FileManager.default.removeItem(at: empty)
    }
    for verb in ["dump", "validate"] {
      let cases: [(String, Int32, String)] = [
        (junk.path, 65, junk.path), (empty.path, 65, empty.path), (directory.path, 65, directory.path),
        ("/nonexistent/nowhere.plist", 1, "/nonexistent/nowhere.plist"),
      ]
      for (path, status, named) in cases {
        let result = keyed(verb, path)
        #expect(result.status == status, "\(verb) \(path): \(result.errors)")
        #expect(result.errors.split(separator: "\n").count == 1, "\(verb) \(path): one line: \(result.errors)")
        #expect(result.errors.contains(named), "\(verb) \(path): names the input")
        #expect(result.output.isEmpty)
      }
      let stdinJunk = keyed(verb, "-", input: Data("junk".utf8))
      #expect(stdinJunk.status == 65)
      #expect(stdinJunk.errors.contains("<stdin>"))
    }
  }

  @Test("CLI-002: a FIFO is read once: without a writer it fails after a short wait (exit 1), with one it is read")
  func fifoInputs() throws {
    let directory = try makeTemporaryDirectory("fifo")
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("input.fifo")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    // No writer: opening for reading used to block forever. The built executable, so a hang cannot stop the tests.
    // (One verb: every verb reads a stream through the same function, and each waits the full 5 s here.)
    for verb in ["dump"] {
      let process = Process()
      process.executableURL = keyedExecutable
      process.arguments = [verb, fifo.path]
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let started = Date()
      let deadline = started.addingTimeInterval(30)
      while process.isRunning, Date() < deadline { usleep(10_000) }
      let hung = process.isRunning
      if hung { process.terminate() }
      process.waitUntilExit()
      #expect(!hung, "\(verb) waited for a writer")
      // One wait of 5 s: a failed read is not tried again by a later step of the same verb.
      #expect(Date().timeIntervalSince(started) < 9, "\(verb) waited more than once")
      #expect(process.terminationStatus == 1, "\(verb)")
      let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(text.contains("input.fifo") && text.contains("nothing wrote to it"), "\(verb): \(text)")
    }
    // With a writer, the archive arrives through the FIFO, and a XIB too (told from its bytes, read once).
    let archive = try temporaryFile(Self.archive, name: "archive.bin")
    defer { try? FileManager.default.removeItem(at: archive) }
    let xib = try #require(ScenarioResources.url?.appendingPathComponent("ConnectedActionsView.xib"))
    for (file, verb) in [(archive, "dump"), (xib, "dump"), (xib, "validate")] {
      let writer = Process()
      writer.executableURL = URL(fileURLWithPath: "/bin/sh")
      writer.arguments = ["-c", "cat \"$0\" > \"$1\"", file.path, fifo.path]
      try writer.run()
      let result = try runExecutable([verb, "--json", fifo.path].filter { verb == "dump" || $0 != "--json" })
      writer.waitUntilExit()
      let direct = try runExecutable([verb, "--json", file.path].filter { verb == "dump" || $0 != "--json" })
      #expect(result.status == 0, "\(verb) \(file.lastPathComponent): \(result.errors)")
      #expect(result.output.replacingOccurrences(of: fifo.path, with: file.path) == direct.output)
    }
  }

  @Test("CLI-001: options and the file may come in any order; unknown options and missing files are usage errors (64)")
  func argumentOrder() throws {
    let url = try temporaryFile(Self.archive)
    defer { try? FileManager.default.removeItem(at: url) }
    let first = keyed("dump", "--json", url.path)
    let second = keyed("dump", url.path, "--json")
    #expect(first.status == 0)
    #expect(first.output == second.output)
    #expect(keyed("dump", "--bogus", url.path).status == 64)
    #expect(keyed("dump").status == 64)
    #expect(keyed("frobnicate").status == 64)
    #expect(keyed().status == 64)
  }

  @Test("CLI-010: dump --raw --json prints the property list itself with UIDs as {\"$uid\": N}")
  func rawDump() throws {
    let result = keyed("dump", "--raw", "--json", "-", input: Self.archive)
    #expect(result.status == 0)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(json["$archiver"] as? String == "NSKeyedArchiver")
    let top = try #require(json["$top"] as? [String: Any])
    #expect((top["root"] as? [String: Any])?["$uid"] as? Int != nil)
  }

  @Test("CLI-011, CLI-020: dump --json decodes the archive graph; convert to XML and back keeps it identical")
  func convertRoundTrip() throws {
    let input = try temporaryFile(Self.archive)
    let xml = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-\(UUID().uuidString).xml")
    let binary = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-\(UUID().uuidString).bin")
    defer { for url in [input, xml, binary] { try? FileManager.default.removeItem(at: url) } }
    let original = keyed("dump", "--json", input.path)
    #expect(original.status == 0)
    #expect(original.output.contains("\"$class\":\"NSNull\""))
    #expect(keyed("convert", input.path, "-o", xml.path, "--format", "xml").status == 0)
    #expect(String(decoding: try Data(contentsOf: xml), as: UTF8.self).contains("<key>CF$UID</key>"))
    #expect(keyed("convert", xml.path, "-o", binary.path).status == 0)
    #expect(keyed("dump", "--json", xml.path).output == original.output)
    #expect(keyed("dump", "--json", binary.path).output == original.output)
    #expect(keyed("convert", input.path, "-o", xml.path, "--format", "yaml").status == 64)
  }

  @Test(
    "CLI-003: every verb's help has the OVERVIEW / USAGE / OPTIONS layout and matches its snapshot",
    arguments: [
      "dump", "convert", "validate", "instantiate", "compile", "demo", "help", "diff", "render",
    ])
  func helpSnapshots(verb: String) throws {
    let result = keyed(verb, "--help")
    #expect(result.status == 0)
    for heading in ["OVERVIEW:", "USAGE:", "OPTIONS:"] {
      #expect(result.output.contains(heading), "\(verb): \(heading)")
    }
    let snapshot = packageRoot.appendingPathComponent("Tests/KeyedCommandsTests/Snapshots/help-\(verb).txt")
    if ProcessInfo.processInfo.environment["KEYED_RECORD_SNAPSHOTS"] != nil {
      try Data(result.output.utf8).write(to: snapshot)
    }
    let expected = try String(contentsOf: snapshot, encoding: .utf8)
    #expect(result.output == expected, "help for \(verb) changed; rerun with KEYED_RECORD_SNAPSHOTS=1 to accept")
  }

  @Test("CLI-050: the demo runs every scenario and ends by pointing at the next commands")
  func demo() throws {
    let result = keyed("demo")
    #expect(result.status == 0, "\(result.errors)")
    for section in [
      "1. Archive a model graph with a cycle", "2. Five ways to load a view from a XIB",
      "3. A view that loads its own XIB", "4. Code-built versus XIB-built views", "5. Table cells from a cached Nib",
      "6. A storyboard's view controllers", "7. A picture of a XIB", "Next, try:",
    ] {
      #expect(result.output.contains(section), "\(section)")
    }
    #expect(result.output.contains("same object: true"))
    #expect(result.output.contains("action cav-bt-001 connectedActionsViewTouchedUp: -1 touchUpInside"))
    #expect(result.output.contains("the view is now removed"))
    #expect(result.output.contains("decoupledViewTouchedUp, decoupledViewDidDismiss"))
    // NIB-316: the storyboard's trace shows the message prepared before its view loads, and the tab's transition.
    let tour = result.output.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let prepared = try #require(tour.firstIndex(of: #"Inbox prepare(for: "showMessage") → Message"#))
    let loaded = try #require(tour.firstIndex(of: "Message viewDidLoad"))
    #expect(prepared < loaded)
    #expect(result.output.contains(#"The message screen's label reads "Lunch on Friday?""#))
    let settings = try #require(tour.firstIndex(of: "Settings viewWillAppear"))
    #expect(tour[..<settings].last { $0.hasSuffix("viewWillDisappear") } == "Unread viewWillDisappear")
  }

  @Test("CLI-001: `-` reads standard input in every verb and for every format: XIB, NIBArchive nib, archive")
  func standardInputEveryFormat() throws {
    var inputs: [(name: String, url: URL)] = []
    if let xib = ScenarioResources.url?.appendingPathComponent("ConnectedActionsView.xib") {
      inputs.append(("XIB", xib))
    }
    // The first NIBArchive of the corpus, when it is there.
    if let nib = NIBArchiveCommandTests.files.first { inputs.append(("NIBArchive", nib)) }
    let archive = try temporaryFile(Self.archive, name: "archive.plist")
    defer { try? FileManager.default.removeItem(at: archive) }
    inputs.append(("archive", archive))
    #expect(inputs.count >= 2)
    let forms: [[String]] = [["dump"], ["dump", "--json"], ["validate"], ["instantiate", "--stats", "--json"]]
    for (name, url) in inputs {
      let bytes = try Data(contentsOf: url)
      for form in forms where !(name == "archive" && form[0] == "instantiate") {
        let fromPath = KeyedTool.run(form + [url.path])
        let fromInput = KeyedTool.run(form + ["-"], standardInput: { bytes })
        #expect(fromPath.status == 0, "\(name) \(form): \(fromPath.errors)")
        #expect(fromInput.status == 0, "\(name) \(form) -: \(fromInput.errors)")
        // The same output, the input's name aside (`validate` names it).
        #expect(
          fromInput.output.replacingOccurrences(of: "<stdin>", with: url.path) == fromPath.output,
          "\(name) \(form)")
      }
    }
  }

  @Test("CLI-002: a file past 1 GiB is refused before it is read; standard input is read up to the same bound")
  func inputBound() throws {
    // A sparse file of 1 GiB and one byte, with a binary plist's magic: refused at once, without reading it.
    let big = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-\(UUID().uuidString)-big")
    defer { try? FileManager.default.removeItem(at: big) }
    try Data("bplist00".utf8).write(to: big)
    #expect(truncate(big.path, off_t(Context.maxInputBytes) + 1) == 0)
    for verb in ["dump", "validate", "instantiate"] {
      let started = ContinuousClock.now
      let result = keyed(verb, big.path)
      #expect(result.status == 65, "\(verb): \(result.errors)")
      #expect(result.errors.contains("more than the \(Context.maxInputBytes) an input may hold"), "\(verb)")
      #expect(ContinuousClock.now - started < .seconds(5), "\(verb): read before it was refused")
    }
    // A .nib directory whose member is that large: refused as well, before the member is read.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-\(UUID().uuidString).nib")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let member = directory.appendingPathComponent("keyedobjects.nib")
    try Data("bplist00".utf8).write(to: member)
    #expect(truncate(member.path, off_t(Context.maxInputBytes) + 1) == 0)
    for verb in ["dump", "validate", "instantiate"] {
      let result = keyed(verb, directory.path)
      #expect(result.status == 65, "\(verb) of the directory: \(result.errors)")
      #expect(result.errors.contains("keyedobjects.nib"), "\(verb): names the member")
    }
    // Standard input is read as a pipe is, with the bound (here a small one, on /dev/zero, which never ends).
    let zero = open("/dev/zero", O_RDONLY)
    #expect(zero >= 0)
    defer { close(zero) }
    #expect(throws: Context.InputError.self) {
      try Context.readToEnd(descriptor: zero, path: "<stdin>", limit: 1 << 20)
    }
    // An error reading standard input ends the command with it, for every format test the verb makes first.
    let failing = KeyedTool.run(["dump", "-"]) {
      throw Context.InputError(message: "<stdin>: more than 9 bytes", status: KeyedTool.ExitCode.dataError)
    }
    #expect(failing.status == 65)
    #expect(failing.errors.contains("<stdin>: more than 9 bytes"))
  }

  @Test("CLI-021: validate instantiates a keyed-archive nib as instantiate does: both refuse a broken one")
  func validateKeyedArchiveNib() throws {
    // A macOS nib: NSIBObjectData whose NSObjectsKeys (3) and NSObjectsValues (`values`) lists are the
    // objects' parents; well formed when both have 3 entries.
    func nib(values: Int) throws -> Data {
      let array: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]
      return try PropertyListWriter.write([
        "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["IB.objectdata": .uid(1)],
        "$objects": [
          "$null",
          [
            "$class": .uid(2), "NSRoot": .uid(3), "NSObjectsKeys": .uid(4), "NSObjectsValues": .uid(5),
            "NSOidsKeys": .uid(4), "NSOidsValues": .uid(6), "NSConnections": .uid(6),
          ],
          ["$classname": "NSIBObjectData", "$classes": ["NSIBObjectData", "NSObject"]],
          ["$class": .uid(7), "NSClassName": .uid(8)],
          ["$class": .uid(9), "NS.objects": [.uid(3), .uid(3), .uid(1)]],
          ["$class": .uid(9), "NS.objects": .array(Array(repeating: .uid(3), count: values))],
          ["$class": .uid(9), "NS.objects": []],
          ["$classname": "NSCustomObject", "$classes": ["NSCustomObject", "NSObject"]], "NSApplication", array,
        ],
      ])
    }
    let good = try temporaryFile(try nib(values: 3), name: "good.nib")
    let broken = try temporaryFile(try nib(values: 1), name: "broken.nib")
    defer { for url in [good, broken] { try? FileManager.default.removeItem(at: url) } }
    #expect(keyed("instantiate", "--stats", "--json", good.path).status == 0)
    let valid = keyed("validate", good.path)
    #expect(valid.status == 0, "\(valid.errors)")
    #expect(valid.output.contains("valid nib document"), "\(valid.output)")
    #expect(keyed("instantiate", broken.path).status == 65)
    let refused = keyed("validate", broken.path)
    #expect(refused.status == 65, "\(refused.output)")
    #expect(refused.errors.contains("NSObjectsKeys"), "\(refused.errors)")
  }

  @Test("CLI-020: convert to XML refuses a set, which XML property lists cannot hold, and writes nothing")
  func convertRefusesSetsInXML() throws {
    let value = PropertyListValue.dictionary(
      PropertyListDictionary([(.string("members"), .set([.string("b"), .string("a"), .integer(10)]))]))
    let input = try temporaryFile(try PropertyListWriter.write(value), name: "set.bplist")
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-\(UUID().uuidString).xml")
    defer { for url in [input, out] { try? FileManager.default.removeItem(at: url) } }
    let result = keyed("convert", input.path, "-o", out.path, "--format", "xml")
    #expect(result.status == 65)
    #expect(
      result.errors.contains(input.path) && result.errors.contains("no sets") && result.errors.contains("members"))
    #expect(!FileManager.default.fileExists(atPath: out.path))
    // Binary holds sets: converted, the dump is the same.
    #expect(keyed("convert", input.path, "-o", out.path).status == 0)
    #expect(keyed("dump", "--raw", "--json", out.path).output == keyed("dump", "--raw", "--json", input.path).output)
    #expect(keyed("dump", "--raw", "--json", out.path).output.contains(#"{"$set":["a","b",10]}"#))
  }

  @Test("CLI-001: demo takes no file argument: an extra one is a usage error")
  func demoExtraArgument() {
    let result = keyed("demo", "extra")
    #expect(result.status == 64)
    #expect(result.errors.contains("extra"))
  }

  @Test("CLI-004: the built executable runs end to end: version, dump from stdin, exit statuses")
  func executable() throws {
    let version = try runExecutable(["--version"])
    #expect(version.status == 0)
    #expect(version.output.hasPrefix("keyed "))
    let dump = try runExecutable(["dump", "--json", "-"], stdin: Self.archive)
    #expect(dump.status == 0)
    #expect(dump.output == keyed("dump", "--json", "-", input: Self.archive).output)
    // A XIB on standard input: its format is told from the bytes, which are read once.
    if let xib = ScenarioResources.url?.appendingPathComponent("ConnectedActionsView.xib") {
      let fromInput = try runExecutable(["dump", "--json", "-"], stdin: try Data(contentsOf: xib))
      #expect(fromInput.status == 0, "\(fromInput.errors)")
      #expect(fromInput.output == keyed("dump", "--json", xib.path).output)
    }
    let junk = try runExecutable(["validate", "-"], stdin: Data("junk".utf8))
    #expect(junk.status == 65)
    #expect(junk.errors.contains("<stdin>"))
    let usage = try runExecutable(["dump", "--nope"])
    #expect(usage.status == 64)
  }
}

/// A small archive made by the toolchain's own NSKeyedArchiver, so the tool is tested on a peer's output.
enum PropertyListSupport {
  static func sampleArchive() throws -> Data {
    let root: NSDictionary = [
      "name": "sample", "count": 3, "list": [1, 2.5, "three", NSNull()],
      "date": NSDate(timeIntervalSinceReferenceDate: 10),
    ]
    return try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
  }
}

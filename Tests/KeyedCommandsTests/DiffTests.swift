import ArchiveCoding
import ArchiveComparison
import ArchiveTesting
import Foundation
import InterfaceComparison
import KeyedArchive
import PropertyList
import TestSupport
import Testing

@testable import KeyedCommands

/// `keyed diff` and ``ArchiveComparison`` (`Specs/CommandLineTool.md` CLI-080…CLI-084, `Specs/ArchiveFormat.md`
/// ARC-170…ARC-176): archives built here, the toolchain's `NSKeyedArchiver`, the scenario XIBs, and the revisions of
/// the same nibs in `../shared/corpus/nib`.
@Suite("keyed diff")
struct DiffTests {
  // MARK: Generated archives

  /// A library archive: root (1) holds `books` (an NSArray, 3) of two books (4, 5) whose `library` is the root (a
  /// cycle through the array), and `featured`, which is book 4 again when `sharesFeatured`, else book 5.
  static func library(
    titles: (String, String) = ("Dune", "Emma"), sharesFeatured: Bool = true, year: Int64 = 1965
  ) throws -> Data {
    let book = { (title: Int) -> PropertyListValue in
      ["$class": .uid(6), "title": .uid(UInt64(title)), "library": .uid(1), "year": .integer(year)]
    }
    let objects: [PropertyListValue] = [
      ["$class": .uid(2), "books": .uid(3), "featured": .uid(sharesFeatured ? 4 : 5)],
      DumpOrderTests.classDescription("Library"),
      ["$class": .uid(7), "NS.objects": [.uid(4), .uid(5)]],
      book(8), book(9),
      DumpOrderTests.classDescription("Book"),
      DumpOrderTests.classDescription("NSArray"),
      .string(titles.0), .string(titles.1),
    ]
    return try BinaryPropertyListWriter.write(DumpOrderTests.archive(objects, top: ["root": 1]))
  }

  /// Writes `files` (name, bytes) into a new temporary directory and returns their paths.
  static func write(_ files: [(String, Data)]) throws -> (directory: URL, paths: [String]) {
    let directory = try makeTemporaryDirectory("keyed-diff")
    var paths: [String] = []
    for (name, data) in files {
      let url = directory.appendingPathComponent(name)
      try data.write(to: url)
      paths.append(url.path)
    }
    return (directory, paths)
  }

  @Test("CLI-080: equal inputs print nothing and exit 0, also when their bytes differ (binary against XML)")
  func equalInputs() throws {
    let archive = try Self.library()
    let xml = try XMLPropertyListWriter.write(try PropertyListReader.read(archive))
    let (directory, paths) = try Self.write([("a.plist", archive), ("b.plist", xml)])
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runExecutable(["diff", paths[0], paths[1]])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.isEmpty)
    #expect(try runExecutable(["diff", "--json", paths[0], paths[0]]).output == "[]\n")
  }

  @Test("ARC-315, CLI-080: a file and its copy print nothing and exit 0; a copy the reader refuses exits 65 naming it")
  func storedAlike() throws {
    let archive = try Self.library()
    // The copy holds one more object, which nothing reaches and which refers past the list: its value is the
    // archive's, stored alike, but the reader's checks refuse it.
    let refused = Data(RawPropertyList.appendingArray(to: [UInt8](archive)) { count in count + 5 })
    let (directory, paths) = try Self.write([("a.archive", archive), ("copy.archive", archive), ("b.archive", refused)])
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(ComparedDocument.storedAlike(interfaceData: archive, refused, fileNames: ("A", "B")) != nil)
    let equal = try runExecutable(["diff", paths[0], paths[1]])
    #expect(equal.status == 0 && equal.output.isEmpty, "\(equal.errors)")
    #expect(try runExecutable(["diff", "--json", paths[0], paths[1]]).output == "[]\n")
    for (first, second, named) in [(paths[0], paths[2], "b.archive"), (paths[2], paths[0], "b.archive")] {
      let result = try runExecutable(["diff", first, second])
      #expect(result.status == 65 && result.output.isEmpty, "\(result.errors)")
      #expect(result.errors.contains(named) && !result.errors.contains("a.archive"), "\(result.errors)")
    }
  }

  @Test(
    "ARC-315: a keyed-archive nib and its copy are compared by their objects, not as archives stored alike",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent: the corpus nib is not read"))
  func nibStoredAlike() throws {
    let url = try #require(Self.corpusNib(Self.revisions.0)).appendingPathComponent("keyedobjects.nib")
    let nib = try Data(contentsOf: url)
    let copy = Data(Array(nib))
    #expect(ComparedDocument.storedAlike(nib, copy, fileNames: ("A", "B")) != nil)
    #expect(ComparedDocument.storedAlike(interfaceData: nib, copy, fileNames: ("A", "B")) == nil)
    #expect(try InterfaceComparison.differences(between: nib, and: copy).isEmpty)
  }

  @Test("ARC-170, CLI-081: a changed value is one line, <path>: <A> -> <B>, the path from the root; exit 1")
  func changedTitle() throws {
    let (directory, paths) = try Self.write([
      ("a.plist", try Self.library()), ("b.plist", try Self.library(titles: ("Dune", "Ulysses"))),
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let text = try runExecutable(["diff", paths[0], paths[1]])
    #expect(text.status == 1)
    #expect(text.output == "root.books[1].title: \"Emma\" -> \"Ulysses\"\n")
    let json = try runExecutable(["diff", paths[0], "--json", paths[1]])
    #expect(json.status == 1)
    #expect(json.output == #"[{"a":"Emma","b":"Ulysses","path":"root.books[1].title"}]"# + "\n")
    let standardInput = try runExecutable(["diff", "-", paths[1]], stdin: try Self.library())
    #expect(standardInput.output == text.output)
  }

  @Test("ARC-171: a shared object is compared once, where the walk first meets it")
  func sharedObjectComparedOnce() throws {
    let differences = try InterfaceComparison.differences(
      between: try Self.library(), and: try Self.library(year: 1966))
    // Both books change; book 4 is reached twice (books[0] and featured) and reported once.
    #expect(differences.map(\.path) == ["root.books[0].year", "root.books[1].year"])
    #expect(differences.first?.description == "root.books[0].year: 1965 -> 1966")
  }

  @Test("ARC-172: cycles end where they close; a difference in what is shared is reported with both paths")
  func cyclesAndSharing() throws {
    // Every book refers back to the root: the walk ends and finds the graphs equal.
    #expect(try InterfaceComparison.differences(between: try Self.library(), and: try Self.library()).isEmpty)
    let differences = try InterfaceComparison.differences(
      between: try Self.library(), and: try Self.library(sharesFeatured: false))
    #expect(
      differences == [
        ArchiveDifference(
          path: "root.featured", change: .sharing,
          old: .init(kind: .reference, json: #"{"$ref":"root.books[0]"}"#),
          new: .init(kind: .reference, json: #"{"$ref":"root.books[1]"}"#))
      ])
  }

  @Test("ARC-170: archives written by the toolchain's NSKeyedArchiver and by KeyedArchiver compare equal")
  func foundationInterop() throws {
    let value: [String: Any] = ["books": [["title": "Dune", "year": 1965], ["title": "Emma"]], "name": "Shelf"]
    let theirs = FoundationOracle.archive(value as NSDictionary)
    let ours = try KeyedArchiver.archivedData(withRootObject: value as NSDictionary)
    #expect(try InterfaceComparison.differences(between: theirs, and: ours).isEmpty)
    let changed: [String: Any] = ["books": [["title": "Dune", "year": 1966], ["title": "Emma"]], "name": "Shelf"]
    let differences = try InterfaceComparison.differences(
      between: theirs, and: FoundationOracle.archive(changed as NSDictionary))
    #expect(differences.map(\.description) == ["root.books[0].year: 1965 -> 1966"])
  }

  @Test("ARC-175: property lists compare from the root; an inserted element is one difference, not one per index")
  func propertyLists() throws {
    let a: PropertyListValue = ["name": "x", "tags": ["a", "b", "c", "d"], "size": 1]
    let b: PropertyListValue = ["name": "x", "tags": ["a", "new", "b", "c", "d"], "weird key": true]
    let differences = try InterfaceComparison.differences(
      between: try BinaryPropertyListWriter.write(a), and: try XMLPropertyListWriter.write(b))
    #expect(
      differences.map(\.description) == [
        "root.size: 1 -> (absent)", "root.tags[1]: (absent) -> \"new\"", #"root["weird key"]: (absent) -> true"#,
      ])
  }

  // MARK: XIBs and nibs

  /// The scenario XIB `name`, as shipped.
  static func scenario(_ name: String) throws -> String {
    try String(
      contentsOf: packageRoot.appendingPathComponent("Sources/KeyedCommands/Resources/Scenarios/\(name)"),
      encoding: .utf8)
  }

  @Test("ARC-173, CLI-081: XIB objects are matched by id and named by the outlet that refers to them")
  func xibMatchedByID() throws {
    let original = try Self.scenario("BookCardView.xib")
    // The label's text and frame change, and the two subviews trade places in the document.
    var edited = original.replacingOccurrences(of: #"text="Title""#, with: #"text="Name""#)
    let image = try #require(edited.range(of: #"<imageView"#))
    let label = try #require(edited.range(of: #"<label"#))
    let imageEnd = try #require(edited.range(of: "</imageView>", range: image.upperBound..<edited.endIndex))
    let labelEnd = try #require(edited.range(of: "</label>", range: label.upperBound..<edited.endIndex))
    let imageText = String(edited[image.lowerBound..<imageEnd.upperBound])
    let labelText = String(edited[label.lowerBound..<labelEnd.upperBound])
      .replacingOccurrences(of: #"y="140""#, with: #"y="150""#)
    edited.replaceSubrange(label.lowerBound..<labelEnd.upperBound, with: imageText)
    edited.replaceSubrange(image.lowerBound..<imageEnd.upperBound, with: labelText)
    let (directory, paths) = try Self.write([("a.xib", Data(original.utf8)), ("b.xib", Data(edited.utf8))])
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runExecutable(["diff", paths[0], paths[1]])
    #expect(result.status == 1, "\(result.errors)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.contains(#"titleLabel(bcv-lb-001).text: "Title" -> "Name""#), "\(lines)")
    #expect(
      lines.contains(
        #"titleLabel(bcv-lb-001).frame: {"rect":[0.0,140.0,120.0,60.0]} -> {"rect":[0.0,150.0,120.0,60.0]}"#),
      "\(lines)")
    // The reordering shows in the parent's subviews only; the image view itself is unchanged.
    #expect(!lines.contains { $0.hasPrefix("coverImageView(") }, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("view(bcv-vw-001).subviews[") }, "\(lines)")
  }

  @Test("ARC-173: a XIB compared with itself, and with an object removed, outlets included")
  func xibObjectRemoved() throws {
    let original = try Self.scenario("BookCardView.xib")
    let edited = original.replacingOccurrences(
      of: #"<outlet property="titleLabel" destination="bcv-lb-001" id="bcv-ot-002"/>"#, with: "")
    let same = try InterfaceComparison.differences(between: Data(original.utf8), and: Data(original.utf8))
    #expect(same.isEmpty)
    let differences = try InterfaceComparison.differences(between: Data(original.utf8), and: Data(edited.utf8))
    #expect(
      differences.map(\.description) == [#"view(bcv-vw-001).outlets.titleLabel: {"$ref":"bcv-lb-001"} -> (absent)"#])
  }

  @Test(
    "ARC-173: storyboard objects are matched by id across scenes; a segue's changed destination is one line",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent: the corpus storyboard is not edited"))
  func storyboardEdits() throws {
    let url = try #require(corpusRoot).appendingPathComponent(
      "xib/JSQMessagesViewController__JSQMessagesDemo__Base.lproj__Main.storyboard")
    let original = try String(contentsOf: url, encoding: .utf8)
    let edited = original.replacingOccurrences(
      of: #"destination="JdJ-0X-ZL8" kind="push""#, with: #"destination="y7K-ZU-Xs9" kind="push""#
    ).replacingOccurrences(of: #"text="Title" lineBreakMode"#, with: #"text="Changed" lineBreakMode"#)
    let differences = try InterfaceComparison.differences(between: Data(original.utf8), and: Data(edited.utf8))
    #expect(
      differences.map(\.description) == [
        #"tableViewController(rXs-qR-ns2).segues.seguePushDemoVC: {"$ref":"JdJ-0X-ZL8"} -> {"$ref":"y7K-ZU-Xs9"}"#,
        #"label(2qz-Z2-GmT).text: "Title" -> "Changed""#,
      ])
  }

  /// A file of the nib corpus, or `nil` (with the test's skip message) when the corpus is absent.
  static func corpusNib(_ path: String) -> URL? {
    corpusRoot?.appendingPathComponent("nib").appendingPathComponent(path)
  }

  static let revisions = ("avrfuses/ddd4c5c85c/Base.lproj/MainMenu.nib", "avrfuses/d3d6c5d7af/Base.lproj/MainMenu.nib")

  @Test(
    "ARC-173, ARC-174: the two revisions of AVRFuses' MainMenu (XIB, keyed-archive nib, NIBArchive) show the same edits",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent: the corpus revisions are not compared"))
  func corpusRevisions() throws {
    func lines(_ member: String) throws -> [String] {
      let (old, new) = try (#require(Self.corpusNib(Self.revisions.0)), #require(Self.corpusNib(Self.revisions.1)))
      let result = try runExecutable([
        "diff", old.appendingPathComponent(member).path, new.appendingPathComponent(member).path,
      ])
      #expect(result.status == 1, "\(member): \(result.errors)")
      return result.output.split(separator: "\n").map(String.init)
    }
    let xib = try lines("designable.nib")
    #expect(xib.contains(#"view(jch-7Y-YT5).frame: {"rect":[3.0,3.0,532.0,106.0]} -> {"rect":[4.0,5.0,530.0,104.0]}"#))
    #expect(xib.contains(#"textField(276).focusRingType: (absent) -> "none""#))
    #expect(xib.contains(#"tableColumn(247).width: "497" -> "468""#))
    // The compiled forms: objects paired through the graph, so an object inserted in the newer nib shifts no
    // other object's comparison; the frame edits are the XIB's.
    let frames = { (lines: [String]) -> [String] in
      lines.compactMap { line in line.range(of: ".NSFrame: ").map { String(line[$0.upperBound...]) } }.sorted()
    }
    let keyedNib = try lines("keyedobjects.nib")
    let nibArchive = try lines("keyedobjects-101300.nib")
    #expect(keyedNib.contains(#"NSView(24).NSFrame: "{{3, 3}, {532, 106}}" -> "{{4, 5}, {530, 104}}""#), "\(keyedNib)")
    #expect(frames(keyedNib) == frames(nibArchive))
    #expect(frames(nibArchive).count >= 10)
    // The `.nib` directories themselves: their preferred members are compared.
    let (oldDirectory, newDirectory) = try (
      #require(Self.corpusNib(Self.revisions.0)), #require(Self.corpusNib(Self.revisions.1))
    )
    let directories = try runExecutable(["diff", oldDirectory.path, newDirectory.path])
    #expect(directories.status == 1, "\(directories.errors)")
    #expect(frames(directories.output.split(separator: "\n").map(String.init)) == frames(nibArchive))
    // Every object of one revision is paired with one of the other: no line stands for a whole object.
    let wholeObjects = nibArchive.filter { $0.range(of: #"^\w+\(B?\d+\): "#, options: .regularExpression) != nil }
    #expect(wholeObjects.isEmpty, "\(wholeObjects)")
  }

  @Test(
    "ARC-174: every compiled nib of UIKitCatalog's 2019 build compares with its 2023 build without error",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent: the corpus revisions are not compared"))
  func uikitCatalogRevisions() throws {
    let old = try #require(Self.corpusNib("appium-ios-uicatalog/2019"))
    let new = try #require(Self.corpusNib("appium-ios-uicatalog/2023"))
    var compared = 0
    var differing = 0
    for url in corpusFiles("nib/appium-ios-uicatalog/2019", extensions: ["nib"]) {
      let relative = String(url.path.dropFirst(old.path.count))
      let other = new.appendingPathComponent(relative)
      guard FileManager.default.fileExists(atPath: other.path) else { continue }
      #expect(try InterfaceComparison.differences(betweenFileAt: url, and: url).isEmpty, "\(relative)")
      let differences = try InterfaceComparison.differences(betweenFileAt: url, and: other)
      compared += 1
      if !differences.isEmpty { differing += 1 }
    }
    #expect(compared >= 20)
    #expect(differing > 0)
  }

  @Test("ARC-176: a golden-archive mismatch lists the differences by meaning, expected -> actual")
  func goldenMismatchListsDifferences() throws {
    let (directory, paths) = try Self.write([("golden.plist", try Self.library())])
    defer { try? FileManager.default.removeItem(at: directory) }
    let golden = URL(fileURLWithPath: paths[0])
    #expect(throws: Never.self) { try GoldenArchive.check(try Self.library(), against: golden, record: false) }
    do {
      try GoldenArchive.check(try Self.library(titles: ("Dune", "Ulysses")), against: golden, record: false)
      Issue.record("a changed archive matched its golden file")
    } catch let error as ArchiveError {
      #expect(error.code == .goldenMismatch)
      #expect(
        error.message.contains("Differences (expected -> actual):\n  root.books[1].title: \"Emma\" -> \"Ulysses\""))
    }
  }

  @Test(
    "CLI-083: keyed diff of real files against their random mutations exits 0, 1 or 65, never a signal or a hang",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent: the mutation sweep through keyed diff is skipped"))
  func mutatedCorpusFiles() throws {
    let samples =
      Array(corpusFiles("archives", extensions: ["plist"]).prefix(2))
      + Array(corpusFiles("xib", extensions: ["xib", "storyboard"]).prefix(2))
      + Array(
        corpusFiles("nib", extensions: ["nib"]).filter { $0.lastPathComponent.hasPrefix("keyedobjects") }.prefix(2))
    let directory = try makeTemporaryDirectory("diff-mutants")
    defer { try? FileManager.default.removeItem(at: directory) }
    var generator = SplitMix64(seed: 0x4449_4646)
    var statuses: [Int32: Int] = [:]
    for sample in samples {
      let original = try [UInt8](Data(contentsOf: sample))
      guard original.count > 16 else { continue }
      for round in 0..<6 {
        let url = directory.appendingPathComponent("\(round)-\(sample.lastPathComponent)")
        try Data(HostileValidateTests.mutate(original, round: round, using: &generator)).write(to: url)
        let what = "mutation \(round) of \(sample.lastPathComponent)"
        let result = try HostileValidateTests.runLimited(["diff", sample.path, url.path])
        #expect(!result.signalled, "\(what): killed by signal \(result.status): \(result.errors)")
        #expect([0, 1, 65].contains(result.status), "\(what): exit \(result.status): \(result.errors)")
        if result.status == 65 { #expect(result.errors.contains(url.lastPathComponent), "\(what): \(result.errors)") }
        statuses[result.status, default: 0] += 1
      }
    }
    #expect((statuses[65] ?? 0) > 0, "some mutations were refused")
    #expect((statuses[1] ?? 0) > 0, "some mutations were read and found different")
  }

  @Test(
    "CLI-080: two typedstreams compare as their decoded values",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent: the typedstreams are not compared"))
  func typedstreams() throws {
    let folder = try #require(corpusRoot).appendingPathComponent("typedstream")
    let (one, two) = (
      folder.appendingPathComponent("crabstep__src__test_data__AttributedBodyTextOnly.typedstream").path,
      folder.appendingPathComponent("crabstep__src__test_data__AttributedBodyTextOnly2.typedstream").path
    )
    #expect(try runExecutable(["diff", one, one]).status == 0)
    let result = try runExecutable(["diff", one, two])
    #expect(result.status == 1, "\(result.errors)")
    #expect(result.output.contains(#"root.string: "Noter test" -> "Test 3""#), "\(result.output)")
  }

  @Test(
    "ARC-170: every readable corpus archive, plist, XIB and storyboard compares equal to itself, and to itself as XML",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent: the corpus is not compared with itself"))
  func corpusFilesEqualThemselves() throws {
    var compared = 0
    for url in corpusFiles("archives", extensions: ["plist"]) + corpusFiles("xib", extensions: ["xib", "storyboard"]) {
      let data = try Data(contentsOf: url)
      // Files the readers refuse (the corpus keeps malformed ones on purpose) are refused by both sides alike.
      guard let differences = try? InterfaceComparison.differences(between: data, and: data) else {
        #expect(throws: (any Error).self) { try InterfaceComparison.differences(between: data, and: data) }
        continue
      }
      #expect(differences.isEmpty, "\(url.lastPathComponent): \(differences.prefix(3))")
      compared += 1
      if let value = try? PropertyListReader.read(data), let xml = try? XMLPropertyListWriter.write(value) {
        let acrossFormats = try InterfaceComparison.differences(between: data, and: xml)
        #expect(acrossFormats.isEmpty, "\(url.lastPathComponent) as XML: \(acrossFormats.prefix(3))")
      }
    }
    #expect(compared >= 40)
  }

  // MARK: Statuses and git

  @Test("CLI-082: malformed input exits 65 naming the file; wrong arguments 64; different kinds one line, exit 1")
  func statuses() throws {
    let (directory, paths) = try Self.write([
      ("a.plist", try Self.library()), ("bad.plist", Data("bplist00 broken".utf8)),
      ("plain.plist", try BinaryPropertyListWriter.write(["a": 1])),
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let malformed = try runExecutable(["diff", paths[0], paths[1]])
    #expect(malformed.status == 65)
    #expect(malformed.errors.contains("bad.plist"))
    #expect(try runExecutable(["diff", paths[0]]).status == 64)
    #expect(try runExecutable(["diff", paths[0], paths[1], paths[2]]).status == 64)
    let kinds = try runExecutable(["diff", paths[2], paths[0]])
    #expect(kinds.status == 1)
    #expect(kinds.output == #"kind: "property list" -> "keyed archive""# + "\n")
  }

  @Test("CLI-084: git difftool runs keyed diff on the two revisions of a plist")
  func gitDifftool() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return }
    let (directory, _) = try Self.write([("library.plist", try Self.library())])
    defer { try? FileManager.default.removeItem(at: directory) }
    func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
      process.arguments = ["-C", directory.path, "-c", "user.name=t", "-c", "user.email=t@e"] + arguments
      let out = Pipe()
      process.standardOutput = out
      process.standardError = FileHandle.nullDevice
      try process.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
    #expect(try git(["init", "-q"]).status == 0)
    #expect(try git(["add", "library.plist"]).status == 0)
    #expect(try git(["commit", "-q", "-m", "first"]).status == 0)
    try Self.library(titles: ("Dune", "Ulysses")).write(to: directory.appendingPathComponent("library.plist"))
    let result = try git(["difftool", "-y", "-x", "'\(keyedExecutable.path)' diff", "--", "library.plist"])
    #expect(result.output == "root.books[1].title: \"Emma\" -> \"Ulysses\"\n")
  }
}

import ArchiveCoding
import ArchiveTesting
import Foundation
import KeyedArchive
import Testing

// The examples of `Sources/ArchiveTesting/ArchiveTesting.docc/TestingYourArchiving.md` and of the ArchiveTesting
// landing page.

/// A page whose `init(coder:)` forgets a field its `encode(with:)` wrote: the round trip must say where.
final class ForgetfulPage: SecureCoding {
  var text: String
  var note: String

  init(text: String, note: String) {
    self.text = text
    self.note = note
  }

  required init(coder: any DecodingCoder) throws {
    text = try coder.decodeString(forKey: "text") ?? ""
    note = ""  // forgot to read "note"
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(text, forKey: "text")
    coder.encode(note, forKey: "note")
  }
}

/// Where the golden files of these examples are kept.
let goldenFolder = packageRoot.appendingPathComponent("Tests/DocumentationTests/Goldens")

@Suite("Documentation: testing your archiving", .serialized)
struct TestingYourArchivingExamples {
  let notebook = ideasNotebook()

  @Test("DOC-036: the notebook survives archiving, in Swift Testing's terms")
  func notebookSurvivesArchiving() {
    ArchiveExpectations.expectRoundTrip(notebook, allowedClasses: [Notebook.self, Page.self])  // binary and XML
  }

  @Test("DOC-036: a round trip compared by the properties a test names")
  func roundTripByKeyPaths() {
    ArchiveExpectations.expectRoundTrip(
      notebook, allowedClasses: [Notebook.self, Page.self], comparing: \.title, \.pages.count)
  }

  @Test("DOC-036: a round trip in both formats keeps the notebook's graph, cycle included")
  func roundTripOutcomes() throws {
    let outcomes = try ArchiveRoundTrip.check(notebook, allowedClasses: [Notebook.self, Page.self])

    #expect(outcomes.map(\.format) == [.binary, .xml])
    let decoded = try #require(outcomes.first?.decoded as? Notebook)
    #expect(decoded.pages.allSatisfy { $0.notebook === decoded })
  }

  @Test("DOC-036: a class that reads back less than it wrote fails with the path of the first difference")
  func forgetfulClass() throws {
    ClassRegistry.shared.register(ForgetfulPage.self, as: "ForgetfulPage")
    let page = ForgetfulPage(text: "Dune", note: "reread")
    var message = ""

    do {
      try ArchiveRoundTrip.check(page, allowedClasses: [ForgetfulPage.self])
    } catch {
      message = "\(error)"  // names the format and root.note, with what each side has
    }

    #expect(message.contains("root.note"), "\(message)")
    #expect(message.contains("reread"), "\(message)")
  }

  @Test("DOC-036: Foundation's own unarchiver reads what we write")
  func foundationReads() {
    ArchiveExpectations.expectFoundationReads(["a": 1, "b": [2.5, "three"]])  // Foundation reads our archive
  }

  @Test("DOC-036: the oracle refuses a graph that would crash Foundation's unarchiver")
  func oracleRefusesCycles() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: notebook)
    let error = #expect(throws: ArchiveError.self) { try FoundationOracle.unarchive(data) }
    #expect(error?.code == .oracleFailed)
  }

  @Test("DOC-036: an archive is compared with its golden file by meaning")
  func golden() throws {
    let goldenURL = goldenFolder.appendingPathComponent("notebook.plist")

    try GoldenArchive.check(rootObject: notebook, against: goldenURL)  // ARCHIVE_TESTING_RECORD=1 records it

    // The same graph in the binary form matches too: the comparison is by structure, not bytes.
    try GoldenArchive.check(try KeyedArchiver.archivedData(withRootObject: notebook), against: goldenURL)
    notebook.pages[1].text = "Load the storyboards"
    defer { notebook.pages[1].text = "Load the views" }
    let error = #expect(throws: ArchiveError.self) {
      try GoldenArchive.check(rootObject: notebook, against: goldenURL, record: false)
    }
    #expect(error?.code == .goldenMismatch)
    #expect("\(error.map { "\($0)" } ?? "")".contains("Load the storyboards"))
  }
}

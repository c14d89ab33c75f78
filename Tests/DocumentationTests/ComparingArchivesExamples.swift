import ArchiveComparison
import Foundation
import KeyedArchive
import Testing

// The example of the ArchiveComparison landing page. The comparison's own rules are checked by
// `Tests/KeyedCommandsTests/DiffTests.swift`.

@Suite("Documentation: comparing archives")
struct ComparingArchivesExamples {
  @Test("DOC-037: two archives of notebooks that differ in one page's text differ in one line, named by its path")
  func onePageChanged() throws {
    registerNotebookModel()
    let notebook = Notebook(title: "Ideas", pages: [Page(text: "Archive the model"), Page(text: "Load the views")])
    let old = try KeyedArchiver.archivedData(withRootObject: notebook)
    notebook.pages[1].text = "Load the storyboards"
    let new = try KeyedArchiver.archivedData(withRootObject: notebook, format: .xml)

    for difference in try ArchiveComparison.differences(between: old, and: new) {
      print(difference)
    }

    let lines = try ArchiveComparison.differences(between: old, and: new).map { "\($0)" }
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.contains("pages[1]") == true, "\(lines)")
    #expect(lines.first?.contains("Load the storyboards") == true, "\(lines)")
  }

  @Test("DOC-037: with an identity key, a page that moved is one difference")
  func identityKey() throws {
    registerNotebookModel()
    let notebook = Notebook(title: "Ideas", pages: [Page(text: "One"), Page(text: "Two"), Page(text: "Three")])
    let old = try KeyedArchiver.archivedData(withRootObject: notebook)
    notebook.pages.append(notebook.pages.removeFirst())
    let new = try KeyedArchiver.archivedData(withRootObject: notebook)

    let options = ArchiveComparison.Options(identityKeys: ["Page": "text"])
    let differences = try ArchiveComparison.differences(between: old, and: new, options: options)

    #expect(differences.map(\.change) == [.moved], "\(differences)")
    #expect(differences.first?.path == "root.pages[0]")
    #expect(differences.first?.movedTo == "root.pages[2]")
  }
}

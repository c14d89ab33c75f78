import Foundation
import InterfaceComparison
import Testing

// The example of the InterfaceComparison landing page.

@Suite("Documentation: comparing XIBs")
struct ComparingInterfaceDocumentsExamples {
  @Test("DOC-037: two XIBs that differ in a label's text differ in one line, named by the object's name and id")
  func labelTextChanged() throws {
    let oldXIB = try #require(Bundle.module.url(forResource: "Card", withExtension: "xib"))
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xib-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let newXIB = directory.appendingPathComponent("Card.xib")
    let edited = try String(contentsOf: oldXIB, encoding: .utf8)
      .replacingOccurrences(of: #"text="A card from a XIB""#, with: #"text="A card, edited""#)
    try Data(edited.utf8).write(to: newXIB)

    let differences = try InterfaceComparison.differences(betweenFileAt: oldXIB, and: newXIB)
    for difference in differences { print(difference) }

    #expect(differences.map(\.description) == [#"label(card-label).text: "A card from a XIB" -> "A card, edited""#])
    #expect(try InterfaceComparison.differences(betweenFileAt: oldXIB, and: oldXIB).isEmpty)
  }
}

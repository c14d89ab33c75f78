import Foundation
import Testing
import Typedstream

@Suite("Typedstream: the README's example")
struct ReadmeExampleTests {
  @Test(
    "TS-077: an iMessage body's text and runs come out as the README shows",
    .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)))
  func iMessageBody() throws {
    let blob = try TypedstreamCorpus.data("crabstep__src__test_data__AttributedBodyTextOnly.typedstream")
    let decoder = try TypedstreamDecoder(try TypedstreamReader.read(blob))
    guard case .attributedString(let string?, let runs) = try decoder.form(of: 0),
      case .string(let text) = try decoder.form(of: string)
    else {
      Issue.record("object 0 is not an attributed string with a string: \(try decoder.form(of: 0))")
      return
    }
    #expect(text == "Noter test")
    #expect(runs.count == 1)
  }
}

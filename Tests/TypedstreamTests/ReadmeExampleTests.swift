import Foundation
import InterfaceObjects
import Testing
import Typedstream

@Suite("Typedstream: the documentation's examples, on the corpus files")
struct ReadmeExampleTests {
  @Test(
    "TS-077: an iMessage body's text and runs come out as the documentation shows",
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

  @Test(
    "COD-123: an iMessage body unarchives to an NSAttributedString, as the documentation shows",
    .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)))
  func iMessageBodyUnarchived() throws {
    let blob = try TypedstreamCorpus.data("crabstep__src__test_data__AttributedBodyTextOnly.typedstream")
    let body = try TypedstreamUnarchiver.unarchivedObject(from: blob) as? NSAttributedString
    #expect(body?.string == "Noter test")
  }

  @Test(
    "COD-125: a colour list reads as the documentation shows",
    .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)))
  func colourList() throws {
    InterfaceCatalog.register()
    let list = try TypedstreamUnarchiver(
      data: try TypedstreamCorpus.data("solarized__apple-colorpalette-solarized__solarized.clr"))
    _ = try list.decodeValue(ofObjCType: "i")
    let count = try list.decodeValues(ofObjCTypes: "@i")[1].integerValue ?? 0
    var lines: [String] = []
    for _ in 0..<count {
      let pair = try list.decodeValues(ofObjCTypes: "@@")
      if case .object(let colour as ColorObject) = pair[0], case .object(let name as String) = pair[1] {
        lines.append("\(name) \(colour.color)")
      }
    }
    #expect(lines.count == 16)
    #expect(lines.first?.hasPrefix("Solarized Base03 rgba(0.0159") == true)
  }
}

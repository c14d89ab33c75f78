import CompiledNib
import Foundation
import PropertyList
import TestSupport
import Testing
import XIB

// The examples of the PropertyList, XIB and CompiledNib landing pages.

@Suite("Documentation: property lists, XIB documents and compiled nibs")
struct FrontEndsExamples {
  @Test("DOC-038: a property list is read in either form and written back as XML")
  func propertyList() throws {
    let data = try PropertyListWriter.write(["CFBundleName": "Notes", "CFBundleVersion": 3], format: .binary)

    let value = try PropertyListReader.read(data)
    if case .dictionary(let root) = value, let name = root["CFBundleName"]?.stringValue {
      print(name)
    }
    let xml = try PropertyListWriter.write(value, format: .xml)

    guard case .dictionary(let root) = value else {
      Issue.record("not a dictionary: \(value)")
      return
    }
    #expect(root["CFBundleName"]?.stringValue == "Notes")
    #expect(PropertyListReader.format(of: xml) == .xml)
    #expect(try PropertyListReader.read(xml) == value)
  }

  @Test("DOC-038: a XIB document is read into objects and connections without instantiating it")
  func xibDocument() throws {
    let path = try #require(Bundle.module.path(forResource: "ReferencedCard", ofType: "xib"))

    let document = try XIBDocument(contentsOfFile: path)
    let outlets = document.connections.filter { $0.kind == .outlet }.count

    #expect(outlets == 1)
    #expect(document.objects.contains { $0.id == "referenced-view" })
  }

  @Test("DOC-038: a NIBArchive file is told by its bytes and read into its tables")
  func nibArchive() throws {
    var builder = TestArchiveBuilder()
    let object = builder.addClass("NSObject")
    let string = builder.addClass("NSString")
    builder.addObject(object, [("title", .object(1))])
    builder.addObject(string, [("NS.bytes", .data(Array("Hello".utf8)))])
    let bytes = builder.bytes()

    let format = CompiledNibFileFormat(sniffing: bytes)  // .nibArchive
    let document = try NIBArchiveDocument(data: Data(bytes))
    let rootClass = document.rootObjectIndex.map(document.className(ofObject:))  // "NSObject"

    #expect(format == .nibArchive)
    #expect(rootClass == "NSObject")
    #expect(document.string(forKey: "title", inObject: 0) == "Hello")
  }
}

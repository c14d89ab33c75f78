import ArchiveCoding
import ArchiveTesting
import Foundation
import InterfaceObjects
import KeyedArchive
import Testing

@testable import Typedstream

@Suite(
  "Sequential coding: the corpus",
  .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)))
struct SequentialCorpusTests {
  /// The corpus files whose objects are all of Foundation's classes (iMessage bodies, Foundation values, help
  /// indexes): the others hold AppKit, nib or application classes.
  static let foundationOnly = TypedstreamCorpus.valid.filter {
    $0.hasPrefix("crabstep__") || $0.hasSuffix(".helpindex")
  }

  private func expectSame(_ actual: Any?, _ expected: Any?, sourceLocation: SourceLocation = #_sourceLocation) {
    let difference = ValueSnapshot.difference(expected: ValueSnapshot(of: expected), actual: ValueSnapshot(of: actual))
    #expect(difference == nil, "\(String(describing: difference))", sourceLocation: sourceLocation)
  }

  /// Corpus files and the Swift value each decodes to.
  static var expected: [(file: String, value: Any)] {
    [
      ("NSString", "Hello, world"),
      ("NSMutableString", "Hello, world"),
      ("NSData", Data([0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x7F])),
      ("NSMutableData", Data([0xDE, 0xAD, 0xBE, 0xEF])),
      ("NumberBool", 1),  // `c`: a char, as NSNumber's boolean writes itself
      ("NumberFloat", Float(3.5)),
      ("NumberDouble", 100.5),
      ("NumberInt64", -9_000_000_000),
      ("NSDate", Date(timeIntervalSinceReferenceDate: 21_692_800)),
      ("NSDateFractional", Date(timeIntervalSinceReferenceDate: 700_000_000.523)),
      ("NSArrayWithNull", ["x", NSNull(), "y"] as [Any]),
      ("NSAttributedString", NSAttributedString(string: "Hello, world")),
    ]
  }

  static let expectedNames = [
    "NSString", "NSMutableString", "NSData", "NSMutableData", "NumberBool", "NumberFloat", "NumberDouble",
    "NumberInt64", "NSDate", "NSDateFractional", "NSArrayWithNull", "NSAttributedString",
  ]

  @Test(
    "COD-123: Foundation's corpus values decode to the Swift values the keyed unarchiver gives",
    arguments: expectedNames)
  func foundationFileDecodes(_ name: String) throws {
    let value = try #require(Self.expected.first { $0.file == name }?.value)
    let data = try TypedstreamCorpus.data("crabstep__src__test_data__foundation__\(name).typedstream")
    expectSame(try TypedstreamUnarchiver.unarchivedObject(from: data), value)
  }

  @Test("COD-123: a relative NSURL resolves against its base NSURL")
  func relativeURL() throws {
    let data = try TypedstreamCorpus.data("crabstep__src__test_data__foundation__NSURLRelative.typedstream")
    let url = try #require(try TypedstreamUnarchiver.unarchivedObject(from: data) as? URL)
    #expect(url.relativeString == "page.html")
    #expect(url.absoluteString == "https://example.com/dir/page.html")
  }

  @Test("COD-123: an iMessage body decodes to an NSAttributedString with its text and attribute runs")
  func iMessageBody() throws {
    let data = try TypedstreamCorpus.data("crabstep__src__test_data__EmojiBoldUnderline.typedstream")
    let body = try #require(try TypedstreamUnarchiver.unarchivedObject(from: data) as? NSAttributedString)
    #expect(body.string.hasPrefix("🅱️"))
    var runs = 0
    body.enumerateAttributes(in: NSRange(location: 0, length: body.length)) { attributes, _, _ in
      runs += 1
      #expect(attributes[NSAttributedString.Key("__kIMMessagePartAttributeName")] != nil)
    }
    #expect(runs > 1)
  }

  @Test(
    "COD-124: every Foundation-only corpus file decodes, and TypedstreamArchiver writes values that read back the same",
    arguments: foundationOnly)
  func foundationFileRoundTrips(_ name: String) throws {
    let data = try TypedstreamCorpus.data(name)
    let values = try TypedstreamUnarchiver.unarchivedValues(from: data)
    let archiver = TypedstreamArchiver(byteOrder: try TypedstreamReader.read(data).byteOrder)
    for value in values { archiver.encodeValue(value, ofObjCType: "@") }
    let again = try TypedstreamUnarchiver.unarchivedValues(from: try archiver.finishEncoding())
    #expect(again.count == values.count)
    for (first, second) in zip(values, again) {
      guard case .object(let a) = first, case .object(let b) = second else {
        Issue.record("expected objects at the top level of \(name)")
        continue
      }
      expectSame(b, a)
    }
  }

  @Test("COD-125: a Terminal profile's NSColor decodes through ColorObject's init(coder:), the keyed one")
  func terminalColour() throws {
    let registry = ClassRegistry()
    InterfaceCatalog.register(in: registry)
    let data = try TypedstreamCorpus.data(
      "solarized__osx-terminal.app-colors-solarized__Solarized_Dark_ansi.terminal__blackColour.typedstream")
    let color = try #require(try TypedstreamUnarchiver.unarchivedObject(from: data, registry: registry) as? ColorObject)
    #expect(abs(color.color.red - 0.0393807) < 1e-6)
    #expect(abs(color.color.green - 0.1601164) < 1e-6)
    #expect(abs(color.color.blue - 0.1983327) < 1e-6)
    #expect(color.color.alpha == 1)
    // Written back by the same class, the object has the groups `NSColor` wrote: its space, then its components.
    let written = try TypedstreamArchiver.archivedData(withRootObject: color, registry: registry)
    guard case .object(.literal(let original)?) = try TypedstreamReader.read(data).values.first,
      case .object(.literal(let copy)?) = try TypedstreamReader.read(written).values.first
    else {
      Issue.record("expected one literal object in each stream")
      return
    }
    #expect(copy.groups == original.groups)
  }

  @Test("COD-125: a .clr colour list reads as a version, a name and a count, then colour and name pairs")
  func colourList() throws {
    let registry = ClassRegistry()
    InterfaceCatalog.register(in: registry)
    let data = try TypedstreamCorpus.data("solarized__apple-colorpalette-solarized__solarized.clr")
    let list = try TypedstreamUnarchiver(data: data, registry: registry)
    #expect(try list.decodeValue(ofObjCType: "i", as: Int.self) == 1)
    let header = try list.decodeValues(ofObjCTypes: "@i")
    guard case .object(nil) = header[0], let count = header[1].integerValue else {
      Issue.record("expected a nil name and a count, found \(header)")
      return
    }
    var names: [String] = []
    for _ in 0..<count {
      let pair = try list.decodeValues(ofObjCTypes: "@@")
      guard case .object(_ as ColorObject) = pair[0], case .object(let name as String) = pair[1] else {
        Issue.record("expected a colour and its name, found \(pair)")
        return
      }
      names.append(name)
    }
    #expect(names.count == 16)
    #expect(names.first == "Solarized Base03")
    #expect(list.nextEncoding == nil)
  }

  @Test("COD-125: the NSFont objects of a Mac OS X nib decode through the catalog's FontObject and write back")
  func nibFontsAndColours() throws {
    let registry = ClassRegistry()
    InterfaceCatalog.register(in: registry)
    let decoder = try TypedstreamDecoder(
      try TypedstreamReader.read(try TypedstreamCorpus.data("tlayer__English.lproj__TLayerDemo.nib__objects.nib")))
    // Each NSFont object alone, its class chain written out in full, as its own stream.
    var fonts: [Font] = []
    for ordinal in 0..<decoder.objectCount where decoder.className(of: ordinal) == "NSFont" {
      var objectClass: TypedstreamClassReference?
      for link in decoder.classChains[ordinal].reversed() {
        objectClass = .literal(TypedstreamClass(name: link.name, version: link.version, superclass: objectClass))
      }
      let object = TypedstreamObject(objectClass: try #require(objectClass), groups: decoder.groups[ordinal])
      let archive = TypedstreamArchive(byteOrder: .big, groups: [TypedstreamGroup("@", [.object(.literal(object))])])
      let unarchiver = try TypedstreamUnarchiver(archive: archive, registry: registry)
      let font = try #require(try unarchiver.decodeObject() as? FontObject)
      fonts.append(font.font)
      // Written by the same class and read back, the font is unchanged.
      let written = try TypedstreamArchiver.archivedData(withRootObject: font, registry: registry)
      let reread = try TypedstreamUnarchiver.unarchivedObject(from: written, registry: registry) as? FontObject
      #expect(reread?.font == font.font)
    }
    #expect(fonts.contains(Font(name: "Helvetica", pointSize: 12)))
    #expect(fonts.contains(Font(name: "LucidaGrande", pointSize: 13)))
  }
}

import ArchiveCoding
import ArchiveComparison
import Foundation
import FoundationForms
import Testing

@testable import KeyedCommands
@testable import Typedstream

@Suite("Typedstream JSON views")
struct JSONViewTests {
  @Test(
    "TS-060: the raw view of a stream is one line, keys sorted, objects with $id, $class, $version, $super and $fields")
  func rawViewOfString() throws {
    // NSString "Hello, world", as the crabstep foundation fixture stores it.
    let body =
      StreamBytes.new("@") + [0x84, 0x84] + StreamBytes.new("NSString") + [0x01, 0x84] + StreamBytes.new("NSObject")
      + [0x00, 0x85] + StreamBytes.new("+") + [0x0C] + Array("Hello, world".utf8) + [0x86]
    let json = try TypedstreamCommand.rawJSON(StreamBytes.little(body))
    #expect(
      json == """
        {"byteOrder":"little","streamerVersion":4,"systemVersion":1000,"values":[{"$class":"NSString","$fields":\
        [{"$type":"+","value":"Hello, world"}],"$id":0,"$super":[{"$class":"NSObject","$version":0}],"$version":1}]}
        """)
  }

  @Test("TS-061: unsigned values wrap to their width, f widens exactly, non-finite reals are strings")
  func rawViewOfNumbers() throws {
    let body =
      StreamBytes.new("QfdBc") + [0xFD] + [0x83, 0x9A, 0x99, 0x59, 0x3F] + [0x83, 0, 0, 0, 0, 0, 0, 0xF0, 0xFF] + [
        1, 0xFF,
      ]
    let json = try TypedstreamCommand.rawJSON(StreamBytes.little(body))
    #expect(
      json.hasSuffix(
        """
        "values":[{"$type":"Q","value":18446744073709551613},{"$type":"f","value":0.8500000238418579},\
        {"$type":"d","value":"-Infinity"},{"$type":"B","value":true},{"$type":"c","value":-1}]}
        """))
  }

  @Test("TS-062: shared objects are {\"$ref\": id}, byte arrays hex, bad UTF-8 hex, classes as class dictionaries")
  func rawViewOfEveryType() throws {
    let data = try TypedstreamWriter.write(StreamBytes.everyTypeArchive(byteOrder: .big))
    let json = try TypedstreamCommand.rawJSON(data)
    #expect(json.contains(#""byteOrder":"big""#))
    #expect(json.contains(#"{"$type":"[4c]","hex":"deadbeef"}"#))
    #expect(json.contains(#"{"$ref":0}"#))
    #expect(json.contains(##"{"$type":"#","value":{"$class":"NSObject","$super":[],"$version":0}}"##))
    #expect(json.contains(#"{"$type":"*","value":"C"}"#))
    #expect(json.contains(#"{"$type":"!","value":null}"#))
    #expect(json.contains(#"{"$type":"+","value":null}"#))
    let badText = StreamBytes.new("+") + [0x02, 0xFF, 0x41]
    #expect(try TypedstreamCommand.rawJSON(StreamBytes.little(badText)).contains(#"{"$type":"+","hex":"ff41"}"#))
  }

  @Test("TS-065: names that are not UTF-8 show each bad byte as \\xNN")
  func rawViewOfBadName() throws {
    let body = StreamBytes.new("#") + [0x84, 0x84, 0x02, 0x41, 0xFF, 0x00, 0x85]
    let json = try TypedstreamCommand.rawJSON(StreamBytes.little(body))
    #expect(json.contains(#""$class":"A\\xff""#))
  }

  @Test("TS-070: the decoded view of a generated NSDictionary, NSArray, NSNumber and NSData")
  func decodedView() throws {
    let objectRoot = TypedstreamClass("NSObject", version: 0)
    func string(_ text: String, first: Bool = false) -> TypedstreamValue {
      .object(
        .literal(
          TypedstreamObject(
            objectClass: first
              ? .literal(TypedstreamClass("NSString", version: 1, superclass: .reference(1))) : .reference(2),
            groups: [TypedstreamGroup("+", [.bytes(Array(text.utf8))])])))
    }
    let dictionary = TypedstreamObject(
      objectClass: .literal(TypedstreamClass("NSDictionary", version: 0, superclass: .literal(objectRoot))),
      groups: [
        TypedstreamGroup("i", [.signed(TypeCode("i"), 2)]),
        TypedstreamGroup("@", [string("b", first: true)]),
        TypedstreamGroup("@", [string("x")]),
        TypedstreamGroup("@", [string("a")]),
        TypedstreamGroup("@", [.object(.reference(2))]),
      ])
    let archive = TypedstreamArchive(groups: [TypedstreamGroup("@", [.object(.literal(dictionary))])])
    let json = try TypedstreamCommand.decodedJSON(try TypedstreamWriter.write(archive))
    #expect(json == #"{"a":"x","b":"x"}"#)
  }

  @Test(
    "TS-041: the negative corpus file fails in every view",
    .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)))
  func negativeFileFails() throws {
    for name in TypedstreamCorpus.negative {
      let data = try TypedstreamCorpus.data(name)
      #expect(throws: ArchiveError.self) { try TypedstreamCommand.rawJSON(data) }
      #expect(throws: ArchiveError.self) { try TypedstreamCommand.decodedJSON(data) }
      #expect(throws: ArchiveError.self) { try TypedstreamCommand.validate(data, name: name) }
    }
  }

  /// Decoded views of corpus files, with the values the sources' own tests expect (MANIFEST.md).
  static let expected: [(file: String, json: String)] = [
    ("crabstep__src__test_data__foundation__NSString.typedstream", #""Hello, world""#),
    ("crabstep__src__test_data__foundation__NSMutableString.typedstream", #""Hello, world""#),
    ("crabstep__src__test_data__foundation__NSData.typedstream", #"{"$data":"3q2+7wB/"}"#),
    ("crabstep__src__test_data__foundation__NumberFloat.typedstream", "3.5"),
    ("crabstep__src__test_data__foundation__NumberDouble.typedstream", "100.5"),
    ("crabstep__src__test_data__foundation__NumberInt64.typedstream", "-9000000000"),
    ("crabstep__src__test_data__foundation__NSDate.typedstream", #"{"$date":21692800.0}"#),
    ("crabstep__src__test_data__foundation__NSDateFractional.typedstream", #"{"$date":700000000.523}"#),
    (
      "crabstep__src__test_data__foundation__NSURLRelative.typedstream",
      #"{"$url":"https://example.com/dir/page.html"}"#
    ),
    (
      "crabstep__src__test_data__foundation__NSDictionaryNested.typedstream",
      #"{"arr":[1,2],"data":{"$data":"AQI="},"num":7}"#
    ),
    ("crabstep__src__test_data__foundation__NSArrayWithNull.typedstream", #"["x",{"$class":"NSNull"},"y"]"#),
    (
      "crabstep__src__test_data__foundation__NestedContainers.typedstream",
      #"[[1,2],[3],[],{"k":9},{"mk":8},{"$set":["s"]},{"$set":["ms"]}]"#
    ),
    (
      "crabstep__src__test_data__AttributedBodyTextOnly.typedstream",
      #"{"$class":"NSAttributedString","runs":[[0,10,{"__kIMMessagePartAttributeName":0}]],"string":"Noter test"}"#
    ),
    ("crabstep__src__test_data__Blank.typedstream", #"{"$class":"NSAttributedString","runs":[],"string":""}"#),
    (
      "crabstep__src__test_data__foundation__NSAttributedString.typedstream",
      #"{"$class":"NSAttributedString","runs":[[0,12,{}]],"string":"Hello, world"}"#
    ),
  ]

  @Test(
    "TS-070: corpus files decode to the values their sources' tests expect",
    .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)),
    arguments: 0..<expected.count)
  func decodedCorpus(_ row: Int) throws {
    let (file, json) = Self.expected[row]
    #expect(try TypedstreamCommand.decodedJSON(TypedstreamCorpus.data(file)) == json)
  }

  /// Texts of attributed strings the sources' tests check (imessage-exporter, crabstep).
  static let texts: [(file: String, text: String)] = [
    ("crabstep__src__test_data__AttributedBodyTextOnly2.typedstream", "Test 3"),
    ("crabstep__src__test_data__WeirdText.typedstream", "𝖍𝖊𝖑𝖑𝖔 𝖜𝖔𝖗𝖑𝖉"),
    ("crabstep__src__test_data__URL.typedstream", "https://github.com/ReagentX/Logria"),
    ("crabstep__src__test_data__MultiPart.typedstream", "\u{FFFC}test 1\u{FFFC}test 2 \u{FFFC}test 3"),
  ]

  @Test(
    "TS-077: attributed strings decode to their text",
    .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)),
    arguments: 0..<texts.count)
  func attributedText(_ row: Int) throws {
    let (file, text) = Self.texts[row]
    let json = try TypedstreamCommand.decodedJSON(TypedstreamCorpus.data(file))
    #expect(json.hasSuffix(#","string":"# + CanonicalJSON.string(text) + "}"))
  }

  @Test(
    "TS-066: every valid corpus file renders in both views and validates",
    .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)),
    arguments: TypedstreamCorpus.valid)
  func corpusViews(_ name: String) throws {
    let data = try TypedstreamCorpus.data(name)
    #expect(try TypedstreamCommand.rawJSON(data).hasPrefix(#"{"byteOrder":""#))
    #expect(!(try TypedstreamCommand.decodedJSON(data)).isEmpty)
    #expect(try TypedstreamCommand.validate(data, name: name).hasPrefix("\(name): valid typedstream"))
    #expect(try TypedstreamCommand.convert(data) == data)
  }
}

@Suite("TypedstreamDecoder")
struct DecoderTests {
  private static func object(_ className: String, _ groups: [TypedstreamGroup]) -> TypedstreamArchive {
    let objectClass = TypedstreamClass(
      className, version: 0, superclass: .literal(TypedstreamClass("NSObject", version: 0)))
    return TypedstreamArchive(groups: [
      TypedstreamGroup("@", [.object(.literal(TypedstreamObject(objectClass: .literal(objectClass), groups: groups)))])
    ])
  }

  @Test("TS-078: an NSValue holding a point, size, rect or range is written in its geometry form")
  func nsValueGeometry() throws {
    let f = TypeNode.scalar(TypeCode("f"))
    let point = TypeNode.structure(name: Array("_NSPoint".utf8), fields: [f, f])
    let archive = Self.object(
      "NSValue",
      [
        TypedstreamGroup("*", [.cString(.literal(Array("{_NSPoint=ff}".utf8)))]),
        TypedstreamGroup("{_NSPoint=ff}", [.structure(point, [.float(1.5), .float(-2)])]),
      ])
    #expect(
      try TypedstreamCommand.decodedJSON(try TypedstreamWriter.write(archive))
        == #"{"$class":"NSValue","point":[1.5,-2.0]}"#)
  }

  @Test("TS-079: a Foundation object without its class's layout fails naming the object and the field")
  func badLayout() throws {
    let archive = Self.object("NSString", [TypedstreamGroup("i", [.signed(TypeCode("i"), 3)])])
    let decoder = try TypedstreamDecoder(archive)
    let error = #expect(throws: ArchiveError.self) { try decoder.form(of: 0) }
    #expect(error?.code == .corruptData)
    #expect(error?.location.objectIndex == 0)
    #expect(error?.location.className == "NSString")
    #expect(error?.description == "object #0 (NSString): expected a string's bytes, field 0")
  }

  @Test("TS-077: an attribute dictionary index that skips ahead is refused")
  func badRunIndex() throws {
    let archive = Self.object(
      "NSAttributedString",
      [
        TypedstreamGroup("@", [.object(nil)]),
        TypedstreamGroup("iI", [.signed(TypeCode("i"), 2), .unsigned(TypeCode("I"), 4)]),
      ])
    #expect(throws: ArchiveError.self) { try TypedstreamDecoder(archive).form(of: 0) }
  }

  @Test("TS-070: objects of other classes are $class objects with $fields, $id when reached twice, $ref after")
  func otherClasses() throws {
    let archive = TypedstreamArchive(groups: [
      TypedstreamGroup(
        "@@",
        [
          .object(
            .literal(
              TypedstreamObject(
                objectClass: .literal(TypedstreamClass("Thing", version: 2)),
                groups: [TypedstreamGroup("if", [.signed(TypeCode("i"), 5), .float(0.5)])]))),
          .object(.reference(0)),
        ])
    ])
    #expect(
      try TypedstreamCommand.decodedJSON(try TypedstreamWriter.write(archive))
        == #"[{"$class":"Thing","$fields":[5,0.5],"$id":0},{"$ref":0}]"#)
  }
}

@Suite("Typedstream decoded view cycles")
struct DecodedCycleTests {
  private static let arrayClass = TypedstreamClass("NSArray", version: 0)

  @Test("TS-070: a cycle of collections alone is cut with $cycle")
  func collectionCycle() throws {
    // An NSArray holding itself.
    let array = TypedstreamObject(
      objectClass: .literal(Self.arrayClass),
      groups: [TypedstreamGroup("i", [.signed(TypeCode("i"), 1)]), TypedstreamGroup("@", [.object(.reference(0))])])
    let archive = TypedstreamArchive(groups: [TypedstreamGroup("@", [.object(.literal(array))])])
    #expect(try TypedstreamCommand.decodedJSON(try TypedstreamWriter.write(archive)) == #"[{"$cycle":0}]"#)
  }

  @Test("TS-070: a collection met again through another class's object is written again; the object is a $ref")
  func cycleThroughObject() throws {
    // NSArray [Thing], Thing's one field the array.
    let thing = TypedstreamObject(
      objectClass: .literal(TypedstreamClass("Thing", version: 0)),
      groups: [TypedstreamGroup("@", [.object(.reference(0))])])
    let array = TypedstreamObject(
      objectClass: .literal(Self.arrayClass),
      groups: [TypedstreamGroup("i", [.signed(TypeCode("i"), 1)]), TypedstreamGroup("@", [.object(.literal(thing))])])
    let archive = TypedstreamArchive(groups: [TypedstreamGroup("@", [.object(.literal(array))])])
    #expect(
      try TypedstreamCommand.decodedJSON(try TypedstreamWriter.write(archive))
        == #"[{"$class":"Thing","$fields":[[{"$ref":1}]],"$id":1}]"#)
  }
}

@Suite("Typedstream view bounds")
struct ViewBoundTests {
  /// NSArrays nested `levels` deep, each holding the one before it twice: a stream of a few hundred bytes whose
  /// decoded view would hold 2^levels values.
  static func doublingArrays(levels: Int) throws -> Data {
    let arrayClass = TypedstreamClass("NSArray", version: 0)
    let count = TypedstreamGroup("i", [.signed(TypeCode("i"), 2)])
    var groups = [
      TypedstreamGroup(
        "@",
        [
          .object(
            .literal(
              TypedstreamObject(
                objectClass: .literal(arrayClass), groups: [TypedstreamGroup("i", [.signed(TypeCode("i"), 0)])])))
        ])
    ]
    for level in 1..<levels {
      let element = TypedstreamGroup("@", [.object(.reference(level - 1))])
      groups.append(
        TypedstreamGroup(
          "@", [.object(.literal(TypedstreamObject(objectClass: .reference(0), groups: [count, element, element])))]))
    }
    return try TypedstreamWriter.write(TypedstreamArchive(groups: groups))
  }

  @Test("TS-066: a view that expands past its budget fails with limitExceeded")
  func expansionBound() throws {
    let data = try Self.doublingArrays(levels: 24)
    #expect(data.count < 400)
    let error = #expect(throws: ArchiveError.self) {
      try TypedstreamCommand.decodedJSON(data, pretty: false, budget: TypedstreamViewBudget(maxValues: 10_000))
    }
    #expect(error?.code == .limitExceeded)
    // The raw view writes each object once: it stays small.
    #expect(
      try TypedstreamCommand.rawJSON(data, pretty: false, budget: TypedstreamViewBudget(maxValues: 10_000)).count
        < 20_000)
  }

  @Test("TS-066: a C string written in full at each reference counts against the text budget")
  func textBound() throws {
    let text = Array(repeating: UInt8(ascii: "x"), count: 1000)
    var values: [TypedstreamValue] = [.cString(.literal(text))]
    values += Array(repeating: .cString(.reference(0)), count: 99)
    let archive = TypedstreamArchive(groups: [TypedstreamGroup(String(repeating: "*", count: 100), values)])
    let data = try TypedstreamWriter.write(archive)
    let error = #expect(throws: ArchiveError.self) {
      try TypedstreamCommand.rawJSON(data, pretty: false, budget: TypedstreamViewBudget(maxBytes: 50_000))
    }
    #expect(error?.code == .limitExceeded)
    #expect(try TypedstreamCommand.rawJSON(data).count > 100_000)
  }
}

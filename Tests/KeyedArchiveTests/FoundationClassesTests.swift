import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// The object dictionary of `root` in an archive, with its class name.
func rootObject(
  _ archive: Data
) throws -> (fields: PropertyListDictionary, className: String, objects: [PropertyListValue]) {
  let plist = try PropertyListReader.read(archive)
  let objects = try #require(plist.dictionaryValue?["$objects"]?.arrayValue)
  let rootUID = try #require(plist.dictionaryValue?["$top"]?.dictionaryValue?["root"]?.uidValue)
  let fields = try #require(objects[Int(rootUID)].dictionaryValue)
  let classUID = try #require(fields["$class"]?.uidValue)
  let name = try #require(objects[Int(classUID)].dictionaryValue?["$classname"]?.stringValue)
  return (fields, name, objects)
}

/// Builds a keyed archive whose root is one object of class `className` with the given fields (inline values,
/// or `.uid` references into `extra`, which become `$objects[2...]`).
func handMadeArchive(
  className: String, fields: [(String, PropertyListValue)], extra: [PropertyListValue] = []
)
  throws -> Data
{
  let classUID = PropertyListValue.uid(UInt64(2 + extra.count))
  var object = PropertyListDictionary(fields.map { (PropertyListValue.string($0.0), $0.1) })
  object["$class"] = classUID
  let classDescription: PropertyListValue = [
    "$classname": .string(className), "$classes": [.string(className), "NSObject"],
  ]
  let archive: PropertyListValue = [
    "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
    "$objects": .array(["$null", .dictionary(object)] + extra + [classDescription]),
  ]
  return try PropertyListWriter.write(archive)
}

@Suite("Foundation classes")
struct FoundationClassesTests {
  init() { registerTestClasses }

  // MARK: NSDecimalNumber

  static let decimals = [
    "0", "1", "-1", "123.45", "-123.4500", "0.000001", "1e-20", "3.14159265358979323846264338327950288",
    "340282366920938463463374607431768211455", "-98765432109876543210.0123456789", "1e100", "65536",
    "12345678901234567890",
  ]

  @Test("ARC-035: decimals round-trip through NSDecimalNumber's Darwin layout", arguments: decimals)
  func decimalRoundTrip(text: String) throws {
    let value = try #require(Decimal(string: text))
    for format in PropertyListFormat.allCases {
      let archive = try KeyedArchiver.archivedData(withRootObject: value, format: format)
      let back = try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: archive)
      #expect(back == value, "\(text) in \(format)")
    }
    let (fields, name, _) = try rootObject(try KeyedArchiver.archivedData(withRootObject: value))
    #expect(name == "NSDecimalNumber")
    // Every field inline, the mantissa as 16 bytes of little-endian words.
    guard case .data(let mantissa)? = fields["NS.mantissa"] else {
      Issue.record("NS.mantissa is not inline data")
      return
    }
    #expect(mantissa.count == 16)
    #expect(fields["NS.mantissa.bo"] == 1)
    #expect(fields["NS.exponent"] == .integer(Int64(value.exponent)))
    #expect(fields["NS.negative"] == .bool(value < 0))
    if case .integer(let length)? = fields["NS.length"] {
      #expect((0...8).contains(length))
    } else {
      Issue.record("NS.length missing")
    }
  }

  @Test("ARC-035: NaN is the decimal with length 0 and the sign set; NSDecimalNumber instances archive too")
  func decimalSpecials() throws {
    let nan = try #require(
      try KeyedUnarchiver.unarchivedObject(
        ofClass: Decimal.self, from: try KeyedArchiver.archivedData(withRootObject: Decimal.nan)))
    #expect(nan.isNaN)
    let (fields, _, _) = try rootObject(try KeyedArchiver.archivedData(withRootObject: Decimal.nan))
    #expect(fields["NS.length"] == 0 && fields["NS.negative"] == true)
    let number = NSDecimalNumber(string: "-42.5")
    let back = try KeyedUnarchiver.unarchivedObject(
      ofClass: NSDecimalNumber.self, from: try KeyedArchiver.archivedData(withRootObject: number))
    #expect(back?.decimalValue == number.decimalValue)
  }

  @Test("ARC-035: a Darwin-style decimal with big-endian mantissa words decodes; bad fields are errors")
  func decimalWire() throws {
    // 0x0102_0304 as two words, most significant first in big-endian order (bo = 2): 0x0304, then 0x0102.
    let bigEndian = try handMadeArchive(
      className: "NSDecimalNumber",
      fields: [
        ("NS.exponent", -3), ("NS.length", 2), ("NS.negative", true), ("NS.compact", true),
        ("NS.mantissa", .data(Data([0x03, 0x04, 0x01, 0x02] + [UInt8](repeating: 0, count: 12)))),
        ("NS.mantissa.bo", 2),
      ])
    let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: bigEndian)
    #expect(decoded == Decimal(sign: .minus, exponent: -3, significand: Decimal(0x0102_0304)))
    let bad: [(String, [(String, PropertyListValue)])] = [
      ("length 9", [("NS.exponent", 0), ("NS.length", 9), ("NS.mantissa", .data(Data(count: 16)))]),
      ("exponent 200", [("NS.exponent", 200), ("NS.length", 1), ("NS.mantissa", .data(Data(count: 16)))]),
      ("short mantissa", [("NS.exponent", 0), ("NS.length", 4), ("NS.mantissa", .data(Data(count: 6)))]),
      ("mantissa not data", [("NS.exponent", 0), ("NS.length", 1), ("NS.mantissa", "x")]),
    ]
    for (name, fields) in bad {
      let archive = try handMadeArchive(className: "NSDecimalNumber", fields: fields)
      #expect(throws: ArchiveError.self, "\(name)") {
        _ = try KeyedUnarchiver.unarchivedObject(ofClass: Decimal.self, from: archive)
      }
    }
  }

  // MARK: NSAttributedString

  static func styled() -> NSMutableAttributedString {
    let text = NSMutableAttributedString(string: "Grüße 🎉 and more text")
    text.addAttribute(NSAttributedString.Key("bold"), value: true, range: NSRange(location: 0, length: 5))
    text.addAttribute(NSAttributedString.Key("color"), value: "red", range: NSRange(location: 6, length: 2))
    text.addAttribute(NSAttributedString.Key("bold"), value: true, range: NSRange(location: 13, length: 4))
    return text
  }

  @Test("ARC-037: attributed strings round-trip with their runs, UTF-16 lengths and mutability")
  func attributedRoundTrip() throws {
    let samples: [NSAttributedString] = [
      Self.styled(), NSAttributedString(string: "plain"),
      NSAttributedString(string: "one run", attributes: [NSAttributedString.Key("k"): 1]),
      NSAttributedString(string: ""),
      NSMutableAttributedString(string: ""),
    ]
    for sample in samples {
      try ArchiveRoundTrip.check(sample, allowedClasses: [NSAttributedString.self, NSString.self, NSNumber.self])
      let back = try KeyedUnarchiver.unarchivedRootObject(from: try KeyedArchiver.archivedData(withRootObject: sample))
      #expect((back is NSMutableAttributedString) == (sample is NSMutableAttributedString))
    }
  }

  @Test("ARC-037: one run is one NSAttributes dictionary; several runs are an array plus NSAttributeInfo varints")
  func attributedWire() throws {
    let single = try rootObject(
      try KeyedArchiver.archivedData(withRootObject: NSAttributedString(string: "ab", attributes: [.init("k"): 1])))
    #expect(single.className == "NSAttributedString")
    #expect(single.fields["NSAttributeInfo"] == nil)
    let attributes = try #require(single.fields["NSAttributes"]?.uidValue)
    let dictionary = try #require(single.objects[Int(attributes)].dictionaryValue)
    #expect(dictionary["NS.keys"]?.arrayValue?.count == 1)

    let multi = try rootObject(try KeyedArchiver.archivedData(withRootObject: Self.styled()))
    #expect(multi.className == "NSMutableAttributedString")
    let infoUID = try #require(multi.fields["NSAttributeInfo"]?.uidValue)
    guard case .data(let info) = multi.objects[Int(infoUID)] else {
      Issue.record("NSAttributeInfo is not data")
      return
    }
    // Runs (UTF-16 lengths): "Grüße" 5 bold, " " 1 plain, "🎉" 2 red, " and " 5 plain, "more" 4 bold, " text" 5 plain.
    #expect([UInt8](info) == [5, 0, 1, 1, 2, 2, 5, 1, 4, 0, 5, 1])
    let empty = try rootObject(try KeyedArchiver.archivedData(withRootObject: NSAttributedString(string: "")))
    #expect(empty.fields["NSAttributes"] == nil)
  }

  @Test("ARC-037: inconsistent NSAttributeInfo is corrupt data")
  func attributedCorrupt() throws {
    let attributes: [PropertyListValue] = [
      ["NS.keys": [], "NS.objects": [], "$class": .uid(7)],  // 2: {}
      "text",  // 3
      .array([.uid(2)]),  // 4: unused
      ["$class": .uid(8), "NS.objects": [.uid(2)]],  // 5: NSArray [{}]
    ]
    for (name, info) in [
      ("runs too long", Data([9, 0])), ("index out of range", Data([4, 3])), ("truncated varint", Data([0x84])),
      ("runs too short", Data([2, 0])),
    ] {
      let archive = try handMadeArchive(
        className: "NSAttributedString",
        fields: [("NSString", .uid(3)), ("NSAttributes", .uid(5)), ("NSAttributeInfo", .uid(6))],
        extra: attributes + [
          .data(info), ["$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]],
          ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
        ])
      #expect(throws: ArchiveError.self, "\(name)") { _ = try KeyedUnarchiver.unarchivedRootObject(from: archive) }
    }
  }

  @Test("ARC-011: Foundation reads our attributed strings, and we read Foundation's (NSAttributeInfo as NSMutableData)")
  func attributedInterop() throws {
    for format in PropertyListFormat.allCases {
      let ours = try KeyedArchiver.archivedData(withRootObject: Self.styled(), format: format)
      let theirs = try #require(try FoundationOracle.unarchive(ours) as? NSAttributedString)
      #expect(theirs.isEqual(to: Self.styled()), "\(format)")
      let written = FoundationOracle.archive(Self.styled(), format: format)
      let back = try #require(try KeyedUnarchiver.unarchivedRootObject(from: written) as? NSAttributedString)
      #expect(back.isEqual(to: Self.styled()), "\(format)")
    }
  }

  // MARK: NSNotification

  @Test("ARC-036: notifications round-trip with name, object and user info, and interoperate with Foundation")
  func notifications() throws {
    let note = Notification(name: .init("did-change"), object: "sender", userInfo: ["count": 3, "name": "x"])
    try ArchiveRoundTrip.check(note)
    let bare = Notification(name: .init("bare"))
    let back = try #require(
      try KeyedUnarchiver.unarchivedRootObject(from: try KeyedArchiver.archivedData(withRootObject: bare))
        as? Notification)
    #expect(back.name == bare.name && back.object == nil && back.userInfo == nil)
    let fromFoundation = FoundationOracle.archive(NSNotification(name: .init("n"), object: "o", userInfo: ["k": "v"]))
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Notification.self, from: fromFoundation))
    #expect(decoded.name.rawValue == "n" && decoded.object as? String == "o")
    #expect(decoded.userInfo?["k"] as? String == "v")
    // Foundation reads ours. corelibs traps on a notification without an object (bug 8), so it only gets one with
    // an object; and its NSNotification.init(coder:) does not read NS.userinfo at all (not even from its own
    // archives), so only the name and the object are compared.
    for format in PropertyListFormat.allCases {
      let ours = try KeyedArchiver.archivedData(withRootObject: note, format: format)
      let theirs = try #require(try FoundationOracle.unarchive(ours) as? NSNotification)
      #expect(theirs.name == note.name && theirs.object as? String == "sender")
    }
    #expect(throws: ArchiveError.self) {
      _ = try FoundationOracle.unarchive(try KeyedArchiver.archivedData(withRootObject: bare))
    }
  }

  // MARK: Mutable collections

  @Test("COD-034: mutable collections decode as their NS mutable class when that class is asked for")
  func mutableWhenAsked() throws {
    let array = NSMutableArray(array: ["a", 1])
    let dictionary = NSMutableDictionary(dictionary: ["k": "v"])
    let set = NSMutableSet(array: ["x", "y"])
    let string = NSMutableString(string: "text")
    let data = NSMutableData(data: Data([1, 2]))
    let root: [Any] = [array, dictionary, set, string, data]
    let archive = try KeyedArchiver.archivedData(withRootObject: root)
    #expect(try rootObject(archive).className == "NSArray")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive)
    let allowed: [Any.Type] = [
      [Any].self, NSMutableArray.self, NSMutableDictionary.self, NSMutableSet.self, NSMutableString.self,
      NSMutableData.self, NSNumber.self, NSString.self,
    ]
    let back = try #require(try unarchiver.decodeObject(of: allowed, forKey: "root") as? [Any])
    #expect((back[0] as? NSMutableArray)?.isEqual(to: ["a", 1]) == true)
    #expect((back[1] as? NSMutableDictionary)?.isEqual(to: ["k": "v"]) == true)
    #expect((back[2] as? NSMutableSet)?.isEqual(to: Set(["x", "y"])) == true)
    #expect((back[3] as? NSMutableString)?.isEqual(to: "text") == true)
    #expect((back[4] as? NSMutableData)?.isEqual(to: Data([1, 2])) == true)
    // Asked for Swift types, the same archive gives Swift values.
    let plain = try #require(try KeyedUnarchiver.unarchivedRootObject(from: archive) as? [Any])
    #expect(plain[0] is [Any] && !(plain[0] is NSMutableArray))
    #expect(plain[3] is String)
  }

  @Test("COD-034: an NSArray asked for as NSMutableArray is not allowed under secure coding and a mismatch otherwise")
  func immutableIsNotMutable() throws {
    let archive = try KeyedArchiver.archivedData(withRootObject: ["a"])
    #expect(throws: ArchiveError.self) {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: NSMutableArray.self, from: archive)
    }
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    do {
      _ = try unarchiver.decodeObject(of: NSMutableArray.self, forKey: "root")
      Issue.record("expected a type mismatch")
    } catch let error as ArchiveError {
      #expect(error.code == .typeMismatch)
    }
  }

  @Test("COD-012: a mutable array in a cycle through an object's init(coder:) round-trips as one instance")
  func cycleThroughMutableArray() throws {
    let shelf = NSMutableArray()
    let book = Book(title: "Dune")
    book.shelf = shelf
    shelf.add(book)
    shelf.add("label")
    for format in PropertyListFormat.allCases {
      let archive = try KeyedArchiver.archivedData(withRootObject: shelf, format: format)
      #expect(try rootObject(archive).className == "NSMutableArray")
      let unarchiver = try KeyedUnarchiver(forReadingFrom: archive)
      let back = try #require(
        try unarchiver.decodeObject(of: [NSMutableArray.self, Book.self, NSString.self], forKey: "root")
          as? NSMutableArray)
      #expect(back.count == 2)
      let decodedBook = try #require(back[0] as? Book)
      #expect(decodedBook.title == "Dune")
      #expect(decodedBook.shelf === back)
      #expect(back[1] as? String == "label")
      // Asked for a Swift array, which cannot be handed out before it is complete, the cycle is an error.
      do {
        _ = try KeyedUnarchiver.unarchivedRootObject(from: archive)
        Issue.record("expected a cycle error")
      } catch let error as ArchiveError {
        #expect(error.code == .referenceCycle)
        #expect(error.location.keyPath == "root.NS.objects[0].shelf")
      }
      decodedBook.shelf = nil
    }
    book.shelf = nil
  }

  @Test("COD-012: an NSMutableArray and an NSMutableDictionary that contain themselves decode without a cycle error")
  func selfContaining() throws {
    let classes: [PropertyListValue] = [
      ["$classname": "NSMutableArray", "$classes": ["NSMutableArray", "NSArray", "NSObject"]],
      ["$classname": "NSMutableDictionary", "$classes": ["NSMutableDictionary", "NSDictionary", "NSObject"]],
    ]
    // $objects: 1 array [2, 1, 3], 2 "first", 3 dictionary {"me": 3}, 4 "me", 5-6 classes.
    let archive = try PropertyListWriter.write([
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
      "$objects": .array(
        [
          "$null", ["$class": .uid(5), "NS.objects": [.uid(2), .uid(1), .uid(3)]], "first",
          ["$class": .uid(6), "NS.keys": [.uid(4)], "NS.objects": [.uid(3)]], "me",
        ] + classes),
    ])
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive)
    let back = try #require(
      try unarchiver.decodeObject(of: [NSMutableArray.self, NSMutableDictionary.self, NSString.self], forKey: "root")
        as? NSMutableArray)
    // swift-corelibs-foundation cannot read an element of a collection that contains itself (its bridging
    // recurses forever), so the instance is checked by its count only.
    #expect(back.count == 3)
    #expect(throws: ArchiveError.self) { _ = try KeyedUnarchiver.unarchivedRootObject(from: archive) }
    back.removeAllObjects()
  }

  @Test("ARC-030: Foundation's top-level NSMutableArray decodes as NSMutableArray when asked for")
  func foundationMutable() throws {
    let archive = FoundationOracle.archive(NSMutableArray(array: ["x", 2]))
    let back = try KeyedUnarchiver.unarchivedObject(
      ofClasses: [NSMutableArray.self, NSString.self, NSNumber.self], from: archive)
    #expect((back as? NSMutableArray)?.isEqual(to: ["x", 2]) == true)
  }

  @Test(
    "ARC-030: old-style NS.object.i and NS.key.i collections read up to the first missing index, whatever the key order"
  )
  func oldStyleNumberedKeys() throws {
    // An array of 20,000 strings whose keys are stored in reverse order, a stray "NS.object.01" (not index 1) and a
    // key past a gap that must not be read.
    let count = 20_000
    var fields: [(String, PropertyListValue)] = (0..<count).reversed().map { ("NS.object.\($0)", .uid(UInt64(2 + $0))) }
    fields.append(("NS.object.01", .uid(2)))
    fields.append(("NS.object.\(count + 1)", .uid(2)))
    let strings = (0..<count).map { PropertyListValue.string("s\($0)") }
    let array = try handMadeArchive(className: "NSArray", fields: fields, extra: strings)
    let decoded = try #require(try KeyedUnarchiver.unarchivedRootObject(from: array) as? [String])
    #expect(decoded.count == count)
    #expect(decoded.first == "s0" && decoded.last == "s\(count - 1)")
    #expect(decoded == (0..<count).map { "s\($0)" })

    // A dictionary: NS.key.0…2 with NS.object.1 missing (its value becomes NSNull), NS.key.4 after a gap.
    let dictionary = try handMadeArchive(
      className: "NSDictionary",
      fields: [
        ("NS.key.2", .uid(4)), ("NS.object.2", .uid(7)), ("NS.key.0", .uid(2)), ("NS.object.0", .uid(6)),
        ("NS.key.1", .uid(3)), ("NS.key.4", .uid(5)), ("NS.object.4", .uid(6)),
      ],
      extra: ["a", "b", "c", "e", "A", "C"])
    let entries = try #require(try KeyedUnarchiver.unarchivedRootObject(from: dictionary) as? [String: Any])
    #expect(entries.count == 3)
    #expect(entries["a"] as? String == "A")
    #expect(entries["b"] is NSNull)
    #expect(entries["c"] as? String == "C")
    #expect(entries["e"] == nil)
  }
}

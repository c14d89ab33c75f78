import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive
import KeyedCommands
import PropertyList
import Testing

/// Foundation's keyed forms read in one place (FORM-002…FORM-028): what the canonical view writes and what typed
/// decoding gives, and the checks they share.
@Suite("Keyed forms")
struct KeyedFormTests {
  @Test(
    "FORM-003: a field the form needs that is missing or of another type: the view writes a class object, typed decoding names the key",
    arguments: [
      ("NSTimeZone", [("NS.name", PropertyListValue.integer(5))], "NS.name"),
      ("NSLocale", [("NS.identifier", .real(2))], "NS.identifier"),
      ("NSCharacterSet", [("NSString", "a"), ("NSIsInverted", "maybe")], "NSIsInverted"),
      ("NSDateComponents", [("NS.year", "2024")], "NS.year"),
      ("NSUUID", [("NS.uuidbytes", .data(Data(count: 15)))], "NS.uuidbytes"),
    ] as [(String, [(String, PropertyListValue)], String)])
  func mismatchIsAClassObjectAndAnError(className: String, fields: [(String, PropertyListValue)], key: String) throws {
    let data = try formArchive(className: className, fields: fields)
    let dump = dumpJSON(data)
    #expect(dump.status == 0, "\(dump.errors)")
    #expect(dump.output.hasPrefix("{\"$class\":\"\(className)\""), "\(dump.output)")
    #expect {
      _ = try KeyedUnarchiver.unarchivedRootObject(from: data)
    } throws: { error in
      (error as? ArchiveError)?.location.keyPath?.hasSuffix(key) == true
    }
  }

  @Test("FORM-023: a range past the largest index is corrupt for the view and typed decoding alike")
  func indexSetRangePastTheLargestIndex() throws {
    let data = try formArchive(
      className: "NSIndexSet",
      fields: [("NSRangeCount", 1), ("NSLocation", .integer(Int64.max - 1)), ("NSLength", 5)])
    let dump = dumpJSON(data)
    #expect(dump.status == 65 && dump.output.isEmpty && dump.errors.contains("runs past the largest index"))
    #expect(throws: ArchiveError.self) { _ = try KeyedUnarchiver.unarchivedObject(ofClass: IndexSet.self, from: data) }
    let validate = KeyedCommandsRun.validate(data)
    #expect(validate.status == 65)
  }

  @Test("FORM-023: the view and typed decoding read one index set the same way")
  func indexSetReadOnce() throws {
    let set = IndexSet([1, 2, 3, 10, 20, 21])
    let data = try KeyedArchiver.archivedData(withRootObject: set)
    #expect(dumpJSON(data).output == #"{"$indexSet":[[1,3],[10,1],[20,2]]}"#)
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: IndexSet.self, from: data) == set)
  }

  @Test("FORM-014: an NSURL whose relative string is empty is its base without the fragment, to the view and decoding")
  func emptyRelativeURL() throws {
    let base: PropertyListValue = ["$class": .uid(5), "NS.base": .uid(0), "NS.relative": .uid(4)]
    let data = try formArchive(
      className: "NSURL", fields: [("NS.base", .uid(2)), ("NS.relative", .uid(3))],
      extra: [base, "", "https://example.com/a/b#part"])
    #expect(dumpJSON(data).output == #"{"$url":"https://example.com/a/b"}"#)
    let url = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: URL.self, from: data))
    #expect(url.absoluteString == "https://example.com/a/b")
  }

  @Test("FORM-015: an NSValue of another kind (NS.special 0) is a class object to the view, refused by decoding")
  func unsupportedValueKind() throws {
    let data = try formArchive(className: "NSValue", fields: [("NS.special", 0)])
    #expect(dumpJSON(data).output == #"{"$class":"NSValue","NS.special":0}"#)
    #expect(KeyedCommandsRun.validate(data).status == 0)
    #expect {
      _ = try KeyedUnarchiver.unarchivedRootObject(from: data)
    } throws: { error in
      (error as? ArchiveError)?.code == .unsupportedFormat
    }
  }

  @Test("FORM-030: one message for a dictionary whose keys and values differ in number, wherever it is read")
  func dictionaryCountMismatch() throws {
    let data = try formArchive(
      className: "NSDictionary", fields: [("NS.keys", [.uid(2)]), ("NS.objects", [])], extra: ["k"])
    let expected = "NS.keys has 1 entries but NS.objects has 0"
    #expect(dumpJSON(data).errors.contains(expected))
    #expect {
      _ = try KeyedUnarchiver.unarchivedRootObject(from: data)
    } throws: { error in
      "\(error)".contains(expected)
    }
  }

  @Test("FORM-050: typed encoding writes each value class through the form it is read with")
  func encodingThroughForms() throws {
    let values: [(Any, String)] = [
      (IndexSet([4, 5, 9]), #"{"$indexSet":[[4,2],[9,1]]}"#), (IndexPath(indexes: [0, 3]), #"{"$indexPath":[0,3]}"#),
      (TimeZone(identifier: "Europe/Paris") as Any, #"{"$timeZone":"Europe/Paris"}"#),
      (Locale(identifier: "fr_CA"), #"{"$locale":"fr_CA"}"#),
      (Calendar(identifier: .iso8601), #"{"$calendar":"iso8601"}"#),
      (
        UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") as Any,
        #"{"$uuid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#
      ),
      (URL(string: "https://example.com/x") as Any, #"{"$url":"https://example.com/x"}"#),
      (
        Measurement(value: 3.5, unit: UnitLength.kilometers),
        #"{"$measurement":{"unit":"km","unitClass":"NSUnitLength","value":3.5}}"#
      ),
    ]
    for (value, json) in values {
      let data = try KeyedArchiver.archivedData(withRootObject: value)
      #expect(dumpJSON(data).output == json)
    }
  }
}

/// Runs `keyed validate` in-process on bytes.
enum KeyedCommandsRun {
  static func validate(_ data: Data) -> (status: Int32, output: String, errors: String) {
    let result = KeyedTool.run(["validate", "-"], standardInput: { data })
    return (result.status, result.output, result.errors)
  }
}

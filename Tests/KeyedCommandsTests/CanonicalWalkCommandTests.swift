import ArchiveComparison
import Foundation
import FoundationForms
import KeyedArchive
import KeyedCommands
import PropertyList
import Testing

/// `keyed dump --json` writes the canonical walk as it goes, and `keyed validate` is the walk's checking pass
/// (CLI-100…CLI-104, Decision 0040).
@Suite("dump and validate through the canonical walk")
struct CanonicalWalkCommandTests {
  /// A flat archive of `rows` rows, each an object with an integer, a real, two strings, a date, an array of two
  /// strings and 16 bytes, and every fourth row sharing one object (so that `$id` and `$ref` are written); the
  /// last row's `title` refers to `lastTitle` (past `$objects` to make the archive corrupt there).
  static func rowsArchive(rows: Int, lastTitle: UInt64? = nil) -> Data {
    var objects: [PropertyListValue] = ["$null", .null]
    func add(_ value: PropertyListValue) -> PropertyListValue {
      objects.append(value)
      return .uid(UInt64(objects.count - 1))
    }
    let rowClass = add(["$classname": "Row", "$classes": ["Row", "NSObject"]])
    let dateClass = add(["$classname": "NSDate", "$classes": ["NSDate", "NSObject"]])
    let arrayClass = add(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]])
    let setClass = add(["$classname": "NSSet", "$classes": ["NSSet", "NSObject"]])
    let shared = add(["$class": rowClass, "id": -1])
    var rowUIDs: [PropertyListValue] = []
    for index in 0..<rows {
      var row = PropertyListDictionary()
      row["$class"] = rowClass
      row["id"] = .integer(Int64(index))
      row["score"] = .real(Double(index) / 7)
      row["title"] = index == rows - 1 && lastTitle != nil ? .uid(lastTitle ?? 0) : add(.string("title \(index)"))
      row["note"] = add(.string("note \"\(index)\"\n"))
      row["created"] = add(["$class": dateClass, "NS.time": .real(7e8 + Double(index))])
      row["tags"] = add(["$class": arrayClass, "NS.objects": [add(.string("a\(index)")), add(.string("b\(index)"))]])
      row["payload"] = add(.data(Data(repeating: UInt8(index % 256), count: 16)))
      if index % 4 == 0 {
        row["friends"] = add(["$class": setClass, "NS.objects": [shared, add(.string("z\(index)"))]])
      }
      rowUIDs.append(add(.dictionary(row)))
    }
    objects[1] = ["$class": arrayClass, "NS.objects": .array(rowUIDs)]
    return BinaryPropertyListWriter.write(
      [
        "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(objects),
      ] as PropertyListValue)
  }

  static func write(_ data: Data, _ name: String) throws -> URL {
    let directory = try makeTemporaryDirectory("walk")
    let url = directory.appendingPathComponent(name)
    try data.write(to: url)
    return url
  }

  @Test("CLI-101: the executable's streamed view equals the view built whole, with $id, $ref and sorted sets")
  func streamedEqualsWhole() throws {
    let data = Self.rowsArchive(rows: 3_000)
    let url = try Self.write(data, "rows.plist")
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let streamed = try runExecutable(["dump", "--json", url.path])
    #expect(streamed.status == 0, "\(streamed.errors)")
    let whole = try CanonicalJSON.text(ArchiveJSON.graph(KeyedArchiveGraph(data: data))) + "\n"
    #expect(streamed.output == whole)
    #expect(streamed.output.contains("\"$id\":") && streamed.output.contains("{\"$ref\":"))
    #expect(keyed("dump", "--json", url.path).output == whole)
    let pretty = try runExecutable(["dump", "--json", "--pretty", url.path])
    #expect(
      pretty.output == CanonicalJSON.text(try ArchiveJSON.graph(KeyedArchiveGraph(data: data)), pretty: true) + "\n")
  }

  @Test("CLI-102: a cut and a corrupted large archive print nothing on standard output and the error on standard error")
  func errorsLeaveNothingWritten() throws {
    let whole = Self.rowsArchive(rows: 3_000)
    let corrupt = Self.rowsArchive(rows: 3_000, lastTitle: 1 << 40)
    for (data, name, message) in [
      (whole.prefix(whole.count / 2), "cut.plist", "trailer: "),
      (corrupt, "corrupt.plist", "reference to object #1099511627776, but $objects has "),
    ] {
      let url = try Self.write(Data(data), name)
      defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
      for verb in [["dump", "--json"], ["validate"]] {
        let result = try runExecutable(verb + [url.path])
        #expect(result.status == 65 && result.output.isEmpty, "\(verb) \(name): \(result.output.prefix(200))")
        #expect(
          result.errors.hasPrefix("keyed: \(url.path)") && result.errors.contains(message)
            && result.errors.split(separator: "\n").count == 1, "\(verb) \(name): \(result.errors)")
      }
    }
  }

  @Test(
    "CLI-100: validate refuses no archive dump reads: sets of objects, NSValue kind 0, an array that holds itself",
    arguments: [
      (
        "NSMutableSet", [("NS.objects", PropertyListValue.array([.uid(2), .uid(3)]))],
        [
          ["$class": .uid(5), "name": "window"], ["$class": .uid(5), "name": "panel"],
        ] as [PropertyListValue], #"{"$set":[{"$class":"Window","name":"panel"},{"$class":"Window","name":"window"}]}"#
      ),
      ("NSValue", [("NS.special", 0)], [], #"{"$class":"NSValue","NS.special":0}"#),
      ("NSMutableArray", [("NS.objects", [.uid(1)])], [], #"[{"$cycle":1}]"#),
    ] as [(String, [(String, PropertyListValue)], [PropertyListValue], String)])
  func validateAgreesWithDump(
    className: String, fields: [(String, PropertyListValue)], extra: [PropertyListValue], json: String
  ) throws {
    var objects: [PropertyListValue] = ["$null"]
    var object = PropertyListDictionary(fields.map { (PropertyListValue.string($0.0), $0.1) })
    object["$class"] = .uid(UInt64(2 + extra.count))
    objects.append(.dictionary(object))
    objects += extra
    objects.append(["$classname": .string(className), "$classes": [.string(className), "NSObject"]])
    if !extra.isEmpty { objects.append(["$classname": "Window", "$classes": ["Window", "NSObject"]]) }
    let data = BinaryPropertyListWriter.write(
      [
        "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(objects),
      ] as PropertyListValue)
    let dump = keyed("dump", "--json", "-", input: data)
    #expect(dump.status == 0 && dump.output == json + "\n", "\(dump.errors)")
    let validate = keyed("validate", "-", input: data)
    #expect(validate.status == 0, "\(validate.errors)")
  }

  @Test(
    "CLI-100: validate and dump --json agree on every corpus file: both read it, or both refuse it",
    .enabled(if: corpusRoot != nil, "../shared/corpus is absent: the agreement of validate and dump is not checked"))
  func corpusAgreement() throws {
    let corpus = try #require(corpusRoot)
    let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
    var checked = 0
    var refused = 0
    while let url = enumerator?.nextObject() as? URL {
      guard !["md", "txt"].contains(url.pathExtension),
        (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
      else { continue }
      let dump = keyed("dump", "--json", url.path)
      let validate = keyed("validate", url.path)
      #expect(
        dump.status == validate.status,
        "\(url.path): dump \(dump.status) \(dump.errors) / validate \(validate.status) \(validate.errors)")
      checked += 1
      if dump.status != 0 { refused += 1 }
    }
    #expect(checked > 500 && refused > 10, "\(checked) files, \(refused) refused")
  }
}

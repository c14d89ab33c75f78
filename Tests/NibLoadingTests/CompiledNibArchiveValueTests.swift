import ArchiveCoding
import Foundation
import NibLoading
import TestSupport
import Testing

/// NIBArchive-specific folding (NIBA-043), on archives written byte by byte.
@Suite("Compiled nib tables: NIBArchive values")
struct CompiledNibArchiveValueTests {
  /// Writes a NIBArchive (format 1, coder 10) from objects given as a class name and (key, value) entries.
  struct Writer {
    enum Value {
      case integer(Int64), double(Double), bool(Bool), data([UInt8]), null, object(Int)
    }
    var objects: [(className: String, entries: [(String, Value)])] = [("NSObject", [])]  // object 0: the root

    mutating func add(_ className: String, _ entries: [(String, Value)] = []) -> Int {
      objects.append((className, entries))
      return objects.count - 1
    }
    mutating func string(_ text: String) -> Value { .object(add("NSString", [("NS.bytes", .data(Array(text.utf8)))])) }
    mutating func array(_ elements: [Value], className: String = "NSArray") -> Value {
      .object(add(className, [("NSInlinedValue", .bool(true))] + elements.map { ("UINibEncoderEmptyKey", $0) }))
    }
    mutating func setRoot(_ entries: [(String, Value)]) { objects[0].entries = entries }

    /// The file, laid out by the shared test writer (`TestArchiveBuilder`).
    func data() -> Data {
      var builder = TestArchiveBuilder()
      var classIndexes: [String: Int] = [:]
      for (className, entries) in objects {
        let classIndex = classIndexes[className] ?? builder.addClass(className)
        classIndexes[className] = classIndex
        builder.addObject(
          classIndex,
          entries.map { key, value in
            switch value {
            case .integer(let number): (key, .int64(number))
            case .double(let number): (key, .double(number))
            case .bool(let flag): (key, .bool(flag))
            case .data(let bytes): (key, .data(bytes))
            case .null: (key, .null)
            case .object(let index): (key, .object(UInt32(index)))
            }
          })
      }
      return Data(builder.bytes())
    }
  }

  /// A UIKit nib whose one view has the given fields.
  static func nib(_ fields: (inout Writer) -> [(String, Writer.Value)]) throws -> (ObjectTable, ObjectRecord) {
    var writer = Writer()
    let owner = writer.add("UIProxyObject", [("UIProxiedObjectIdentifier", writer.string("IBFilesOwner"))])
    let view = writer.add("UIView")
    writer.objects[view].entries = fields(&writer)
    let list = writer.array([.object(owner), .object(view)])
    writer.setRoot([
      ("UINibObjectsKey", list), ("UINibTopLevelObjectsKey", list), ("UINibConnectionsKey", writer.array([])),
    ])
    let table = try NibReader.objectTable(from: writer.data(), fileName: "written.nib")
    return (table, try table.record(String(view)))
  }

  @Test("NIBA-043: NSNumber objects become integers, reals and Booleans; inline scalars stay as they are")
  func numbers() throws {
    let (_, view) = try Self.nib { writer in
      [
        ("int", .object(writer.add("NSNumber", [("NS.intval", .integer(-5))]))),
        ("double", .object(writer.add("NSNumber", [("NS.dblval", .double(0.25))]))),
        ("flag", .object(writer.add("NSNumber", [("NS.boolval", .bool(true))]))),
        ("inline", .double(1.5)), ("nothing", .null), ("bytes", .data([0x07, 1])),
      ]
    }
    #expect(view.field("int") == .integer(-5))
    #expect(view.field("double") == .real(0.25))
    #expect(view.field("flag") == .bool(true))
    #expect(view.field("inline") == .real(1.5))
    #expect(view.field("nothing") == .null)
    #expect(view.field("bytes") == .data(Data([0x07, 1])))
  }

  @Test("NIBA-043, NIBA-048: collections keep nil and scalar elements; odd dictionaries drop their last element")
  func collections() throws {
    let (table, view) = try Self.nib { writer in
      let key = writer.string("a")
      let other = writer.string("b")
      return [
        ("list", writer.array([.null, .integer(2), writer.string("x")], className: "NSMutableSet")),
        (
          "odd",
          .object(
            writer.add("NSDictionary", [("NSInlinedValue", .bool(true)), ("k", key), ("v", .integer(1)), ("k", other)]))
        ),
      ]
    }
    #expect(view.field("list") == .array([.null, .integer(2), .string("x")]))
    #expect(view.field("odd") == .record("NSDictionary", [.init(key: "a", value: .integer(1))]))
    #expect(table.warnings.contains { $0.contains("odd number") })
  }

  @Test("NIBA-041, NIBA-048: Foundation objects without their value read as nil with a warning")
  func unusable() throws {
    let (table, view) = try Self.nib { writer in
      let target = writer.add("UIView")
      return [
        ("badText", .object(writer.add("NSString", [("NS.bytes", .data([0xFF, 0xFE]))]))),
        ("refNumber", .object(writer.add("NSNumber", [("NS.intval", .object(target))]))),
        ("noData", .object(writer.add("NSData"))),
      ]
    }
    #expect(view.field("badText") == .null)
    #expect(view.field("refNumber") == .null)
    #expect(view.field("noData") == .null)
    #expect(table.warnings.count == 3)
    #expect(table.warnings.allSatisfy { $0.hasPrefix("written.nib, object #") && $0.contains("read as nil") })
  }

  @Test("NIBA-044, NIBA-050: a root without nib keys and corrupt bytes are ArchiveErrors located in the file")
  func errors() throws {
    var writer = Writer()
    writer.setRoot([("something", .integer(1))])
    #expect(throws: ArchiveError.self) { try NibReader.objectTable(from: writer.data(), fileName: "written.nib") }
    do {
      _ = try NibReader.objectTable(from: writer.data(), fileName: "written.nib")
    } catch let error as ArchiveError {
      #expect(error.code == .unsupportedFormat)
      #expect(error.message.contains("\"something\""))
      #expect(error.location.file == "written.nib")
    }
    var bytes = [UInt8](writer.data())
    bytes[18] = 0xFF  // the object count now runs past the end of the file
    do {
      _ = try NibReader.objectTable(from: Data(bytes), fileName: "written.nib")
      Issue.record("corrupt bytes were accepted")
    } catch let error as ArchiveError {
      #expect(error.code == .corruptData)
      #expect(error.location.file == "written.nib")
    }
  }
}

import ArchiveCoding
import Foundation
import KeyedArchive
import Testing

@testable import KeyedCommands
@testable import Typedstream

/// The verbs the `keyed` tool runs on a typedstream, called as the tool's dispatcher calls them.
@Suite("Typedstream commands")
struct CommandTests {
  private static let string: Data = StreamBytes.little(
    StreamBytes.new("@") + [0x84, 0x84] + StreamBytes.new("NSString") + [0x01, 0x84] + StreamBytes.new("NSObject")
      + [0x00, 0x85] + StreamBytes.new("+") + [0x02] + Array("hi".utf8) + [0x86])

  @Test("TS-060: standard input and files starting with either signature are typedstream inputs")
  func detection() throws {
    #expect(Context(standardInput: { Self.string }).isTypedstreamInput("-"))
    #expect(!Context(standardInput: { Data("bplist00".utf8) }).isTypedstreamInput("-"))
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("typedstream-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    try TypedstreamWriter.write(TypedstreamArchive(byteOrder: .big, groups: [])).write(to: url)
    #expect(Context(standardInput: { Data() }).isTypedstreamInput(url.path))
    #expect(!Context(standardInput: { Data() }).isTypedstreamInput(FileManager.default.temporaryDirectory.path))
  }

  @Test("TS-060, TS-070: dump prints the raw view with --raw --json and the decoded view with --json")
  func dump() throws {
    var raw = Context(standardInput: { Self.string })
    try raw.dumpTypedstream("-", raw: true, json: true, pretty: false)
    #expect(raw.output.hasPrefix(#"{"byteOrder":"little","streamerVersion":4,"#))
    #expect(raw.output.hasSuffix("}\n"))
    var decoded = Context(standardInput: { Self.string })
    try decoded.dumpTypedstream("-", raw: false, json: true, pretty: false)
    #expect(decoded.output == "\"hi\"\n")
  }

  @Test("TS-040: a malformed typedstream fails dump and validate with exit status 65, naming the input")
  func malformed() throws {
    let truncated = Self.string.dropLast(3)
    var context = Context(standardInput: { truncated })
    do {
      try context.validateTypedstream("-")
      Issue.record("validate accepted a truncated stream")
    } catch let error as Context.InputError {
      #expect(error.status == KeyedTool.ExitCode.dataError)
      #expect(error.message == "<stdin>, byte 48: expected 2 bytes of a string, found 0 left")
    }
    #expect(throws: Context.InputError.self) { try context.dumpTypedstream("-", raw: true, json: true, pretty: false) }
  }

  @Test("TS-053: convert writes the stream re-encoded; an unknown format is a usage error")
  func convert() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("typedstream-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    var context = Context(standardInput: { Self.string })
    try context.convertTypedstream("-", to: out.path, format: nil)
    #expect(try Data(contentsOf: out) == Self.string)
    #expect(throws: UsageError.self) { try context.convertTypedstream("-", to: out.path, format: "yaml") }
  }

  @Test(
    "COD-126: convert turns a typedstream of Foundation values into a keyed archive and back",
    arguments: ["binary", "xml"])
  func convertToKeyedArchiveAndBack(_ format: String) throws {
    let directory = FileManager.default.temporaryDirectory
    let keyed = directory.appendingPathComponent("typedstream-\(UUID().uuidString).plist")
    let back = directory.appendingPathComponent("typedstream-\(UUID().uuidString)")
    defer {
      try? FileManager.default.removeItem(at: keyed)
      try? FileManager.default.removeItem(at: back)
    }
    let value: [Any] = ["x", 7, 2.5, Data([1, 2]), ["k": Date(timeIntervalSinceReferenceDate: 5)] as [String: Any]]
    let stream = try TypedstreamArchiver.archivedData(withRootObject: value, byteOrder: .big)
    var context = Context(standardInput: { stream })
    try context.convertTypedstream("-", to: keyed.path, format: format)
    #expect(try KeyedUnarchiver.unarchivedRootObject(from: try Data(contentsOf: keyed)) is [Any])
    try context.convertToTypedstream(keyed.path, to: back.path)
    // Back in a typedstream (little-endian, as the archiver writes by default), the values are the same.
    #expect(try Data(contentsOf: back) == TypedstreamArchiver.archivedData(withRootObject: value))
  }

  @Test("COD-126: a typedstream holding another class, or several top-level values, exits 65 naming why")
  func convertRefusesWhatAKeyedArchiveCannotHold() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("typedstream-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let object = TypedstreamObject(objectClass: .literal(TypedstreamClass("NSPrintInfo", version: 1)), groups: [])
    let other = try TypedstreamWriter.write(
      TypedstreamArchive(groups: [TypedstreamGroup("@", [.object(.literal(object))])]))
    var context = Context(standardInput: { other })
    let error = try #require(throws: Context.InputError.self) {
      try context.convertTypedstream("-", to: out.path, format: "binary")
    }
    #expect(error.status == KeyedTool.ExitCode.dataError)
    #expect(error.message.contains("NSPrintInfo"))
    let two = try TypedstreamWriter.write(
      TypedstreamArchive(groups: [TypedstreamGroup("i", [.signed(TypeCode("i"), 1)])]))
    context = Context(standardInput: { two })
    let several = try #require(throws: Context.InputError.self) {
      try context.convertTypedstream("-", to: out.path, format: "xml")
    }
    #expect(several.message.contains("one root object"))
  }

  @Test("validate prints one line with the byte order and the object count")
  func validate() throws {
    var context = Context(standardInput: { Self.string })
    try context.validateTypedstream("-")
    #expect(context.output == "<stdin>: valid typedstream (little-endian), 1 objects\n")
  }
}

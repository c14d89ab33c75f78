import ArchiveCoding
import ArchiveTesting
import Foundation
import TestSupport
import Testing

/// A note whose `init(coder:)` forgets its tags when `forgetsTags` is set: a round trip then differs at `\.tags`.
final class KeyPathNote: SecureCoding {
  nonisolated(unsafe) static var forgetsTags = false
  var title: String
  var tags: [String]
  var created: Date
  var attachments: [KeyPathAttachment]

  init(title: String, tags: [String], created: Date, attachments: [KeyPathAttachment]) {
    (self.title, self.tags, self.created, self.attachments) = (title, tags, created, attachments)
  }

  required init(coder: any DecodingCoder) throws {
    title = try coder.decodeString(forKey: "title") ?? ""
    tags = Self.forgetsTags ? [] : try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "tags") ?? []
    created = try coder.decodeObject(of: Date.self, forKey: "created") ?? .distantPast
    attachments = try coder.decodeArrayOfObjects(ofClass: KeyPathAttachment.self, forKey: "attachments") ?? []
  }

  func encode(with coder: any EncodingCoder) {
    coder.encode(title, forKey: "title")
    coder.encode(tags, forKey: "tags")
    coder.encode(created, forKey: "created")
    coder.encode(attachments, forKey: "attachments")
  }
}

/// An attachment, not `Equatable`.
final class KeyPathAttachment: SecureCoding {
  var name: String
  init(name: String) { self.name = name }
  required init(coder: any DecodingCoder) throws { name = try coder.decodeString(forKey: "name") ?? "" }
  func encode(with coder: any EncodingCoder) { coder.encode(name, forKey: "name") }
}

@Suite("Round trips compared by key path", .serialized)
struct RoundTripKeyPathTests {
  init() {
    ClassRegistry.shared.register(KeyPathNote.self, as: "KeyPathNote")
    ClassRegistry.shared.register(KeyPathAttachment.self, as: "KeyPathAttachment")
  }

  static var note: KeyPathNote {
    KeyPathNote(
      title: "Groceries", tags: ["home", "ünïcode"], created: Date(timeIntervalSinceReferenceDate: 1_000),
      attachments: [KeyPathAttachment(name: "list.png"), KeyPathAttachment(name: "map.pdf")])
  }

  @Test("ARC-029: the key-path comparison passes a faithful round trip in both formats and returns what it decoded")
  func keyPathsPass() throws {
    KeyPathNote.forgetsTags = false
    let decoded = try ArchiveRoundTrip.check(
      Self.note, allowedClasses: [KeyPathNote.self, KeyPathAttachment.self],
      comparing: \.title, \.tags, \.created, \.attachments.count)
    #expect(decoded.count == 2)
    #expect(decoded.map(\.attachments.last?.name) == ["map.pdf", "map.pdf"])
    ArchiveExpectations.expectRoundTrip(
      Self.note, allowedClasses: [KeyPathNote.self, KeyPathAttachment.self],
      comparing: \.title, \.tags, \.created, \.attachments.count)
  }

  @Test("ARC-029: a mismatch names the first differing key path and both values")
  func mismatchNamesKeyPath() throws {
    KeyPathNote.forgetsTags = true
    defer { KeyPathNote.forgetsTags = false }
    let error = try #require(throws: ArchiveError.self) {
      try ArchiveRoundTrip.check(
        Self.note, allowedClasses: [KeyPathNote.self, KeyPathAttachment.self], comparing: \.title, \.tags, \.created)
    }
    #expect(error.code == .roundTripMismatch)
    #expect(error.message.contains("key path #2: [\"home\", \"ünïcode\"] -> []"), "\(error.message)")
  }

  @Test("ARC-029: a key path to a value that is not Equatable is refused before archiving")
  func notEquatableRefused() throws {
    let error = try #require(throws: ArchiveError.self) {
      try ArchiveRoundTrip.check(Self.note, comparing: \.title, \.attachments)
    }
    #expect(error.code == .invalidValue)
    #expect(error.message.contains("key path #2 leads to a Array<KeyPathAttachment>, which is not Equatable"))
  }

  @Test(
    "ARC-029: a four-property comparison by key paths or by an annotated closure type-checks within one second",
    .timeLimit(.minutes(2)))
  func typeChecksAtOnce() throws {
    let modules = ProcessRunner.builtProduct("Modules", packageRoot: packageRoot)
    guard let swiftc = ProcessRunner.program(named: "swiftc"),
      FileManager.default.fileExists(atPath: modules.appendingPathComponent("ArchiveTesting.swiftmodule").path)
    else {
      print("ARC-029 type-check test skipped: no swiftc on PATH or no built modules at \(modules.path)")
      return
    }
    let source = """
      import ArchiveCoding
      import ArchiveTesting
      import Foundation
      import Testing

      final class Attachment: SecureCoding {
        var name = ""
        init() {}
        required init(coder: any DecodingCoder) throws {}
        func encode(with coder: any EncodingCoder) {}
      }
      final class Note: SecureCoding {
        var title = "", tags: [String] = [], created = Date(), attachments: [Attachment] = []
        init() {}
        required init(coder: any DecodingCoder) throws {}
        func encode(with coder: any EncodingCoder) {}
      }
      func check(note: Note) {
        ArchiveExpectations.expectRoundTrip(
          note, allowedClasses: [Note.self, Attachment.self],
          comparing: \\.title, \\.tags, \\.created, \\.attachments.count)
        ArchiveExpectations.expectRoundTrip(note, allowedClasses: [Note.self, Attachment.self]) { (a: Note, b: Note) in
          a.title == b.title && a.tags == b.tags && a.created == b.created && a.attachments.count == b.attachments.count
        }
      }
      """
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("arc029-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("Check.swift")
    try Data(source.utf8).write(to: file)
    // The solver gives up on an expression after the threshold (seconds), with "unable to type-check".
    let result = try ProcessRunner.run(
      swiftc,
      [
        "-typecheck", "-I", modules.path, "-Xfrontend", "-solver-expression-time-threshold=1", file.path,
      ])
    #expect(result.finished && result.status == 0, "\(result.errors)")
  }
}

import ArchiveCoding
import ArchiveComparison
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// An attachment as a newer version of an app writes it: a name, a colour it added, a thumbnail and a link to
/// another attachment.
private final class AttachmentV2: Coding {
  var name: String
  var color: String
  var thumbnail: Data
  var related: AttachmentV2?
  init(name: String, color: String, thumbnail: Data, related: AttachmentV2? = nil) {
    self.name = name
    self.color = color
    self.thumbnail = thumbnail
    self.related = related
  }
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeString(forKey: "name") ?? ""
    color = try coder.decodeString(forKey: "color") ?? ""
    thumbnail = try coder.decodeData(forKey: "thumbnail") ?? Data()
    related = try coder.decodeObject(of: AttachmentV2.self, forKey: "related")
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(color, forKey: "color")
    coder.encode(thumbnail, forKey: "thumbnail")
    coder.encodeObject(related, forKey: "related")
  }
}

/// The same attachment as an older version knows it: a name only, keeping what it does not read.
private final class AttachmentV1: KeepsUnreadFields {
  var name: String
  var unreadFields = UnreadFields()
  required init(coder: any DecodingCoder) throws { name = try coder.decodeString(forKey: "name") ?? "" }
  func encode(with coder: any EncodingCoder) { coder.encode(name, forKey: "name") }
}

/// The older version, keeping nothing.
private final class AttachmentV1Forgetful: Coding {
  var name: String
  required init(coder: any DecodingCoder) throws { name = try coder.decodeString(forKey: "name") ?? "" }
  func encode(with coder: any EncodingCoder) { coder.encode(name, forKey: "name") }
}

/// A class that keeps its unread fields and writes one of the kept keys itself.
private final class AttachmentV1Renaming: KeepsUnreadFields {
  var name: String
  var unreadFields = UnreadFields()
  required init(coder: any DecodingCoder) throws { name = try coder.decodeString(forKey: "name") ?? "" }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: "name")
    coder.encode("repainted", forKey: "color")
  }
}

/// A class that opts in may keep the keys its `init(coder:)` did not read and have them written back (COD-210).
@Suite("Unread fields")
struct UnreadFieldsTests {
  static func registry(_ attachment: any Coding.Type) -> ClassRegistry {
    let registry = ClassRegistry()
    registry.register(attachment, as: "Notes.Attachment")
    return registry
  }

  /// A document (an array) of two attachments of the newer version, the first linked to the second.
  static func newerDocument() throws -> Data {
    let second = AttachmentV2(name: "b", color: "teal", thumbnail: Data([9, 8, 7]))
    let first = AttachmentV2(name: "a", color: "red", thumbnail: Data([1, 2]), related: second)
    let archiver = KeyedArchiver(registry: registry(AttachmentV2.self))
    archiver.encodeObject([first, second], forKey: "root")
    return try archiver.finishEncoding()
  }

  /// `data` decoded with `attachment` as the class of the attachments and archived again.
  static func rewritten(_ data: Data, with attachment: any Coding.Type) throws -> Data {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.registry = registry(attachment)
    let document = try unarchiver.decodeObject(forKey: "root", allowedClasses: nil)
    let archiver = KeyedArchiver(registry: registry(attachment))
    archiver.encodeObject(document, forKey: "root")
    return try archiver.finishEncoding()
  }

  fileprivate static func decodeNewer(_ data: Data) throws -> [AttachmentV2] {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.registry = registry(AttachmentV2.self)
    return try #require(try unarchiver.decodeArrayOfObjects(ofClass: AttachmentV2.self, forKey: "root"))
  }

  @Test("COD-210: a field an older model does not read survives its decode and archive, references re-pointed")
  func unreadFieldsSurvive() throws {
    let original = try Self.newerDocument()
    let rewritten = try Self.rewritten(original, with: AttachmentV1.self)
    let back = try Self.decodeNewer(rewritten)
    #expect(back.map(\.name) == ["a", "b"])
    #expect(back.map(\.color) == ["red", "teal"])
    #expect(back.map(\.thumbnail) == [Data([1, 2]), Data([9, 8, 7])])
    // The link points at the same attachment the array holds.
    #expect(back[0].related === back[1])
    #expect(back[1].related == nil)
    // Nothing lost, by the comparison's reading.
    #expect(try ArchiveComparison.differences(between: original, and: rewritten).isEmpty)
  }

  @Test("COD-210: the kept fields are what the initialiser did not read, under their stored keys")
  func keptFieldsAreTheUnreadOnes() throws {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: Self.newerDocument(), requiringSecureCoding: false)
    unarchiver.registry = Self.registry(AttachmentV1.self)
    let document = try #require(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? [Any])
    let first = try #require(document.first as? AttachmentV1)
    #expect(first.unreadFields.entries.map(\.key) == ["color", "thumbnail", "related"])
    guard case .object(let color)? = first.unreadFields["color"],
      case .object(let related)? = first.unreadFields["related"]
    else {
      Issue.record("no color or related field: \(first.unreadFields.entries.map(\.key))")
      return
    }
    #expect(color as? String == "red")
    #expect(related as AnyObject === document[1] as AnyObject)
  }

  @Test("COD-210: a class that does not opt in loses the fields it does not read, as before")
  func forgetfulClassLosesThem() throws {
    let rewritten = try Self.rewritten(Self.newerDocument(), with: AttachmentV1Forgetful.self)
    let back = try Self.decodeNewer(rewritten)
    #expect(back.map(\.name) == ["a", "b"])
    #expect(back.map(\.color) == ["", ""])
    #expect(try !ArchiveComparison.differences(between: Self.newerDocument(), and: rewritten).isEmpty)
  }

  @Test("COD-210: a key the object writes itself is written once, with its new value")
  func writtenKeyWins() throws {
    let rewritten = try Self.rewritten(Self.newerDocument(), with: AttachmentV1Renaming.self)
    let back = try Self.decodeNewer(rewritten)
    #expect(back.map(\.color) == ["repainted", "repainted"])
    #expect(back.map(\.thumbnail) == [Data([1, 2]), Data([9, 8, 7])])
    var graph = try KeyedArchiveGraph(data: rewritten)
    guard case .object(let attachment) = try graph.entry(2) else {
      Issue.record("entry 2 is no object")
      return
    }
    #expect(attachment.storedFields.filter { $0.key == "color" }.count == 1)
  }
}

/// Every valid keyed archive of the corpus, decoded through registered classes (that keep what they do not read) or
/// generically, and archived again, loses nothing by the comparison's reading (COD-210).
@Suite("Corpus write-back")
struct CorpusWriteBackTests {
  @Test(
    "COD-210, COD-202: decoding and archiving again every valid corpus archive loses nothing",
    .enabled(if: ArchiveCorpus.isPresent, "../shared/corpus is absent"), arguments: ArchiveCorpus.valid)
  func corpusArchiveLosesNothing(file: String) throws {
    let data = try ArchiveCorpus.data(file)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.registry = corpusRegistry
    unarchiver.decodesUnknownClassesGenerically = true
    let archiver = KeyedArchiver(registry: corpusRegistry)
    // `$0`, `$1`, …: unkeyed slots, written in their order; `$$key`: the key `$key`.
    let keys = unarchiver.topLevelKeys
    let unkeyed = keys.compactMap { key in key.hasPrefix("$") ? Int(key.dropFirst()) : nil }.sorted()
    for slot in unkeyed {
      archiver.encodeObject(try unarchiver.decodeObject(forStoredKey: "$\(slot)", allowedClasses: nil))
    }
    for key in keys where !(key.hasPrefix("$") && Int(key.dropFirst()) != nil) {
      let value = try unarchiver.decodeObject(forStoredKey: key, allowedClasses: nil)
      archiver.encodeObject(value, forKey: KeyedArchiveGraph.unescaped(key))
    }
    let written = try archiver.finishEncoding()
    // A loss is something the original has that the copy has not, or has otherwise: a field a registered class
    // writes that the original lacked (a default) is no loss.
    let losses = try ArchiveComparison.differences(between: data, and: written).filter { $0.a != nil }
    #expect(losses.isEmpty, "\(file): \(losses.prefix(5).map { "\($0)" })")
  }
}
